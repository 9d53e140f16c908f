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

use std::cell::RefCell;
use std::fmt;
use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use memmap2::Mmap;
use rayon::prelude::*;

use crate::compress::{self, DTM_BLOCK_SHIFT, WDL_BLOCK_SHIFT, ZSTD_LEVEL};

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

/// Sizes of a file written by [`write_table`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WriteStats {
    /// Size of the whole file in bytes.
    pub bytes: u64,
    /// Size of the WDL section (index and run data) in bytes.
    pub wdl_bytes: u64,
    /// Size of the DTM section (index and compressed blocks) in bytes.
    pub dtm_bytes: u64,
}

/// Why a table file cannot be opened or probed. Every variant names the file.
#[derive(Debug)]
pub enum FormatError {
    /// The file cannot be opened, read or mapped.
    Io {
        /// The file.
        path: PathBuf,
        /// The underlying error.
        source: io::Error,
    },
    /// The file does not start with the table magic bytes.
    NotATable {
        /// The file.
        path: PathBuf,
    },
    /// The file is a table of a format version this code does not read.
    Version {
        /// The file.
        path: PathBuf,
        /// The version found in the file.
        found: u32,
    },
    /// The file is shorter than its header says.
    Truncated {
        /// The file.
        path: PathBuf,
        /// The length the file should have, in bytes.
        expected: u64,
        /// The length it has.
        actual: u64,
    },
    /// A checksum does not match the file's contents.
    Checksum {
        /// The file.
        path: PathBuf,
        /// Which checksum: `"header"` or `"file"`.
        what: &'static str,
        /// The checksum stored in the file.
        stored: u32,
        /// The checksum of the contents.
        computed: u32,
    },
    /// The file is inconsistent in some other way.
    Corrupt {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        reason: String,
    },
    /// A probe asked for an index the table does not have.
    OutOfRange {
        /// The file.
        path: PathBuf,
        /// The index asked for.
        index: u64,
        /// The number of positions in the table.
        positions: u64,
    },
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FormatError::Io { path, source } => {
                write!(f, "{}: cannot read table file: {source}", path.display())
            }
            FormatError::NotATable { path } => write!(
                f,
                "{}: not a Kharbaga table file (bad magic bytes)",
                path.display()
            ),
            FormatError::Version { path, found } => write!(
                f,
                "{}: table file format version {found} is not supported (this program reads \
                 version {FORMAT_VERSION})",
                path.display()
            ),
            FormatError::Truncated {
                path,
                expected,
                actual,
            } => write!(
                f,
                "{}: table file is truncated: {actual} bytes, expected {expected}",
                path.display()
            ),
            FormatError::Checksum {
                path,
                what,
                stored,
                computed,
            } => write!(
                f,
                "{}: table file is corrupt: {what} checksum is {computed:08x}, stored \
                 {stored:08x}",
                path.display()
            ),
            FormatError::Corrupt { path, reason } => {
                write!(f, "{}: table file is corrupt: {reason}", path.display())
            }
            FormatError::OutOfRange {
                path,
                index,
                positions,
            } => write!(
                f,
                "{}: index {index} is out of range (the table has {positions} positions)",
                path.display()
            ),
        }
    }
}

impl std::error::Error for FormatError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            FormatError::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}

fn invalid_input(msg: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidInput, msg)
}

fn align8(x: u64) -> u64 {
    (x + 7) & !7
}

/// A writer that counts bytes and computes the file checksum of what goes through it.
struct CrcWriter<W: Write> {
    inner: W,
    crc: crc32fast::Hasher,
    written: u64,
}

impl<W: Write> CrcWriter<W> {
    fn put(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.crc.update(bytes);
        self.written += bytes.len() as u64;
        self.inner.write_all(bytes)
    }

    fn pad8(&mut self) -> io::Result<()> {
        let pad = (align8(self.written) - self.written) as usize;
        self.put(&[0u8; 8][..pad])
    }
}

