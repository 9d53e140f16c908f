//! Endgame tables for Kharbaga.
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
