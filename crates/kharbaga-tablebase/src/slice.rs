//! Material slices: how many men and Mullahs each side has, seen from the side to move, and
//! the order in which the slices are generated.

use kharbaga::{Position, Setup};
use std::fmt;
use std::str::FromStr;

/// The material of a table, from the side to move's point of view: the mover's men and
/// Mullahs, then the opponent's. One table holds every position of its slice with either
/// colour to move (a position with White to move is seen turned round, see [`crate::frame`]).
///
/// Its name is `{a}m{b}k-{c}m{d}k`: `2m1k-0m1k` is two men and a Mullah to move against a lone
/// Mullah.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SliceId {
    /// The side to move's men.
    pub mover_men: u8,
    /// The side to move's Mullahs.
    pub mover_mullahs: u8,
    /// The opponent's men.
    pub opp_men: u8,
    /// The opponent's Mullahs.
    pub opp_mullahs: u8,
}

impl SliceId {
    /// The slice with these counts, if each side has at least one piece.
    pub const fn new(
        mover_men: u8,
        mover_mullahs: u8,
        opp_men: u8,
        opp_mullahs: u8,
    ) -> Option<SliceId> {
        if mover_men + mover_mullahs == 0 || opp_men + opp_mullahs == 0 {
            None
        } else {
            Some(SliceId {
                mover_men,
                mover_mullahs,
                opp_men,
                opp_mullahs,
            })
        }
    }

    /// The slice of a position (None if a side has no piece).
    pub fn of(pos: &Position) -> Option<SliceId> {
        let us = pos.turn();
        let them = !us;
        let c = |b: kharbaga::Bitboard| b.count() as u8;
        SliceId::new(
            c(pos.men(us)),
            c(pos.mullahs(us)),
            c(pos.men(them)),
            c(pos.mullahs(them)),
        )
    }

    /// The counts of a setup in the mover frame (Black to move), whether or not a side has
    /// no piece.
    #[inline]
    pub(crate) fn counts_of(s: &Setup) -> (u8, u8, u8, u8) {
        let c = |b: kharbaga::Bitboard| b.count() as u8;
        (
            c(s.black & !s.mullahs),
            c(s.black & s.mullahs),
            c(s.white & !s.mullahs),
            c(s.white & s.mullahs),
        )
    }

    /// The four counts as a tuple (mover men, mover Mullahs, opponent men, opponent Mullahs).
    pub const fn counts(self) -> (u8, u8, u8, u8) {
        (
            self.mover_men,
            self.mover_mullahs,
            self.opp_men,
            self.opp_mullahs,
        )
    }

    /// All pieces on the board.
    pub const fn pieces(self) -> u32 {
        (self.mover_men + self.mover_mullahs + self.opp_men + self.opp_mullahs) as u32
    }

    /// All men on the board.
    pub const fn men(self) -> u32 {
        (self.mover_men + self.opp_men) as u32
    }

    /// The same material with the other side to move: the slice every move that neither
    /// captures nor promotes leads to.
    pub const fn flip(self) -> SliceId {
        SliceId {
            mover_men: self.opp_men,
            mover_mullahs: self.opp_mullahs,
            opp_men: self.mover_men,
            opp_mullahs: self.mover_mullahs,
        }
    }

    /// The generation unit this slice belongs to: the slice and its [`flip`](Self::flip) are
    /// built together; the smaller of the two names the pair.
    pub fn pair(self) -> SliceId {
        self.min(self.flip())
    }