/// Blocks encoded per rayon task when building the WDL section.
const WDL_BLOCKS_PER_TASK: usize = 64;

/// Writes a table file: `codes[i]` is the code of index `i` (`codes.len()` must equal
/// `header.positions`, and no code but [`BROKEN`] may exceed `header.max_distance + 1`).
///
/// Writes atomically: to `path.with_extension("tmp")`, fsync, then rename.
/// DTM blocks are compressed in parallel on the rayon pool; memory use is about the size
/// of the output file.
pub fn write_table(path: &Path, header: &TableHeader, codes: &[u16]) -> io::Result<WriteStats> {
    if codes.len() as u64 != header.positions {
        return Err(invalid_input(format!(
            "{}: header says {} positions but {} codes were given",
            path.display(),
            header.positions,
            codes.len()
        )));
    }
    let rules_len = u32::try_from(header.rules.len())
        .map_err(|_| invalid_input("rules string too long".to_string()))?;
    let slice_len = u32::try_from(header.slice.len())
        .map_err(|_| invalid_input("slice name too long".to_string()))?;
    let max_code = codes
        .par_iter()
        .copied()
        .filter(|&c| c != BROKEN)
        .max()
        .unwrap_or(DRAW);
    if u32::from(max_code) > u32::from(header.max_distance) + 1 {
        return Err(invalid_input(format!(
            "{}: a code has distance {} but the header's max_distance is {}",
            path.display(),
            max_code - 1,
            header.max_distance
        )));
    }
    let wide = max_code > 255;

    // WDL section: run bytes per block, encoded in parallel groups of blocks.
    let wdl_block = 1usize << WDL_BLOCK_SHIFT;
    let groups: Vec<(Vec<u8>, Vec<u64>)> = codes
        .par_chunks(wdl_block * WDL_BLOCKS_PER_TASK)
        .map(|group| {
            let mut runs = Vec::new();
            let mut ends = Vec::with_capacity(WDL_BLOCKS_PER_TASK);
            for block in group.chunks(wdl_block) {
                compress::encode_wdl_block(block, &mut runs);
                ends.push(runs.len() as u64);
            }
            (runs, ends)
        })
        .collect();
    let wdl_blocks = codes.len().div_ceil(wdl_block);
    let mut wdl_index = Vec::with_capacity(8 * (wdl_blocks + 1));
    wdl_index.extend_from_slice(&0u64.to_le_bytes());
    let mut base = 0u64;
    for (runs, ends) in &groups {
        for &end in ends {
            wdl_index.extend_from_slice(&(base + end).to_le_bytes());
        }
        base += runs.len() as u64;
    }
    let wdl_data_len = base;

    // DTM section: one zstd frame per block, compressed in parallel.
    let dtm_block = 1usize << DTM_BLOCK_SHIFT;
    let frames: Vec<Vec<u8>> = codes
        .par_chunks(dtm_block)
        .map_init(
            || (zstd::bulk::Compressor::new(ZSTD_LEVEL), Vec::new()),
            |(compressor, raw), block| {
                compress::pack_dtm_block(block, wide, raw);
                match compressor {
                    Ok(c) => c.compress(raw),
                    Err(e) => Err(io::Error::new(e.kind(), e.to_string())),
                }
            },
        )
        .collect::<io::Result<_>>()?;
    let dtm_blocks = frames.len();
    let mut dtm_index = Vec::with_capacity(8 * (dtm_blocks + 1));
    let mut offset = 0u64;
    dtm_index.extend_from_slice(&0u64.to_le_bytes());
    for frame in &frames {
        offset += frame.len() as u64;
        dtm_index.extend_from_slice(&offset.to_le_bytes());
    }
    let dtm_data_len = offset;

    // Layout.
    let header_end = align8(FIXED_HEADER as u64 + u64::from(rules_len) + u64::from(slice_len));
    let wdl_index_off = header_end;
    let wdl_data_off = wdl_index_off + wdl_index.len() as u64;
    let dtm_index_off = align8(wdl_data_off + wdl_data_len);
    let dtm_data_off = dtm_index_off + dtm_index.len() as u64;
    let file_len = dtm_data_off + dtm_data_len + 4;

    let mut fixed = [0u8; FIXED_HEADER];
    fixed[0..8].copy_from_slice(&MAGIC);
    fixed[8..12].copy_from_slice(&FORMAT_VERSION.to_le_bytes());
    fixed[12..16].copy_from_slice(&header.index_scheme.to_le_bytes());
    fixed[16..24].copy_from_slice(&header.positions.to_le_bytes());
    fixed[24..26].copy_from_slice(&header.max_distance.to_le_bytes());
    fixed[26] = if wide { 2 } else { 1 };
    fixed[28..32].copy_from_slice(&(1u32 << WDL_BLOCK_SHIFT).to_le_bytes());
    fixed[32..36].copy_from_slice(&(1u32 << DTM_BLOCK_SHIFT).to_le_bytes());
    fixed[36..40].copy_from_slice(&rules_len.to_le_bytes());
    fixed[40..44].copy_from_slice(&slice_len.to_le_bytes());
    fixed[48..56].copy_from_slice(&file_len.to_le_bytes());
    fixed[56..64].copy_from_slice(&wdl_index_off.to_le_bytes());
    fixed[64..72].copy_from_slice(&wdl_data_off.to_le_bytes());
    fixed[72..80].copy_from_slice(&wdl_data_len.to_le_bytes());
    fixed[80..88].copy_from_slice(&dtm_index_off.to_le_bytes());
    fixed[88..96].copy_from_slice(&dtm_data_off.to_le_bytes());
    fixed[96..104].copy_from_slice(&dtm_data_len.to_le_bytes());
    let header_crc = crc32fast::hash(&fixed[..HEADER_CRC_AT]);
    fixed[HEADER_CRC_AT..].copy_from_slice(&header_crc.to_le_bytes());

    let tmp = path.with_extension("tmp");
    let result = (|| -> io::Result<()> {
        let file = File::create(&tmp)?;
        let mut w = CrcWriter {
            inner: BufWriter::with_capacity(1 << 20, file),
            crc: crc32fast::Hasher::new(),
            written: 0,
        };
        w.put(&fixed)?;
        w.put(header.rules.as_bytes())?;
        w.put(header.slice.as_bytes())?;
        w.pad8()?;
        debug_assert_eq!(w.written, wdl_index_off);
        w.put(&wdl_index)?;
        for (runs, _) in &groups {
            w.put(runs)?;
        }
        w.pad8()?;
        debug_assert_eq!(w.written, dtm_index_off);
        w.put(&dtm_index)?;
        for frame in &frames {
            w.put(frame)?;
        }
        let crc = w.crc.clone().finalize();
        w.put(&crc.to_le_bytes())?;
        debug_assert_eq!(w.written, file_len);
        let file = w.inner.into_inner().map_err(|e| e.into_error())?;
        file.sync_all()?;
        drop(file);
        std::fs::rename(&tmp, path)?;
        sync_parent_dir(path);
        Ok(())
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result?;
    Ok(WriteStats {
        bytes: file_len,
        wdl_bytes: wdl_index.len() as u64 + wdl_data_len,
        dtm_bytes: dtm_index.len() as u64 + dtm_data_len,
    })
}

/// Makes the rename durable where the platform allows it (best effort).
fn sync_parent_dir(path: &Path) {
    #[cfg(unix)]
    {
        let dir = match path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        if let Ok(d) = File::open(dir) {
            let _ = d.sync_all();
        }
    }
    #[cfg(not(unix))]
    let _ = path;
}

/// An open, verified table file, memory-mapped. Probes are thread-safe.
pub struct TableFile {
    path: PathBuf,
    map: Mmap,
    header: TableHeader,
    wdl_shift: u32,
    /// Absolute file offsets of each WDL block's run bytes, plus the end.
    wdl_index: Vec<usize>,
    dtm_shift: u32,
    dtm_wide: bool,
    /// Absolute file offsets of each DTM block's zstd frame, plus the end.
    dtm_index: Vec<usize>,
}

impl fmt::Debug for TableFile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TableFile")
            .field("path", &self.path)
            .field("header", &self.header)
            .field("file_len", &self.map.len())
            .finish_non_exhaustive()
    }
}

