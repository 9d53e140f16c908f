//! Solving a position: win, loss or draw for the side to move, from two proof searches.
//!
//! A win of the side to move is a proof of its search; a loss is a proof of the opponent's
//! search; a draw is a disproof of both. The search for the side a short engine search
//! favours runs first (a proof there ends the work); the other runs only when the first is
//! disproven. Both share one transposition table (keys carry the prover).

use std::time::{Duration, Instant};

use kharbaga::{Color, Move, Position, Rules};
use kharbaga_tablebase::tablebase::Tablebase;

use crate::check::check_proof;
use crate::dfpn::{Limits, Num, Progress, Search, Stats};
use crate::extract::{extract, Claim, Cycles, ExtractError, Line};
use crate::proof_file::write_proof;
use crate::scout::Scout;
use crate::tt::Tt;

/// The value of a position for the side to move, as far as the solver got.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The side to move wins, with this move.
    Win(Move),
    /// The side to move loses whatever it plays.
    Loss,
    /// Neither side can force a win.
    Draw,
    /// A limit stopped the solver first.
    Unknown,
}

impl Verdict {
    /// `win`, `loss`, `draw` or `unknown`.
    pub fn name(&self) -> &'static str {
        match self {
            Verdict::Win(_) => "win",
            Verdict::Loss => "loss",
            Verdict::Draw => "draw",
            Verdict::Unknown => "unknown",
        }
    }
}

/// One proof search's outcome.
#[derive(Copy, Clone, Debug)]
pub struct SearchReport {
    /// The side whose win it searched for.
    pub prover: Color,
    /// The root's numbers at the end.
    pub root: Num,
    /// Its counters.
    pub stats: Stats,
}

/// A proof of the verdict, as lines of `docs/proof-format.md`.
#[derive(Clone, Debug)]
pub struct Proof {
    /// Win or hold.
    pub claim: Claim,
    /// The side that plays the `MOVE` lines.
    pub prover: Color,
    /// The lines, the root's first.
    pub lines: Vec<Line>,
}

/// What the solver found.
#[derive(Clone, Debug)]
pub struct Solution {
    /// The value.
    pub verdict: Verdict,
    /// Whether the searches had settled the value but the limits stopped the work that
    /// must follow (writing or confirming its proof, or choosing the winning move): the
    /// verdict is then `Unknown`.
    pub cut: bool,
    /// How many cycles of stored proofs justifying each other the proof walk met (only a
    /// table with entries carried over from an earlier solve has them): each time the
    /// entries round the cycle were dropped, the root searched again if it was one of them,
    /// and the proof walked again.
    pub cycles: u32,
    /// Whether the cycles went on past [`CYCLE_ROUNDS`] (or the root, dropped with a cycle,
    /// was not proven again), so the position was solved again from an empty table (the
    /// searches of both attempts are in `searches`).
    pub restarted: bool,
    /// The searches run, in order.
    pub searches: Vec<SearchReport>,
    /// Nodes searched after them, to write the proofs and choose the winning move.
    pub proof_nodes: u64,
    /// The proofs (one for a win or a loss, two `hold` strategies for a draw) when asked for.
    pub proofs: Vec<Proof>,
    /// Wall time.
    pub elapsed: Duration,
}

impl Solution {
    /// Nodes of all searches, those after the proof searches included.
    pub fn nodes(&self) -> u64 {
        self.searches.iter().map(|s| s.stats.nodes).sum::<u64>() + self.proof_nodes
    }

    /// Table hits of all searches.
    pub fn table_hits(&self) -> u64 {
        self.searches.iter().map(|s| s.stats.table_hits).sum()
    }
}

/// What the two searches found.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Found {
    /// This side wins.
    Winner(Color),
    /// Both searches disproven.
    Draw,
    /// A limit stopped a search.
    Open,
}

/// The most cycles of stored proofs a proof walk breaks before the solve starts again
/// from an empty table.
pub const CYCLE_ROUNDS: u32 = 100;

/// The depth of the engine search that picks the side whose win is searched for first.
const FAVOURED_DEPTH: u32 = 8;

/// Its most nodes.
const FAVOURED_NODES: u64 = 100_000;

/// How to solve.
pub struct Solver<'a> {
    /// The rules.
    pub rules: Rules,
    /// Endgame tables for the leaves.
    pub tables: Option<&'a Tablebase>,
    /// When to give up.
    pub limits: Limits,
    /// Whether to write the proofs.
    pub proofs: bool,
}

/// Why a proof was not written.
enum Cut {
    /// A limit stopped a search that writing it needed.
    Limit,
    /// The stored results did not give a proof.
    Failed(ExtractError),
}

