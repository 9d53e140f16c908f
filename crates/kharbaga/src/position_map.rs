//! Maps keyed by positions and hashed by their Zobrist hash alone: it is already well mixed,
//! so nothing is hashed again. For the tens of millions of positions of a proof (its
//! checker, the combine that writes it), where hashing the whole position was a cost.

use crate::Position;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hash, Hasher};

/// A position as a map key: equal as positions are, hashed by [`Position::hash`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct PositionKey(pub Position);

impl Hash for PositionKey {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u64(self.0.hash());
    }
}

/// A hasher that passes a Zobrist hash through (other input is folded in bytewise).
#[derive(Default)]
pub struct ZobristHasher(u64);

impl Hasher for ZobristHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

/// A map keyed by positions, hashed by their Zobrist hash.
pub type PositionMap<V> = HashMap<PositionKey, V, BuildHasherDefault<ZobristHasher>>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_are_told_apart_even_with_one_hash() {
        let start = Position::start();
        let other = start.swap_turn();
        let mut map = PositionMap::default();
        map.insert(PositionKey(start), 1);
        map.insert(PositionKey(other), 2);
        assert_eq!(map.get(&PositionKey(start)), Some(&1));
        assert_eq!(map.get(&PositionKey(other)), Some(&2));
        // The hasher gives a position's Zobrist hash itself.
        let mut h = ZobristHasher::default();
        PositionKey(start).hash(&mut h);
        assert_eq!(h.finish(), start.hash());
    }
}