/// Per-thread zstd state for [`TableFile::code`] and [`TableFile::decode_all`].
struct Scratch {
    dctx: zstd::bulk::Decompressor<'static>,
    raw: Vec<u8>,
}

impl Scratch {
    fn new() -> io::Result<Scratch> {
        Ok(Scratch {
            dctx: zstd::bulk::Decompressor::new()?,
            raw: Vec::new(),
        })
    }
}

thread_local! {
    static SCRATCH: RefCell<Option<Scratch>> = const { RefCell::new(None) };
}

fn le_u16(b: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([b[at], b[at + 1]])
}

fn le_u32(b: &[u8], at: usize) -> u32 {
    let mut x = [0u8; 4];
    x.copy_from_slice(&b[at..at + 4]);
    u32::from_le_bytes(x)
}

fn le_u64(b: &[u8], at: usize) -> u64 {
    let mut x = [0u8; 8];
    x.copy_from_slice(&b[at..at + 8]);
    u64::from_le_bytes(x)
}

impl TableFile {
    /// Opens and verifies a table file (see the module documentation for every check).
    pub fn open(path: &Path) -> Result<TableFile, FormatError> {
        let io_err = |source| FormatError::Io {
            path: path.to_path_buf(),
            source,
        };
        let corrupt = |reason: String| FormatError::Corrupt {
            path: path.to_path_buf(),
            reason,
        };
        let truncated = |expected: u64, actual: u64| FormatError::Truncated {
            path: path.to_path_buf(),
            expected,
            actual,
        };
        let file = File::open(path).map_err(io_err)?;
        let actual = file.metadata().map_err(io_err)?.len();
        if actual == 0 {
            return Err(truncated(FIXED_HEADER as u64, 0));
        }
        // SAFETY: table files are written once (atomically, by rename) and never modified
        // while open; nothing else writes to or truncates them while they are mapped.
        let map = unsafe { Mmap::map(&file) }.map_err(io_err)?;
        drop(file);
        let b: &[u8] = &map;
        if b.len() as u64 != actual {
            return Err(corrupt(
                "the file changed size while being opened".to_string(),
            ));
        }

        // Magic and version.
        let magic_len = b.len().min(MAGIC.len());
        if b[..magic_len] != MAGIC[..magic_len] {
            return Err(FormatError::NotATable {
                path: path.to_path_buf(),
            });
        }
        if b.len() < 12 {
            return Err(truncated(FIXED_HEADER as u64, actual));
        }
        let version = le_u32(b, 8);
        if version != FORMAT_VERSION {
            return Err(FormatError::Version {
                path: path.to_path_buf(),
                found: version,
            });
        }
        if b.len() < FIXED_HEADER {
            return Err(truncated(FIXED_HEADER as u64, actual));
        }
        let stored = le_u32(b, HEADER_CRC_AT);
        let computed = crc32fast::hash(&b[..HEADER_CRC_AT]);
        if stored != computed {
            return Err(FormatError::Checksum {
                path: path.to_path_buf(),
                what: "header",
                stored,
                computed,
            });
        }

        // Header fields.
        let index_scheme = le_u32(b, 12);
        let positions = le_u64(b, 16);
        let max_distance = le_u16(b, 24);
        let width = b[26];
        let wdl_block = le_u32(b, 28);
        let dtm_block = le_u32(b, 32);
        let rules_len = le_u32(b, 36);
        let slice_len = le_u32(b, 40);
        let file_len = le_u64(b, 48);
        let wdl_index_off = le_u64(b, 56);
        let wdl_data_off = le_u64(b, 64);
        let wdl_data_len = le_u64(b, 72);
        let dtm_index_off = le_u64(b, 80);
        let dtm_data_off = le_u64(b, 88);
        let dtm_data_len = le_u64(b, 96);
        if b[27] != 0 || le_u32(b, 44) != 0 || le_u32(b, 104) != 0 {
            return Err(corrupt("reserved header fields are not zero".to_string()));
        }
        if width != 1 && width != 2 {
            return Err(corrupt(format!("DTM width {width} is not 1 or 2")));
        }
        let block_ok = |x: u32| x.is_power_of_two() && (64..=1 << 20).contains(&x);
        if !block_ok(wdl_block) || !block_ok(dtm_block) {
            return Err(corrupt(format!(
                "block sizes {wdl_block} (WDL) and {dtm_block} (DTM) are not powers of two \
                 between 64 and 2^20"
            )));
        }
        if actual < file_len {
            return Err(truncated(file_len, actual));
        }
        if actual > file_len {
            return Err(corrupt(format!(
                "{} bytes after the end given in the header",
                actual - file_len
            )));
        }

        // Exact layout, with overflow-checked arithmetic (a bad sum is a bad layout).
        let wdl_blocks = positions.div_ceil(u64::from(wdl_block));
        let dtm_blocks = positions.div_ceil(u64::from(dtm_block));
        let layout = (|| {
            let header_end = (FIXED_HEADER as u64)
                .checked_add(u64::from(rules_len))?
                .checked_add(u64::from(slice_len))?
                .checked_add(7)?
                & !7;
            let wdl_data = header_end.checked_add(wdl_blocks.checked_add(1)?.checked_mul(8)?)?;
            let dtm_index = wdl_data.checked_add(wdl_data_len)?.checked_add(7)? & !7;
            let dtm_data = dtm_index.checked_add(dtm_blocks.checked_add(1)?.checked_mul(8)?)?;
            let end = dtm_data.checked_add(dtm_data_len)?.checked_add(4)?;
            Some((header_end, wdl_data, dtm_index, dtm_data, end))
        })();
        match layout {
            Some((h, wd, di, dd, end))
                if h == wdl_index_off
                    && wd == wdl_data_off
                    && di == dtm_index_off
                    && dd == dtm_data_off
                    && end == file_len => {}
            _ => {
                return Err(corrupt(
                    "the section offsets and lengths in the header do not match the layout"
                        .to_string(),
                ))
            }
        }
        // Every offset is now below file_len == b.len(), so it fits in usize.
        let (wdl_index_off, wdl_data_off, dtm_index_off, dtm_data_off) = (
            wdl_index_off as usize,
            wdl_data_off as usize,
            dtm_index_off as usize,
            dtm_data_off as usize,
        );
        let body_end = b.len() - 4;

        // File checksum.
        let stored = le_u32(b, body_end);
        let computed = crc32fast::hash(&b[..body_end]);
        if stored != computed {
            return Err(FormatError::Checksum {
                path: path.to_path_buf(),
                what: "file",
                stored,
                computed,
            });
        }

        // Strings and padding.
        let rules_end = FIXED_HEADER + rules_len as usize;
        let slice_end = rules_end + slice_len as usize;
        let rules = std::str::from_utf8(&b[FIXED_HEADER..rules_end])
            .map_err(|_| corrupt("the rules string is not UTF-8".to_string()))?
            .to_string();
        let slice = std::str::from_utf8(&b[rules_end..slice_end])
            .map_err(|_| corrupt("the slice name is not UTF-8".to_string()))?
            .to_string();
        let wdl_data_end = wdl_data_off + wdl_data_len as usize;
        if b[slice_end..wdl_index_off].iter().any(|&x| x != 0)
            || b[wdl_data_end..dtm_index_off].iter().any(|&x| x != 0)
        {
            return Err(corrupt("padding bytes are not zero".to_string()));
        }

        // Indexes: strictly increasing from 0 to the data length.
        let read_index = |at: usize, count: usize, data_off: usize, data_len: u64, name: &str| {
            let mut index = Vec::with_capacity(count + 1);
            let mut prev = None;
            for k in 0..=count {
                let v = le_u64(b, at + 8 * k);
                let ok = match prev {
                    None => v == 0,
                    Some(p) => v > p && v <= data_len,
                };
                if !ok {
                    return Err(corrupt(format!(
                        "{name} index entry {k} ({v}) is out of order"
                    )));
                }
                prev = Some(v);
                index.push(data_off + v as usize);
            }
            if prev != Some(data_len) {
                return Err(corrupt(format!(
                    "the {name} index does not end at its data length"
                )));
            }
            Ok(index)
        };
        let wdl_index = read_index(
            wdl_index_off,
            wdl_blocks as usize,
            wdl_data_off,
            wdl_data_len,
            "WDL",
        )?;
        let dtm_index = read_index(
            dtm_index_off,
            dtm_blocks as usize,
            dtm_data_off,
            dtm_data_len,
            "DTM",
        )?;

        // Every WDL block's runs cover it exactly, so probes always find their run.
        wdl_index
            .par_windows(2)
            .enumerate()
            .try_for_each(|(k, w)| {
                let start = k as u64 * u64::from(wdl_block);
                let len = (positions - start).min(u64::from(wdl_block)) as u32;
                compress::check_wdl_block(&b[w[0]..w[1]], len)
                    .map_err(|e| format!("block {k}: {e}"))
            })
            .map_err(corrupt)?;

        // Every DTM block is one zstd frame of the right content size.
        let dtm_bytes_per_code = usize::from(width);
        dtm_index
            .par_windows(2)
            .enumerate()
            .try_for_each(|(k, w)| {
                let start = k as u64 * u64::from(dtm_block);
                let len = (positions - start).min(u64::from(dtm_block)) as usize;
                compress::check_dtm_frame(&b[w[0]..w[1]], len * dtm_bytes_per_code)
                    .map_err(|e| format!("block {k}: {e}"))
            })
            .map_err(corrupt)?;

        let header = TableHeader {
            rules,
            slice,
            index_scheme,
            positions,
            max_distance,
        };
        Ok(TableFile {
            path: path.to_path_buf(),
            header,
            wdl_shift: wdl_block.trailing_zeros(),
            wdl_index,
            dtm_shift: dtm_block.trailing_zeros(),
            dtm_wide: width == 2,
            dtm_index,
            map,
        })
    }

