//! An open table file and its probes: win/draw/loss from the run-length section, the
//! full code from the zstd section.

use std::cell::RefCell;
use std::fmt;
use std::io;
use std::path::PathBuf;

use memmap2::Mmap;
use rayon::prelude::*;

use super::{FormatError, TableHeader};
use crate::compress;

/// An open, verified table file, memory-mapped. Probes are thread-safe.
pub struct TableFile {
    pub(super) path: PathBuf,
    pub(super) map: Mmap,
    pub(super) header: TableHeader,
    pub(super) wdl_shift: u32,
    /// Absolute file offsets of each WDL block's run bytes, plus the end.
    pub(super) wdl_index: Vec<usize>,
    pub(super) dtm_shift: u32,
    pub(super) dtm_wide: bool,
    /// Absolute file offsets of each DTM block's zstd frame, plus the end.
    pub(super) dtm_index: Vec<usize>,
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

impl TableFile {
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
