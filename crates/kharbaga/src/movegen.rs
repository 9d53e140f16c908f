//! Legal move generation and counting.
//!
//! Steps of men are generated a direction at a time with bitboard shifts; Mullah slides
//! along rays; captures by the depth-first search of [`crate::capture`], then merged (same
//! start, end and captured set is one move) and filtered by the majority rule.

use crate::bitboard::Bitboard;
use crate::board::{run_until, shift, Direction};
use crate::capture::{capture_sequences, man_first_hops, Sink};
use crate::moves::Move;
use crate::point::Point;
use crate::position::Position;
use crate::rules::Rules;

impl Position {
    /// Every legal move under `rules`, one per distinct result (start, end, captured set),
    /// each capture with its smallest path.
    ///
    /// ```
    /// use kharbaga::{Position, Rules};
    /// let moves = Position::start().legal_moves(&Rules::standard());
    /// let names: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
    /// assert_eq!(names.len(), 3);
    /// assert!(names.contains(&"e3-e5".to_string()));
    /// ```
    pub fn legal_moves(&self, rules: &Rules) -> Vec<Move> {
        let mut out = Vec::with_capacity(48);
        self.legal_moves_into(rules, &mut out);
        out
    }

    /// Like [`Position::legal_moves`], but every path of a capture separately: two
    /// sequences with the same start, end and captured set both appear.
    pub fn legal_moves_all_paths(&self, rules: &Rules) -> Vec<Move> {
        let mut out = Vec::with_capacity(48);
        self.generate(rules, &mut out, true);
        out
    }

    /// [`Position::legal_moves`] into a buffer (cleared first), to avoid allocations.
    pub fn legal_moves_into(&self, rules: &Rules, out: &mut Vec<Move>) {
        self.generate(rules, out, false);
    }

    /// The legal captures alone (empty when there is none), merged and filtered as in
    /// [`Position::legal_moves`].
    pub fn legal_captures(&self, rules: &Rules) -> Vec<Move> {
        let mut out = Vec::new();
        self.captures_into(rules, &mut out, false);
        out
    }

    fn generate(&self, rules: &Rules, out: &mut Vec<Move>, all_paths: bool) {
        out.clear();
        self.captures_into(rules, out, all_paths);
        if out.is_empty() || !rules.capture_compulsory {
            self.steps_into(rules, out);
        }
    }

    fn captures_into(&self, rules: &Rules, out: &mut Vec<Move>, all_paths: bool) {
        out.clear();
        capture_sequences(self, rules, out);
        if rules.majority && rules.capture_chains {
            let most = out.iter().map(|m| m.captured().count()).max().unwrap_or(0);
            out.retain(|m| m.captured().count() == most);
        }
        if !all_paths && rules.capture_chains && out.len() > 1 {
            out.sort_unstable_by(|a, b| {
                (a.from(), a.to(), a.captured(), a.path()).cmp(&(
                    b.from(),
                    b.to(),
                    b.captured(),
                    b.path(),
                ))
            });
            out.dedup_by(|later, first| later.same_effect(first));
        }
    }

    fn steps_into(&self, rules: &Rules, out: &mut Vec<Move>) {
        let us = self.turn();
        let empty = self.empty();
        for &d in rules.man_step_directions(us) {
            for to in shift(self.men(us), d) & empty {
                let from = Point::new((to.index() as i8 - d.delta()) as u8).expect("on board");
                out.push(Move::step(from, to));
            }
        }
        let occupied = self.occupied();
        for from in self.mullahs(us) {
            for d in Direction::ALL {
                for to in run_until(from, d, occupied).0 {
                    out.push(Move::step(from, to));
                }
            }
        }
    }

    /// The number of steps and slides (non-captures) available, whether or not they are
    /// legal (they are not when a capture is compulsory and available).
    fn count_steps(&self, rules: &Rules) -> u64 {
        let us = self.turn();
        let empty = self.empty();
        let men = self.men(us);
        let mut n: u64 = rules
            .man_step_directions(us)
            .iter()
            .map(|&d| (shift(men, d) & empty).count() as u64)
            .sum();
        let occupied = self.occupied();
        for from in self.mullahs(us) {
            for d in Direction::ALL {
                n += run_until(from, d, occupied).0.count() as u64;
            }
        }
        n
    }

