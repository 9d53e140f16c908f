//! Opening a table file: every check of the layout before the first probe.

use std::fs::File;
use std::path::Path;

use memmap2::Mmap;
use rayon::prelude::*;

use super::{
    FormatError, TableFile, TableHeader, FIXED_HEADER, FORMAT_VERSION, HEADER_CRC_AT, MAGIC,
};
use crate::compress;

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
        // The CRC-32 of the bytes before `at`, stored at `at`.
        let check_crc = |at: usize, what: &'static str| {
            let stored = le_u32(b, at);
            let computed = crc32fast::hash(&b[..at]);
            if stored == computed {
                Ok(())
            } else {
                Err(FormatError::Checksum {
                    path: path.to_path_buf(),
                    what,
                    stored,
                    computed,
                })
            }
        };
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
        check_crc(HEADER_CRC_AT, "header")?;

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
        check_crc(body_end, "file")?;

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
}
