//! The endgame table file reader: a table file is untrusted input. The input is written to
//! a file and opened; opening and probing must answer an error, never panic.
//!
//! The first byte is a switch: when odd, the header and file checksums of the rest are
//! recomputed before it is written, so that the fuzzer gets past them to the checks behind.
#![no_main]

use kharbaga::{Position, Rules};
use kharbaga_tablebase::build::open_checked;
use kharbaga_tablebase::format::TableFile;
use kharbaga_tablebase::slice::SliceId;
use libfuzzer_sys::fuzz_target;
use std::path::PathBuf;
use std::sync::OnceLock;

/// Where the header checksum is (it covers the bytes before it).
const HEADER_CRC_AT: usize = 108;

/// The file the input is written to, one per process.
fn path() -> &'static PathBuf {
    static PATH: OnceLock<PathBuf> = OnceLock::new();
    PATH.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("kharbaga-fuzz-table-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a temporary folder");
        dir.join("table.kbt")
    })
}

fuzz_target!(|data: &[u8]| {
    let Some((&switch, rest)) = data.split_first() else {
        return;
    };
    let mut bytes = rest.to_vec();
    if switch & 1 == 1 {
        if bytes.len() >= HEADER_CRC_AT + 4 {
            let crc = crc32fast::hash(&bytes[..HEADER_CRC_AT]);
            bytes[HEADER_CRC_AT..HEADER_CRC_AT + 4].copy_from_slice(&crc.to_le_bytes());
        }
        if bytes.len() >= HEADER_CRC_AT + 8 {
            let end = bytes.len() - 4;
            let crc = crc32fast::hash(&bytes[..end]);
            bytes[end..].copy_from_slice(&crc.to_le_bytes());
        }
    }
    let path = path();
    std::fs::write(path, &bytes).expect("the temporary file is written");
    if let Ok(file) = TableFile::open(path) {
        let n = file.header().positions;
        for index in [0, n / 2, n.saturating_sub(1), n, u64::MAX] {
            let _ = file.wdl(index);
            let _ = file.code(index);
        }
        if n <= 1 << 16 {
            let _ = file.decode_all();
        }
    }
    let pos = Position::from_fen("W:Bd4:Wd6").expect("a position");
    let slice = SliceId::of(&pos).expect("a slice");
    let _ = open_checked(path, &Rules::standard(), slice);
});