    /// The table's header.
    pub fn header(&self) -> &TableHeader {
        &self.header
    }

    /// The file's size in bytes.
    pub fn file_len(&self) -> u64 {
        self.map.len() as u64
    }

    fn corrupt(&self, reason: String) -> FormatError {
        FormatError::Corrupt {
            path: self.path.clone(),
            reason,
        }
    }

    fn check_index(&self, index: u64) -> Result<(), FormatError> {
        if index < self.header.positions {
            Ok(())
        } else {
            Err(FormatError::OutOfRange {
                path: self.path.clone(),
                index,
                positions: self.header.positions,
            })
        }
    }

    /// 0 draw, 1 win, 2 loss (for the side to move), from the WDL section.
    ///
    /// For a BROKEN slot this is the value the writer filled in.
    #[inline]
    pub fn wdl(&self, index: u64) -> Result<u8, FormatError> {
        self.check_index(index)?;
        // index < positions, whose blocks all have index entries (checked at open).
        let block = (index >> self.wdl_shift) as usize;
        let offset = (index & ((1 << self.wdl_shift) - 1)) as u32;
        let runs = match (self.wdl_index.get(block), self.wdl_index.get(block + 1)) {
            (Some(&start), Some(&end)) => self.map.get(start..end),
            _ => None,
        };
        runs.and_then(|runs| compress::probe_wdl_block(runs, offset))
            .ok_or_else(|| self.corrupt(format!("WDL block {block} does not cover index {index}")))
    }

