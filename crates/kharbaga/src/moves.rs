//! Moves: a start point, the ordered landing points, and the captured set.

use crate::bitboard::Bitboard;
use crate::point::Point;
use std::fmt;

/// The most landing points a move can have: one per captured piece, and a side has at most
/// 20 pieces.
pub const MAX_PATH: usize = 20;

/// One move: a step or slide (one landing point, nothing captured) or a capture sequence (a
/// landing point per captured piece).
///
/// Its notation (`Display`) is `e3-e5` for a step or slide and `c5xe3xg5xc5` for a capture:
/// the start and every landing point. Two capture sequences with the same start, end and
/// captured set lead to the same position; move generation keeps one of them, with the
/// smallest path (see [`Move::same_effect`]).
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
pub struct Move {
    from: Point,
    len: u8,
    path: [Point; MAX_PATH],
    captured: Bitboard,
}

impl Move {
    /// A step or slide from `from` to `to`.
    pub fn step(from: Point, to: Point) -> Move {
        let mut path = [from; MAX_PATH];
        path[0] = to;
        Move {
            from,
            len: 1,
            path,
            captured: Bitboard::EMPTY,
        }
    }

    /// A capture sequence from `from` through the landing points `path` taking `captured`.
    /// `path` must hold between 1 and [`MAX_PATH`] points.
    pub fn capture(from: Point, path: &[Point], captured: Bitboard) -> Move {
        assert!(
            !path.is_empty() && path.len() <= MAX_PATH,
            "bad path length"
        );
        let mut p = [from; MAX_PATH];
        p[..path.len()].copy_from_slice(path);
        Move {
            from,
            len: path.len() as u8,
            path: p,
            captured,
        }
    }

    /// The start point.
    #[inline]
    pub fn from(&self) -> Point {
        self.from
    }

    /// The end point.
    #[inline]
    pub fn to(&self) -> Point {
        self.path[self.len as usize - 1]
    }

    /// The landing points in order; the last is [`Move::to`].
    #[inline]
    pub fn path(&self) -> &[Point] {
        &self.path[..self.len as usize]
    }

    /// The captured points.
    #[inline]
    pub fn captured(&self) -> Bitboard {
        self.captured
    }

    /// Whether the move captures.
    #[inline]
    pub fn is_capture(&self) -> bool {
        self.captured.any()
    }

    /// Whether the two moves have the same start, end and captured set, and so lead to the
    /// same position whatever their paths.
    #[inline]
    pub fn same_effect(&self, other: &Move) -> bool {
        self.from == other.from && self.to() == other.to() && self.captured == other.captured
    }

    /// The start and every landing point, in order.
    pub fn points(&self) -> impl Iterator<Item = Point> + '_ {
        std::iter::once(self.from).chain(self.path().iter().copied())
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sep = if self.is_capture() { 'x' } else { '-' };
        write!(f, "{}", self.from)?;
        for p in self.path() {
            write!(f, "{sep}{p}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self}")
    }
}

impl PartialOrd for Move {
    fn partial_cmp(&self, other: &Move) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Move {
    /// Orders by start, then landing points, then captured set: the order of the sorted move
    /// lists the `kharbaga moves` command prints (by point index, i.e. rank then file).
    fn cmp(&self, other: &Move) -> std::cmp::Ordering {
        (self.from, self.path(), self.captured).cmp(&(other.from, other.path(), other.captured))
    }
}
