//! Sets of points as 64-bit masks (41 bits used).

use crate::point::{Point, NUM_POINTS};
use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of points: bit `i` is the point with index `i`.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Bitboard(pub u64);

impl Bitboard {
    /// The empty set.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// All 41 points.
    pub const FULL: Bitboard = Bitboard((1u64 << NUM_POINTS) - 1);

    /// The set holding one point.
    #[inline]
    pub const fn from_point(p: Point) -> Bitboard {
        Bitboard(1u64 << p.index())
    }

    /// Whether the set holds `p`.
    #[inline]
    pub const fn contains(self, p: Point) -> bool {
        self.0 & (1u64 << p.index()) != 0
    }

    /// Whether the set is empty.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether the set is not empty.
    #[inline]
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    /// The number of points in the set.
    #[inline]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// The point with the lowest index, if any.
    #[inline]
    pub const fn first(self) -> Option<Point> {
        if self.0 == 0 {
            None
        } else {
            Some(Point::new_unchecked(self.0.trailing_zeros() as u8))
        }
    }

    /// The point with the highest index, if any.
    #[inline]
    pub const fn last(self) -> Option<Point> {
        if self.0 == 0 {
            None
        } else {
            Some(Point::new_unchecked(63 - self.0.leading_zeros() as u8))
        }
    }

    /// The set with `p` added.
    #[inline]
    pub const fn with(self, p: Point) -> Bitboard {
        Bitboard(self.0 | (1u64 << p.index()))
    }

    /// The set with `p` removed.
    #[inline]
    pub const fn without(self, p: Point) -> Bitboard {
        Bitboard(self.0 & !(1u64 << p.index()))
    }

    /// The points of the set in index order.
    #[inline]
    pub fn iter(self) -> BitboardIter {
        BitboardIter(self.0)
    }
}

/// Iterates over the points of a [`Bitboard`] in index order.
#[derive(Clone, Debug)]
pub struct BitboardIter(u64);

impl Iterator for BitboardIter {
    type Item = Point;

    #[inline]
    fn next(&mut self) -> Option<Point> {
        if self.0 == 0 {
            None
        } else {
            let i = self.0.trailing_zeros() as u8;
            self.0 &= self.0 - 1;
            Some(Point::new_unchecked(i))
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for BitboardIter {}

impl IntoIterator for Bitboard {
    type Item = Point;
    type IntoIter = BitboardIter;
    fn into_iter(self) -> BitboardIter {
        self.iter()
    }
}

impl FromIterator<Point> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Point>>(iter: I) -> Bitboard {
        iter.into_iter().fold(Bitboard::EMPTY, Bitboard::with)
    }
}

impl fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set()
            .entries(self.iter().map(|p| p.to_string()))
            .finish()
    }
}

macro_rules! bit_op {
    ($trait:ident, $fn:ident, $assign_trait:ident, $assign_fn:ident, $op:tt) => {
        impl $trait for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $fn(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $assign_trait for Bitboard {
            #[inline]
            fn $assign_fn(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}

bit_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bit_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bit_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Bitboard {
    type Output = Bitboard;
    /// The complement within the 41 points.
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0 & Bitboard::FULL.0)
    }
}
