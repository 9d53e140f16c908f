//! The two section encodings of a table file (see [`crate::format`] for the layout):
//! run-length coded win/draw/loss blocks and zstd-compressed blocks of full codes.
//!
//! Everything here works on one block at a time, so that blocks can be encoded in
//! parallel and decoded independently. Decoders never panic on bad input: they return
//! `None` or an error string and let the caller say which file is bad.

use crate::format::{BROKEN, DRAW};

/// Positions per WDL block. Runs never cross a block boundary.
pub(crate) const WDL_BLOCK_SHIFT: u32 = 12;
/// Positions per DTM block (each block is one zstd frame).
pub(crate) const DTM_BLOCK_SHIFT: u32 = 14;
/// zstd level used for DTM blocks.
pub(crate) const ZSTD_LEVEL: i32 = 9;

/// The run lengths of the WDL encoding: byte `b` (0..=254) is a run of
/// `RUN_LENGTHS[b / 3]` positions of value `b % 3`. Byte 255 is invalid.
///
/// 1..=32 one by one, then roughly geometric (ratio about 1.1) up to 4096, the WDL block
/// size, so a constant block is one byte. Longer lengths would be useless because runs
/// are cut at block boundaries.
pub(crate) const RUN_LENGTHS: [u32; 85] = [
    1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26,
    27, 28, 29, 30, 31, 32, 35, 38, 42, 46, 51, 55, 61, 67, 73, 80, 88, 96, 105, 115, 126, 138,
    152, 166, 182, 200, 219, 240, 263, 288, 316, 346, 379, 415, 455, 499, 547, 599, 656, 719, 788,
    864, 947, 1024, 1137, 1246, 1365, 1496, 1640, 1797, 2048, 2158, 2365, 2592, 2840, 3112, 3411,
    3738, 4096,
];

const fn run_len_table() -> [u32; 256] {
    let mut table = [0u32; 256];
    let mut b = 0;
    while b < 255 {
        table[b] = RUN_LENGTHS[b / 3];
        b += 1;
    }
    table
}

/// Run length of every byte value (0 for the invalid byte 255).
static RUN_LEN: [u32; 256] = run_len_table();

/// Win/draw/loss of a code for the side to move: 0 draw, 1 win, 2 loss.
///
/// Code `d + 1` is a decisive result in `d` plies: odd `d` (even code) is a win.
#[inline]
pub(crate) fn wdl_of(code: u16) -> u8 {
    if code == DRAW {
        0
    } else if code % 2 == 0 {
        1
    } else {
        2
    }
}

/// Appends the run bytes of a run of `len` positions of WDL value `value` (0..=2).
fn push_run(out: &mut Vec<u8>, value: u8, mut len: u32) {
    while len > 0 {
        // RUN_LENGTHS[0] == 1 <= len, so the index is at least 0.
        let k = RUN_LENGTHS.partition_point(|&l| l <= len) - 1;
        out.push(value + 3 * k as u8);
        len -= RUN_LENGTHS[k];
    }
}

/// Appends the run bytes of one WDL block. BROKEN slots take the value of the previous
/// position of the block (or of its first real position, or draw in an all-BROKEN block),
/// so they lengthen runs instead of cutting them.
pub(crate) fn encode_wdl_block(codes: &[u16], out: &mut Vec<u8>) {
    let mut value = codes
        .iter()
        .find(|&&c| c != BROKEN)
        .map_or(0, |&c| wdl_of(c));
    let mut run = 0u32;
    for &c in codes {
        let w = if c == BROKEN { value } else { wdl_of(c) };
        if w == value {
            run += 1;
        } else {
            push_run(out, value, run);
            value = w;
            run = 1;
        }
    }
    if run > 0 {
        push_run(out, value, run);
    }
}

/// The WDL value at `offset` in a block whose run bytes are `runs`, or `None` if the runs
/// end before `offset` (or hold an invalid byte that is reached).
#[inline]
pub(crate) fn probe_wdl_block(runs: &[u8], mut offset: u32) -> Option<u8> {
    for &b in runs {
        let len = RUN_LEN[b as usize];
        if offset < len {
            return Some(b % 3);
        }
        offset -= len;
    }
    None
}

/// Checks that the run bytes of a block cover exactly `len` positions.
pub(crate) fn check_wdl_block(runs: &[u8], len: u32) -> Result<(), String> {
    let mut total = 0u64;
    for &b in runs {
        if b == 255 {
            return Err("invalid run byte 255 in the WDL section".to_string());
        }
        total += u64::from(RUN_LEN[b as usize]);
    }
    if total != u64::from(len) {
        return Err(format!(
            "a WDL block covers {total} positions instead of {len}"
        ));
    }
    Ok(())
}