impl Solver<'_> {
    /// Solves `pos` (no-progress count 0, no history) with `tt`, calling `report` now and
    /// then with the running search's progress.
    ///
    /// The searches first store disproofs that rest on repetitions as if they held on every
    /// path ([`Search::path_safe`]), which settles repeating endings quickly. A win or a loss
    /// found so is sound (proofs never rest on a repetition); a draw is kept only when the
    /// two strategies that hold it pass the proof checker ([`crate::check`]); otherwise the
    /// position is solved again with path-safe searches.
    ///
    /// The limits bound all of it, the writing of the proofs (which may search again where
    /// a result was replaced in the table) and the choice of the winning move included: a
    /// value whose proof, confirmation or move the limits cut off is
    /// [`Verdict::Unknown`], with [`Solution::cut`] set.
    ///
    /// A table holding entries carried over from an earlier solve may give a proof walk
    /// that goes round a cycle of proofs justifying each other (each true, but the entries
    /// they rested on replaced): then the entries round the cycle are dropped and the proof
    /// walked again, which searches those positions again ([`Solution::cycles`]); only after
    /// [`CYCLE_ROUNDS`] such cycles is the table emptied and the position solved again
    /// ([`Solution::restarted`]).
    pub fn solve(
        &self,
        pos: &Position,
        tt: &mut Tt,
        report: &mut dyn FnMut(&Progress),
    ) -> Result<Solution, ExtractError> {
        let start = Instant::now();
        let mut run = Run::default();
        let first = Scout::new(&self.rules, FAVOURED_DEPTH, FAVOURED_NODES).favoured(pos);
        let mut restarted = false;
        let (verdict, cut, proofs) = loop {
            match self.settle_value(pos, first, tt, report, &mut run) {
                Err(e) if e.circular => {
                    // Only a table with entries carried over fails so; empty, it cannot.
                    tt.clear();
                    restarted = true;
                }
                outcome => break outcome?,
            }
        };
        Ok(Solution {
            verdict,
            cut,
            cycles: run.cycles,
            restarted,
            searches: run.searches,
            proof_nodes: run.proof_nodes,
            proofs,
            elapsed: start.elapsed(),
        })
    }

    /// [`Solver::solve`] with the table as it is: the verdict, whether it was cut, and the
    /// proofs. A proof walk fails with a circular error only when the table holds entries
    /// carried over from an earlier solve.
    fn settle_value(
        &self,
        pos: &Position,
        first: Color,
        tt: &mut Tt,
        report: &mut dyn FnMut(&Progress),
        run: &mut Run,
    ) -> Result<(Verdict, bool, Vec<Proof>), ExtractError> {
        let mut found = self.attempt(pos, first, tt, report, false, run);
        let mut proofs = Vec::new();
        let mut cut = false;
        if found == Found::Draw {
            match self.holds(pos, tt, false, run) {
                Ok(holds) if holds.iter().all(|p| self.confirmed(p)) => proofs = holds,
                Err(Cut::Limit) => cut = true,
                _ => {
                    tt.clear();
                    found = self.attempt(pos, first, tt, report, true, run);
                    if found == Found::Draw && self.proofs {
                        match self.holds(pos, tt, true, run) {
                            Ok(holds) => proofs = holds,
                            Err(Cut::Limit) => cut = true,
                            Err(Cut::Failed(e)) => return Err(e),
                        }
                    }
                }
            }
        }
        let verdict = match found {
            _ if cut => Verdict::Unknown,
            Found::Winner(winner) => match self.win(pos, tt, winner, run) {
                Ok((verdict, proof)) => {
                    proofs.extend(proof);
                    verdict
                }
                Err(Cut::Limit) => {
                    cut = true;
                    Verdict::Unknown
                }
                Err(Cut::Failed(e)) => return Err(e),
            },
            Found::Draw => Verdict::Draw,
            Found::Open => Verdict::Unknown,
        };
        if !self.proofs || verdict == Verdict::Unknown {
            proofs.clear();
        }
        Ok((verdict, cut, proofs))
    }

    /// The limits left after `run`'s nodes.
    fn remaining(&self, run: &Run) -> Limits {
        Limits {
            nodes: self.limits.nodes.map(|n| n.saturating_sub(run.nodes())),
            ..self.limits
        }
    }

    /// The two searches (`first`'s win first), path-safe or not; each search's report goes
    /// to `run`.
    fn attempt(
        &self,
        pos: &Position,
        first: Color,
        tt: &mut Tt,
        report: &mut dyn FnMut(&Progress),
        path_safe: bool,
        run: &mut Run,
    ) -> Found {
        for (i, prover) in [first, !first].into_iter().enumerate() {
            let mut search = Search::new(&self.rules, self.tables, tt, prover)
                .path_safe(path_safe)
                .with_limits(self.remaining(run))
                .with_report(100_000, &mut *report);
            let root = search.run(pos, 0);
            run.searches.push(SearchReport {
                prover,
                root,
                stats: search.stats(),
            });
            if root.proven() {
                return Found::Winner(prover);
            }
            if !root.disproven() {
                return Found::Open;
            }
            if i == 1 {
                return Found::Draw;
            }
        }
        Found::Open
    }

    /// The value of a root `winner` is proven to win (with the winning move when it is to
    /// move) and, when proofs are asked for, its proof.
    fn win(
        &self,
        pos: &Position,
        tt: &mut Tt,
        winner: Color,
        run: &mut Run,
    ) -> Result<(Verdict, Option<Proof>), Cut> {
        let tt_carried = tt.has_carried();
        let mut search =
            Search::new(&self.rules, self.tables, tt, winner).with_limits(self.remaining(run));
        let cycles = if tt_carried {
            Cycles::Fail
        } else {
            Cycles::Rewalk
        };
        let lines = self.proofs.then(|| loop {
            match extract(&mut search, pos, Claim::Win, cycles) {
                Err(e) if e.circular && run.cycles < CYCLE_ROUNDS => {
                    run.cycles += 1;
                    for &hash in &e.cycle {
                        search.forget(hash);
                    }
                    // The root itself may have been round the cycle.
                    if !search.run(pos, 0).proven() {
                        break Err(e);
                    }
                }
                lines => break lines,
            }
        });
        let verdict = if winner == pos.turn() {
            best_move(&mut search, pos).map(Verdict::Win)
        } else {
            Some(Verdict::Loss)
        };
        run.proof_nodes += search.stats().nodes;
        let aborted = search.aborted();
        let proof = lines
            .map(|lines| {
                settle(lines, aborted).map(|lines| Proof {
                    claim: Claim::Win,
                    prover: winner,
                    lines,
                })
            })
            .transpose()?;
        match verdict {
            Some(verdict) => Ok((verdict, proof)),
            None if aborted => Err(Cut::Limit),
            None => Err(Cut::Failed(ExtractError::at(
                pos,
                "no move of the proven winner is proven",
            ))),
        }
    }

    /// The strategies of both sides that hold a draw (the side to move's first), from the
    /// disproofs of the opponents' searches.
    fn holds(
        &self,
        pos: &Position,
        tt: &mut Tt,
        path_safe: bool,
        run: &mut Run,
    ) -> Result<Vec<Proof>, Cut> {
        let mut out = Vec::new();
        for holder in [pos.turn(), !pos.turn()] {
            let mut search = Search::new(&self.rules, self.tables, tt, !holder)
                .path_safe(path_safe)
                .with_limits(self.remaining(run));
            let lines = extract(&mut search, pos, Claim::Hold, Cycles::Rewalk);
            run.proof_nodes += search.stats().nodes;
            out.push(Proof {
                claim: Claim::Hold,
                prover: holder,
                lines: settle(lines, search.aborted())?,
            });
        }
        Ok(out)
    }

    /// Whether the proof checker accepts `proof`.
    fn confirmed(&self, proof: &Proof) -> bool {
        let mut text = Vec::new();
        write_proof(&mut text, &self.rules, proof).is_ok()
            && check_proof(&text[..], &self.rules, self.tables).is_ok()
    }
}

