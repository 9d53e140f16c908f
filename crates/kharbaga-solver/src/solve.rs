//! Solving a position: win, loss or draw for the side to move, from two proof searches.
//!
//! A win of the side to move is a proof of its search; a loss is a proof of the opponent's
//! search; a draw is a disproof of both. The search for the side the evaluation favours
//! runs first (a proof there ends the work); the other runs only when the first is
//! disproven. Both share one transposition table (keys carry the prover).

use std::time::{Duration, Instant};

use kharbaga::{Color, Move, Position, Rules};
use kharbaga_engine::eval::{evaluate, Weights};
use kharbaga_tablebase::tablebase::Tablebase;

use crate::dfpn::{Limits, Num, Progress, Search, Stats};
use crate::extract::{extract, Claim, ExtractError, Line};
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
    /// The searches run, in order.
    pub searches: Vec<SearchReport>,
    /// The proofs (one for a win or a loss, two `hold` strategies for a draw) when asked for.
    pub proofs: Vec<Proof>,
    /// Wall time.
    pub elapsed: Duration,
}

impl Solution {
    /// Nodes of all searches.
    pub fn nodes(&self) -> u64 {
        self.searches.iter().map(|s| s.stats.nodes).sum()
    }

    /// Table hits of all searches.
    pub fn table_hits(&self) -> u64 {
        self.searches.iter().map(|s| s.stats.table_hits).sum()
    }
}

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

impl Solver<'_> {
    /// Solves `pos` (no-progress count 0, no history) with `tt`, calling `report` now and
    /// then with the running search's progress.
    pub fn solve(
        &self,
        pos: &Position,
        tt: &mut Tt,
        report: &mut dyn FnMut(&Progress),
    ) -> Result<Solution, ExtractError> {
        let start = Instant::now();
        let mover = pos.turn();
        let favoured = if evaluate(pos, &self.rules, &Weights::default()) >= 0 {
            mover
        } else {
            !mover
        };
        let mut searches = Vec::new();
        let mut proofs = Vec::new();
        let mut verdict = Verdict::Unknown;
        for prover in [favoured, !favoured] {
            let used: u64 = searches.iter().map(|s: &SearchReport| s.stats.nodes).sum();
            let limits = Limits {
                nodes: self.limits.nodes.map(|n| n.saturating_sub(used)),
                ..self.limits
            };
            let mut search = Search::new(&self.rules, self.tables, tt, prover)
                .with_limits(limits)
                .with_report(100_000, &mut *report);
            let root = search.run(pos, 0);
            searches.push(SearchReport {
                prover,
                root,
                stats: search.stats(),
            });
            if root.proven() {
                // Writing the proof may search parts again: it must not stop half-way.
                search.set_limits(Limits::default());
                if self.proofs {
                    proofs.push(Proof {
                        claim: Claim::Win,
                        prover,
                        lines: extract(&mut search, pos, Claim::Win)?,
                    });
                }
                verdict = if prover == mover {
                    Verdict::Win(best_move(&mut search, pos))
                } else {
                    Verdict::Loss
                };
                break;
            }
            if !root.disproven() {
                break;
            }
            if searches.len() == 2 {
                verdict = Verdict::Draw;
            }
        }
        if verdict == Verdict::Draw && self.proofs {
            for holder in [mover, !mover] {
                let mut search = Search::new(&self.rules, self.tables, tt, !holder);
                proofs.push(Proof {
                    claim: Claim::Hold,
                    prover: holder,
                    lines: extract(&mut search, pos, Claim::Hold)?,
                });
            }
        }
        Ok(Solution {
            verdict,
            searches,
            proofs,
            elapsed: start.elapsed(),
        })
    }
}

/// The winning move of a proven root: the proven move with the shortest line, from the
/// stored results (a move is searched again only when none is stored).
fn best_move(search: &mut Search<'_>, pos: &Position) -> Move {
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
    if best.is_none() {
        for mv in &moves {
            let (c, q) = child(mv);
            if search.run(&c, q).proven() {
                return *mv;
            }
        }
    }
    best.expect("a proven root has a proven move").1
}
