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
//!
//! A `win` walk that comes back to a position above it on its own line goes round the cycle
//! again with a higher count, until the count passes the limit (each round is a line the
//! proof does not need, and the rounds near the limit search hard). Within one solve that is
//! rare; in a table carried over from an earlier solve it is a cycle of proofs that justify
//! each other (an entry of the earlier solve rests on a child whose entry this solve has
//! since replaced by a proof that goes through it). With [`Cycles::Fail`] the walk stops
//! there with an error that says so ([`ExtractError::circular`]) and names the positions
//! round the cycle ([`ExtractError::cycle`]), for the solver to drop their entries and walk
//! again (see [`crate::solve`]).

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

/// What a `win` walk does when it comes back to a position on its own line.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Cycles {
    /// Goes round again with the higher no-progress count.
    Rewalk,
    /// Fails with a [`ExtractError::circular`] error.
    Fail,
}

/// Why no proof could be written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExtractError {
    /// The position where it failed.
    pub position: String,
    /// What went wrong.
    pub reason: String,
    /// Whether it failed because the stored proofs justify each other in a cycle
    /// ([`Cycles::Fail`]).
    pub circular: bool,
    /// For a circular failure, the hashes of the positions round the cycle, from the one
    /// the walk came back to (whose stored proofs justify each other); else empty.
    pub cycle: Vec<u64>,
}

impl ExtractError {
    /// A failure at `pos` for `reason`, not a circular one.
    pub(crate) fn at(pos: &Position, reason: &str) -> ExtractError {
        ExtractError {
            position: pos.to_fen(),
            reason: reason.to_string(),
            circular: false,
            cycle: Vec::new(),
        }
    }
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
/// `cycles` says what a `win` walk does on a cycle (a `hold` allows them).
pub fn extract(
    search: &mut Search<'_>,
    root: &Position,
    claim: Claim,
    cycles: Cycles,
) -> Result<Vec<Line>, ExtractError> {
    let mut walk = Walk {
        search,
        claim,
        lines: Vec::new(),
        seen: HashMap::new(),
    };
    // Each position with its count and its depth on the walk's line; `line` holds the
    // hashes of the positions above the one popped.
    let mut stack = vec![(*root, 0u32, 0usize)];
    let mut line: Vec<u64> = Vec::new();
    let fail_on_cycle = claim == Claim::Win && cycles == Cycles::Fail;
    let mut steps = 0usize;
    while let Some((pos, q, depth)) = stack.pop() {
        line.truncate(depth);
        steps += 1;
        if steps % LIMITS_EVERY == 0 && walk.search.over_limits() {
            return Err(ExtractError::at(&pos, "a limit stopped the walk"));
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
        // A repetition is within the last `q` positions (no capture or man move since).
        let hash = pos.hash();
        if fail_on_cycle {
            let back = line.len().saturating_sub(q as usize);
            if let Some(i) = line[back..].iter().rposition(|&h| h == hash) {
                return Err(ExtractError {
                    circular: true,
                    cycle: line[back + i..].to_vec(),
                    ..ExtractError::at(
                        &pos,
                        "the stored proofs come back to it: they justify each other",
                    )
                });
            }
        }
        let (mv, children) = walk.expand(&pos, q)?;
        line.push(hash);
        for (child, cq) in children.into_iter().rev() {
            stack.push((child, cq, depth + 1));
        }
        let index = match walk.seen.get(&pos) {
            Some(&(i, _)) => {
                walk.lines[i] = (pos, mv);
                i
            }
            None => {
                walk.lines.push((pos, mv));
                walk.lines.len() - 1
            }
        };
        walk.seen.insert(pos, (index, q));
    }
    Ok(walk.lines)
}

/// A position's line: its move (or none) and the children the proof goes on from.
type Expansion = (Option<Move>, Vec<(Position, u32)>);

/// What the stored results say of the claimant's move at a position.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Stored {
    /// This move reaches a leaf that keeps the claim.
    Leaf(Move),
    /// The move of this index reaches a settled position with the shortest line.
    Settled(usize),
    /// No move reaches a settled position.
    Nothing,
}

/// The position after `mv` from `pos` (count `q`), with its count.
fn child(pos: &Position, mv: &Move, q: u32) -> (Position, u32) {
    let cq = if pos.is_progress(mv) { 0 } else { q + 1 };
    (pos.play(mv), cq)
}

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

    /// The claimant's move at `pos` (count `q`) from the stored results.
    fn best_stored(&mut self, pos: &Position, q: u32, moves: &[Move]) -> Stored {
        let mut best: Option<(u32, usize)> = None;
        for (i, mv) in moves.iter().enumerate() {
            let (c, cq) = child(pos, mv, q);
            let num = self.search.known(&c, cq);
            if self.is_leaf(&c, cq) && !(num.terminal() && c.turn() == self.claimant()) {
                return Stored::Leaf(*mv);
            }
            if self.settled(&num) && best.map_or(true, |(d, _)| num.dist < d) {
                best = Some((num.dist, i));
            }
        }
        best.map_or(Stored::Nothing, |(_, i)| Stored::Settled(i))
    }

    fn expand(&mut self, pos: &Position, q: u32) -> Result<Expansion, ExtractError> {
        let rules = *self.search.rules();
        let moves = pos.legal_moves(&rules);
        let child = |mv: &Move| child(pos, mv, q);
        if pos.turn() != self.claimant() {
            let mut next = Vec::new();
            for mv in &moves {
                let (c, cq) = child(mv);
                if self.is_leaf(&c, cq) {
                    if self.search.known(&c, cq).terminal() {
                        return Err(ExtractError::at(
                            pos,
                            &format!("{mv} leaves the claimant without a move"),
                        ));
                    }
                    continue;
                }
                let num = self.status(&c, cq);
                if !self.settled(&num) {
                    return Err(ExtractError::at(
                        pos,
                        &format!("the reply {mv} is not settled"),
                    ));
                }
                next.push((c, cq));
            }
            return Ok((None, next));
        }
        // The claimant's move: a leaf first, then the best stored result, then (none
        // stored: the position's own result was carried over from an earlier solve, or its
        // children's were replaced) the best stored after a search of the position, which
        // leaves its children's results in the table, and last a search of each move on its
        // own. (Searched one by one, a move that does not keep the claim first can take
        // without end to settle, in an ending of kings without tables.)
        let mut stored = self.best_stored(pos, q, &moves);
        if stored == Stored::Nothing {
            let num = self.search.run_below(pos, q);
            if self.settled(&num) {
                stored = self.best_stored(pos, q, &moves);
            }
        }
        let best = match stored {
            Stored::Leaf(mv) => return Ok((Some(mv), Vec::new())),
            Stored::Settled(i) => Some(i),
            Stored::Nothing => moves.iter().position(|mv| {
                let (c, cq) = child(mv);
                let num = self.status(&c, cq);
                self.settled(&num)
            }),
        };
        let i = best.ok_or_else(|| ExtractError::at(pos, "no move keeps the claim"))?;
        let (c, cq) = child(&moves[i]);
        Ok((Some(moves[i]), vec![(c, cq)]))
    }
}