    /// The slices that moves out of this slice's pair lead into (captures and promotions):
    /// every one of them has fewer pieces, or as many with fewer men.
    pub fn dependencies(self) -> Vec<SliceId> {
        let mut out = Vec::new();
        for s in [self, self.flip()] {
            let (a, b, c, d) = s.counts();
            let mut add = |x: Option<SliceId>| {
                if let Some(x) = x {
                    let p = x.pair();
                    if !out.contains(&p) {
                        out.push(p);
                    }
                }
            };
            if a > 0 {
                add(SliceId::new(c, d, a - 1, b + 1));
            }
            for men in 0..=c {
                for mullahs in 0..=d {
                    if men + mullahs == 0 {
                        continue;
                    }
                    add(SliceId::new(c - men, d - mullahs, a, b));
                    if a > 0 {
                        add(SliceId::new(c - men, d - mullahs, a - 1, b + 1));
                    }
                }
            }
        }
        out.sort();
        out
    }

    /// Every slice pair of at most `max_pieces` pieces, in an order where each comes after
    /// every pair it depends on (by pieces, then men, then name).
    pub fn plan(max_pieces: u32) -> Vec<SliceId> {
        let mut out = Vec::new();
        for a in 0..=max_pieces as u8 {
            for b in 0..=max_pieces as u8 {
                for c in 0..=max_pieces as u8 {
                    for d in 0..=max_pieces as u8 {
                        if let Some(s) = SliceId::new(a, b, c, d) {
                            if s.pieces() <= max_pieces && s.pair() == s {
                                out.push(s);
                            }
                        }
                    }
                }
            }
        }
        out.sort_by_key(|s| (s.pieces(), s.men(), *s));
        out
    }
}

impl fmt::Display for SliceId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}m{}k-{}m{}k",
            self.mover_men, self.mover_mullahs, self.opp_men, self.opp_mullahs
        )
    }
}

/// A slice name that could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseSliceError(pub String);

impl fmt::Display for ParseSliceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "'{}' is not a slice name (expected men and Mullahs of the side to move, then of the opponent, like 2m1k-0m1k, each side at least one piece)",
            self.0
        )
    }
}

impl std::error::Error for ParseSliceError {}

impl FromStr for SliceId {
    type Err = ParseSliceError;

    fn from_str(s: &str) -> Result<SliceId, ParseSliceError> {
        let bad = || ParseSliceError(s.to_string());
        let side = |t: &str| -> Option<(u8, u8)> {
            let (m, k) = t.strip_suffix('k')?.split_once('m')?;
            let m: u8 = m.parse().ok()?;
            let k: u8 = k.parse().ok()?;
            (m <= 20 && k <= 20).then_some((m, k))
        };
        let (l, r) = s.split_once('-').ok_or_else(bad)?;
        let (a, b) = side(l).ok_or_else(bad)?;
        let (c, d) = side(r).ok_or_else(bad)?;
        SliceId::new(a, b, c, d).ok_or_else(bad)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_errors() {
        let s: SliceId = "2m1k-0m1k".parse().unwrap();
        assert_eq!(s.counts(), (2, 1, 0, 1));
        assert_eq!(s.to_string(), "2m1k-0m1k");
        for bad in [
            "",
            "2m1k",
            "2m1k-0m0k",
            "xm1k-1m0k",
            "1m1-1m0k",
            "0m0k-1m0k",
        ] {
            assert!(bad.parse::<SliceId>().is_err(), "{bad}");
        }
    }

    #[test]
    fn slice_of_a_position_is_from_the_side_to_move() {
        let p = Position::from_fen("W:Wc3,Kg7:Bd4").unwrap();
        assert_eq!(SliceId::of(&p).unwrap().to_string(), "1m1k-1m0k");
    }

    #[test]
    fn plan_is_in_dependency_order() {
        let plan = SliceId::plan(4);
        // 2 pieces: 3 pairs (1m0k-1m0k, 0m1k-1m0k with its flip, 0m1k-0m1k).
        assert_eq!(plan.iter().filter(|s| s.pieces() == 2).count(), 3);
        for (i, s) in plan.iter().enumerate() {
            for d in s.dependencies() {
                let j = plan
                    .iter()
                    .position(|x| *x == d)
                    .expect("dependency planned");
                assert!(j < i, "{d} must come before {s}");
            }
        }
    }
}
