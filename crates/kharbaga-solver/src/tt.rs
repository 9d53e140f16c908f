//! The transposition table of the proof search: proof and disproof numbers of positions,
//! with what a solved position's result depends on.
//!
//! A position's key is its hash mixed with the prover, so the searches for both sides share
//! one table. Buckets of three entries, each bucket one cache line (64 bytes: the full keys,
//! then each entry's numbers packed in 13 bytes), so a probe waits for one line of memory; a
//! new entry replaces an entry carried over from an earlier solve ([`crate::tt_file`]) first,
//! then an open entry before a solved one (proofs are written from the solved ones), and
//! among those the one with the least work (nodes searched below it), so the large subtrees
//! stay. (Carried entries go first so that a table full of them leaves the search the room
//! it would have had in an empty table.)
//!
//! The table starts small (4 MiB) and, until it reaches the size asked for, doubles instead
//! of replacing an entry (when a new entry's bucket is full), so the search is the same, node
//! for node, as with the whole table from the start; but a solve that needs little memory
//! touches little. The system zeroes every page on its first touch, 2 MiB at a time with
//! huge pages: a 4 GiB table spread a short solve's entries over all of it. A bucket's
//! entries go to two buckets of the doubled table, so growing loses nothing. The whole size
//! is mapped from the start and the table grows into it in place: the memory touched is the
//! table's size now, never more.
//!
//! A solved entry records the range of no-progress counts it holds for: a proof holds when
//! the count at the position plus its `aux` (the longest run of plies without a capture or a
//! man's move its proof needs) is below the limit; a disproof holds from the count `aux` up
//! (a higher count only makes the prover's task harder). Disproofs that rest on a repetition
//! of a position above them on the search path are never stored (see [`crate::dfpn`]).

use kharbaga::Color;
use kharbaga_engine::slots::{Slots, Zeroable};

/// "Infinite" proof and disproof numbers: a solved node has one of them at 0 and the other
/// here. Sums saturate here.
pub const INF: u32 = u32::MAX / 4;

/// One stored position.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Entry {
    /// The key (hash and prover); 0 marks an empty slot.
    pub key: u64,
    /// The proof number: 0 when proven (stored up to [`INF`]).
    pub pn: u32,
    /// The disproof number: 0 when disproven (stored up to [`INF`]).
    pub dn: u32,
    /// Nodes searched below this position (saturating): the replacement priority. Stored
    /// with 7 significant bits (exact below 128), so it reads back rounded down.
    pub work: u32,
    /// For a proof: the longest line to the end, in plies (used to pick the move of a proof
    /// so that proofs have no cycle).
    pub dist: u16,
    /// For a proof, the longest quiet run it needs; for a disproof, the least count it holds
    /// from.
    pub aux: u16,
}

impl Entry {
    /// Whether the entry is a proof valid at no-progress count `q` under `limit`.
    pub fn proof_at(&self, q: u32, limit: u32) -> bool {
        self.pn == 0 && q.saturating_add(u32::from(self.aux)) < limit
    }

    /// Whether the entry is a disproof valid at no-progress count `q`.
    pub fn disproof_at(&self, q: u32) -> bool {
        self.dn == 0 && q >= u32::from(self.aux)
    }

    /// Whether the entry is proven or disproven (else its numbers are a search's estimate).
    pub fn solved(&self) -> bool {
        self.pn == 0 || self.dn == 0
    }
}

/// Entries in a bucket.
const BUCKET: usize = 3;

/// The bytes of an entry's numbers in a bucket.
const PACKED: usize = 13;

/// One cache line of the table: the keys of three entries, then their numbers, then which
/// of them were carried over from an earlier solve (a bit each).
#[derive(Copy, Clone)]
#[repr(C, align(64))]
struct Bucket {
    keys: [u64; BUCKET],
    numbers: [[u8; PACKED]; BUCKET],
    carried: u8,
}

