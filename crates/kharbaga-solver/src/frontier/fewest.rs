//! Which parts to solve first: for each open frontier position, proof-number search's count
//! of the fewest unsolved parts that would decide the root through it.

use std::collections::HashMap;

use kharbaga::Position;
use kharbaga_tablebase::value::Wdl;

use super::Tree;

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

impl Tree<'_> {
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
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use kharbaga::Rules;

    use super::*;
    use crate::frontier::tests::{groups, ROOT};

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
}
