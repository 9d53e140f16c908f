//! The transposition table of the proof search: proof and disproof numbers of positions,
//! with what a solved position's result depends on.
//!
//! A position's key is its hash mixed with the prover, so the searches for both sides share
//! one table. Buckets of four entries; a new entry replaces an open entry before a solved one
//! (proofs are written from the solved ones), and among those the one with the least work
//! (nodes searched below it), so the large subtrees stay.
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
    /// The proof number: 0 when proven.
    pub pn: u32,
    /// The disproof number: 0 when disproven.
    pub dn: u32,
    /// Nodes searched below this position (saturating): the replacement priority.
    pub work: u32,
    /// For a proof: the longest line to the end, in plies (used to pick the move of a proof
    /// so that proofs have no cycle).
    pub dist: u16,
    /// For a proof, the longest quiet run it needs; for a disproof, the least count it holds
    /// from.
    pub aux: u16,
}

// SAFETY: plain integers: all zero is the empty entry.
unsafe impl Zeroable for Entry {}

impl Entry {
    /// How much the entry is worth keeping: solved entries before open ones (a proof is
    /// written from them), then by work.
    fn keep(&self) -> u64 {
        let solved = self.pn == 0 || self.dn == 0;
        (u64::from(solved) << 32) | u64::from(self.work)
    }

    /// Whether the entry is a proof valid at no-progress count `q` under `limit`.
    pub fn proof_at(&self, q: u32, limit: u32) -> bool {
        self.pn == 0 && q.saturating_add(u32::from(self.aux)) < limit
    }

    /// Whether the entry is a disproof valid at no-progress count `q`.
    pub fn disproof_at(&self, q: u32) -> bool {
        self.dn == 0 && q >= u32::from(self.aux)
    }
}

/// The table: a power-of-two number of entries in buckets of four.
pub struct Tt {
    entries: Slots<Entry>,
    mask: usize,
    stores: u64,
}

const BUCKET: usize = 4;

/// Mixes the prover into a position's hash.
pub fn key(hash: u64, prover: Color) -> u64 {
    let salt = match prover {
        Color::Black => 0,
        Color::White => 0x9E37_79B9_7F4A_7C15,
    };
    (hash ^ salt) | 1
}

impl Tt {
    /// A table of about `mib` MiB (at least one bucket).
    pub fn new(mib: usize) -> Tt {
        let want = (mib << 20) / std::mem::size_of::<Entry>();
        let mut n = BUCKET;
        while n * 2 <= want {
            n *= 2;
        }
        Tt {
            entries: Slots::new(n),
            mask: n - 1,
            stores: 0,
        }
    }

    /// Empties the table.
    pub fn clear(&mut self) {
        self.entries.fill(Entry::default());
    }

    /// The number of entries.
    pub fn capacity(&self) -> usize {
        self.entries.len()
    }

    /// The number of stores made so far.
    pub fn stores(&self) -> u64 {
        self.stores
    }

    fn bucket(&self, key: u64) -> usize {
        (key as usize) & self.mask & !(BUCKET - 1)
    }

    /// Asks the processor to fetch the bucket of `key` ahead of a [`Tt::get`]. A bucket is
    /// 96 bytes, so it spans two cache lines: both are fetched (the first line alone left
    /// the search waiting on the other: `perf annotate` put three quarters of the leaf's own
    /// time on the keys of the bucket's last two entries).
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let b = self.bucket(key);
            // SAFETY: a prefetch has no effect on memory; both addresses are in the bucket,
            // its first byte and its last.
            unsafe {
                use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
                let first = self.entries.as_ptr().add(b).cast::<i8>();
                _mm_prefetch::<_MM_HINT_T0>(first);
                _mm_prefetch::<_MM_HINT_T0>(first.add(BUCKET * std::mem::size_of::<Entry>() - 1));
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The entry of `key`, if stored.
    pub fn get(&self, key: u64) -> Option<Entry> {
        let b = self.bucket(key);
        self.entries[b..b + BUCKET]
            .iter()
            .find(|e| e.key == key)
            .copied()
    }

    /// Stores `entry` (its key included), replacing the same key or the least-worked entry
    /// of the bucket.
    pub fn put(&mut self, entry: Entry) {
        self.stores += 1;
        let b = self.bucket(entry.key);
        let bucket = &mut self.entries[b..b + BUCKET];
        let slot = match bucket.iter().position(|e| e.key == entry.key) {
            Some(i) => i,
            None => {
                let mut best = 0;
                for (i, e) in bucket.iter().enumerate() {
                    if e.key == 0 {
                        best = i;
                        break;
                    }
                    if e.keep() < bucket[best].keep() {
                        best = i;
                    }
                }
                best
            }
        };
        bucket[slot] = entry;
    }

    /// The share of slots in use, in per mille, from the first thousand buckets.
    pub fn hashfull(&self) -> u32 {
        let n = self.entries.len().min(4000);
        let used = self.entries[..n].iter().filter(|e| e.key != 0).count();
        (used * 1000 / n) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stored_entry_is_found_and_the_least_worked_is_replaced() {
        let mut tt = Tt::new(0);
        assert_eq!(tt.capacity(), BUCKET);
        for k in 1..=4u64 {
            tt.put(Entry {
                key: k * 8 + 1,
                work: k as u32 * 10,
                ..Entry::default()
            });
        }
        assert_eq!(tt.get(17).map(|e| e.work), Some(20));
        tt.put(Entry {
            key: 99,
            work: 5,
            ..Entry::default()
        });
        assert_eq!(tt.get(9), None, "the entry with the least work goes");
        assert!(tt.get(99).is_some() && tt.get(33).is_some());
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
