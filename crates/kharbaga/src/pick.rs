//! Drawing one legal move by its index without building the list of all of them: what
//! random playouts do at every ply. Steps, slides and single hops are counted with bitboards
//! and only the one drawn is built; capture sequences (with chains) are listed when there is
//! one.

use crate::bitboard::Bitboard;
use crate::board::{line, shift, Direction};
use crate::capture::hop_starts;
use crate::movegen::with_steps;
use crate::moves::Move;
use crate::point::{Point, NUM_POINTS};
use crate::position::Position;
use crate::reach::Lanes;
use crate::rules::Rules;

impl Position {
    /// One legal move chosen by index, without building the whole list where it can be
    /// avoided: `choose` gets the number of legal moves (at least 1) and returns an index
    /// below it; the result is `legal_moves(rules)[index]`. `None` (and `choose` is not
    /// called) when there is no legal move. `buf` is scratch space for captures.
    ///
    /// Random playouts draw their moves this way: steps are counted and found with
    /// bitboards, and the captures are built only when one exists (without chains, not at
    /// all: each is a single hop found by counting).
    ///
    /// ```
    /// use kharbaga::{Position, Rules};
    /// let pos = Position::start();
    /// let rules = Rules::standard();
    /// let all = pos.legal_moves(&rules);
    /// let mut buf = Vec::new();
    /// let last = pos.pick_legal_move(&rules, |n| n - 1, &mut buf).unwrap();
    /// assert_eq!(last, all[all.len() - 1]);
    /// ```
    pub fn pick_legal_move(
        &self,
        rules: &Rules,
        choose: impl FnOnce(usize) -> usize,
        buf: &mut Vec<Move>,
    ) -> Option<Move> {
        if !rules.capture_chains {
            return self.pick_without_chains(rules, choose);
        }
        if self.has_capture(rules) {
            self.captures_into(rules, buf, false);
        } else {
            buf.clear();
        }
        let captures = buf.len();
        if captures > 0 && rules.capture_compulsory {
            return Some(buf[checked(choose, captures)]);
        }
        let men = self.count_men_steps(rules) as usize;
        let slides = MullahCounts::new(self, Bitboard::EMPTY);
        let total = captures + men + slides.slides;
        if total == 0 {
            return None;
        }
        let index = checked(choose, total);
        Some(if index < captures {
            buf[index]
        } else if index < captures + men {
            self.nth_man_step(rules, index - captures)
        } else {
            slides.nth(self, Kind::Slide, index - captures - men)
        })
    }

    /// [`Position::pick_legal_move`] when every capture is one hop: all is counted, and the
    /// move drawn is found from the counts.
    fn pick_without_chains(
        &self,
        rules: &Rules,
        choose: impl FnOnce(usize) -> usize,
    ) -> Option<Move> {
        let us = self.turn();
        let enemies = self.pieces(!us);
        let men = self.men(us);
        // Late in a long game the side to move often has only Mullahs left.
        let starts = if men.any() {
            hop_starts(rules, us, enemies, self.empty()).map(|s| s & men)
        } else {
            [Bitboard::EMPTY; 8]
        };
        let man_hops = starts.iter().map(|s| s.count() as usize).sum::<usize>();
        let mullahs = MullahCounts::new(self, enemies);
        let hops = man_hops + mullahs.hops;
        let men_steps = self.count_men_steps(rules) as usize;
        let steps = men_steps + mullahs.slides;
        let total = with_steps(rules, hops as u64, || steps as u64) as usize;
        if total == 0 {
            return None;
        }
        let index = checked(choose, total);
        Some(if index < man_hops {
            nth_man_hop(&starts, index)
        } else if index < hops {
            mullahs.nth(self, Kind::Hop, index - man_hops)
        } else if index < hops + men_steps {
            self.nth_man_step(rules, index - hops)
        } else {
            mullahs.nth(self, Kind::Slide, index - hops - men_steps)
        })
    }

