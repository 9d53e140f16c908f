//! Tables held in memory, whole: what the generator reads the values of captures and
//! promotions from, and what it produces.

use crate::frame::mover_frame;
use crate::index::SliceIndex;
use crate::slice::SliceId;
use crate::value::Value;
use kharbaga::{Position, Setup};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// One slice's codes (see [`crate::value`]) in index order, with its index.
pub struct MemoryTable {
    /// The slice's index.
    pub index: SliceIndex,
    /// The code of every place (broken places hold [`crate::value::BROKEN`]).
    pub codes: Vec<u16>,
}

/// Whole tables in memory, by slice.
#[derive(Default)]
pub struct MemoryTables {
    tables: HashMap<SliceId, MemoryTable, BuildHasherDefault<SliceHasher>>,
}

/// A hasher for the four small counts of a slice: one multiplication, where the default
/// hasher's rounds showed in the generator's profile (every capture is a lookup).
#[derive(Default)]
struct SliceHasher(u64);

impl Hasher for SliceHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8) | u64::from(b);
        }
    }

    fn write_u8(&mut self, b: u8) {
        self.0 = (self.0 << 8) | u64::from(b);
    }

    fn finish(&self) -> u64 {
        self.0.wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }
}

impl MemoryTables {
    /// No tables.
    pub fn new() -> MemoryTables {
        MemoryTables::default()
    }

    /// Adds (or replaces) a slice's table.
    pub fn insert(&mut self, slice: SliceId, codes: Vec<u16>) {
        let index = SliceIndex::new(slice);
        assert_eq!(index.len(), codes.len() as u64, "codes of {slice}");
        self.tables.insert(slice, MemoryTable { index, codes });
    }

    /// Drops a slice's table.
    pub fn remove(&mut self, slice: SliceId) {
        self.tables.remove(&slice);
    }

    /// Whether the slice is held.
    pub fn contains(&self, slice: SliceId) -> bool {
        self.tables.contains_key(&slice)
    }

    /// The table of a slice, if held.
    pub fn get(&self, slice: SliceId) -> Option<&MemoryTable> {
        self.tables.get(&slice)
    }

    /// The slices held.
    pub fn slices(&self) -> impl Iterator<Item = SliceId> + '_ {
        self.tables.keys().copied()
    }

    /// Bytes of codes held.
    pub fn bytes(&self) -> u64 {
        self.tables.values().map(|t| t.codes.len() as u64 * 2).sum()
    }

    /// The code of a legal position in the mover frame (Black to move) given as a setup: a
    /// loss in 0 when the mover has no piece, else the stored code. None when its slice is
    /// not held.
    #[inline]
    pub fn code(&self, s: &Setup) -> Option<u16> {
        if s.black.is_empty() {
            return Some(Value::Loss(0).code());
        }
        let (a, b, c, d) = SliceId::counts_of(s);
        let slice = SliceId::new(a, b, c, d)?;
        let t = self.tables.get(&slice)?;
        Some(t.codes[t.index.place_setup(s).index as usize])
    }

    /// The value of any position (either side to move), if its slice is held.
    pub fn value(&self, pos: &Position) -> Option<Value> {
        self.code(&mover_frame(pos).to_setup())
            .map(Value::from_code)
    }
}
