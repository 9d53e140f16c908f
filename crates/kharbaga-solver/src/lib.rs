//! Proving the value of Kharbaga positions: depth-first proof-number search (df-pn) with a
//! transposition table and the endgame tables as leaves, proof files, and a proof checker.
//!
//! The checker ([`check`]) shares no code with the search: it reads a proof file and replays
//! it with the rules library (and the tables for table leaves) alone. The proof format is
//! `docs/proof-format.md`.

#![warn(missing_docs)]

pub mod check;
pub mod dfpn;
pub mod extract;
pub mod frontier;
pub mod proof_file;
pub mod scout;
pub mod solve;
pub mod tt;
pub mod tt_file;
