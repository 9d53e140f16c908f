//! A transposition table saved to a file and read back, so that a solve starts with what
//! earlier solves found (`kharbaga solve --hash-file`, used by the frontier driver to keep
//! each worker's table from one part to the next), or goes on where a solve of the same
//! position stopped (`kharbaga solve --resume`, used by the driver between a part's passes).
//!
//! A file for other solves keeps only the solved entries ([`Keep::Solved`]): they hold for
//! their position and prover whatever the path (disproofs that rest on a repetition are
//! stored only by the fast searches, whose wins and losses never rest on them, and a draw's
//! strategies are checked before they are kept; see [`crate::solve`]), and the no-progress
//! counts an entry holds for are in the entry. The open entries' numbers were worked out for
//! the search that made them and mislead another: on four 21-piece parts solved after a
//! related one, the tables carried whole cut the nodes by a fifth in all (one part took 2.6
//! times its nodes), the solved entries alone by 2.7 times (each part by 1.4 to 3.2 times).
//!
//! For the same position the open entries are what lets the search go on ([`Keep::All`]):
//! on two 17-piece positions stopped halfway (at half the nodes a whole solve takes) and
//! solved again from the file, the two halves took 0.94 and 0.95 times the nodes of the
//! whole solve with the open entries kept, 1.12 and 1.74 times with the solved ones only.
//! The file names the root it was saved for, and a solve of another position reads only
//! its solved entries.
//!
//! At most an eighth of the table's entries are saved, those with the most work (nodes
//! searched below them): a table that has carried entries from part to part fills with
//! solved entries, and a file of all of them (a 4 GiB table's worth) took half a minute a
//! part to write, more than many parts take to solve. The entries left out are the cheap
//! ones, and a proof walk that needs one searches it again.
//!
//! The file (native byte order, little-endian on x86-64):
//!
//! | bytes | what |
//! |---|---|
//! | 8 | `KHTT` and the format version (u32) |
//! | 8 | the fingerprint of the rules and of the position hashing |
//! | 8 | the hash of the root position of the solve that saved it |
//! | 8 | the number of entries |
//! | 24 an entry | key (u64), proof and disproof numbers, work (u32 each), `dist` and `aux` (u16 each) |
//! | 8 | the checksum of the entries |
//!
//! A file for other rules, from a build that hashes positions differently, or whose entries
//! do not match their checksum is refused with an error that says which. A file from a
//! table of another size is read all the same (where a bucket is full, the entry with the
//! least work goes).

use std::fmt;
use std::io::{self, Read, Seek, SeekFrom, Write};

use kharbaga::{Position, Rules};

use crate::tt::{Entry, Tt};

/// The file's first four bytes.
const MAGIC: &[u8; 4] = b"KHTT";

/// The format version.
const VERSION: u32 = 3;

/// The header's length in bytes.
const HEADER: usize = 32;

/// The checksum's length in bytes, after the entries.
const TRAILER: usize = 8;

/// An entry's length in bytes.
const RECORD: usize = 24;

/// The share of a table's entries that are saved: one in this many.
const SAVED_SHARE: usize = 8;

/// Why a table file was refused.
#[derive(Debug)]
pub enum TtFileError {
    /// Reading or writing failed.
    Io(io::Error),
    /// Not a table file of this version.
    NotATable,
    /// Made under other rules or by a build that hashes positions differently.
    Fingerprint,
    /// The entries do not match the header's checksum (a damaged or truncated file).
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

/// An entry as it is saved.
fn record(e: &Entry) -> [u8; RECORD] {
    let mut out = [0u8; RECORD];
    out[..8].copy_from_slice(&e.key.to_ne_bytes());
    out[8..12].copy_from_slice(&e.pn.to_ne_bytes());
    out[12..16].copy_from_slice(&e.dn.to_ne_bytes());
    out[16..20].copy_from_slice(&e.work.to_ne_bytes());
    out[20..22].copy_from_slice(&e.dist.to_ne_bytes());
    out[22..24].copy_from_slice(&e.aux.to_ne_bytes());
    out
}

/// The entry a [`record`] holds.
fn entry(r: &[u8; RECORD]) -> Entry {
    let u32_at = |i: usize| u32::from_ne_bytes(r[i..i + 4].try_into().expect("4 bytes"));
    let u16_at = |i: usize| u16::from_ne_bytes(r[i..i + 2].try_into().expect("2 bytes"));
    Entry {
        key: u64::from_ne_bytes(r[..8].try_into().expect("8 bytes")),
        pn: u32_at(8),
        dn: u32_at(12),
        work: u32_at(16),
        dist: u16_at(20),
        aux: u16_at(22),
    }
}

/// Folds a record into a checksum.
fn fold(h: u64, r: &[u8; RECORD]) -> u64 {
    mix(
        h,
        r.chunks_exact(8)
            .map(|c| u64::from_ne_bytes(c.try_into().expect("8 bytes"))),
    )
}

/// Which entries a file keeps.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Keep {
    /// The solved entries: for the solves of other positions.
    Solved,
    /// The open entries as well: for a solve of the same position to go on from.
    All,
}

