//! A transposition table saved to a file and read back, so that a solve starts with what
//! earlier solves found (`kharbaga solve --hash-file`, used by the frontier driver to keep
//! each worker's table from one part to the next).
//!
//! Only the solved entries are saved: they hold for their position and prover whatever the
//! path (disproofs that rest on a repetition are stored only by the fast searches, whose
//! wins and losses never rest on them, and a draw's strategies are checked before they are
//! kept; see [`crate::solve`]), and the no-progress counts an entry holds for are in the
//! entry. The open entries' numbers were worked out for the search that made them and
//! mislead another: on four 21-piece parts solved after a related one, the tables carried
//! whole cut the nodes by a fifth in all (one part took 2.6 times its nodes), the solved
//! entries alone by 2.7 times (each part by 1.4 to 3.2 times).
//!
//! The file (native byte order, little-endian on x86-64):
//!
//! | bytes | what |
//! |---|---|
//! | 8 | `KHTT` and the format version (u32) |
//! | 8 | the number of buckets |
//! | 8 | the fingerprint of the rules and of the position hashing |
//! | 8 | the checksum of the buckets |
//! | 64 a bucket | the buckets, as they are in memory |
//!
//! A file for another table size, for other rules, from a build that hashes positions
//! differently, or whose buckets do not match their checksum is refused with an error that
//! says which.

use std::fmt;
use std::io::{self, Read, Write};

use kharbaga::{Position, Rules};

use crate::tt::Tt;

/// The file's first four bytes.
const MAGIC: &[u8; 4] = b"KHTT";

/// The format version.
const VERSION: u32 = 1;

/// The header's length in bytes.
const HEADER: usize = 32;

/// Why a table file was refused.
#[derive(Debug)]
pub enum TtFileError {
    /// Reading or writing failed.
    Io(io::Error),
    /// Not a table file of this version.
    NotATable,
    /// The file's table has another size.
    Size {
        /// The file's buckets.
        file: u64,
        /// The table's buckets.
        table: u64,
    },
    /// Made under other rules or by a build that hashes positions differently.
    Fingerprint,
    /// The buckets do not match the header's checksum (a damaged or truncated file).
    Checksum,
}

impl fmt::Display for TtFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TtFileError::Io(e) => write!(f, "{e}"),
            TtFileError::NotATable => write!(
                f,
                "not a solver table file (it does not start with KHTT and version {VERSION})"
            ),
            TtFileError::Size { file, table } => write!(
                f,
                "the file holds a table of {} MiB, this solve's --hash is {} MiB",
                (file * 64) >> 20,
                (table * 64) >> 20
            ),
            TtFileError::Fingerprint => write!(
                f,
                "the file was made under other rules or by a build that hashes positions \
                 differently"
            ),
            TtFileError::Checksum => write!(
                f,
                "the file is damaged: its entries do not match its checksum"
            ),
        }
    }
}

impl std::error::Error for TtFileError {}

impl From<io::Error> for TtFileError {
    fn from(e: io::Error) -> Self {
        if e.kind() == io::ErrorKind::UnexpectedEof {
            TtFileError::Checksum
        } else {
            TtFileError::Io(e)
        }
    }
}

/// What a table's entries depend on besides the positions: the rules (their description)
/// and the hashing of positions (the hashes of a few positions).
fn fingerprint(rules: &Rules) -> u64 {
    let mut h = mix(0, rules.to_string().bytes().map(u64::from));
    for fen in ["B:BKa1,c3:Wg7,Ki9", "W:BKa1,c3:Wg7,Ki9"] {
        let pos = Position::from_fen(fen).expect("a valid position");
        h = mix(h, [pos.hash()]);
    }
    mix(h, [Position::start().hash()])
}

/// Folds `words` into `h` (a multiply-rotate hash: fast, and every word changes it).
fn mix(mut h: u64, words: impl IntoIterator<Item = u64>) -> u64 {
    for w in words {
        h = (h ^ w).wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(29);
    }
    h
}

/// The checksum of a table's bytes (whole 8-byte words: a table is whole buckets).
fn checksum(bytes: &[u8]) -> u64 {
    mix(
        bytes.len() as u64,
        bytes
            .chunks_exact(8)
            .map(|c| u64::from_ne_bytes(c.try_into().expect("8 bytes"))),
    )
}

/// Writes the solved entries of `tt`, made under `rules`, to `out` (the open entries are
/// dropped from `tt` first).
pub fn write(tt: &mut Tt, rules: &Rules, out: &mut impl Write) -> io::Result<()> {
    tt.retain_solved();
    let bytes = tt.as_bytes();
    let mut header = Vec::with_capacity(HEADER);
    header.extend_from_slice(MAGIC);
    header.extend_from_slice(&VERSION.to_ne_bytes());
    header.extend_from_slice(&(tt.buckets() as u64).to_ne_bytes());
    header.extend_from_slice(&fingerprint(rules).to_ne_bytes());
    header.extend_from_slice(&checksum(bytes).to_ne_bytes());
    out.write_all(&header)?;
    out.write_all(bytes)
}