/// The counts of one solve so far.
#[derive(Default)]
struct Run {
    /// The proof searches.
    searches: Vec<SearchReport>,
    /// Nodes searched again while writing proofs and choosing the winning move.
    proof_nodes: u64,
    /// Cycles of stored proofs broken while writing the proof.
    cycles: u32,
}

impl Run {
    fn nodes(&self) -> u64 {
        self.searches.iter().map(|s| s.stats.nodes).sum::<u64>() + self.proof_nodes
    }
}

/// An extraction's outcome, with a failure put down to the limits when a limit had stopped
/// one of its searches (a proof that was written is sound whatever the limits did).
fn settle(lines: Result<Vec<Line>, ExtractError>, aborted: bool) -> Result<Vec<Line>, Cut> {
    match lines {
        Ok(lines) => Ok(lines),
        Err(_) if aborted => Err(Cut::Limit),
        Err(e) => Err(Cut::Failed(e)),
    }
}

/// The winning move of a proven root: the proven move with the shortest line, from the
/// stored results (a move is searched again only when none is stored); `None` when a limit
/// stopped those searches first.
fn best_move(search: &mut Search<'_>, pos: &Position) -> Option<Move> {
    let rules = *search.rules();
    let moves = pos.legal_moves(&rules);
    let child = |mv: &Move| (pos.play(mv), u32::from(!pos.is_progress(mv)));
    let mut best: Option<(u32, Move)> = None;
    for mv in &moves {
        let (c, q) = child(mv);
        let num = search.known(&c, q);
        if num.proven() && best.map_or(true, |(d, _)| num.dist < d) {
            best = Some((num.dist, *mv));
        }
    }
    if let Some((_, mv)) = best {
        return Some(mv);
    }
    moves.into_iter().find(|mv| {
        let (c, q) = child(mv);
        search.run(&c, q).proven()
    })
}
