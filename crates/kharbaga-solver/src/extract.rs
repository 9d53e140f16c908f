//! Turning a finished search into a proof: the lines of `docs/proof-format.md`.
//!
//! A `win` proof comes from a proven search of the winner: where the winner is to move, the
//! proven move with the shortest line to the end (so that a proof has no cycle); elsewhere
//! every reply. A `hold` strategy comes from a disproven search of the opponent: where the
//! holder is to move, a move into a disproven position; elsewhere every reply; a position
//! already in the strategy closes a cycle.
//!
//! The transposition table may have lost a result (replaced) or never stored it (a disproof
//! resting on a repetition of a position above it): then the position is searched again on
//! its own. Every line is written for the highest no-progress count (win) or the lowest
//! (hold) at which the walk reaches it, which is the hardest case for the claim.

use std::collections::HashMap;

use kharbaga::{Color, Move, Position};

use crate::dfpn::{Num, Search};

/// What a proof claims.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Claim {
    /// The prover wins.
    Win,
    /// The prover holds at least a draw.
    Hold,
}

impl Claim {
    /// `win` or `hold`, as the proof file's `# claim:` comment has it.
    pub fn name(self) -> &'static str {
        match self {
            Claim::Win => "win",
            Claim::Hold => "hold",
        }
    }
}

/// One proof line: a position and the move the prover plays there (`None`: every reply).
pub type Line = (Position, Option<Move>);

/// Why no proof could be written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExtractError {
    /// The position where it failed.
    pub position: String,
    /// What went wrong.
    pub reason: String,
}

impl std::fmt::Display for ExtractError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "cannot write the proof at {}: {}",
            self.position, self.reason
        )
    }
}

impl std::error::Error for ExtractError {}

/// How many positions the walk takes between looks at the search's limits.
const LIMITS_EVERY: usize = 256;

/// The walk that writes a proof.
struct Walk<'s, 'a> {
    search: &'s mut Search<'a>,
    claim: Claim,
    lines: Vec<Line>,
    /// Each expanded position: its line and the count it was expanded at.
    seen: HashMap<Position, (usize, u32)>,
}

/// Writes the proof of `claim` from `root` (count 0) with the search that settled it: for a
/// `win`, a search of the winner that proved the root; for a `hold`, a search of the
/// holder's opponent that disproved it. The first line is the root's. The search's limits
/// bound the walk as well as the searches it runs; the walk fails when they stop it.
pub fn extract(
    search: &mut Search<'_>,
    root: &Position,
    claim: Claim,
) -> Result<Vec<Line>, ExtractError> {
    let mut walk = Walk {
        search,
        claim,
        lines: Vec::new(),
        seen: HashMap::new(),
    };
    let mut stack = vec![(*root, 0u32)];
    let mut steps = 0usize;
    while let Some((pos, q)) = stack.pop() {
        steps += 1;
        if steps % LIMITS_EVERY == 0 && walk.search.over_limits() {
            return Err(Walk::fail(&pos, "a limit stopped the walk"));
        }
        if let Some(&(_, seen_q)) = walk.seen.get(&pos) {
            let covered = match claim {
                Claim::Win => seen_q >= q,
                Claim::Hold => seen_q <= q,
            };
            if covered {
                continue;
            }
        }
        let line = walk.expand(&pos, q)?;
        for (child, cq) in line.1.into_iter().rev() {
            stack.push((child, cq));
        }
        let index = match walk.seen.get(&pos) {
            Some(&(i, _)) => {
                walk.lines[i] = (pos, line.0);
                i
            }
            None => {
                walk.lines.push((pos, line.0));
                walk.lines.len() - 1
            }
        };
        walk.seen.insert(pos, (index, q));
    }
    Ok(walk.lines)
}

/// A position's line: its move (or none) and the children the proof goes on from.
type Expansion = (Option<Move>, Vec<(Position, u32)>);

impl Walk<'_, '_> {
    /// The side that makes the claim: the prover of a win, the holder of a hold (the
    /// opponent of the search's prover).
    fn claimant(&self) -> Color {
        match self.claim {
            Claim::Win => self.search.prover(),
            Claim::Hold => !self.search.prover(),
        }
    }

    /// Whether `num` is the result this claim needs of a position.
    fn settled(&self, num: &Num) -> bool {
        match self.claim {
            Claim::Win => num.proven(),
            Claim::Hold => num.disproven(),
        }
    }

    /// Whether a child needs no line: the game is over, or the tables (or, for a hold, the
    /// no-progress count) settle it in the claimant's favour.
    fn is_leaf(&mut self, pos: &Position, q: u32) -> bool {
        let num = self.search.known(pos, q);
        if num.terminal() {
            return true;
        }
        match self.claim {
            Claim::Win => self
                .search
                .table_verdict(pos, q)
                .is_some_and(|n| n.proven()),
            Claim::Hold => {
                q >= self.search.limit()
                    || self
                        .search
                        .table_verdict(pos, 0)
                        .is_some_and(|n| n.disproven() && n.aux == 0)
            }
        }
    }

    /// The status of `pos` at `q`, searching it on its own when nothing is stored.
    fn status(&mut self, pos: &Position, q: u32) -> Num {
        let num = self.search.known(pos, q);
        if num.proven() || num.disproven() {
            return num;
        }
        self.search.run(pos, q)
    }

    fn fail(pos: &Position, reason: &str) -> ExtractError {
        ExtractError {
            position: pos.to_fen(),
            reason: reason.to_string(),
        }
    }

    fn expand(&mut self, pos: &Position, q: u32) -> Result<Expansion, ExtractError> {
        let rules = *self.search.rules();
        let moves = pos.legal_moves(&rules);
        let child = |mv: &Move| {
            let c = pos.play(mv);
            let cq = if pos.is_progress(mv) { 0 } else { q + 1 };
            (c, cq)
        };
        if pos.turn() != self.claimant() {
            let mut next = Vec::new();
            for mv in &moves {
                let (c, cq) = child(mv);
                if self.is_leaf(&c, cq) {
                    if self.search.known(&c, cq).terminal() {
                        return Err(Self::fail(
                            pos,
                            &format!("{mv} leaves the claimant without a move"),
                        ));
                    }
                    continue;
                }
                let num = self.status(&c, cq);
                if !self.settled(&num) {
                    return Err(Self::fail(pos, &format!("the reply {mv} is not settled")));
                }
                next.push((c, cq));
            }
            return Ok((None, next));
        }
        // The claimant's move: a leaf first, then the best stored result, then a search of
        // each move on its own.
        let mut best: Option<(u32, usize)> = None;
        for (i, mv) in moves.iter().enumerate() {
            let (c, cq) = child(mv);
            let over = self.search.known(&c, cq).terminal();
            if self.is_leaf(&c, cq) && !(over && c.turn() == self.claimant()) {
                return Ok((Some(*mv), Vec::new()));
            }
            let num = self.search.known(&c, cq);
            if self.settled(&num) && best.map_or(true, |(d, _)| num.dist < d) {
                best = Some((num.dist, i));
            }
        }
        if best.is_none() {
            for (i, mv) in moves.iter().enumerate() {
                let (c, cq) = child(mv);
                let num = self.status(&c, cq);
                if self.settled(&num) {
                    best = Some((0, i));
                    break;
                }
            }
        }
        let (_, i) = best.ok_or_else(|| Self::fail(pos, "no move keeps the claim"))?;
        let (c, cq) = child(&moves[i]);
        Ok((Some(moves[i]), vec![(c, cq)]))
    }
}
