//! Splitting a solve into parts and putting the parts together.
//!
//! The frontier of a position at `K` plies is the set of positions exactly `K` plies below it
//! (on lines that do not repeat a position) whose value is still open: the game is not over
//! and the tables do not hold them. Each can be solved on its own, anywhere. Combining takes
//! their values and works the tree of the first `K` plies back to the root, with intervals of
//! values so that an unsolved part leaves the root open only where it matters; the root's
//! proof (or, for a draw, each side's strategy) is built from the tree and the parts' proofs.

use std::collections::{HashMap, HashSet};

use kharbaga::{Color, Move, Position, Rules};
use kharbaga_engine::eval::{evaluate, Weights};
use kharbaga_tablebase::tablebase::Tablebase;
use kharbaga_tablebase::value::Wdl;

use crate::extract::{Claim, Line};

/// What is known of a position's value for its side to move: the values from `lo` to `hi`
/// (loss < draw < win) are still possible.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Range {
    /// The worst possible value.
    pub lo: Wdl,
    /// The best possible value.
    pub hi: Wdl,
}

impl Range {
    /// Exactly `v`.
    pub fn exact(v: Wdl) -> Range {
        Range { lo: v, hi: v }
    }

    /// Nothing known.
    pub fn open() -> Range {
        Range {
            lo: Wdl::Loss,
            hi: Wdl::Win,
        }
    }

    /// The value, when known exactly.
    pub fn value(self) -> Option<Wdl> {
        (self.lo == self.hi).then_some(self.lo)
    }
}

/// The tree of the first plies below a root.
pub struct Tree<'a> {
    rules: &'a Rules,
    tables: Option<&'a Tablebase>,
    plies: u32,
}

impl<'a> Tree<'a> {
    /// The tree of `plies` plies under `rules`, with `tables` settling what they hold.
    pub fn new(rules: &'a Rules, tables: Option<&'a Tablebase>, plies: u32) -> Tree<'a> {
        Tree {
            rules,
            tables,
            plies,
        }
    }

    /// A position's value when the game is over or the tables hold it.
    fn settled(&self, pos: &Position) -> Option<Wdl> {
        if pos.is_blocked(self.rules) {
            return Some(Wdl::Loss);
        }
        let tb = self.tables?;
        if !tb.covers(pos) {
            return None;
        }
        tb.probe_wdl(pos).ok()
    }

    /// The frontier of `root`: distinct open positions `plies` plies below it, in the order
    /// a depth-first walk meets them, trying the moves the evaluation prefers first (so
    /// that the parts a driver solves first are the likeliest to decide the root).
    pub fn frontier(&self, root: &Position) -> Vec<Position> {
        let mut out = Vec::new();
        let mut found = HashSet::new();
        let mut done = HashSet::new();
        let mut path = Vec::new();
        self.walk(root, 0, &mut path, &mut done, &mut |p: &Position| {
            if found.insert(*p) {
                out.push(*p);
            }
        });
        out
    }

    fn walk(
        &self,
        pos: &Position,
        depth: u32,
        path: &mut Vec<Position>,
        done: &mut HashSet<(Position, u32)>,
        leaf: &mut dyn FnMut(&Position),
    ) {
        if path.contains(pos) || self.settled(pos).is_some() || !done.insert((*pos, depth)) {
            return;
        }
        if depth == self.plies {
            leaf(pos);
            return;
        }
        path.push(*pos);
        let weights = Weights::for_rules(self.rules);
        let mut children: Vec<(i32, Position)> = pos
            .legal_moves(self.rules)
            .iter()
            .map(|mv| {
                let child = pos.play(mv);
                (evaluate(&child, self.rules, weights), child)
            })
            .collect();
        // The child's evaluation is for its side to move: the lowest is the best move.
        children.sort_by_key(|&(e, _)| e);
        for (_, child) in &children {
            self.walk(child, depth + 1, path, done, leaf);
        }
        path.pop();
    }

    /// The value of `root` from the values of frontier positions (`results`, for their side
    /// to move); a repetition inside the tree is a draw.
    pub fn value(&self, root: &Position, results: &HashMap<Position, Wdl>) -> Range {
        let mut memo = HashMap::new();
        self.range(root, 0, results, &mut Vec::new(), &mut memo)
    }

    fn range(
        &self,
        pos: &Position,
        depth: u32,
        results: &HashMap<Position, Wdl>,
        path: &mut Vec<Position>,
        memo: &mut HashMap<(Position, u32), Range>,
    ) -> Range {
        if path.contains(pos) {
            return Range::exact(Wdl::Draw);
        }
        if let Some(v) = self.settled(pos) {
            return Range::exact(v);
        }
        if depth == self.plies {
            return results.get(pos).map_or(Range::open(), |v| Range::exact(*v));
        }
        if let Some(r) = memo.get(&(*pos, depth)) {
            return *r;
        }
        path.push(*pos);
        let mut best = Range::exact(Wdl::Loss);
        for mv in pos.legal_moves(self.rules) {
            let child = self.range(&pos.play(&mv), depth + 1, results, path, memo);
            best.lo = best.lo.max(-child.hi);
            best.hi = best.hi.max(-child.lo);
        }
        path.pop();
        memo.insert((*pos, depth), best);
        best
    }

    /// The lines of the tree for `claim` of `prover` from `root` (a win, or a hold of at
    /// least a draw), and the frontier positions the proof goes on from. Fails with the
    /// position where `results` do not prove the claim.
    pub fn proof(
        &self,
        root: &Position,
        results: &HashMap<Position, Wdl>,
        prover: Color,
        claim: Claim,
    ) -> Result<(Vec<Line>, Vec<Position>), Position> {
        // The best the opponent may get after the prover's move.
        let allowed = match claim {
            Claim::Win => Wdl::Loss,
            Claim::Hold => Wdl::Draw,
        };
        let mut lines = Vec::new();
        let mut leaves = Vec::new();
        let mut seen = HashSet::new();
        let mut memo = HashMap::new();
        let mut stack = vec![(*root, 0u32)];
        while let Some((pos, depth)) = stack.pop() {
            // The root always has a line, even when the tables hold it.
            if !seen.insert((pos, depth)) || (depth > 0 && self.settled(&pos).is_some()) {
                continue;
            }
            if depth == self.plies {
                leaves.push(pos);
                continue;
            }
            let moves = pos.legal_moves(self.rules);
            let choice: Option<Move> = if pos.turn() == prover {
                let mut keeps = |mv: &&Move| {
                    let child = pos.play(mv);
                    self.range(&child, depth + 1, results, &mut vec![pos], &mut memo)
                        .hi
                        <= allowed
                };
                Some(*moves.iter().find(&mut keeps).ok_or(pos)?)
            } else {
                None
            };
            lines.push((pos, choice));
            let next: Vec<Move> = match choice {
                Some(mv) => vec![mv],
                None => moves,
            };
            for mv in next.iter().rev() {
                stack.push((pos.play(mv), depth + 1));
            }
        }
        let mut unique = HashSet::new();
        lines.retain(|(p, _)| unique.insert(*p));
        Ok((lines, leaves))
    }
}
