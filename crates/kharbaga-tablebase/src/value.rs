//! Values of positions: win, draw or loss for the side to move, with the distance to the end
//! of the game in plies, and their packed 16-bit codes.
//!
//! The code of a value is what the tables store (see [`crate::format`]):
//! `0` is a draw, `d + 1` is a decisive value at distance `d` plies. A win is always at an odd
//! distance (the winner makes the last move) and a loss at an even one (a position with no
//! legal move is a loss in 0), so the parity of `d` tells which it is.

use std::fmt;
use std::ops::Neg;

/// Win, draw or loss for the side to move.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Wdl {
    /// The side to move loses.
    Loss,
    /// Neither side can force a win.
    Draw,
    /// The side to move wins.
    Win,
}

impl Neg for Wdl {
    type Output = Wdl;
    fn neg(self) -> Wdl {
        match self {
            Wdl::Loss => Wdl::Win,
            Wdl::Draw => Wdl::Draw,
            Wdl::Win => Wdl::Loss,
        }
    }
}

impl fmt::Display for Wdl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Wdl::Loss => "loss",
            Wdl::Draw => "draw",
            Wdl::Win => "win",
        })
    }
}

/// The exact value of a position for the side to move: a win or a loss in a number of plies
/// (the winner ends the game as fast as it can, the loser holds out as long as it can), or a
/// draw.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    /// The side to move wins in this many plies (odd).
    Win(u16),
    /// Neither side can force a win (repetition counts as a draw).
    Draw,
    /// The side to move loses in this many plies (even; 0: it has no legal move).
    Loss(u16),
}

/// The code of a draw.
pub const DRAW_CODE: u16 = 0;

/// The code of a place in a table that stands for no position (or whose value nobody reads).
pub const BROKEN: u16 = 0xFFFF;

impl Value {
    /// The value stored as `code` (`0` draw, `d + 1` decisive at distance `d`).
    #[inline]
    pub const fn from_code(code: u16) -> Value {
        if code == DRAW_CODE {
            Value::Draw
        } else if (code - 1) % 2 == 1 {
            Value::Win(code - 1)
        } else {
            Value::Loss(code - 1)
        }
    }

    /// The code of this value.
    #[inline]
    pub const fn code(self) -> u16 {
        match self {
            Value::Draw => DRAW_CODE,
            Value::Win(d) | Value::Loss(d) => d + 1,
        }
    }

    /// Win, draw or loss.
    pub const fn wdl(self) -> Wdl {
        match self {
            Value::Win(_) => Wdl::Win,
            Value::Draw => Wdl::Draw,
            Value::Loss(_) => Wdl::Loss,
        }
    }

    /// The distance to the end in plies, for a win or a loss.
    pub const fn plies(self) -> Option<u16> {
        match self {
            Value::Win(d) | Value::Loss(d) => Some(d),
            Value::Draw => None,
        }
    }

    /// The value of a position one ply before a position of value `self` (for the side to
    /// move there): a loss in `d` becomes a win in `d + 1`, a win in `d` a loss in `d + 1`.
    pub const fn parent(self) -> Value {
        match self {
            Value::Win(d) => Value::Loss(d + 1),
            Value::Draw => Value::Draw,
            Value::Loss(d) => Value::Win(d + 1),
        }
    }

    /// An order of preference for the side to move: faster wins first, then draws, then
    /// slower losses. Larger is better.
    pub fn preference(self) -> i32 {
        match self {
            Value::Win(d) => 100_000 - i32::from(d),
            Value::Draw => 0,
            Value::Loss(d) => -100_000 + i32::from(d),
        }
    }
}

impl fmt::Display for Value {
    /// `win N`, `draw` or `loss N`, as `kharbaga tablebase probe` prints it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Win(d) => write!(f, "win {d}"),
            Value::Draw => f.write_str("draw"),
            Value::Loss(d) => write!(f, "loss {d}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip_and_parity_decides() {
        assert_eq!(Value::from_code(0), Value::Draw);
        assert_eq!(Value::from_code(1), Value::Loss(0));
        assert_eq!(Value::from_code(2), Value::Win(1));
        assert_eq!(Value::from_code(3), Value::Loss(2));
        for v in [
            Value::Draw,
            Value::Loss(0),
            Value::Win(1),
            Value::Win(35),
            Value::Loss(88),
        ] {
            assert_eq!(Value::from_code(v.code()), v);
        }
    }

    #[test]
    fn parent_and_preference() {
        assert_eq!(Value::Loss(0).parent(), Value::Win(1));
        assert_eq!(Value::Win(1).parent(), Value::Loss(2));
        assert!(Value::Win(1).preference() > Value::Win(3).preference());
        assert!(Value::Win(99).preference() > Value::Draw.preference());
        assert!(Value::Loss(8).preference() > Value::Loss(2).preference());
        assert!(Value::Draw.preference() > Value::Loss(100).preference());
        assert_eq!(-Wdl::Win, Wdl::Loss);
    }
}
