//! Endgame tables for Kharbaga.
#![warn(missing_docs)]

pub mod frame;
pub mod index;
pub mod slice;
pub mod value;
pub mod gen;
pub mod memory;
pub mod stats;
pub mod format;
mod compress;
pub mod build;
pub mod files;
pub mod tablebase;
pub mod verify;