/// An empty bucket.
const EMPTY: Bucket = Bucket {
    keys: [0; BUCKET],
    numbers: [[0; PACKED]; BUCKET],
    carried: 0,
};

// SAFETY: plain bytes: all zero is a bucket of empty slots.
unsafe impl Zeroable for Bucket {}

const _: () = assert!(std::mem::size_of::<Bucket>() == 64);

/// An entry's numbers in 104 bits: the proof and disproof numbers in 30 bits each (up to
/// [`INF`]), `dist` and `aux` in 16 each, and the work's code in 12.
fn pack(e: &Entry) -> [u8; PACKED] {
    let v = u128::from(e.pn.min(INF))
        | u128::from(e.dn.min(INF)) << 30
        | u128::from(e.dist) << 60
        | u128::from(e.aux) << 76
        | u128::from(work_code(e.work)) << 92;
    let mut out = [0; PACKED];
    out.copy_from_slice(&v.to_le_bytes()[..PACKED]);
    out
}

/// The entry of `key` with the numbers `bytes` ([`pack`]).
fn unpack(key: u64, bytes: &[u8; PACKED]) -> Entry {
    let mut all = [0; 16];
    all[..PACKED].copy_from_slice(bytes);
    let v = u128::from_le_bytes(all);
    let field = |shift: u32, bits: u32| ((v >> shift) & ((1 << bits) - 1)) as u32;
    Entry {
        key,
        pn: field(0, 30),
        dn: field(30, 30),
        dist: field(60, 16) as u16,
        aux: field(76, 16) as u16,
        work: work_of(field(92, 12)),
    }
}

/// The work as a small float that keeps the order: exact below 128, then 7 significant
/// bits (codes up to 1,727).
fn work_code(work: u32) -> u32 {
    if work < 128 {
        return work;
    }
    let shift = 32 - work.leading_zeros() - 7;
    (shift << 6) + (work >> shift)
}

/// The least work of a code ([`work_code`]).
fn work_of(code: u32) -> u32 {
    if code < 128 {
        return code;
    }
    let shift = code / 64 - 1;
    (code - (shift << 6)) << shift
}

/// How much slot `i` of `bucket` is worth keeping: nothing for an entry carried over from
/// an earlier solve, then solved entries before open ones (a proof is written from them),
/// then by work.
fn keep(bucket: &Bucket, i: usize) -> u64 {
    if bucket.carried & (1 << i) != 0 {
        return 0;
    }
    let e = unpack(0, &bucket.numbers[i]);
    let solved = e.pn == 0 || e.dn == 0;
    (1 << 40) | (u64::from(solved) << 32) | u64::from(e.work)
}

/// The table: a power-of-two number of buckets.
pub struct Tt {
    buckets: Slots<Bucket>,
    mask: usize,
    /// Whether entries were carried over from an earlier solve since the table was last
    /// emptied: then it may hold proofs that justify each other across the two solves.
    carried: bool,
    /// The entries in use.
    used: usize,
    /// The number of buckets the table may grow to (a power of two).
    most: usize,
}

/// The buckets a table starts with (4 MiB), unless asked for fewer.
const FIRST_BUCKETS: usize = 1 << 16;

/// Mixes the prover into a position's hash.
pub fn key(hash: u64, prover: Color) -> u64 {
    let salt = match prover {
        Color::Black => 0,
        Color::White => 0x9E37_79B9_7F4A_7C15,
    };
    (hash ^ salt) | 1
}

impl Tt {
    /// A table of about `mib` MiB at most (at least one bucket), starting smaller.
    pub fn new(mib: usize) -> Tt {
        let want = (mib << 20) / std::mem::size_of::<Bucket>();
        let mut most = 1;
        while most * 2 <= want {
            most *= 2;
        }
        let n = most.min(FIRST_BUCKETS);
        Tt {
            // The whole size is mapped at once but only touched as the table grows into it.
            buckets: Slots::new(most),
            mask: n - 1,
            carried: false,
            used: 0,
            most,
        }
    }