    /// Step number `n` of the side to move's men, in the order of the legal moves
    /// (directions as the rules list them, then points).
    fn nth_man_step(&self, rules: &Rules, mut n: usize) -> Move {
        let us = self.turn();
        let empty = self.empty();
        for &d in rules.man_step_directions(us) {
            let targets = shift(self.men(us), d) & empty;
            let count = targets.count() as usize;
            if n < count {
                let to = nth_point(targets, n);
                let from = Point::new_unchecked((to.index() as i8 - d.delta()) as u8);
                return Move::step(from, to);
            }
            n -= count;
        }
        unreachable!("man step index past the count")
    }
}

/// `choose(total)`, checked to be below `total`.
fn checked(choose: impl FnOnce(usize) -> usize, total: usize) -> usize {
    let index = choose(total);
    assert!(index < total, "choose returned {index} of {total} moves");
    index
}

/// The `n`-th point of `bb` (by index; `n` below its count).
fn nth_point(bb: Bitboard, n: usize) -> Point {
    bb.into_iter().nth(n).expect("n below the count")
}

/// Single hop number `n` of the men, given for each direction the men that can hop that
/// way, in the order of the legal moves: by start point, then by the point taken.
fn nth_man_hop(starts: &[Bitboard; 8], mut n: usize) -> Move {
    let any = starts.iter().fold(Bitboard::EMPTY, |all, &s| all | s);
    for from in any {
        // The points this man can take; indices rise with the direction's delta, as the
        // capture search visits them.
        let overs: Bitboard = Direction::ALL
            .iter()
            .filter(|d| starts[d.index()].contains(from))
            .map(|d| Point::new_unchecked((from.index() as i8 + d.delta()) as u8))
            .collect();
        let count = overs.count() as usize;
        if n < count {
            let over = nth_point(overs, n);
            let land = Point::new_unchecked((2 * over.index() - from.index()) as u8);
            return Move::capture(from, &[land], Bitboard::from_point(over));
        }
        n -= count;
    }
    unreachable!("man hop index past the count")
}

/// A kind of Mullah move.
#[derive(Copy, Clone)]
enum Kind {
    /// A slide to an empty point.
    Slide,
    /// A capture of one piece.
    Hop,
}

/// The side to move's Mullahs' slides and single hops counted along their lines, in total
/// and per Mullah, to find the `n`-th without walking every line twice.
struct MullahCounts {
    slides: usize,
    hops: usize,
    /// Per point of a Mullah: its slides and its hops.
    per: [(u8, u8); NUM_POINTS],
    targets: Bitboard,
}

impl MullahCounts {
    /// Counts the lines of the side to move's Mullahs, which may take `targets`.
    fn new(pos: &Position, targets: Bitboard) -> MullahCounts {
        let mut counts = MullahCounts {
            slides: 0,
            hops: 0,
            per: [(0, 0); NUM_POINTS],
            targets,
        };
        let lanes = Lanes::new(pos.occupied(), targets);
        for from in pos.mullahs(pos.turn()) {
            let (slides, hops) = lanes.counts(from);
            counts.per[from.index()] = (slides as u8, hops as u8);
            counts.slides += slides as usize;
            counts.hops += hops as usize;
        }
        counts
    }

    /// Mullah move number `n` of one kind, in the order of the legal moves: by Mullah,
    /// direction, then point.
    fn nth(&self, pos: &Position, kind: Kind, mut n: usize) -> Move {
        let occupied = pos.occupied();
        for from in pos.mullahs(pos.turn()) {
            let (slides, taken) = self.per[from.index()];
            let count = match kind {
                Kind::Slide => slides,
                Kind::Hop => taken,
            } as usize;
            if n >= count {
                n -= count;
                continue;
            }
            for d in Direction::ALL {
                let l = line(from, d, occupied, self.targets);
                let points = match kind {
                    Kind::Slide => l.run,
                    Kind::Hop => l.beyond,
                };
                let count = points.count() as usize;
                if n < count {
                    let to = nth_point(points, n);
                    return match kind {
                        Kind::Slide => Move::step(from, to),
                        Kind::Hop => Move::capture(from, &[to], l.target),
                    };
                }
                n -= count;
            }
        }
        unreachable!("Mullah move index past the count")
    }
}
