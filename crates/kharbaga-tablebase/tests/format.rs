//! Tests of the table file format: round trips, probes, and rejection of bad files.

use std::path::{Path, PathBuf};
use std::time::Instant;

use kharbaga_tablebase::format::{
    write_table, FormatError, TableFile, TableHeader, BROKEN, DRAW, FORMAT_VERSION,
};

/// SplitMix64: small, deterministic, good enough for test data.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    /// Geometric-ish length with the given mean (at least 1).
    fn run(&mut self, mean: u64) -> usize {
        let u = (self.next() >> 11) as f64 / (1u64 << 53) as f64;
        (1.0 + -(1.0 - u).ln() * (mean as f64 - 1.0)) as usize
    }
}

/// A code for a decisive result in `d` plies.
fn decisive(d: u16) -> u16 {
    d + 1
}

/// Table-like data: runs of draws, wins and losses (mostly short, some long), distances
/// that drift slowly with noise, and BROKEN slots both scattered and in clumps.
fn realistic(n: usize, seed: u64, max_d: u16) -> Vec<u16> {
    let mut rng = Rng(seed);
    let mut v = Vec::with_capacity(n);
    let mut base = 10u16.min(max_d);
    while v.len() < n {
        let len = if rng.below(10) == 0 {
            rng.run(400)
        } else {
            rng.run(8)
        };
        let kind = rng.below(100);
        let clump = rng.below(12) == 0;
        if rng.below(4) == 0 {
            base = rng.below(u64::from(max_d) + 1) as u16;
        }
        for _ in 0..len.min(n - v.len()) {
            if clump || rng.below(100) < 10 {
                v.push(BROKEN);
                continue;
            }
            let d = (base + rng.below(4) as u16).min(max_d);
            let code = match kind {
                0..=39 => DRAW,
                40..=69 => decisive(if d % 2 == 1 {
                    d
                } else {
                    d.saturating_sub(1) | 1
                }),
                _ => decisive(if d % 2 == 0 { d } else { d - 1 }),
            };
            v.push(code.min(decisive(max_d)));
        }
    }
    v
}

/// Uniformly random codes (no runs at all) with some BROKEN slots.
fn noise(n: usize, seed: u64, max_d: u16) -> Vec<u16> {
    let mut rng = Rng(seed);
    (0..n)
        .map(|_| {
            if rng.below(8) == 0 {
                BROKEN
            } else {
                rng.below(u64::from(max_d) + 2) as u16
            }
        })
        .collect()
}

fn max_distance(codes: &[u16]) -> u16 {
    codes
        .iter()
        .filter(|&&c| c != BROKEN && c != DRAW)
        .map(|&c| c - 1)
        .max()
        .unwrap_or(0)
}

fn header(codes: &[u16]) -> TableHeader {
    TableHeader {
        rules: "standard,removal=immediate".to_string(),
        slice: "2m1k-1m0k".to_string(),
        index_scheme: 7,
        positions: codes.len() as u64,
        max_distance: max_distance(codes),
    }
}

fn wdl_of(code: u16) -> u8 {
    match code {
        DRAW => 0,
        c if c % 2 == 0 => 1,
        _ => 2,
    }
}

