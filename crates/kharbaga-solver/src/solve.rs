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

use crate::check::check_proof;
use crate::dfpn::{Limits, Num, Progress, Search, Stats};
use crate::extract::{extract, Claim, ExtractError, Line};
use crate::proof_file::write_proof;
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
    ///
    /// The searches first store disproofs that rest on repetitions as if they held on every
    /// path ([`Search::path_safe`]), which settles repeating endings quickly. A win or a loss
    /// found so is sound (proofs never rest on a repetition); a draw is kept only when the
    /// two strategies that hold it pass the proof checker ([`crate::check`]); otherwise the
    /// position is solved again with path-safe searches.
    pub fn solve(
        &self,
        pos: &Position,
        tt: &mut Tt,
        report: &mut dyn FnMut(&Progress),
    ) -> Result<Solution, ExtractError> {
        let start = Instant::now();
        let mut searches = Vec::new();
        let mut found = self.attempt(pos, tt, report, false, &mut searches);
        let mut proofs = Vec::new();
        if found == Found::Draw {
            match self.holds(pos, tt, false) {
                Ok(holds) if holds.iter().all(|p| self.confirmed(p)) => proofs = holds,
                _ => {
                    tt.clear();
                    found = self.attempt(pos, tt, report, true, &mut searches);
                    if found == Found::Draw && self.proofs {
                        proofs = self.holds(pos, tt, true)?;
                    }
                }
            }
        }
        let verdict = match found {
            Found::Winner(winner) => {
                let mut search = Search::new(&self.rules, self.tables, tt, winner);
                if self.proofs {
                    proofs.push(Proof {
                        claim: Claim::Win,
                        prover: winner,
                        lines: extract(&mut search, pos, Claim::Win)?,
                    });
                }
                if winner == pos.turn() {
                    Verdict::Win(best_move(&mut search, pos))
                } else {
                    Verdict::Loss
                }
            }
            Found::Draw => Verdict::Draw,
            Found::Open => Verdict::Unknown,
        };
        if !self.proofs {
            proofs.clear();
        }
        Ok(Solution {
            verdict,
            searches,
            proofs,
            elapsed: start.elapsed(),
        })
    }

    /// The two searches (the side the evaluation favours first), path-safe or not; each
    /// search's report goes to `searches`.
    fn attempt(
        &self,
        pos: &Position,
        tt: &mut Tt,
        report: &mut dyn FnMut(&Progress),
        path_safe: bool,
        searches: &mut Vec<SearchReport>,
    ) -> Found {
        let mover = pos.turn();
        let favoured = if evaluate(pos, &self.rules, Weights::for_rules(&self.rules)) >= 0 {
            mover
        } else {
            !mover
        };
        for (i, prover) in [favoured, !favoured].into_iter().enumerate() {
            let used: u64 = searches.iter().map(|s| s.stats.nodes).sum();
            let limits = Limits {
                nodes: self.limits.nodes.map(|n| n.saturating_sub(used)),
                ..self.limits
            };
            let mut search = Search::new(&self.rules, self.tables, tt, prover)
                .path_safe(path_safe)
                .with_limits(limits)
                .with_report(100_000, &mut *report);
            let root = search.run(pos, 0);
            searches.push(SearchReport {
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

    /// The strategies of both sides that hold a draw (the side to move's first), from the
    /// disproofs of the opponents' searches.
    fn holds(
        &self,
        pos: &Position,
        tt: &mut Tt,
        path_safe: bool,
    ) -> Result<Vec<Proof>, ExtractError> {
        let mut out = Vec::new();
        for holder in [pos.turn(), !pos.turn()] {
            let mut search =
                Search::new(&self.rules, self.tables, tt, !holder).path_safe(path_safe);
            out.push(Proof {
                claim: Claim::Hold,
                prover: holder,
                lines: extract(&mut search, pos, Claim::Hold)?,
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