    /// The compressed frame and the length in positions of DTM block `block`.
    fn dtm_frame(&self, block: usize) -> Result<(&[u8], usize), FormatError> {
        let frame = match (self.dtm_index.get(block), self.dtm_index.get(block + 1)) {
            (Some(&start), Some(&end)) => self.map.get(start..end),
            _ => None,
        }
        .ok_or_else(|| self.corrupt(format!("DTM block {block} is missing")))?;
        let start = (block as u64) << self.dtm_shift;
        let len = (self.header.positions.saturating_sub(start)).min(1 << self.dtm_shift) as usize;
        Ok((frame, len))
    }

    /// Runs `f` with this thread's zstd scratch state.
    fn with_scratch<T>(
        &self,
        f: impl FnOnce(&mut Scratch) -> Result<T, FormatError>,
    ) -> Result<T, FormatError> {
        SCRATCH.with(|cell| {
            let mut slot = cell.borrow_mut();
            if slot.is_none() {
                *slot = Some(Scratch::new().map_err(|source| FormatError::Io {
                    path: self.path.clone(),
                    source,
                })?);
            }
            match slot.as_mut() {
                Some(scratch) => f(scratch),
                None => Err(self.corrupt("no decompression state".to_string())),
            }
        })
    }

    /// Decompresses DTM block `block` into `scratch.raw`; returns its length in positions.
    fn load_dtm_block(&self, scratch: &mut Scratch, block: usize) -> Result<usize, FormatError> {
        let (frame, len) = self.dtm_frame(block)?;
        let raw_len = if self.dtm_wide { 2 * len } else { len };
        scratch.raw.resize(raw_len, 0);
        compress::decompress_exact(&mut scratch.dctx, frame, &mut scratch.raw)
            .map_err(|e| self.corrupt(format!("DTM block {block}: {e}")))?;
        Ok(len)
    }