/// A fresh directory for one test.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "kharbaga-format-test-{}-{name}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Writes, reopens and checks every non-BROKEN index (all of them with `wdl()` and
/// `decode_all()`, all or a sample with `code()`).
fn round_trip(dir: &Path, name: &str, codes: &[u16]) {
    let path = dir.join(format!("{name}.ktb"));
    let h = header(codes);
    let stats = write_table(&path, &h, codes).unwrap();
    assert!(
        !path.with_extension("tmp").exists(),
        "temporary file left behind"
    );
    let table = TableFile::open(&path).unwrap();
    assert_eq!(table.header(), &h);
    assert_eq!(table.file_len(), stats.bytes);
    assert_eq!(std::fs::metadata(&path).unwrap().len(), stats.bytes);
    assert!(stats.wdl_bytes + stats.dtm_bytes < stats.bytes);

    let all = table.decode_all().unwrap();
    assert_eq!(all.len(), codes.len());
    for (i, (&c, &d)) in codes.iter().zip(&all).enumerate() {
        if c != BROKEN {
            assert_eq!(c, d, "{name}: decode_all differs at {i}");
        }
        if c != BROKEN {
            assert_eq!(
                table.wdl(i as u64).unwrap(),
                wdl_of(c),
                "{name}: wdl at {i}"
            );
        } else {
            assert!(table.wdl(i as u64).unwrap() <= 2);
        }
    }
    let check_code = |i: usize| {
        let got = table.code(i as u64).unwrap();
        if codes[i] != BROKEN {
            assert_eq!(got, codes[i], "{name}: code at {i}");
        } else {
            assert_eq!(got, all[i], "{name}: filled code at {i}");
        }
    };
    // code() decompresses a whole block per call: every index of small tables, a random
    // sample and every block edge of larger ones (decode_all() covered every index).
    if codes.len() <= 5000 {
        (0..codes.len()).for_each(check_code);
    } else {
        let mut rng = Rng(99);
        for _ in 0..500 {
            check_code(rng.below(codes.len() as u64) as usize);
        }
        for edge in (0..codes.len()).step_by(16384) {
            check_code(edge);
            check_code(edge.saturating_sub(1));
        }
        check_code(codes.len() - 1);
    }
    let n = codes.len() as u64;
    assert!(matches!(table.wdl(n), Err(FormatError::OutOfRange { .. })));
    assert!(matches!(table.code(n), Err(FormatError::OutOfRange { .. })));
    assert!(matches!(
        table.wdl(u64::MAX),
        Err(FormatError::OutOfRange { .. })
    ));
    assert!(matches!(
        table.code(u64::MAX),
        Err(FormatError::OutOfRange { .. })
    ));
}

