//! The transposition table: buckets of four entries, each entry two `AtomicU64` words
//! (the key xored with the data, and the data), so that threads share it without locks: a
//! torn write from two threads makes the key check fail instead of returning wrong data.

use crate::slots::{Slots, Zeroable};
use kharbaga::{Move, Point};
use std::sync::atomic::{AtomicU64, Ordering};

/// How a stored score bounds the true score.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true score is at most the stored one (the search failed low).
    Upper = 1,
    /// The true score is at least the stored one (the search failed high).
    Lower = 2,
    /// The stored score is exact.
    Exact = 3,
}

/// A compact reference to a move: start, end and a fold of the captured set, enough to
/// find the move again among the legal moves of the position.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct MoveKey(u32);

impl MoveKey {
    const VALID: u32 = 1 << 31;

    /// The key of `mv`.
    pub fn of(mv: &Move) -> MoveKey {
        let c = mv.captured().0;
        let fold = ((c ^ (c >> 19) ^ (c >> 38)) & 0x7_FFFF) as u32;
        MoveKey(
            Self::VALID
                | (mv.from().index() as u32)
                | ((mv.to().index() as u32) << 6)
                | (fold << 12),
        )
    }

    /// Whether `mv` has this key.
    pub fn matches(self, mv: &Move) -> bool {
        MoveKey::of(mv) == self
    }

    /// The start point.
    pub fn from(self) -> Option<Point> {
        Point::new((self.0 & 63) as u8)
    }
}

/// What a probe finds.
#[derive(Copy, Clone, Debug)]
pub struct Hit {
    /// The best move found, if any.
    pub mv: Option<MoveKey>,
    /// The score, relative to the node (see [`crate::score::to_tt`]).
    pub score: i32,
    /// The depth of the search that stored it.
    pub depth: i32,
    /// How the score bounds the true score.
    pub bound: Bound,
}

struct Entry {
    check: AtomicU64,
    data: AtomicU64,
}

// SAFETY: two atomics; all zero is the empty entry.
unsafe impl Zeroable for Entry {}

const BUCKET: usize = 4;

/// A shared, lock-free transposition table.
pub struct Table {
    entries: Slots<Entry>,
    buckets: usize,
    generation: AtomicU64,
}

fn pack(mv: Option<MoveKey>, score: i32, depth: i32, bound: Bound, generation: u64) -> u64 {
    let m = mv.map_or(0, |k| k.0) as u64;
    (score as i16 as u16 as u64)
        | ((depth.clamp(0, 255) as u64) << 16)
        | ((bound as u64) << 24)
        | ((generation & 63) << 26)
        | (m << 32)
}

fn unpack(data: u64) -> Option<Hit> {
    let bound = match (data >> 24) & 3 {
        1 => Bound::Upper,
        2 => Bound::Lower,
        3 => Bound::Exact,
        _ => return None,
    };
    let m = (data >> 32) as u32;
    Some(Hit {
        mv: (m & MoveKey::VALID != 0).then_some(MoveKey(m)),
        score: data as u16 as i16 as i32,
        depth: ((data >> 16) & 255) as i32,
        bound,
    })
}

impl Table {
    /// A table of about `mib` MiB (at least one bucket).
    pub fn new(mib: usize) -> Table {
        let bytes = mib.max(1) << 20;
        let wanted = (bytes / (BUCKET * std::mem::size_of::<Entry>())).max(1);
        let buckets = if wanted.is_power_of_two() {
            wanted
        } else {
            wanted.next_power_of_two() / 2
        };
        Table {
            entries: Slots::new(buckets * BUCKET),
            buckets,
            generation: AtomicU64::new(0),
        }
    }

    /// The size in MiB.
    pub fn mib(&self) -> usize {
        (self.entries.len() * std::mem::size_of::<Entry>()) >> 20
    }