    /// The full code from the DTM section.
    ///
    /// Decompresses the block holding `index` (16384 positions). For a BROKEN slot this is
    /// the value the writer filled in.
    pub fn code(&self, index: u64) -> Result<u16, FormatError> {
        self.check_index(index)?;
        let block = (index >> self.dtm_shift) as usize;
        let offset = (index & ((1 << self.dtm_shift) - 1)) as usize;
        self.with_scratch(|scratch| {
            let len = self.load_dtm_block(scratch, block)?;
            compress::raw_dtm_code(&scratch.raw, self.dtm_wide, len, offset)
                .ok_or_else(|| self.corrupt(format!("DTM block {block} is too short")))
        })
    }

    /// Every code, decoded block by block (for loading a whole table into memory); BROKEN
    /// slots hold the filled values. Blocks are decompressed in parallel on the rayon pool.
    pub fn decode_all(&self) -> Result<Vec<u16>, FormatError> {
        let n = usize::try_from(self.header.positions)
            .map_err(|_| self.corrupt("too many positions for this machine".to_string()))?;
        let mut codes = vec![0u16; n];
        codes
            .par_chunks_mut(1 << self.dtm_shift)
            .enumerate()
            .try_for_each(|(block, out)| {
                self.with_scratch(|scratch| {
                    self.load_dtm_block(scratch, block)?;
                    compress::unpack_dtm_block(&scratch.raw, self.dtm_wide, out)
                        .map_err(|e| self.corrupt(format!("DTM block {block}: {e}")))
                })
            })?;
        Ok(codes)
    }
}
