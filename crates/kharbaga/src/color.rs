//! The two sides.

use std::fmt;
use std::ops::Not;

/// A side: Black moves up the board (towards rank 9), White moves down.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub enum Color {
    /// The side that starts on ranks 1-4 and moves towards rank 9.
    #[default]
    Black = 0,
    /// The side that starts on ranks 6-9 and moves towards rank 1.
    White = 1,
}

impl Color {
    /// Both colours, Black first.
    pub const ALL: [Color; 2] = [Color::Black, Color::White];

    /// The index of this colour (0 for Black, 1 for White), for tables.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The upper-case letter used in position strings: `B` or `W`.
    pub const fn letter(self) -> char {
        match self {
            Color::Black => 'B',
            Color::White => 'W',
        }
    }

    /// The colour named by a letter `B`/`W` (either case).
    pub fn from_letter(c: char) -> Option<Color> {
        match c {
            'B' | 'b' => Some(Color::Black),
            'W' | 'w' => Some(Color::White),
            _ => None,
        }
    }

    /// The lower-case English name: `black` or `white`.
    pub const fn name(self) -> &'static str {
        match self {
            Color::Black => "black",
            Color::White => "white",
        }
    }

    /// The rank (y in doubled coordinates) where this side's men are promoted.
    #[inline]
    pub const fn promotion_y(self) -> u8 {
        match self {
            Color::Black => 8,
            Color::White => 0,
        }
    }
}

impl Not for Color {
    type Output = Color;
    #[inline]
    fn not(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::Black => "Black",
            Color::White => "White",
        })
    }
}
