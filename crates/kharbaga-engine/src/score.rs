//! Internal search scores: plain integers in centi-men, with wins and losses encoded as
//! `MATE - plies` so that a faster win scores higher and a slower loss scores higher.

use crate::Score;

/// The deepest ply the search goes to (main search and quiescence together).
pub const MAX_PLY: usize = 128;

/// The score of a win at the root itself; a win in `n` plies scores `MATE - n`.
pub const MATE: i32 = 30_000;

/// Larger than any score.
pub const INFINITE: i32 = 31_000;

/// Scores at or above this (in absolute value) are wins or losses.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32;

/// The score of a win known from the endgame tables (without its distance) at the root; a
/// table win found `n` plies below the root scores `TB_WIN - n`. Below every forced win
/// found by the search, above every evaluation.
pub const TB_WIN: i32 = MATE_BOUND - 1;

/// Scores at or above this (in absolute value) are wins or losses, found by the search or
/// in the tables.
pub const TB_BOUND: i32 = TB_WIN - MAX_PLY as i32;

/// The largest evaluation the static evaluation may return.
pub const MAX_EVAL: i32 = TB_BOUND - 1;

/// The score of the side to move when it has lost (no legal move) at `ply`.
#[inline]
pub fn lost_at(ply: usize) -> i32 {
    -(MATE - ply as i32)
}

/// Whether the score is a win or a loss.
#[inline]
pub fn is_decisive(score: i32) -> bool {
    score.abs() >= MATE_BOUND
}

/// Converts a score relative to a node at `ply` into one relative to that node itself, for
/// storing in the transposition table.
#[inline]
pub fn to_tt(score: i32, ply: usize) -> i32 {
    if score >= TB_BOUND {
        score + ply as i32
    } else if score <= -TB_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// The inverse of [`to_tt`].
#[inline]
pub fn from_tt(score: i32, ply: usize) -> i32 {
    if score >= TB_BOUND {
        score - ply as i32
    } else if score <= -TB_BOUND {
        score + ply as i32
    } else {
        score
    }
}

/// The public form of a root score.
pub fn to_public(score: i32) -> Score {
    if score >= MATE_BOUND {
        Score::WinIn((MATE - score) as u32)
    } else if score <= -MATE_BOUND {
        Score::LossIn((MATE + score) as u32)
    } else if score >= TB_BOUND {
        Score::TableWin(None)
    } else if score <= -TB_BOUND {
        Score::TableLoss(None)
    } else {
        Score::Centi(score)
    }
}

impl std::fmt::Display for Score {
    /// `+1.25` style for evaluations (in men), `win 7` / `loss 4` (plies) for decided lines,
    /// `tb win 17`, `tb win`, `tb draw`, `tb loss 8` for values from the endgame tables.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            Score::Centi(c) => write!(f, "{:+.2}", c as f64 / 100.0),
            Score::WinIn(n) => write!(f, "win {n}"),
            Score::LossIn(n) => write!(f, "loss {n}"),
            Score::TableWin(Some(n)) => write!(f, "tb win {n}"),
            Score::TableWin(None) => f.write_str("tb win"),
            Score::TableDraw => f.write_str("tb draw"),
            Score::TableLoss(Some(n)) => write!(f, "tb loss {n}"),
            Score::TableLoss(None) => f.write_str("tb loss"),
        }
    }
}

impl Score {
    /// A number for comparing scores from the same side's view: wins above every
    /// evaluation, faster wins higher, slower losses higher.
    pub fn ordinal(self) -> i64 {
        match self {
            Score::Centi(c) => c as i64,
            Score::WinIn(n) => MATE as i64 - n as i64,
            Score::LossIn(n) => -(MATE as i64) + n as i64,
            // A table win's distance may be unknown: rank known ones by it, unknown last.
            Score::TableWin(n) => TB_WIN as i64 - n.map_or(MAX_PLY as i64, i64::from),
            Score::TableDraw => 0,
            Score::TableLoss(n) => -(TB_WIN as i64) + n.map_or(MAX_PLY as i64, i64::from),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn public_scores_round_trip_and_order() {
        assert_eq!(to_public(MATE - 3), Score::WinIn(3));
        assert_eq!(to_public(lost_at(4)), Score::LossIn(4));
        assert_eq!(to_public(-17), Score::Centi(-17));
        assert!(Score::WinIn(1).ordinal() > Score::WinIn(5).ordinal());
        assert!(Score::LossIn(6).ordinal() > Score::LossIn(2).ordinal());
        assert!(Score::Centi(900).ordinal() < Score::WinIn(99).ordinal());
        let s = MATE - 7;
        assert_eq!(from_tt(to_tt(s, 3), 3), s);
        assert_eq!(to_tt(s, 3), MATE - 4);
        assert_eq!(Score::Centi(125).to_string(), "+1.25");
        assert_eq!(to_public(TB_WIN - 5), Score::TableWin(None));
        assert_eq!(to_public(-(TB_WIN - 5)), Score::TableLoss(None));
        assert_eq!(from_tt(to_tt(TB_WIN - 9, 4), 4), TB_WIN - 9);
        assert!(Score::WinIn(99).ordinal() > Score::TableWin(Some(1)).ordinal());
        assert!(Score::TableWin(Some(31)).ordinal() > Score::TableWin(None).ordinal());
        assert!(Score::TableWin(None).ordinal() > Score::Centi(MAX_EVAL).ordinal());
        assert!(Score::TableLoss(None).ordinal() > -(MATE as i64));
        assert_eq!(Score::TableWin(Some(17)).to_string(), "tb win 17");
        assert_eq!(Score::TableDraw.to_string(), "tb draw");
    }
}