/// Reads a table written by [`write`] under `rules` into `tt`, which must have the same
/// size, its entries marked as carried over ([`Tt::mark_carried`]: the first replaced). On
/// an error `tt` is left empty.
pub fn read(tt: &mut Tt, rules: &Rules, input: &mut impl Read) -> Result<(), TtFileError> {
    let result = read_into(tt, rules, input);
    if result.is_err() {
        tt.clear();
    }
    result
}

fn read_into(tt: &mut Tt, rules: &Rules, input: &mut impl Read) -> Result<(), TtFileError> {
    let mut header = [0u8; HEADER];
    input.read_exact(&mut header).map_err(|e| match e.kind() {
        io::ErrorKind::UnexpectedEof => TtFileError::NotATable,
        _ => TtFileError::Io(e),
    })?;
    let word = |i: usize| u64::from_ne_bytes(header[i..i + 8].try_into().expect("8 bytes"));
    if &header[..4] != MAGIC || header[4..8] != VERSION.to_ne_bytes() {
        return Err(TtFileError::NotATable);
    }
    let (file, table) = (word(8), tt.buckets() as u64);
    if file != table {
        return Err(TtFileError::Size { file, table });
    }
    if word(16) != fingerprint(rules) {
        return Err(TtFileError::Fingerprint);
    }
    let bytes = tt.as_bytes_mut();
    input.read_exact(bytes)?;
    if checksum(bytes) != word(24) || input.read(&mut [0u8])? != 0 {
        return Err(TtFileError::Checksum);
    }
    tt.mark_carried();
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tt::{key, Entry, INF};
    use kharbaga::Color;

    fn key_of(k: u64) -> u64 {
        key(k.wrapping_mul(0x2545_F491_4F6C_DD1D), Color::Black)
    }

    /// A table of 1,000 entries: proofs for keys divisible by 3, disproofs for those
    /// leaving 1, open entries for the others.
    fn filled() -> Tt {
        let mut tt = Tt::new(1);
        for k in 0..1000u64 {
            let (pn, dn) = [(0, INF), (INF, 0), (k as u32 + 1, 7)][k as usize % 3];
            tt.put(Entry {
                key: key_of(k),
                pn,
                dn,
                work: 3,
                dist: 4,
                aux: 2,
            });
        }
        tt
    }

    fn saved(tt: &mut Tt, rules: &Rules) -> Vec<u8> {
        let mut file = Vec::new();
        write(tt, rules, &mut file).unwrap();
        file
    }

    #[test]
    fn a_saved_table_reads_back_with_its_solved_entries() {
        let rules = Rules::default();
        let mut tt = filled();
        let file = saved(&mut tt, &rules);
        assert_eq!(file.len(), HEADER + tt.as_bytes().len());
        let mut back = Tt::new(1);
        read(&mut back, &rules, &mut file.as_slice()).unwrap();
        let before = filled();
        for k in 0..1000 {
            let (then, now) = (before.get(key_of(k)), back.get(key_of(k)));
            match k % 3 {
                2 => assert_eq!(now, None),
                _ => assert_eq!(now, then),
            }
        }
        assert_eq!(back.get(key_of(3)).map(|e| (e.pn, e.dist)), Some((0, 4)));
    }

    #[test]
    fn a_file_for_another_size_rules_or_content_is_refused_and_leaves_the_table_empty() {
        let rules = Rules::default();
        let file = saved(&mut filled(), &rules);
        let refused = |file: &[u8], rules: &Rules, mib: usize| {
            let mut tt = Tt::new(mib);
            tt.put(Entry {
                key: 3,
                pn: 1,
                dn: 1,
                ..Entry::default()
            });
            let e = read(&mut tt, rules, &mut &file[..]).unwrap_err();
            assert!(tt.as_bytes().iter().all(|&b| b == 0));
            e
        };
        let size = refused(&file, &rules, 2);
        assert!(matches!(size, TtFileError::Size { .. }));
        assert_eq!(
            size.to_string(),
            "the file holds a table of 1 MiB, this solve's --hash is 2 MiB"
        );
        let ludii = Rules::named("ludii").unwrap();
        assert!(matches!(
            refused(&file, &ludii, 1),
            TtFileError::Fingerprint
        ));
        let mut damaged = file.clone();
        damaged[HEADER + 100] ^= 1;
        assert!(matches!(
            refused(&damaged, &rules, 1),
            TtFileError::Checksum
        ));
        let short = &file[..file.len() - 1];
        assert!(matches!(refused(short, &rules, 1), TtFileError::Checksum));
        let mut longer = file.clone();
        longer.push(0);
        assert!(matches!(refused(&longer, &rules, 1), TtFileError::Checksum));
        assert!(matches!(
            refused(b"KHTX", &rules, 1),
            TtFileError::NotATable
        ));
        assert!(matches!(refused(&[], &rules, 1), TtFileError::NotATable));
    }
}
