//! Capture sequences: the depth-first search that follows a piece from landing point to
//! landing point, under every removal and promotion option.

use crate::bitboard::Bitboard;
use crate::board::{neighbour, run_until, Direction};
use crate::color::Color;
use crate::moves::{Move, MAX_PATH};
use crate::point::Point;
use crate::position::Position;
use crate::rules::{BackRank, Rules};

/// The directions a man of `color` may capture in under `rules`.
pub(crate) fn man_capture_directions(rules: &Rules, color: Color) -> &'static [Direction] {
    use Direction::*;
    match (rules.men_capture_backwards, color) {
        (true, _) => &Direction::ALL,
        (false, Color::Black) => &[N, NE, E, W, NW],
        (false, Color::White) => &[S, SE, E, W, SW],
    }
}

/// Every capture sequence of the side to move, each path separately, appended to `out`.
/// Sequences are maximal when chains are on; no majority filter, no merging.
pub(crate) fn capture_sequences(pos: &Position, rules: &Rules, out: &mut Vec<Move>) {
    let us = pos.turn();
    let mut search = CaptureSearch {
        rules,
        promotion_y: us.promotion_y(),
        man_dirs: man_capture_directions(rules, us),
        enemies: pos.pieces(!us),
        all: pos.occupied(),
        occupied: pos.occupied(),
        from: Point::E5,
        path: [Point::E5; MAX_PATH],
        len: 0,
        out,
    };
    for from in pos.men(us) {
        search.start(from);
        search.man(from, Bitboard::EMPTY);
    }
    for from in pos.mullahs(us) {
        search.start(from);
        search.mullah(from, Bitboard::EMPTY, None);
    }
}

struct CaptureSearch<'a> {
    rules: &'a Rules,
    promotion_y: u8,
    man_dirs: &'static [Direction],
    /// The opponent's pieces, captured or not.
    enemies: Bitboard,
    /// Every occupied point before the move.
    all: Bitboard,
    /// Every occupied point but the moving piece's start.
    occupied: Bitboard,
    from: Point,
    path: [Point; MAX_PATH],
    len: usize,
    out: &'a mut Vec<Move>,
}

impl CaptureSearch<'_> {
    fn start(&mut self, from: Point) {
        // The moving piece's start point counts as empty for the whole sequence.
        self.occupied = self.all.without(from);
        self.from = from;
        self.len = 0;
    }

    /// The points a piece cannot pass or land on, with `captured` already taken.
    #[inline]
    fn blockers(&self, captured: Bitboard) -> Bitboard {
        if self.rules.delayed_removal() {
            self.occupied
        } else {
            self.occupied & !captured
        }
    }

    fn emit(&mut self, captured: Bitboard) {
        self.out
            .push(Move::capture(self.from, &self.path[..self.len], captured));
    }

    /// Follows one more hop to `land` taking `over`, then goes on as `next` says.
    #[inline]
    fn hop(&mut self, land: Point, captured: Bitboard, next: impl FnOnce(&mut Self)) {
        self.path[self.len] = land;
        self.len += 1;
        if !self.rules.capture_chains {
            self.emit(captured);
        } else {
            next(self);
        }
        self.len -= 1;
    }

    fn man(&mut self, cur: Point, captured: Bitboard) {
        let targets = self.enemies & !captured;
        let blockers = self.blockers(captured);
        let mut found = false;
        for &d in self.man_dirs {
            let Some(over) = neighbour(cur, d) else {
                continue;
            };
            if !targets.contains(over) {
                continue;
            }
            let Some(land) = neighbour(over, d) else {
                continue;
            };
            if blockers.contains(land) {
                continue;
            }
            found = true;
            let taken = captured.with(over);
            self.hop(land, taken, |s| {
                if land.y() == s.promotion_y && s.rules.back_rank == BackRank::Promote {
                    s.emit(taken);
                } else {
                    s.man(land, taken);
                }
            });
        }
        if !found && captured.any() {
            self.emit(captured);
        }
    }

    fn mullah(&mut self, cur: Point, captured: Bitboard, previous: Option<Direction>) {
        let targets = self.enemies & !captured;
        let blockers = self.blockers(captured);
        let mut found = false;
        for d in Direction::ALL {
            if !self.rules.mullah_turn_back && previous == Some(d.opposite()) {
                continue;
            }
            let (_, hit) = run_until(cur, d, blockers);
            let Some(over) = hit.filter(|&b| targets.contains(b)) else {
                continue;
            };
            let (landings, _) = run_until(over, d, blockers);
            let taken = captured.with(over);
            for land in landings {
                found = true;
                self.hop(land, taken, |s| s.mullah(land, taken, Some(d)));
            }
        }
        if !found && captured.any() {
            self.emit(captured);
        }
    }
}