impl Keep {
    fn keeps(self, e: &Entry) -> bool {
        self == Keep::All || e.solved()
    }
}

/// The least work of the entries saved from `tt` (the smallest power of two that leaves
/// at most one entry in [`SAVED_SHARE`] of the table) and how many entries that saves.
fn least_work(tt: &Tt, keep: Keep) -> (u32, u64) {
    let mut at_least = [0u64; 33];
    for e in tt.entries().filter(|e| keep.keeps(e)) {
        at_least[(32 - e.work.leading_zeros()) as usize] += 1;
    }
    let cap = (tt.most_entries() / SAVED_SHARE) as u64;
    let mut kept = 0;
    for bits in (0..33).rev() {
        if kept + at_least[bits] > cap {
            return (if bits >= 32 { u32::MAX } else { 1 << bits }, kept);
        }
        kept += at_least[bits];
    }
    (0, kept)
}

/// Writes the entries of `tt` that `keep` names with the most work (at most one in
/// [`SAVED_SHARE`] of the table's entries), made under `rules` by a solve of `root`, to
/// `out`. (Two passes over the table: one to choose the entries, one to write them.)
pub fn write(
    tt: &Tt,
    rules: &Rules,
    root: &Position,
    keep: Keep,
    out: &mut impl Write,
) -> io::Result<()> {
    let (least, count) = least_work(tt, keep);
    let mut header = Vec::with_capacity(HEADER);
    header.extend_from_slice(MAGIC);
    header.extend_from_slice(&VERSION.to_ne_bytes());
    header.extend_from_slice(&fingerprint(rules).to_ne_bytes());
    header.extend_from_slice(&root.hash().to_ne_bytes());
    header.extend_from_slice(&count.to_ne_bytes());
    out.write_all(&header)?;
    let mut sum = 0;
    for e in tt.entries().filter(|e| keep.keeps(e) && e.work >= least) {
        let r = record(&e);
        sum = fold(sum, &r);
        out.write_all(&r)?;
    }
    out.write_all(&sum.to_ne_bytes())
}

/// What a file put in a table.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Loaded {
    /// The entries read into the table.
    pub entries: u64,
    /// Of those, the open ones: none unless the file was saved by a solve of this root.
    pub open: u64,
}

/// Reads a table written by [`write`] under `rules` into `tt`, its entries marked as
/// carried over ([`Tt::put_carried`]: the first replaced); the open entries only if the
/// file was saved by a solve of `root`. The file is checked whole before any entry goes
/// in (it is read twice), so a file refused leaves `tt` as it was: a solver kept from part
/// to part keeps its table when a part's resume file turns out damaged.
pub fn read(
    tt: &mut Tt,
    rules: &Rules,
    root: &Position,
    input: &mut (impl Read + Seek),
) -> Result<Loaded, TtFileError> {
    let start = input.stream_position()?;
    entries(rules, root, input, |_| ())?;
    input.seek(SeekFrom::Start(start))?;
    entries(rules, root, input, |e| tt.put_carried(e))
}

