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
use kharbaga_tablebase::tablebase::Tablebase;
use kharbaga_tablebase::value::Wdl;

use crate::extract::{Claim, Line};
use crate::scout::Scout;

mod fewest;

pub use fewest::Fewest;

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

/// The state of [`Tree::needed`]'s walk.
struct Walk<'r> {
    results: &'r HashMap<Position, Wdl>,
    path: Vec<Position>,
    memo: HashMap<(Position, u32), Range>,
    seen: HashSet<(Position, u32)>,
    out: HashSet<Position>,
}

/// The depth of the engine search that orders each position's moves in a frontier's walk
/// (a search for every position above the frontier: shallower than the solver's choice of
/// the side to try first).
const ORDER_DEPTH: u32 = 6;

/// Its most nodes.
const ORDER_NODES: u64 = 20_000;

/// The state of [`Tree::frontier`]'s walk.
struct Order {
    /// The (position, depth) pairs walked.
    done: HashSet<(Position, u32)>,
    /// The positions from the root down to the one being walked.
    path: Vec<Position>,
    /// Orders the moves.
    scout: Scout,
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
    /// a depth-first walk meets them, trying first the moves a short engine search
    /// ([`Scout`]) prefers (so that the parts a driver solves first are the likeliest to
    /// decide the root).
    pub fn frontier(&self, root: &Position) -> Vec<Position> {
        let mut out = Vec::new();
        let mut found = HashSet::new();
        let mut walk = Order {
            done: HashSet::new(),
            path: Vec::new(),
            scout: Scout::new(self.rules, ORDER_DEPTH, ORDER_NODES),
        };
        self.walk(root, 0, &mut walk, &mut |p: &Position| {
            if found.insert(*p) {
                out.push(*p);
            }
        });
        out
    }

    fn walk(&self, pos: &Position, depth: u32, walk: &mut Order, leaf: &mut dyn FnMut(&Position)) {
        if walk.path.contains(pos)
            || self.settled(pos).is_some()
            || !walk.done.insert((*pos, depth))
        {
            return;
        }
        if depth == self.plies {
            leaf(pos);
            return;
        }
        walk.path.push(*pos);
        let mut children: Vec<(i64, Position)> = pos
            .legal_moves(self.rules)
            .iter()
            .map(|mv| {
                let child = pos.play(mv);
                (walk.scout.score(&child).ordinal(), child)
            })
            .collect();
        // The child's score is for its side to move: the lowest is the best move (equal
        // scores keep the moves' order).
        children.sort_by_key(|&(e, _)| e);
        for (_, child) in &children {
            self.walk(child, depth + 1, walk, leaf);
        }
        walk.path.pop();
    }

    /// The value of `root` from the values of frontier positions (`results`, for their side
    /// to move); a repetition inside the tree is a draw.
    pub fn value(&self, root: &Position, results: &HashMap<Position, Wdl>) -> Range {
        let mut memo = HashMap::new();
        self.range(root, 0, results, &mut Vec::new(), &mut memo)
    }

    /// The frontier positions that `results` leave unsolved and that can still change the
    /// root's value: those reached from the root through positions whose value is not yet
    /// known exactly (a known value stays known as more parts are solved, so a part left out
    /// is never needed). Empty when the root's value is known.
    pub fn needed(&self, root: &Position, results: &HashMap<Position, Wdl>) -> HashSet<Position> {
        let mut walk = Walk {
            results,
            path: Vec::new(),
            memo: HashMap::new(),
            seen: HashSet::new(),
            out: HashSet::new(),
        };
        self.open_below(root, 0, &mut walk);
        walk.out
    }

