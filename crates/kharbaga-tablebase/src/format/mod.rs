//! The on-disk format of one endgame table file.
//!
//! A table is an array of `n` position codes (`u16`), indexed `0..n` by the index scheme
//! of the slice: [`DRAW`] (0), a decisive result in `d` plies as code `d + 1` (odd `d`:
//! the side to move wins; even `d`: it loses), or [`BROKEN`] for an index slot that is no
//! position. The file stores every code twice: a small run-length coded win/draw/loss
//! section for fast probes ([`TableFile::wdl`]) and a zstd-compressed section with the
//! full codes ([`TableFile::code`]).
//!
//! # Layout
//!
//! All integers are little-endian. Offsets are absolute byte offsets in the file.
//!
//! ```text
//! offset size  field
//!      0    8  magic, b"KHARBTB\0"
//!      8    4  format version (u32) = 1
//!     12    4  index scheme version (u32), chosen by the caller
//!     16    8  n, the number of positions (u64)
//!     24    2  largest distance stored (u16)
//!     26    1  DTM width: 1 (codes as u8) or 2 (codes as u16)
//!     27    1  reserved, 0
//!     28    4  WDL block size B in positions (u32), a power of two (4096)
//!     32    4  DTM block size D in positions (u32), a power of two (16384)
//!     36    4  rules string length R (u32)
//!     40    4  slice name length S (u32)
//!     44    4  reserved, 0
//!     48    8  file length in bytes (u64)
//!     56    8  WDL index offset (u64)
//!     64    8  WDL data offset (u64)
//!     72    8  WDL data length in bytes (u64)
//!     80    8  DTM index offset (u64)
//!     88    8  DTM data offset (u64)
//!     96    8  DTM data length in bytes (u64)
//!    104    4  reserved, 0
//!    108    4  header checksum: CRC-32 (crc32fast, IEEE) of bytes 0..108
//!    112    R  rules string (UTF-8), e.g. "standard,removal=immediate"
//!  112+R    S  slice name (UTF-8), e.g. "2m1k-1m0k"
//!           .  zero bytes up to a multiple of 8
//!
//! WDL index   (ceil(n / B) + 1) u64: entry k is the offset of block k's first run byte,
//!             relative to the WDL data offset; the last entry is the WDL data length.
//!             Strictly increasing, starts at 0.
//! WDL data    the run bytes of every block, block after block
//!             zero bytes up to a multiple of 8
//! DTM index   (ceil(n / D) + 1) u64: entry k is the offset of block k's zstd frame,
//!             relative to the DTM data offset; the last entry is the DTM data length.
//!             Strictly increasing, starts at 0.
//! DTM data    one zstd frame per block, block after block
//! last 4      file checksum: CRC-32 of every byte of the file before it
//! ```
//!
//! The sections follow each other with no other gap: the WDL index starts right after the
//! header padding, the WDL data right after the WDL index, the DTM index at the next
//! multiple of 8 after the WDL data, the DTM data right after the DTM index, and the file
//! checksum right after the DTM data. A reader rejects any other arrangement.
//!
//! ## WDL section
//!
//! Block k holds positions `k*B .. min((k+1)*B, n)` as runs of equal win/draw/loss
//! values (0 draw, 1 win, 2 loss for the side to move). Each run byte `b` (0..=254) is a
//! run of `L[b / 3]` positions of value `b % 3`, where `L` is this fixed table of 85
//! lengths (byte 255 is invalid):
//!
//! ```text
//! 1 2 3 ... 32 (one by one), 35 38 42 46 51 55 61 67 73 80 88 96 105 115 126 138 152
//! 166 182 200 219 240 263 288 316 346 379 415 455 499 547 599 656 719 788 864 947 1024
//! 1137 1246 1365 1496 1640 1797 2048 2158 2365 2592 2840 3112 3411 3738 4096
//! ```
//!
//! A longer run is several bytes (the writer takes the longest length that fits, again
//! and again). Runs never cross a block boundary and the runs of a block cover it
//! exactly. A BROKEN slot takes the value of the previous position of its block (or of the
//! block's first real position, or draw if the block has none).
//!
//! ## DTM section
//!
//! Block k holds positions `k*D .. min((k+1)*D, m)` (`m` = that block's length) as one
//! zstd frame (level 9) whose content is `m` bytes (width 1, each code as a u8) or `2m`
//! bytes (width 2: first the low byte of every code, then the high byte of every code).
//! The width is 1 when every code but BROKEN is at most 255. A BROKEN slot holds the
//! previous code of its block (or the block's first real code, or DRAW if it has none).
//!
//! # Reading
//!
//! [`TableFile::open`] maps the file and checks, in this order: the magic, the format
//! version, the header checksum, the header fields and the file length, the exact section
//! layout, the file checksum, the strings, the padding, both indexes, that the runs of
//! every WDL block cover it exactly, and that every DTM block is one zstd frame of the
//! right content size (only frame and block headers are read; the frame contents are
//! trusted on the strength of the file checksum, and a frame that still fails to
//! decompress gives an error when probed). A file that fails any check is rejected with a
//! [`FormatError`]; no probe of a file that opened reads out of bounds or panics.
//!
//! The module holds one concept a file: the error type (`error`), the writer (`write`),
//! the open file and its probes (`file`), and the checks made on opening (`open`).

mod error;
mod file;
mod open;
mod write;

pub use error::FormatError;
pub use file::TableFile;
pub use write::{write_table, WriteStats};

/// The code of a drawn position.
pub const DRAW: u16 = 0;
/// The code of an index slot that is no position (or whose value does not matter).
pub const BROKEN: u16 = 0xFFFF;
/// The version of this file format, written in every header.
pub const FORMAT_VERSION: u32 = 1;

const MAGIC: [u8; 8] = *b"KHARBTB\0";
/// Size of the fixed part of the header.
const FIXED_HEADER: usize = 112;
/// Offset of the header checksum (which covers the bytes before it).
const HEADER_CRC_AT: usize = 108;

/// The description of a table stored in its header.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableHeader {
    /// The rule variant the table was computed for, e.g. `"standard"`.
    pub rules: String,
    /// The name of the slice (material configuration), e.g. `"2m1k-1m0k"`.
    pub slice: String,
    /// Version of the index scheme that maps positions to indexes.
    pub index_scheme: u32,
    /// Number of index slots `n` in the table.
    pub positions: u64,
    /// The largest distance (in plies) of any decisive code in the table.
    pub max_distance: u16,
}