    /// Calls `each` with the landing points of the first hops of the side to move's men, a
    /// direction at a time.
    fn man_hops(&self, rules: &Rules, each: impl FnMut(Direction, Bitboard)) {
        let us = self.turn();
        man_first_hops(
            rules,
            us,
            self.men(us),
            self.pieces(!us),
            self.empty(),
            each,
        );
    }

    /// Calls `each` with the landing points of each first capture leg of the side to move's
    /// Mullahs (a Mullah, a direction, an enemy piece: the empty points beyond it).
    fn mullah_legs(&self, mut each: impl FnMut(Bitboard)) {
        let us = self.turn();
        let enemies = self.pieces(!us);
        let occupied = self.occupied();
        for from in self.mullahs(us) {
            for d in Direction::ALL {
                if let Some(over) = run_until(from, d, occupied).1 {
                    if enemies.contains(over) {
                        each(run_until(over, d, occupied).0);
                    }
                }
            }
        }
    }

    /// The single hops the side to move could make (each a one-piece capture).
    fn count_single_hops(&self, rules: &Rules) -> u64 {
        let mut n = 0u64;
        self.man_hops(rules, |_, landings| n += landings.count() as u64);
        self.mullah_legs(|landings| n += landings.count() as u64);
        n
    }

    /// Whether the side to move can capture anything.
    pub fn has_capture(&self, rules: &Rules) -> bool {
        let mut landings = Bitboard::EMPTY;
        self.man_hops(rules, |_, l| landings |= l);
        if landings.is_empty() {
            self.mullah_legs(|l| landings |= l);
        }
        landings.any()
    }

    /// The number of legal moves, as `legal_moves(rules).len()`, but faster: without
    /// captures (or with single hops) it only counts.
    pub fn count_legal(&self, rules: &Rules) -> u64 {
        let captures = if !rules.capture_chains {
            self.count_single_hops(rules)
        } else {
            let mut distinct = DistinctCaptures::new(rules.majority);
            capture_sequences(self, rules, &mut distinct);
            distinct.count()
        };
        if captures > 0 && rules.capture_compulsory {
            captures
        } else {
            captures + self.count_steps(rules)
        }
    }

    /// Whether the side to move has no legal move (and so has lost).
    pub fn is_blocked(&self, rules: &Rules) -> bool {
        self.count_steps(rules) == 0 && !self.has_capture(rules)
    }

    /// Whether `mv` is one of the legal moves (by its effect: start, end and captured set).
    pub fn is_legal(&self, rules: &Rules, mv: &Move) -> bool {
        self.legal_moves(rules).iter().any(|m| m.same_effect(mv))
    }
}

/// Counts capture sequences by their effect (start, end, captured set), keeping only the
/// largest under the majority rule, without building moves.
struct DistinctCaptures {
    majority: bool,
    most: u32,
    len: usize,
    keys: [(Point, Point, Bitboard); 32],
    more: Vec<(Point, Point, Bitboard)>,
}

impl DistinctCaptures {
    fn new(majority: bool) -> DistinctCaptures {
        DistinctCaptures {
            majority,
            most: 0,
            len: 0,
            keys: [(Point::E5, Point::E5, Bitboard::EMPTY); 32],
            more: Vec::new(),
        }
    }

    fn count(&self) -> u64 {
        (self.len + self.more.len()) as u64
    }
}

impl Sink for DistinctCaptures {
    fn emit(&mut self, from: Point, path: &[Point], captured: Bitboard) {
        let taken = captured.count();
        if self.majority {
            if taken < self.most {
                return;
            }
            if taken > self.most {
                self.most = taken;
                self.len = 0;
                self.more.clear();
            }
        }
        let key = (from, path[path.len() - 1], captured);
        if self.keys[..self.len].contains(&key) || self.more.contains(&key) {
            return;
        }
        if self.len < self.keys.len() {
            self.keys[self.len] = key;
            self.len += 1;
        } else {
            self.more.push(key);
        }
    }
}
