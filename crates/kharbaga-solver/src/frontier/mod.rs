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

/// What [`Tree::fewest_through`] gives a frontier position: the fewest unsolved frontier
/// positions (itself among them) whose values, as hoped, would decide the root through it,
/// the cheaper way first.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Fewest {
    /// Through the cheaper of the root's win and its loss.
    pub first: u64,
    /// Through the other, when some values decide it that way through this position.
    pub other: Option<u64>,
}

/// The state of [`Tree::fewest_through`]'s walks.
struct Through<'r> {
    results: &'r HashMap<Position, Wdl>,
    /// [`Tree::cost`] by position, depth and goal.
    cost: HashMap<(Position, u32, Wdl), u64>,
    /// The smallest total each (position, depth, goal) was walked with.
    best: HashMap<(Position, u32, Wdl), u64>,
    path: Vec<Position>,
    /// The walk's goal for the root (0 for its win, 1 for its loss).
    goal: usize,
    /// The fewest through each open position, for each goal of the root.
    out: HashMap<Position, [u64; 2]>,
}

/// [`Tree::cost`] of a goal that no values of the open positions reach.
const NEVER: u64 = u64::MAX;

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

    /// For each frontier position that `results` leave unsolved and that can decide the
    /// root, the fewest unsolved frontier positions (itself among them) whose values, as
    /// hoped, would decide it: proof-number search's count (one for each unsolved position)
    /// of the cheapest win of the root that goes through it, and of its cheapest loss, the
    /// smaller first. The lower, the sooner worth solving: a driver runs such parts first.
    /// Positions on no such win or loss (a draw at most changes the root through them) are
    /// left out.
    pub fn fewest_through(
        &self,
        root: &Position,
        results: &HashMap<Position, Wdl>,
    ) -> HashMap<Position, Fewest> {
        let mut walk = Through {
            results,
            cost: HashMap::new(),
            best: HashMap::new(),
            path: Vec::new(),
            goal: 0,
            out: HashMap::new(),
        };
        for (i, goal) in [Wdl::Win, Wdl::Loss].into_iter().enumerate() {
            walk.goal = i;
            walk.best.clear();
            let total = self.cost(root, 0, goal, &mut walk);
            if total != 0 && total != NEVER {
                self.through(root, 0, goal, total, &mut walk);
            }
        }
        let known = |n: u64| (n != NEVER).then_some(n);
        walk.out
            .into_iter()
            .map(|(p, [win, loss])| {
                let fewest = Fewest {
                    first: win.min(loss),
                    other: known(win.max(loss)),
                };
                (p, fewest)
            })
            .collect()
    }

    /// The fewest unsolved frontier positions that decide `pos` as `goal` (a win or a loss
    /// for its side to move), or [`NEVER`]: a win needs one move to a loss, a loss needs
    /// every move to a win (so the positions add up), and a repetition is a draw.
    fn cost(&self, pos: &Position, depth: u32, goal: Wdl, w: &mut Through) -> u64 {
        if w.path.contains(pos) {
            return NEVER;
        }
        let known = match self.settled(pos) {
            Some(v) => Some(v),
            None if depth == self.plies => match w.results.get(pos) {
                Some(v) => Some(*v),
                None => return 1,
            },
            None => None,
        };
        if let Some(v) = known {
            return if v == goal { 0 } else { NEVER };
        }
        if let Some(&c) = w.cost.get(&(*pos, depth, goal)) {
            return c;
        }
        w.path.push(*pos);
        let children = pos.legal_moves(self.rules);
        let c = if goal == Wdl::Win {
            children
                .iter()
                .map(|mv| self.cost(&pos.play(mv), depth + 1, Wdl::Loss, w))
                .min()
                .unwrap_or(NEVER)
        } else {
            children
                .iter()
                .map(|mv| self.cost(&pos.play(mv), depth + 1, Wdl::Win, w))
                .fold(0, u64::saturating_add)
        };
        w.path.pop();
        w.cost.insert((*pos, depth, goal), c);
        c
    }

    /// Walks down from `pos` (to be decided as `goal`, with `total` the fewest positions
    /// that decide the root through it), giving each open frontier position below it the
    /// fewest through it: a win's cheapest moves keep the total and a dearer one adds what
    /// it costs more; a loss needs all of its moves, so each keeps the total.
    fn through(&self, pos: &Position, depth: u32, goal: Wdl, total: u64, w: &mut Through) {
        if w.path.contains(pos)
            || w.best
                .get(&(*pos, depth, goal))
                .is_some_and(|&t| t <= total)
        {
            return;
        }
        w.best.insert((*pos, depth, goal), total);
        if depth == self.plies {
            let t = &mut w.out.entry(*pos).or_insert([NEVER; 2])[w.goal];
            *t = (*t).min(total);
            return;
        }
        let own = self.cost(pos, depth, goal, w);
        w.path.push(*pos);
        for mv in pos.legal_moves(self.rules) {
            let child = pos.play(&mv);
            let wanted = -goal;
            let c = self.cost(&child, depth + 1, wanted, w);
            if c == 0 || c == NEVER {
                continue;
            }
            let t = if goal == Wdl::Win {
                total - own + c
            } else {
                total
            };
            self.through(&child, depth + 1, wanted, t, w);
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
    const ROOT: &str = "W:Ba1,g1,d2:Wb4,c7,b8,d8,h8,e9,g9";

    /// The frontier positions under each of the root's moves, in move order.
    fn groups(rules: &Rules, root: &Position) -> Vec<HashSet<Position>> {
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
    fn the_fewest_parts_through_a_part_count_a_moves_open_replies() {
        let rules = Rules::standard();
        let root = Position::from_fen(ROOT).unwrap();
        let tree = Tree::new(&rules, None, 2);
        let groups = groups(&rules, &root);
        // Every reply is open here (no game over, no repetition), so a move wins once all
        // its replies are won, and loses once one of them is lost.
        for (mv, g) in root.legal_moves(&rules).iter().zip(&groups) {
            assert_eq!(g.len(), root.play(mv).legal_moves(&rules).len());
        }
        let moves = groups.len() as u64;
        // The fewest through a part: a win for White through the cheapest of its moves
        // (all its replies won), or a loss (one reply lost after each move).
        let expected = |results: &HashMap<Position, Wdl>, refuted: &[usize]| {
            let mut both: HashMap<Position, (u64, u64)> = HashMap::new();
            let open =
                |g: &HashSet<Position>| g.iter().filter(|p| !results.contains_key(p)).count();
            let to_lose = (moves - refuted.len() as u64).max(1);
            for (i, g) in groups.iter().enumerate() {
                for p in g.iter().filter(|p| !results.contains_key(p)) {
                    let win = if refuted.contains(&i) {
                        u64::MAX
                    } else {
                        open(g) as u64
                    };
                    let lose = if refuted.contains(&i) {
                        u64::MAX
                    } else {
                        to_lose
                    };
                    let t = both.entry(*p).or_insert((u64::MAX, u64::MAX));
                    *t = (t.0.min(win), t.1.min(lose));
                }
            }
            let out: HashMap<Position, Fewest> = both
                .into_iter()
                .filter(|(_, (win, lose))| win.min(lose) < &u64::MAX)
                .map(|(p, (win, lose))| {
                    let other = (win.max(lose) < u64::MAX).then_some(win.max(lose));
                    let first = win.min(lose);
                    (p, Fewest { first, other })
                })
                .collect();
            out
        };
        assert_eq!(
            tree.fewest_through(&root, &HashMap::new()),
            expected(&HashMap::new(), &[])
        );
        let cheapest = (0..groups.len()).min_by_key(|&i| groups[i].len()).unwrap();

        // All but one reply of a move won: the last one alone decides the root.
        let dearest = (0..groups.len()).max_by_key(|&i| groups[i].len()).unwrap();
        let mut replies = groups[dearest].iter().copied();
        let last = replies.next().unwrap();
        let results: HashMap<Position, Wdl> = replies.map(|p| (p, Wdl::Win)).collect();
        let through = tree.fewest_through(&root, &results);
        assert_eq!(through[&last].first, 1);
        assert_eq!(through, expected(&results, &[]));

        // A reply lost refutes its move: its other replies count only through other moves
        // (or not at all), and the root's loss comes one move nearer.
        let lost = *groups[cheapest].iter().next().unwrap();
        let results = HashMap::from([(lost, Wdl::Loss)]);
        let through = tree.fewest_through(&root, &results);
        assert!(!through.contains_key(&lost));
        assert_eq!(through, expected(&results, &[cheapest]));

        // Every move but one refuted: each open reply of that move alone decides the root.
        let kept = (0..groups.len()).find(|&i| i != cheapest).unwrap();
        let mut results = HashMap::new();
        let mut refuted = Vec::new();
        for (i, g) in groups.iter().enumerate().filter(|&(i, _)| i != kept) {
            let reply = g.iter().find(|p| !groups[kept].contains(p)).unwrap();
            results.insert(*reply, Wdl::Loss);
            refuted.push(i);
        }
        let through = tree.fewest_through(&root, &results);
        assert!(groups[kept].iter().all(|p| through[p].first == 1));
        assert_eq!(through, expected(&results, &refuted));
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
