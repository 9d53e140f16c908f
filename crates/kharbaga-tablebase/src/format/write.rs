//! Writing a table file: the sections, the layout and the checksums, atomically.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::Path;

use rayon::prelude::*;

use super::{TableHeader, BROKEN, DRAW, FIXED_HEADER, FORMAT_VERSION, HEADER_CRC_AT, MAGIC};
use crate::compress::{self, DTM_BLOCK_SHIFT, WDL_BLOCK_SHIFT, ZSTD_LEVEL};

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