/// The raw (uncompressed) bytes of one DTM block: BROKEN slots take the previous code of
/// the block (or its first real code, or DRAW), then the codes as u8 (`wide == false`) or
/// as two byte planes, all low bytes then all high bytes (`wide == true`).
pub(crate) fn pack_dtm_block(codes: &[u16], wide: bool, out: &mut Vec<u8>) {
    let mut prev = codes.iter().copied().find(|&c| c != BROKEN).unwrap_or(DRAW);
    let filled = codes.iter().map(move |&c| {
        if c != BROKEN {
            prev = c;
        }
        prev
    });
    out.clear();
    if wide {
        let n = codes.len();
        out.resize(2 * n, 0);
        let (lo, hi) = out.split_at_mut(n);
        for ((c, l), h) in filled.zip(lo.iter_mut()).zip(hi.iter_mut()) {
            *l = c as u8;
            *h = (c >> 8) as u8;
        }
    } else {
        out.extend(filled.map(|c| c as u8));
    }
}

/// The code at `offset` of a raw DTM block of `len` positions (inverse of
/// [`pack_dtm_block`]), or `None` if out of range.
#[inline]
pub(crate) fn raw_dtm_code(raw: &[u8], wide: bool, len: usize, offset: usize) -> Option<u16> {
    if offset >= len {
        return None;
    }
    if wide {
        let lo = *raw.get(offset)?;
        let hi = *raw.get(len + offset)?;
        Some(u16::from(lo) | u16::from(hi) << 8)
    } else {
        raw.get(offset).map(|&b| u16::from(b))
    }
}

/// Unpacks a whole raw DTM block into `out` (whose length is the block length).
pub(crate) fn unpack_dtm_block(raw: &[u8], wide: bool, out: &mut [u16]) -> Result<(), String> {
    let n = out.len();
    let need = if wide { 2 * n } else { n };
    if raw.len() != need {
        return Err(format!(
            "a DTM block decompresses to {} bytes instead of {need}",
            raw.len()
        ));
    }
    if wide {
        let (lo, hi) = raw.split_at(n);
        for ((o, &l), &h) in out.iter_mut().zip(lo).zip(hi) {
            *o = u16::from(l) | u16::from(h) << 8;
        }
    } else {
        for (o, &b) in out.iter_mut().zip(raw) {
            *o = u16::from(b);
        }
    }
    Ok(())
}

/// Checks that `frame` is exactly one zstd frame that declares `raw_len` bytes of content
/// (reads only the frame and block headers).
pub(crate) fn check_dtm_frame(frame: &[u8], raw_len: usize) -> Result<(), String> {
    match zstd::zstd_safe::find_frame_compressed_size(frame) {
        Ok(n) if n == frame.len() => {}
        _ => {
            return Err(format!(
                "a DTM block is not one zstd frame of {} bytes",
                frame.len()
            ))
        }
    }
    match zstd::zstd_safe::get_frame_content_size(frame) {
        Ok(Some(n)) if n == raw_len as u64 => Ok(()),
        _ => Err(format!(
            "a DTM block does not declare {raw_len} bytes of content"
        )),
    }
}

/// Decompresses one zstd frame into `dst`, which must be exactly its size.
pub(crate) fn decompress_exact(
    dctx: &mut zstd::bulk::Decompressor<'static>,
    src: &[u8],
    dst: &mut [u8],
) -> Result<(), String> {
    match dctx.decompress_to_buffer(src, dst) {
        Ok(n) if n == dst.len() => Ok(()),
        Ok(n) => Err(format!(
            "a DTM block decompresses to {n} bytes instead of {}",
            dst.len()
        )),
        Err(e) => Err(format!("a DTM block does not decompress: {e}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn run_lengths_increase_and_end_at_the_block_size() {
        assert!(RUN_LENGTHS.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(RUN_LENGTHS[0], 1);
        assert_eq!(RUN_LENGTHS[84], 1 << WDL_BLOCK_SHIFT);
    }

    #[test]
    fn every_run_length_round_trips() {
        for len in 1..=5000u32 {
            let mut out = Vec::new();
            push_run(&mut out, 2, len);
            assert!(check_wdl_block(&out, len).is_ok());
            assert_eq!(probe_wdl_block(&out, len - 1), Some(2));
            assert_eq!(probe_wdl_block(&out, len), None);
        }
    }
}