    fn open_below(&self, pos: &Position, depth: u32, w: &mut Walk) {
        if w.path.contains(pos) || !w.seen.insert((*pos, depth)) {
            return;
        }
        let range = self.range(pos, depth, w.results, &mut w.path, &mut w.memo);
        if range.value().is_some() {
            return;
        }
        if depth == self.plies {
            w.out.insert(*pos);
            return;
        }
        w.path.push(*pos);
        for mv in pos.legal_moves(self.rules) {
            self.open_below(&pos.play(&mv), depth + 1, w);
        }
        w.path.pop();
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

#[cfg(test)]
mod tests {
    use super::*;
    use kharbaga_engine::eval::{evaluate, Weights};

    /// White to move wins; no tables, so every position 2 plies below that is not over is
    /// on the frontier.
    pub(super) const ROOT: &str = "W:Ba1,g1,d2:Wb4,c7,b8,d8,h8,e9,g9";

    /// The frontier positions under each of the root's moves, in move order.
    pub(super) fn groups(rules: &Rules, root: &Position) -> Vec<HashSet<Position>> {
        let tree = Tree::new(rules, None, 2);
        let all: HashSet<Position> = tree.frontier(root).into_iter().collect();
        root.legal_moves(rules)
            .iter()
            .map(|mv| {
                let after = root.play(mv);
                after
                    .legal_moves(rules)
                    .iter()
                    .map(|reply| after.play(reply))
                    .filter(|p| all.contains(p))
                    .collect()
            })
            .collect()
    }

    #[test]
    fn a_refuted_move_needs_no_more_parts_and_a_known_root_none() {
        let rules = Rules::standard();
        let root = Position::from_fen(ROOT).unwrap();
        let tree = Tree::new(&rules, None, 2);
        let frontier = tree.frontier(&root);
        let groups = groups(&rules, &root);
        let everything: HashSet<Position> = frontier.iter().copied().collect();
        assert_eq!(tree.needed(&root, &HashMap::new()), everything);

        // A reply to the first move after which White loses refutes that move: the other
        // replies to it are not needed (unless another move reaches them too).
        let (refuted, refutation) = groups
            .iter()
            .enumerate()
            .find_map(|(i, g)| (g.len() > 1).then(|| (i, *g.iter().next().unwrap())))
            .expect("a move with several open replies");
        let elsewhere: HashSet<Position> = groups
            .iter()
            .enumerate()
            .filter(|&(i, _)| i != refuted)
            .flat_map(|(_, g)| g.iter().copied())
            .collect();
        let results = HashMap::from([(refutation, Wdl::Loss)]);
        assert_eq!(tree.value(&root, &results), Range::open());
        let mut expected = elsewhere.clone();
        expected.remove(&refutation);
        assert_eq!(tree.needed(&root, &results), expected);
        assert!(groups[refuted].iter().any(|p| !elsewhere.contains(p)));

        // Every reply to one move lost for Black: White wins, nothing more is needed.
        let (winning, _) = groups
            .iter()
            .enumerate()
            .find(|&(i, g)| i != refuted && !g.is_empty())
            .unwrap();
        let results: HashMap<Position, Wdl> =
            groups[winning].iter().map(|p| (*p, Wdl::Win)).collect();
        assert_eq!(tree.value(&root, &results), Range::exact(Wdl::Win));
        assert!(tree.needed(&root, &results).is_empty());
    }

    #[test]
    fn the_first_part_is_not_a_blunder_the_static_evaluation_prefers() {
        // A pinned suite position (Black wins). The static evaluation prefers i3-i5, which
        // loses: White then wins with i7xi3xe3 (a proof of 24,301 lines, accepted by both
        // checkers: `kharbaga solve --position W:Ba1,e1,g1,i1,b2,a3,g3,i5:Wa5,a7,c7,i7,a9,
        // c9,i9 --proof F` with the 6-piece tables). The parts after it must not come first.
        // (The engine's search puts g3-g5 first, which wins: a proof of 74,623 lines.)
        let rules = Rules::standard();
        let root = Position::from_fen("B:Ba1,e1,g1,i1,b2,a3,g3,i3:Wa5,a7,c7,i7,a9,c9,i9").unwrap();
        let blunder = root.play(&root.parse_move(&rules, "i3-i5").unwrap());
        let weights = Weights::for_rules(&rules);
        let by_evaluation = root
            .legal_moves(&rules)
            .iter()
            .map(|mv| root.play(mv))
            .min_by_key(|child| evaluate(child, &rules, weights))
            .unwrap();
        assert_eq!(by_evaluation, blunder);
        let frontier = Tree::new(&rules, None, 1).frontier(&root);
        assert_eq!(frontier.len(), root.legal_moves(&rules).len());
        assert_ne!(frontier[0], blunder);
    }
}
