//! Endgame tables for Kharbaga: the exact value of every position of up to N pieces (win or
//! loss with the distance to the end of the game in plies, or draw), built by retrograde
//! analysis under any rule options ([`gen`], [`build`]), stored in compressed files
//! ([`mod@format`]), checked value by value ([`verify`]) and probed ([`tablebase`]). The
//! crate's README documents the index ([`index`]) and the generator.
//!
//! Build the tables of two pieces in memory and look a position up:
//!
//! ```
//! use kharbaga::{Position, Rules};
//! use kharbaga_tablebase::gen::generate_in_memory;
//! use kharbaga_tablebase::value::Value;
//! let tables = generate_in_memory(&Rules::standard(), 2).unwrap();
//! // A man against a man, White to move: whichever way the man on d6 steps, the man on
//! // d4 takes it.
//! let pos = Position::from_fen("W:Bd4:Wd6").unwrap();
//! assert_eq!(tables.value(&pos), Some(Value::Loss(2)));
//! ```
#![warn(missing_docs)]

pub mod bench;
pub mod build;
mod compress;
pub mod files;
pub mod format;
pub mod frame;
pub mod gen;
pub mod index;
pub mod memory;
pub mod slice;
pub mod stats;
pub mod tablebase;
pub mod value;
pub mod verify;
