//! The 41 points of the board and their names.
//!
//! Points use doubled coordinates: file `x` and rank `y` in `0..=8`, and a point exists where
//! `x` and `y` are both even (a grid crossing) or both odd (a cell centre). Because 9 is odd,
//! `y * 9 + x` is even exactly for those points, so `(y * 9 + x) / 2` numbers them `0..41`
//! without gaps, rank by rank from a1 to i9. That numbering makes every line direction a
//! constant index offset, which the bitboards exploit.

use std::fmt;
use std::str::FromStr;

/// One of the 41 points, numbered 0 (a1) to 40 (i9), rank by rank, a to i.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Point(u8);

/// The number of points on the board.
pub const NUM_POINTS: usize = 41;

impl Point {
    /// The middle point, e5.
    pub const E5: Point = Point(20);

    /// The point with this index, if it is below 41.
    #[inline]
    pub const fn new(index: u8) -> Option<Point> {
        if (index as usize) < NUM_POINTS {
            Some(Point(index))
        } else {
            None
        }
    }

    /// The point with this index. The caller guarantees `index < 41`.
    #[inline]
    pub(crate) const fn new_unchecked(index: u8) -> Point {
        debug_assert!((index as usize) < NUM_POINTS);
        Point(index)
    }

    /// The point at doubled coordinates `(x, y)`, if there is one.
    pub const fn from_xy(x: u8, y: u8) -> Option<Point> {
        if x > 8 || y > 8 || (x + y) % 2 != 0 {
            None
        } else {
            Some(Point((y * 9 + x) / 2))
        }
    }

    /// The index of the point, `0..41`.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The file in doubled coordinates, `0..=8` (a..i).
    #[inline]
    pub const fn x(self) -> u8 {
        (self.0 * 2) % 9
    }

    /// The rank in doubled coordinates, `0..=8` (ranks 1..9).
    #[inline]
    pub const fn y(self) -> u8 {
        (self.0 * 2) / 9
    }

    /// Whether this is a grid crossing (as opposed to a cell centre).
    #[inline]
    pub const fn is_grid(self) -> bool {
        self.y() % 2 == 0
    }

    /// All 41 points in index order.
    pub fn all() -> impl Iterator<Item = Point> {
        (0..NUM_POINTS as u8).map(Point)
    }

    /// The file letter, `a`..`i`.
    pub const fn file_char(self) -> char {
        (b'a' + self.x()) as char
    }

    /// The rank digit, `1`..`9`.
    pub const fn rank_char(self) -> char {
        (b'1' + self.y()) as char
    }
}

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file_char(), self.rank_char())
    }
}

/// Why a point name could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParsePointError {
    /// Not a file letter a-i followed by a rank digit 1-9.
    Syntax(String),
    /// The file and rank exist, but no point is there (e.g. `a2`: files a, c, e, g, i carry
    /// odd ranks, files b, d, f, h even ranks).
    NoSuchPoint(String),
}

impl fmt::Display for ParsePointError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParsePointError::Syntax(s) => {
                write!(f, "'{s}' is not a point name (a file a-i and a rank 1-9, like e5)")
            }
            ParsePointError::NoSuchPoint(s) => write!(
                f,
                "there is no point {s} (files a, c, e, g, i have ranks 1, 3, 5, 7, 9; files b, d, f, h have ranks 2, 4, 6, 8)"
            ),
        }
    }
}

impl std::error::Error for ParsePointError {}

impl FromStr for Point {
    type Err = ParsePointError;

    fn from_str(s: &str) -> Result<Point, ParsePointError> {
        let bytes = s.as_bytes();
        if bytes.len() != 2 {
            return Err(ParsePointError::Syntax(s.to_string()));
        }
        let file = bytes[0].to_ascii_lowercase();
        let rank = bytes[1];
        if !(b'a'..=b'i').contains(&file) || !(b'1'..=b'9').contains(&rank) {
            return Err(ParsePointError::Syntax(s.to_string()));
        }
        Point::from_xy(file - b'a', rank - b'1')
            .ok_or_else(|| ParsePointError::NoSuchPoint(s.to_ascii_lowercase()))
    }
}