#[test]
fn round_trips_of_many_shapes_and_sizes() {
    let dir = temp_dir("round-trip");
    let sizes = [0, 1, 2, 4095, 4096, 4097, 16383, 16384, 16385, 65_537];
    for &n in &sizes {
        round_trip(&dir, &format!("narrow-{n}"), &realistic(n, n as u64, 120));
        round_trip(&dir, &format!("wide-{n}"), &realistic(n, n as u64 + 1, 900));
        round_trip(&dir, &format!("noise8-{n}"), &noise(n, n as u64 + 2, 253));
        round_trip(
            &dir,
            &format!("noise16-{n}"),
            &noise(n, n as u64 + 3, 0xFFFD),
        );
    }
    // Extremes: all BROKEN, all draws, one huge run, alternating values, top codes.
    round_trip(&dir, "all-broken", &vec![BROKEN; 20_000]);
    round_trip(&dir, "all-draw", &vec![DRAW; 20_000]);
    round_trip(&dir, "one-run", &vec![decisive(0); 50_000]);
    let alternating: Vec<u16> = (0..20_000).map(|i| [1, 2, 0][i % 3]).collect();
    round_trip(&dir, "alternating", &alternating);
    let top: Vec<u16> = (0..20_000u32).map(|i| 0xFFFE - (i % 7) as u16).collect();
    round_trip(&dir, "top-codes", &top);
    let edge8: Vec<u16> = (0..20_000u32)
        .map(|i| [255, 254, BROKEN, 0][i as usize % 4])
        .collect();
    round_trip(&dir, "edge-u8", &edge8);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn round_trip_of_a_few_million_positions() {
    let dir = temp_dir("big");
    round_trip(&dir, "big-narrow", &realistic(3_000_017, 5, 200));
    round_trip(&dir, "big-wide", &realistic(2_000_003, 6, 3000));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn writer_rejects_inconsistent_input() {
    let dir = temp_dir("reject");
    let path = dir.join("t.ktb");
    let codes = realistic(1000, 1, 50);
    let mut h = header(&codes);
    h.positions += 1;
    let e = write_table(&path, &h, &codes).unwrap_err();
    assert_eq!(e.kind(), std::io::ErrorKind::InvalidInput);
    let mut h = header(&codes);
    h.max_distance -= 1;
    let e = write_table(&path, &h, &codes).unwrap_err();
    assert_eq!(e.kind(), std::io::ErrorKind::InvalidInput);
    assert!(!path.exists());
    // An existing file is replaced.
    write_table(&path, &header(&codes), &codes).unwrap();
    let other = realistic(500, 2, 30);
    write_table(&path, &header(&other), &other).unwrap();
    assert_eq!(TableFile::open(&path).unwrap().header().positions, 500);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Recomputes both checksums after an edit, to test the checks behind them.
fn resign(bytes: &mut [u8]) {
    let h = crc32fast::hash(&bytes[..108]);
    bytes[108..112].copy_from_slice(&h.to_le_bytes());
    let end = bytes.len() - 4;
    let f = crc32fast::hash(&bytes[..end]);
    bytes[end..].copy_from_slice(&f.to_le_bytes());
}

fn open_bytes(path: &Path, bytes: &[u8]) -> Result<TableFile, FormatError> {
    std::fs::write(path, bytes).unwrap();
    TableFile::open(path)
}

/// Probes everything in an opened table; must not panic whatever the file holds.
fn probe_everything(t: &TableFile) {
    let n = t.header().positions;
    for i in (0..n.min(100_000)).step_by(37) {
        let _ = t.wdl(i);
    }
    for i in (0..n.min(100_000)).step_by(4001) {
        let _ = t.code(i);
    }
    let _ = t.decode_all();
}

fn u64_at(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(b[at..at + 8].try_into().unwrap())
}

#[test]
fn bad_files_are_rejected_with_the_right_error() {
    let dir = temp_dir("bad");
    let good_path = dir.join("good.ktb");
    let codes = realistic(20_000, 3, 400);
    write_table(&good_path, &header(&codes), &codes).unwrap();
    let good = std::fs::read(&good_path).unwrap();
    let path = dir.join("bad.ktb");
    assert!(open_bytes(&path, &good).is_ok());

    // Every truncation.
    for len in (0..good.len())
        .step_by(11)
        .chain([good.len() - 1, 111, 112, 113])
    {
        match open_bytes(&path, &good[..len]) {
            Err(FormatError::Truncated {
                expected, actual, ..
            }) => {
                assert_eq!(actual, len as u64);
                assert!(expected > actual);
            }
            other => panic!("truncated to {len}: {other:?}"),
        }
    }
    // Extra bytes at the end.
    let mut longer = good.clone();
    longer.push(0);
    assert!(matches!(
        open_bytes(&path, &longer),
        Err(FormatError::Corrupt { .. })
    ));

    // Every flipped byte: magic, version, header, then the rest of the file.
    let wdl_index = u64_at(&good, 56) as usize;
    let dtm_index = u64_at(&good, 80) as usize;
    let dtm_data = u64_at(&good, 88) as usize;
    let offsets: Vec<usize> = (0..good.len())
        .step_by(5)
        .chain([good.len() - 1, wdl_index, dtm_index, dtm_data, 108, 111])
        .collect();
    for at in offsets {
        let mut bad = good.clone();
        bad[at] ^= 0x20;
        let r = open_bytes(&path, &bad);
        match (at, &r) {
            (0..=7, Err(FormatError::NotATable { .. })) => {}
            (8..=11, Err(FormatError::Version { found, .. })) if *found != FORMAT_VERSION => {}
            (12..=111, Err(FormatError::Checksum { what: "header", .. })) => {}
            (112.., Err(FormatError::Checksum { what: "file", .. })) => {}
            _ => panic!("byte {at} flipped: {r:?}"),
        }
    }

    // Wrong magic, wrong version, foreign files, missing file.
    let mut bad = good.clone();
    bad[..8].copy_from_slice(b"KHARBTB1");
    assert!(matches!(
        open_bytes(&path, &bad),
        Err(FormatError::NotATable { .. })
    ));
    let mut bad = good.clone();
    bad[8..12].copy_from_slice(&2u32.to_le_bytes());
    assert!(matches!(
        open_bytes(&path, &bad),
        Err(FormatError::Version { found: 2, .. })
    ));
    assert!(matches!(
        open_bytes(&path, b"hello, this is not a table file at all"),
        Err(FormatError::NotATable { .. })
    ));
    assert!(matches!(
        open_bytes(&path, b"KHAR"),
        Err(FormatError::Truncated { .. })
    ));
    assert!(matches!(
        open_bytes(&path, b""),
        Err(FormatError::Truncated { .. })
    ));
    assert!(matches!(
        TableFile::open(&dir.join("missing.ktb")),
        Err(FormatError::Io { .. })
    ));

    // Consistent checksums over inconsistent contents.
    let wdl_data = u64_at(&good, 64) as usize;
    let mut bad = good.clone();
    bad[16] ^= 1; // positions
    resign(&mut bad);
    assert!(matches!(
        open_bytes(&path, &bad),
        Err(FormatError::Corrupt { .. })
    ));
    let mut bad = good.clone();
    bad[wdl_data] = 255; // invalid run byte
    resign(&mut bad);
    assert!(matches!(
        open_bytes(&path, &bad),
        Err(FormatError::Corrupt { .. })
    ));
    let mut bad = good.clone();
    bad[wdl_data] = if bad[wdl_data] >= 3 {
        bad[wdl_data] - 3
    } else {
        bad[wdl_data] + 3
    };
    resign(&mut bad);
    assert!(matches!(
        open_bytes(&path, &bad),
        Err(FormatError::Corrupt { .. })
    ));
    let mut bad = good.clone();
    bad[wdl_index + 8] ^= 1; // a WDL index entry
    resign(&mut bad);
    assert!(matches!(
        open_bytes(&path, &bad),
        Err(FormatError::Corrupt { .. })
    ));
    let mut bad = good.clone();
    bad[dtm_index + 8] ^= 1; // a DTM index entry
    resign(&mut bad);
    assert!(matches!(
        open_bytes(&path, &bad),
        Err(FormatError::Corrupt { .. })
    ));
    let mut bad = good.clone();
    bad[112] = 0xFF; // rules string no longer UTF-8
    resign(&mut bad);
    assert!(matches!(
        open_bytes(&path, &bad),
        Err(FormatError::Corrupt { .. })
    ));
    let mut bad = good.clone();
    bad[26] = 3; // DTM width
    resign(&mut bad);
    assert!(matches!(
        open_bytes(&path, &bad),
        Err(FormatError::Corrupt { .. })
    ));
    // A damaged zstd frame header is found on open.
    let mut bad = good.clone();
    for b in &mut bad[dtm_data..dtm_data + 6] {
        *b ^= 0x55;
    }
    resign(&mut bad);
    assert!(matches!(
        open_bytes(&path, &bad),
        Err(FormatError::Corrupt { .. })
    ));
    // Damage inside a frame is found when probed, or gives wrong codes, never a panic.
    let frame_end = dtm_data + u64_at(&good, dtm_index + 8) as usize;
    for at in (dtm_data + 6..frame_end).step_by(5) {
        let mut bad = good.clone();
        bad[at] ^= 0x55;
        resign(&mut bad);
        if let Ok(t) = open_bytes(&path, &bad) {
            let _ = t.code(0);
            let _ = t.decode_all();
            assert!(t.code(19_999).is_ok());
        }
    }

    // Error messages name the file.
    let e = open_bytes(&path, &good[..500]).unwrap_err();
    let msg = e.to_string();
    assert!(
        msg.contains("bad.ktb") && msg.contains("truncated"),
        "{msg}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn random_damage_with_valid_checksums_never_panics() {
    let dir = temp_dir("fuzz");
    let good_path = dir.join("good.ktb");
    let codes = realistic(40_000, 4, 400);
    write_table(&good_path, &header(&codes), &codes).unwrap();
    let good = std::fs::read(&good_path).unwrap();
    let path = dir.join("fuzz.ktb");
    let mut rng = Rng(17);
    let mut opened = 0;
    for round in 0..1500 {
        let mut bad = good.clone();
        for _ in 0..1 + rng.below(3) {
            // Half of the damage hits the header fields, where it matters most.
            let at = if round % 2 == 0 {
                rng.below(108) as usize
            } else {
                rng.below(good.len() as u64 - 4) as usize
            };
            bad[at] = rng.next() as u8;
        }
        resign(&mut bad);
        if let Ok(t) = open_bytes(&path, &bad) {
            opened += 1;
            probe_everything(&t);
        }
    }
    assert!(
        opened > 0,
        "some damage (e.g. to DTM frames) is only found when probed"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn tables_are_shared_between_threads() {
    fn assert_sync<T: Send + Sync>() {}
    assert_sync::<TableFile>();
    let dir = temp_dir("threads");
    let path = dir.join("t.ktb");
    let codes = realistic(100_000, 8, 300);
    write_table(&path, &header(&codes), &codes).unwrap();
    let t = TableFile::open(&path).unwrap();
    std::thread::scope(|s| {
        for k in 0..4u64 {
            let (t, codes) = (&t, &codes);
            s.spawn(move || {
                for i in (k..codes.len() as u64).step_by(997) {
                    if codes[i as usize] != BROKEN {
                        assert_eq!(t.code(i).unwrap(), codes[i as usize]);
                        assert_eq!(t.wdl(i).unwrap(), wdl_of(codes[i as usize]));
                    }
                }
            });
        }
    });
    let _ = std::fs::remove_dir_all(&dir);
}

/// Sizes and speeds on table-like data. Run with
/// `cargo test --release -p kharbaga-tablebase --test format -- --ignored --nocapture`.
#[test]
#[ignore]
fn benchmark() {
    let dir = temp_dir("bench");
    let n: usize = std::env::var("KHARBTB_BENCH_N")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(50_000_000);
    for (name, max_d) in [("u8 codes", 200u16), ("u16 codes", 1500), ("noise", 0)] {
        // "noise" (no runs at all) is the worst case for wdl(), not a realistic table.
        let codes = if max_d == 0 {
            noise(n, 42, 120)
        } else {
            realistic(n, 42, max_d)
        };
        let broken = codes.iter().filter(|&&c| c == BROKEN).count();
        let path = dir.join("bench.ktb");
        let t0 = Instant::now();
        let stats = write_table(&path, &header(&codes), &codes).unwrap();
        let write = t0.elapsed();
        let t0 = Instant::now();
        let table = TableFile::open(&path).unwrap();
        let open = t0.elapsed();
        println!(
            "{name}: {n} positions ({:.1}% broken); file {} bytes = {:.4} bytes/position \
             (WDL {:.4}, DTM {:.4}); write {:.2?} ({:.0} Mpos/s); open+verify {:.2?}",
            100.0 * broken as f64 / n as f64,
            stats.bytes,
            stats.bytes as f64 / n as f64,
            stats.wdl_bytes as f64 / n as f64,
            stats.dtm_bytes as f64 / n as f64,
            write,
            n as f64 / write.as_secs_f64() / 1e6,
            open
        );
        let mut rng = Rng(1);
        let probes: Vec<u64> = (0..2_000_000).map(|_| rng.below(n as u64)).collect();
        let t0 = Instant::now();
        let mut sum = 0u64;
        for &i in &probes {
            sum += u64::from(table.wdl(i).unwrap());
        }
        let e = t0.elapsed();
        println!(
            "  wdl(): {:.0} ns/probe, {:.1} M probes/s (checksum {sum})",
            e.as_nanos() as f64 / probes.len() as f64,
            probes.len() as f64 / e.as_secs_f64() / 1e6
        );
        let t0 = Instant::now();
        for &i in &probes[..20_000] {
            sum += u64::from(table.code(i).unwrap());
        }
        let e = t0.elapsed();
        println!(
            "  code(): {:.1} us/probe, {:.0} probes/s (checksum {sum})",
            e.as_secs_f64() * 1e6 / 20_000.0,
            20_000.0 / e.as_secs_f64()
        );
        let t0 = Instant::now();
        let all = table.decode_all().unwrap();
        println!("  decode_all(): {:.2?}", t0.elapsed());
        assert_eq!(all.len(), n);
    }
    let _ = std::fs::remove_dir_all(&dir);
}