    /// Empties the table (back to its first size).
    pub fn clear(&mut self) {
        self.live_mut().fill(EMPTY);
        self.mask = self.most.min(FIRST_BUCKETS) - 1;
        self.carried = false;
        self.used = 0;
    }

    /// The buckets in use: the first `mask + 1` of the mapping.
    fn live(&self) -> &[Bucket] {
        &self.buckets[..=self.mask]
    }

    fn live_mut(&mut self) -> &mut [Bucket] {
        &mut self.buckets[..=self.mask]
    }

    /// The table's size now, in MiB.
    pub fn mib(&self) -> usize {
        std::mem::size_of_val(self.live()) >> 20
    }

    /// The number of entries the table holds at its largest.
    pub fn most_entries(&self) -> usize {
        self.most * BUCKET
    }

    /// Doubles the table in place: each bucket keeps the entries whose key still selects
    /// it, and gives the others to the bucket a table's old size above it, new and empty,
    /// so none is lost.
    fn grow(&mut self) {
        let old = self.mask + 1;
        let n = old * 2;
        for b in 0..old {
            let bucket = self.buckets[b];
            let mut halves = [EMPTY; 2];
            let mut filled = [0usize; 2];
            for i in 0..BUCKET {
                let key = bucket.keys[i];
                if key == 0 {
                    continue;
                }
                let high = usize::from((key >> 1) as usize & (n - 1) != b);
                let (to, slot) = (&mut halves[high], filled[high]);
                filled[high] += 1;
                to.keys[slot] = key;
                to.numbers[slot] = bucket.numbers[i];
                to.carried |= ((bucket.carried >> i) & 1) << slot;
            }
            self.buckets[b] = halves[0];
            self.buckets[b + old] = halves[1];
        }
        self.mask = n - 1;
    }

    /// Whether entries were carried over from an earlier solve ([`Tt::put_carried`])
    /// since the table was last emptied.
    pub fn has_carried(&self) -> bool {
        self.carried
    }

    /// Keeps the solved entries as carried over from an earlier solve (the first replaced,
    /// as [`Tt::put_carried`] stores them) and drops the open ones, whose numbers were
    /// worked out for this solve's root and mislead another (see [`crate::tt_file`]): a
    /// table kept for the next solve (`kharbaga solve --serve`) carries what a file of its
    /// solved entries would, all of them. Returns the number of entries kept.
    pub fn carry_over(&mut self) -> usize {
        let mut kept = 0;
        for bucket in self.live_mut() {
            for i in 0..BUCKET {
                if bucket.keys[i] == 0 {
                    continue;
                }
                let e = unpack(0, &bucket.numbers[i]);
                if e.pn == 0 || e.dn == 0 {
                    bucket.carried |= 1 << i;
                    kept += 1;
                } else {
                    bucket.keys[i] = 0;
                    bucket.numbers[i] = [0; PACKED];
                    bucket.carried &= !(1 << i);
                }
            }
        }
        self.used = kept;
        self.carried |= kept > 0;
        kept
    }