    /// Empties the table.
    pub fn clear(&self) {
        for e in self.entries.iter() {
            e.check.store(0, Ordering::Relaxed);
            e.data.store(0, Ordering::Relaxed);
        }
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Starts a new search: older entries become preferred for replacement.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    fn bucket(&self, key: u64) -> &[Entry] {
        let b = (key as usize) & (self.buckets - 1);
        &self.entries[b * BUCKET..(b + 1) * BUCKET]
    }

    /// Asks the processor to fetch the bucket of `key` into its cache ahead of a
    /// [`Table::probe`] (a search prefetches a child's bucket as soon as it makes the move).
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: a prefetch has no effect on memory, and the bucket is inside the table.
        unsafe {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            _mm_prefetch::<_MM_HINT_T0>(self.bucket(key).as_ptr().cast());
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The entry stored for `key`, if any.
    pub fn probe(&self, key: u64) -> Option<Hit> {
        for e in self.bucket(key) {
            let data = e.data.load(Ordering::Relaxed);
            if e.check.load(Ordering::Relaxed) ^ data == key {
                return unpack(data);
            }
        }
        None
    }

    /// Stores a search result for `key`, keeping the old move when the new result has none.
    pub fn store(&self, key: u64, mv: Option<MoveKey>, score: i32, depth: i32, bound: Bound) {
        let generation = self.generation.load(Ordering::Relaxed);
        let bucket = self.bucket(key);
        let mut victim = &bucket[0];
        let mut victim_worth = i64::MAX;
        for e in bucket {
            let data = e.data.load(Ordering::Relaxed);
            let check = e.check.load(Ordering::Relaxed);
            if check ^ data == key {
                let old = unpack(data);
                // Keep a deeper exact result of this search unless the new one is exact.
                let mv = mv.or(old.and_then(|h| h.mv));
                if let Some(h) = old {
                    if bound != Bound::Exact
                        && h.depth > depth + 2
                        && (data >> 26) & 63 == generation & 63
                    {
                        return;
                    }
                }
                let new = pack(mv, score, depth, bound, generation);
                e.data.store(new, Ordering::Relaxed);
                e.check.store(key ^ new, Ordering::Relaxed);
                return;
            }
            let age = (generation.wrapping_sub(data >> 26) & 63) as i64;
            let worth = if data == 0 {
                i64::MIN
            } else {
                ((data >> 16) & 255) as i64 - 8 * age
            };
            if worth < victim_worth {
                victim_worth = worth;
                victim = e;
            }
        }
        let new = pack(mv, score, depth, bound, generation);
        victim.data.store(new, Ordering::Relaxed);
        victim.check.store(key ^ new, Ordering::Relaxed);
    }

    /// Permille of the first thousand entries used by the current search.
    pub fn hashfull(&self) -> usize {
        let generation = self.generation.load(Ordering::Relaxed) & 63;
        self.entries
            .iter()
            .take(1000)
            .filter(|e| {
                let d = e.data.load(Ordering::Relaxed);
                d != 0 && (d >> 26) & 63 == generation
            })
            .count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kharbaga::{Position, Rules};

    #[test]
    fn store_and_probe() {
        let t = Table::new(1);
        let pos = Position::start();
        let mv = pos.legal_moves(&Rules::standard())[1];
        let key = pos.hash();
        assert!(t.probe(key).is_none());
        t.store(key, Some(MoveKey::of(&mv)), -123, 7, Bound::Lower);
        let h = t.probe(key).unwrap();
        assert_eq!((h.score, h.depth, h.bound), (-123, 7, Bound::Lower));
        assert!(h.mv.unwrap().matches(&mv));
        assert!(t.probe(key ^ 1).is_none());
        // A result without a move keeps the old move.
        t.store(key, None, 5, 8, Bound::Exact);
        let h = t.probe(key).unwrap();
        assert_eq!(h.score, 5);
        assert!(h.mv.unwrap().matches(&mv));
        t.clear();
        assert!(t.probe(key).is_none());
    }

    #[test]
    fn size_is_a_power_of_two_within_the_budget() {
        let t = Table::new(3);
        assert_eq!(t.mib(), 2);
        assert!(t.buckets.is_power_of_two());
    }
}
