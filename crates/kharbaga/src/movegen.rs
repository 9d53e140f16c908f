//! Legal move generation and counting.
//!
//! Steps of men are generated a direction at a time with bitboard shifts; Mullah slides
//! along rays; captures by the depth-first search of [`crate::capture`], then merged (same
//! start, end and captured set is one move) and filtered by the majority rule.

use crate::bitboard::Bitboard;
use crate::board::{line, shift, Direction, Line};
use crate::capture::{capture_sequences, man_first_hops, Sink};
use crate::moves::Move;
use crate::point::Point;
use crate::position::Position;
use crate::reach::Lanes;
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

    pub(crate) fn captures_into(&self, rules: &Rules, out: &mut Vec<Move>, all_paths: bool) {
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
        self.mullah_lines(Bitboard::EMPTY, |from, _, l| {
            for to in l.run {
                out.push(Move::step(from, to));
            }
        });
    }

    /// The number of steps and slides (non-captures) available, whether or not they are
    /// legal (they are not when a capture is compulsory and available).
    fn count_steps(&self, rules: &Rules) -> u64 {
        self.count_men_steps(rules) + self.count_mullah_moves().0
    }

    /// The number of steps of the side to move's men.
    pub(crate) fn count_men_steps(&self, rules: &Rules) -> u64 {
        let us = self.turn();
        let empty = self.empty();
        let men = self.men(us);
        rules
            .man_step_directions(us)
            .iter()
            .map(|&d| (shift(men, d) & empty).count() as u64)
            .sum()
    }

    /// The side to move's Mullahs' slides and single hops (captures of one piece), each
    /// Mullah's eight lines counted at once ([`Lanes`]).
    fn count_mullah_moves(&self) -> (u64, u64) {
        let lanes = Lanes::new(self.occupied(), self.pieces(!self.turn()));
        let (mut slides, mut hops) = (0, 0);
        for from in self.mullahs(self.turn()) {
            let (s, h) = lanes.counts(from);
            slides += u64::from(s);
            hops += u64::from(h);
        }
        (slides, hops)
    }

    /// Calls `each(from, direction, line)` for every line of every Mullah of the side to
    /// move, in the order of the moves (Mullahs by point, then directions), with `targets`
    /// the pieces it may take.
    #[inline(always)]
    fn mullah_lines(&self, targets: Bitboard, mut each: impl FnMut(Point, Direction, Line)) {
        let occupied = self.occupied();
        for from in self.mullahs(self.turn()) {
            for d in Direction::ALL {
                each(from, d, line(from, d, occupied, targets));
            }
        }
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
        self.mullah_lines(self.pieces(!self.turn()), |_, _, l| each(l.beyond));
    }

    /// The single hops the side to move could make (each a one-piece capture) and its steps
    /// and slides.
    fn count_single_hops_and_steps(&self, rules: &Rules) -> (u64, u64) {
        let mut hops = 0u64;
        self.man_hops(rules, |_, landings| hops += landings.count() as u64);
        let (slides, mullah_hops) = self.count_mullah_moves();
        (hops + mullah_hops, self.count_men_steps(rules) + slides)
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
        if rules.capture_chains {
            let mut distinct = DistinctCaptures::new(rules.majority);
            capture_sequences(self, rules, &mut distinct);
            with_steps(rules, distinct.count(), || self.count_steps(rules))
        } else {
            let (hops, steps) = self.count_single_hops_and_steps(rules);
            with_steps(rules, hops, || steps)
        }
    }

    /// Whether the side to move has a step or slide (legal or not: a compulsory capture
    /// rules them out), as `count_steps(rules) > 0` but a bitboard shift a direction
    /// instead of every Mullah's lines: a Mullah can slide exactly when a neighbour on one
    /// of its lines is empty. A side with no capture and no step is blocked.
    pub fn has_step(&self, rules: &Rules) -> bool {
        let us = self.turn();
        let empty = self.empty();
        let men = self.men(us);
        let mullahs = self.mullahs(us);
        let by_men = rules
            .man_step_directions(us)
            .iter()
            .fold(Bitboard::EMPTY, |all, &d| all | shift(men, d));
        (by_men & empty).any()
            || mullahs.any()
                && (Direction::ALL
                    .iter()
                    .fold(Bitboard::EMPTY, |all, &d| all | shift(mullahs, d))
                    & empty)
                    .any()
    }

    /// Whether the side to move has no legal move (and so has lost).
    pub fn is_blocked(&self, rules: &Rules) -> bool {
        !self.has_step(rules) && !self.has_capture(rules)
    }

    /// Whether `mv` is one of the legal moves (by its effect: start, end and captured set).
    pub fn is_legal(&self, rules: &Rules, mv: &Move) -> bool {
        self.legal_moves(rules).iter().any(|m| m.same_effect(mv))
    }
}

/// The number of legal moves given the number of captures: the captures alone when one is
/// compulsory and there is one, else the captures and the steps.
pub(crate) fn with_steps(rules: &Rules, captures: u64, steps: impl FnOnce() -> u64) -> u64 {
    if captures > 0 && rules.capture_compulsory {
        captures
    } else {
        captures + steps()
    }
}

/// Counts capture sequences by their effect (start, end, captured set), keeping only the
/// largest under the majority rule, without building moves.
struct DistinctCaptures {
    majority: bool,
    most: u32,
    len: usize,
    /// The single hops counted in bulk ([`Sink::single_hops`]), each distinct from every
    /// other sequence.
    singles: u32,
    /// The effects seen, each packed into one word by [`DistinctCaptures::key`]: the first
    /// 16 here (zeroed in a few stores), the rest in `more`.
    keys: [u64; 16],
    more: Vec<u64>,
}

impl DistinctCaptures {
    fn new(majority: bool) -> DistinctCaptures {
        DistinctCaptures {
            majority,
            most: 0,
            len: 0,
            singles: 0,
            keys: [0; 16],
            more: Vec::new(),
        }
    }

    /// The captured set in the low 41 bits, the start and end points above it.
    #[inline]
    fn key(from: Point, to: Point, captured: Bitboard) -> u64 {
        captured.0 | (from.index() as u64) << 48 | (to.index() as u64) << 56
    }

    fn count(&self) -> u64 {
        (self.len + self.more.len()) as u64 + self.singles as u64
    }

    /// Takes a sequence capturing `taken` pieces into account under the majority rule:
    /// whether it counts (forgetting the smaller ones counted so far when it is larger).
    #[inline]
    fn counts(&mut self, taken: u32) -> bool {
        if self.majority {
            if taken < self.most {
                return false;
            }
            if taken > self.most {
                self.most = taken;
                self.len = 0;
                self.singles = 0;
                self.more.clear();
            }
        }
        true
    }
}

impl Sink for DistinctCaptures {
    #[inline(always)]
    fn emit(&mut self, from: Point, path: &[Point], captured: Bitboard) {
        if !self.counts(captured.count()) {
            return;
        }
        let key = DistinctCaptures::key(from, path[path.len() - 1], captured);
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

    #[inline]
    fn single_hops(&mut self, _: Direction, starts: Bitboard) {
        if self.counts(1) {
            self.singles += starts.count();
        }
    }
}