    /// Every entry, bucket by bucket.
    pub fn entries(&self) -> impl Iterator<Item = Entry> + '_ {
        self.live().iter().flat_map(|bucket| {
            (0..BUCKET)
                .filter(|&i| bucket.keys[i] != 0)
                .map(|i| unpack(bucket.keys[i], &bucket.numbers[i]))
        })
    }

    /// The number of entries the table holds now (it grows up to [`Tt::most_entries`]).
    pub fn capacity(&self) -> usize {
        self.live().len() * BUCKET
    }

    /// The bucket of `key` (its lowest bit is always set, so it is left out).
    fn bucket(&self, key: u64) -> usize {
        (key >> 1) as usize & self.mask
    }

    /// Asks the processor to fetch the bucket of `key` ahead of a [`Tt::get`].
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let b = self.bucket(key);
            // SAFETY: a prefetch has no effect on memory; the address is in the table.
            unsafe {
                use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
                _mm_prefetch::<_MM_HINT_T0>(self.buckets.as_ptr().add(b).cast());
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The entry of `key`, if stored.
    pub fn get(&self, key: u64) -> Option<Entry> {
        let bucket = &self.buckets[self.bucket(key)];
        let i = bucket.keys.iter().position(|&k| k == key)?;
        Some(unpack(key, &bucket.numbers[i]))
    }

    /// Drops the entry of `key`, if stored.
    pub fn remove(&mut self, key: u64) {
        let b = self.bucket(key);
        let bucket = &mut self.buckets[b];
        if let Some(i) = bucket.keys.iter().position(|&k| k == key) {
            bucket.keys[i] = 0;
            bucket.numbers[i] = [0; PACKED];
            bucket.carried &= !(1 << i);
            self.used -= 1;
        }
    }

    /// Stores `entry` (its key included), replacing the same key, an empty slot, or the
    /// least-worked entry of the bucket.
    pub fn put(&mut self, entry: Entry) {
        let (b, slot) = self.store(entry);
        self.buckets[b].carried &= !(1 << slot);
    }

    /// Stores `entry` as [`Tt::put`] does, as an entry carried over from an earlier solve:
    /// the first to be replaced (until stored again).
    pub fn put_carried(&mut self, entry: Entry) {
        let (b, slot) = self.store(entry);
        self.buckets[b].carried |= 1 << slot;
        self.carried = true;
    }

    /// Stores `entry`: its bucket and slot.
    fn store(&mut self, entry: Entry) -> (usize, usize) {
        // A table that can still grow replaces nothing: it doubles instead.
        while self.mask < self.most - 1 {
            let bucket = &self.buckets[self.bucket(entry.key)];
            if bucket.keys.iter().any(|&k| k == entry.key || k == 0) {
                break;
            }
            self.grow();
        }
        let b = self.bucket(entry.key);
        let bucket = &mut self.buckets[b];
        let slot = match bucket.keys.iter().position(|&k| k == entry.key) {
            Some(i) => i,
            None => {
                let mut best = 0;
                for i in 0..BUCKET {
                    if bucket.keys[i] == 0 {
                        best = i;
                        break;
                    }
                    if keep(bucket, i) < keep(bucket, best) {
                        best = i;
                    }
                }
                best
            }
        };
        let new = bucket.keys[slot] == 0;
        bucket.keys[slot] = entry.key;
        bucket.numbers[slot] = pack(&entry);
        self.used += usize::from(new);
        (b, slot)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stored_entry_is_found_and_the_least_worked_is_replaced() {
        let mut tt = Tt::new(0);
        assert_eq!(tt.capacity(), BUCKET);
        for k in 1..=3u64 {
            tt.put(Entry {
                key: k * 8 + 1,
                pn: 5,
                dn: 7,
                work: k as u32 * 10,
                ..Entry::default()
            });
        }
        assert_eq!(tt.get(17).map(|e| e.work), Some(20));
        tt.put(Entry {
            key: 99,
            pn: 1,
            dn: 1,
            work: 5,
            ..Entry::default()
        });
        assert_eq!(tt.get(9), None, "the entry with the least work goes");
        assert!(tt.get(99).is_some() && tt.get(25).is_some());
        // A solved entry stays before an open one with more work.
        tt.put(Entry {
            key: 41,
            pn: 0,
            dn: INF,
            work: 1,
            ..Entry::default()
        });
        assert_eq!(tt.get(99), None);
        tt.put(Entry {
            key: 57,
            pn: 3,
            dn: 3,
            work: 1_000_000,
            ..Entry::default()
        });
        assert!(tt.get(41).is_some(), "the solved entry stays");
        assert_eq!(tt.get(17), None, "the open entry with the least work goes");
    }

    /// Every entry of `tt`, with whether it is marked as carried over.
    fn contents(tt: &Tt) -> Vec<(Entry, bool)> {
        let mut all: Vec<(Entry, bool)> = tt
            .live()
            .iter()
            .flat_map(|bucket| {
                (0..BUCKET).filter(|&i| bucket.keys[i] != 0).map(move |i| {
                    (
                        unpack(bucket.keys[i], &bucket.numbers[i]),
                        bucket.carried & (1 << i) != 0,
                    )
                })
            })
            .collect();
        all.sort_by_key(|(e, _)| e.key);
        all
    }

    #[test]
    fn the_table_doubles_instead_of_replacing_and_loses_no_entry() {
        let mut tt = Tt::new(64);
        let first = tt.capacity();
        assert_eq!(first, FIRST_BUCKETS * BUCKET, "a table starts at 4 MiB");
        assert_eq!(tt.most_entries(), (64 << 20) / 64 * BUCKET);
        let mut k = 0u64;
        while tt.used * 8 < first {
            let e = Entry {
                key: (k.wrapping_mul(0x9E37_79B9_7F4A_7C15) << 1) | 1,
                pn: (k % 7) as u32,
                dn: (k % 5) as u32 + 1,
                work: k as u32,
                dist: k as u16,
                aux: (k / 3) as u16,
            };
            if k % 3 == 0 {
                tt.put_carried(e);
            } else {
                tt.put(e);
            }
            k += 1;
        }
        let before = contents(&tt);
        assert_eq!(
            before.len() as u64,
            k,
            "nothing replaced: the table doubles instead"
        );
        assert_eq!(before.len(), tt.used);
        assert!(before.iter().any(|&(_, carried)| carried));
        tt.grow();
        assert_eq!(tt.capacity(), 2 * first);
        assert_eq!(
            contents(&tt),
            before,
            "every entry, its numbers and its mark kept"
        );
        for (e, _) in &before {
            assert_eq!(tt.get(e.key), Some(*e), "found where a probe looks");
        }
        tt.clear();
        assert_eq!(
            (tt.capacity(), tt.used),
            (first, 0),
            "emptied to its first size"
        );
        tt.grow();
        assert!(
            before.iter().all(|(e, _)| tt.get(e.key).is_none()),
            "and what it held beyond its first size is gone too"
        );
    }

    #[test]
    fn the_table_grows_on_its_own_up_to_the_size_asked_for_and_no_further() {
        let mut tt = Tt::new(8);
        for k in 0..(1u64 << 20) {
            tt.put(Entry {
                key: (k.wrapping_mul(0x9E37_79B9_7F4A_7C15) << 1) | 1,
                pn: 1,
                dn: 1,
                work: 1,
                ..Entry::default()
            });
        }
        assert_eq!(tt.capacity(), tt.most_entries());
        assert_eq!(tt.most_entries(), (8 << 20) / 64 * BUCKET);
    }

    /// A proof of `key` with much work below it.
    fn solved(key: u64) -> Entry {
        Entry {
            key,
            pn: 0,
            dn: INF,
            work: 1_000_000,
            ..Entry::default()
        }
    }

    #[test]
    fn entries_carried_over_are_replaced_first_until_stored_again() {
        let mut tt = Tt::new(0);
        let open = |key| Entry {
            key,
            pn: 2,
            dn: 2,
            work: 1,
            ..Entry::default()
        };
        tt.put_carried(solved(9));
        tt.put_carried(solved(17));
        tt.put_carried(solved(25));
        assert!(tt.has_carried());
        // Stored again, 25 is this solve's own entry.
        tt.put(solved(25));
        tt.put(open(33));
        tt.put(open(41));
        assert_eq!(tt.get(9), None, "a carried entry goes before an open one");
        assert_eq!(tt.get(17), None, "a carried entry goes before an open one");
        assert!(tt.get(25).is_some() && tt.get(33).is_some() && tt.get(41).is_some());
        tt.put(open(49));
        assert!(
            tt.get(25).is_some(),
            "then as before: the solved entry stays"
        );
        assert_eq!(tt.get(33), None);
    }

    #[test]
    fn a_removed_entry_frees_its_slot() {
        let mut tt = Tt::new(0);
        tt.put_carried(solved(9));
        tt.put(solved(17));
        tt.put(solved(25));
        tt.remove(9);
        tt.remove(57); // not stored: nothing happens
        assert_eq!(tt.get(9), None);
        assert!(tt.get(17).is_some() && tt.get(25).is_some());
        assert_eq!(tt.used, 2);
        // The freed slot takes the next entry: nothing stored is replaced.
        tt.put(solved(33));
        assert!([17, 25, 33].iter().all(|&k| tt.get(k).is_some()));
        assert_eq!(tt.used, 3);
    }

    #[test]
    fn carrying_over_keeps_the_solved_entries_marked_and_drops_the_open_ones() {
        let mut tt = Tt::new(1);
        let entry = |k: u64, pn, dn| Entry {
            key: (k.wrapping_mul(0x9E37_79B9_7F4A_7C15) << 1) | 1,
            pn,
            dn,
            work: k as u32 + 1,
            dist: 3,
            aux: 4,
        };
        let all: Vec<Entry> = (0..300u64)
            .map(|k| match k % 3 {
                0 => entry(k, 0, INF),
                1 => entry(k, INF, 0),
                _ => entry(k, 5, 6),
            })
            .collect();
        for e in &all {
            tt.put(*e);
        }
        assert_eq!(tt.used, all.len(), "the table holds them all");
        assert!(!tt.has_carried());
        assert_eq!(tt.carry_over(), 200);
        assert!(tt.has_carried());
        assert_eq!(tt.used, 200);
        let kept = contents(&tt);
        let solved: Vec<Entry> = all.iter().filter(|e| e.solved()).copied().collect();
        assert_eq!(kept.len(), solved.len());
        assert!(kept.iter().all(|&(_, carried)| carried), "every one marked");
        for e in &all {
            let back = tt.get(e.key);
            if e.solved() {
                assert_eq!(
                    back.map(|b| (b.pn, b.dn, b.dist, b.aux)),
                    Some((e.pn, e.dn, 3, 4))
                );
            } else {
                assert_eq!(back, None, "an open entry is dropped");
            }
        }
    }

    #[test]
    fn an_entry_reads_back_as_stored_with_its_work_rounded_down() {
        let mut tt = Tt::new(1);
        let entries = [
            (0, INF, 0, u16::MAX, u16::MAX),
            (INF, 0, 127, 0, 99),
            (12_345, 678_901, 128, 103, 0),
            (1, 2, u32::MAX, 1, 2),
        ];
        for (i, &(pn, dn, work, dist, aux)) in entries.iter().enumerate() {
            let e = Entry {
                key: (i as u64) << 20 | 1,
                pn,
                dn,
                work,
                dist,
                aux,
            };
            tt.put(e);
            let back = tt.get(e.key).unwrap();
            assert_eq!((back.pn, back.dn, back.dist, back.aux), (pn, dn, dist, aux));
            assert!(back.work <= work && work - back.work <= work / 64);
        }
        // The work's code keeps the order, exactly below 128.
        let mut last = 0;
        for w in (0..200_000u32).chain([u32::MAX - 1, u32::MAX]) {
            let code = work_code(w);
            assert!(code >= last && code < 1 << 12);
            assert_eq!(work_code(work_of(code)), code);
            if w < 128 {
                assert_eq!(work_of(code), w);
            }
            last = code;
        }
    }

    #[test]
    fn solved_entries_hold_only_for_their_no_progress_counts() {
        let proof = Entry {
            key: 1,
            pn: 0,
            dn: INF,
            aux: 10,
            ..Entry::default()
        };
        assert!(proof.proof_at(89, 100));
        assert!(!proof.proof_at(90, 100));
        let disproof = Entry {
            key: 1,
            pn: INF,
            dn: 0,
            aux: 30,
            ..Entry::default()
        };
        assert!(!disproof.disproof_at(29));
        assert!(disproof.disproof_at(30));
        assert_ne!(key(5, Color::Black), key(5, Color::White));
    }
}