/// Reads a table file, checking it, and gives each entry to keep to `put`.
fn entries(
    rules: &Rules,
    root: &Position,
    input: &mut impl Read,
    mut put: impl FnMut(Entry),
) -> Result<Loaded, TtFileError> {
    let mut header = [0u8; HEADER];
    input.read_exact(&mut header).map_err(|e| match e.kind() {
        io::ErrorKind::UnexpectedEof => TtFileError::NotATable,
        _ => TtFileError::Io(e),
    })?;
    let word = |i: usize| u64::from_ne_bytes(header[i..i + 8].try_into().expect("8 bytes"));
    if &header[..4] != MAGIC || header[4..8] != VERSION.to_ne_bytes() {
        return Err(TtFileError::NotATable);
    }
    if word(8) != fingerprint(rules) {
        return Err(TtFileError::Fingerprint);
    }
    let keep = if word(16) == root.hash() {
        Keep::All
    } else {
        Keep::Solved
    };
    let count = word(24);
    let mut sum: u64 = 0;
    let mut r = [0u8; RECORD];
    let mut loaded = Loaded {
        entries: 0,
        open: 0,
    };
    for _ in 0..count {
        input.read_exact(&mut r)?;
        sum = fold(sum, &r);
        let e = entry(&r);
        if e.key & 1 == 0 {
            // Not a key: never written so.
            return Err(TtFileError::Checksum);
        }
        if keep.keeps(&e) {
            put(e);
            loaded.entries += 1;
            loaded.open += u64::from(!e.solved());
        }
    }
    let mut trailer = [0u8; TRAILER];
    input.read_exact(&mut trailer)?;
    if sum != u64::from_ne_bytes(trailer) || input.read(&mut [0u8])? != 0 {
        return Err(TtFileError::Checksum);
    }
    Ok(loaded)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tt::{key, Entry, INF};
    use kharbaga::Color;

    fn key_of(k: u64) -> u64 {
        key(k.wrapping_mul(0x2545_F491_4F6C_DD1D), Color::Black)
    }

    /// A table of 1 MiB (49,152 entries) with 3,000 entries: proofs for keys divisible by 3,
    /// disproofs for those leaving 1, open entries for the others; the work is the key.
    fn filled() -> Tt {
        let mut tt = Tt::new(1);
        for k in 0..3000u64 {
            let (pn, dn) = [(0, INF), (INF, 0), (k as u32 + 1, 7)][k as usize % 3];
            tt.put(Entry {
                key: key_of(k),
                pn,
                dn,
                work: k as u32,
                dist: 4,
                aux: 2,
            });
        }
        tt
    }

    /// The root the tests' files are saved for.
    fn root() -> Position {
        Position::start()
    }

    fn saved(tt: &Tt, rules: &Rules) -> Vec<u8> {
        saved_keeping(tt, rules, Keep::Solved)
    }

    fn saved_keeping(tt: &Tt, rules: &Rules, keep: Keep) -> Vec<u8> {
        let mut file = Vec::new();
        write(tt, rules, &root(), keep, &mut file).unwrap();
        file
    }

    fn loaded(entries: u64, open: u64) -> Loaded {
        Loaded { entries, open }
    }

    #[test]
    fn a_saved_table_reads_back_with_its_solved_entries() {
        let rules = Rules::default();
        let tt = filled();
        let file = saved(&tt, &rules);
        assert_eq!(file.len(), HEADER + 2000 * RECORD + TRAILER);
        // Read into a table of another size.
        let mut back = Tt::new(2);
        let got = read(&mut back, &rules, &root(), &mut io::Cursor::new(&file)).unwrap();
        assert_eq!(got, loaded(2000, 0));
        assert!(back.has_carried());
        for k in 0..3000 {
            let (then, now) = (tt.get(key_of(k)), back.get(key_of(k)));
            match k % 3 {
                2 => assert_eq!(now, None),
                _ => assert_eq!(now, then),
            }
        }
        assert_eq!(back.get(key_of(3)).map(|e| (e.pn, e.dist)), Some((0, 4)));
    }

    #[test]
    fn open_entries_are_kept_on_request_and_read_back_for_the_same_root_only() {
        let rules = Rules::default();
        let tt = filled();
        let file = saved_keeping(&tt, &rules, Keep::All);
        assert_eq!(file.len(), HEADER + 3000 * RECORD + TRAILER);
        let mut same = Tt::new(2);
        let got = read(&mut same, &rules, &root(), &mut io::Cursor::new(&file)).unwrap();
        assert_eq!(got, loaded(3000, 1000));
        for k in 0..3000 {
            assert_eq!(same.get(key_of(k)), tt.get(key_of(k)), "key {k}");
        }
        // Another root: the solved entries only.
        let other = Position::from_fen("W:BKa1,c3:Wg7,Ki9").unwrap();
        let mut elsewhere = Tt::new(2);
        let got = read(&mut elsewhere, &rules, &other, &mut io::Cursor::new(&file)).unwrap();
        assert_eq!(got, loaded(2000, 0));
        for k in 0..3000 {
            let want = if k % 3 == 2 { None } else { tt.get(key_of(k)) };
            assert_eq!(elsewhere.get(key_of(k)), want, "key {k}");
        }
    }

    #[test]
    fn only_the_most_worked_eighth_of_the_table_is_saved() {
        // A full table of solved entries, the work rising from 0: the least work saved is a
        // power of two that keeps at most an eighth of them, and half of it would keep more.
        let mut tt = Tt::new(1);
        let n = tt.capacity() as u64;
        let mut k = 0;
        let mut stored = 0;
        while stored < n && k < 10 * n {
            let e = Entry {
                key: key_of(k),
                pn: 0,
                dn: INF,
                work: stored as u32,
                ..Entry::default()
            };
            tt.put(e);
            if tt.get(e.key).is_some() {
                stored += 1;
            }
            k += 1;
        }
        let (least, count) = least_work(&tt, Keep::Solved);
        let kept = tt
            .entries()
            .filter(Entry::solved)
            .filter(|e| e.work >= least)
            .count();
        assert_eq!(kept as u64, count);
        assert!(kept <= tt.most_entries() / SAVED_SHARE, "{kept} kept");
        assert!(
            tt.entries()
                .filter(Entry::solved)
                .filter(|e| e.work >= least / 2)
                .count()
                > tt.most_entries() / SAVED_SHARE,
            "the next power of two down would keep too many"
        );
        let file = saved(&tt, &Rules::default());
        assert_eq!(file.len(), HEADER + kept * RECORD + TRAILER);
        let mut back = Tt::new(1);
        read(
            &mut back,
            &Rules::default(),
            &root(),
            &mut io::Cursor::new(&file),
        )
        .unwrap();
        assert!(back
            .entries()
            .filter(Entry::solved)
            .all(|e| e.work >= least));
        assert_eq!(back.entries().filter(Entry::solved).count(), kept);
    }

    #[test]
    fn a_file_for_other_rules_or_damaged_is_refused_and_leaves_the_table_as_it_was() {
        let rules = Rules::default();
        let file = saved(&filled(), &rules);
        let refused = |file: &[u8], rules: &Rules| {
            let mut tt = Tt::new(1);
            let own = Entry {
                key: 3,
                pn: 0,
                dn: INF,
                ..Entry::default()
            };
            tt.put(own);
            let e = read(&mut tt, rules, &root(), &mut io::Cursor::new(file)).unwrap_err();
            // The entry the table had, and none of the file's (its first entries are
            // sound: only a whole check keeps them out).
            assert_eq!(tt.entries().collect::<Vec<_>>(), vec![own]);
            assert!(!tt.has_carried());
            e
        };
        let ludii = Rules::named("ludii").unwrap();
        assert!(matches!(refused(&file, &ludii), TtFileError::Fingerprint));
        for at in [HEADER + 3, HEADER + 9, HEADER + 1000, file.len() - 1] {
            let mut damaged = file.clone();
            damaged[at] ^= 1;
            assert!(
                matches!(refused(&damaged, &rules), TtFileError::Checksum),
                "byte {at}"
            );
        }
        let short = &file[..file.len() - 1];
        assert!(matches!(refused(short, &rules), TtFileError::Checksum));
        let mut longer = file.clone();
        longer.push(0);
        assert!(matches!(refused(&longer, &rules), TtFileError::Checksum));
        assert!(matches!(refused(b"KHTX", &rules), TtFileError::NotATable));
        assert!(matches!(refused(&[], &rules), TtFileError::NotATable));
        assert_eq!(
            TtFileError::Checksum.to_string(),
            "the file is damaged: its entries do not match its checksum"
        );
    }
}
