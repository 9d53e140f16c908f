//! Counting a Mullah's moves along its eight lines at once: the slides, and the landing
//! points beyond a piece it can take. Counting (perft's leaves, random playouts) needs the
//! number of each, not the moves.
//!
//! A line from a point is a ray whose first piece met is its lowest point when the
//! direction's indices rise, its highest when they fall. The lowest set bit of a word takes
//! a subtraction and two logic operations, the highest a bit scan and two shifts. So the
//! four falling rays are looked at on the board turned half a turn (point `i` as `40 - i`,
//! which keeps lines as lines and turns a falling ray into a rising one): then all eight
//! lines are the same arithmetic on eight independent words, which the compiler turns into
//! vector instructions. Counts do not depend on the turn, so they add up.

use crate::bitboard::Bitboard;
use crate::board::{Direction, RAYS};
use crate::point::{Point, NUM_POINTS};

/// The directions whose point indices rise, then those whose indices fall: lanes 0 to 3
/// look at the board as it is, lanes 4 to 7 at the board turned half a turn.
const LANE_DIRECTIONS: [Direction; 8] = [
    Direction::N,
    Direction::NE,
    Direction::E,
    Direction::NW,
    Direction::S,
    Direction::SW,
    Direction::W,
    Direction::SE,
];

/// The points of `b` with the board turned half a turn: point `i` becomes `40 - i`.
#[inline(always)]
const fn turned(b: u64) -> u64 {
    b.reverse_bits() >> (64 - NUM_POINTS)
}

const fn build_lane_rays() -> [[u64; 8]; NUM_POINTS] {
    let mut t = [[0; 8]; NUM_POINTS];
    let mut p = 0;
    while p < NUM_POINTS {
        let mut k = 0;
        while k < 8 {
            let ray = RAYS[p][LANE_DIRECTIONS[k].index()].0;
            t[p][k] = if k < 4 { ray } else { turned(ray) };
            k += 1;
        }
        p += 1;
    }
    t
}

/// `LANE_RAYS[p][k]`: the ray from `p` in lane `k`'s direction, turned for lanes 4 to 7.
const LANE_RAYS: [[u64; 8]; NUM_POINTS] = build_lane_rays();

/// The occupied points and the pieces that may be taken, as the eight lanes read them.
pub(crate) struct Lanes {
    occupied: [u64; 8],
    targets: [u64; 8],
}

impl Lanes {
    /// The lanes of a board with `occupied` points, where a Mullah may take `targets`.
    #[inline(always)]
    pub(crate) fn new(occupied: Bitboard, targets: Bitboard) -> Lanes {
        let (o, t) = (occupied.0, targets.0);
        let (to, tt) = (turned(o), turned(t));
        Lanes {
            occupied: [o, o, o, o, to, to, to, to],
            targets: [t, t, t, t, tt, tt, tt, tt],
        }
    }

    /// The number of slides of a Mullah on `from`, and of its landing points beyond a
    /// piece it can take (each a capture of one piece), over all its lines.
    #[inline(always)]
    pub(crate) fn counts(&self, from: Point) -> (u32, u32) {
        let rays = &LANE_RAYS[from.index()];
        let mut runs = [0u64; 8];
        let mut beyond = [0u64; 8];
        for k in 0..8 {
            let (r, occupied) = (rays[k], self.occupied[k]);
            let hits = r & occupied;
            // The ray up to and including its first piece (all of it when there is none).
            let near = r & (hits ^ hits.wrapping_sub(1));
            let rest = r & !near;
            let more = rest & occupied;
            let far = rest & (more ^ more.wrapping_sub(1)) & !occupied;
            let taken = near & occupied & self.targets[k];
            runs[k] = near & !occupied;
            beyond[k] = if taken != 0 { far } else { 0 };
        }
        let count = |l: [u64; 8]| {
            (l[0] | l[1] | l[2] | l[3]).count_ones() + (l[4] | l[5] | l[6] | l[7]).count_ones()
        };
        (count(runs), count(beyond))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::line;

    #[test]
    fn the_lanes_cover_each_direction_once_rising_then_falling() {
        let mut seen = [false; 8];
        for (k, d) in LANE_DIRECTIONS.iter().enumerate() {
            assert_eq!(d.delta() > 0, k < 4, "{d:?}");
            assert!(!seen[d.index()], "{d:?} twice");
            seen[d.index()] = true;
        }
    }

    #[test]
    fn turning_is_a_half_turn_of_the_board() {
        for p in Point::all() {
            let q = Point::new(40 - p.index() as u8).unwrap();
            assert_eq!((p.x() + q.x(), p.y() + q.y()), (8, 8), "{p} and {q}");
            assert_eq!(turned(Bitboard::from_point(p).0), Bitboard::from_point(q).0);
        }
    }

    /// The counts agree with the lines walked one by one on the board as it is
    /// (`board::line`), for every point and many random boards.
    #[test]
    fn counts_agree_with_the_lines_walked_one_by_one() {
        let mut state = 0x1234_5678_9abc_def0u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut takes = 0;
        for _ in 0..3000 {
            let full = Bitboard::FULL.0;
            // Sparse and dense boards alike.
            let occupied = Bitboard(next() & next() & full | next() & next() & next() & full);
            let targets = Bitboard(occupied.0 & next());
            let lanes = Lanes::new(occupied, targets);
            for from in Point::all() {
                let (mut slides, mut hops) = (0, 0);
                for d in Direction::ALL {
                    let l = line(from, d, occupied, targets);
                    slides += l.run.count();
                    hops += l.beyond.count();
                }
                takes += hops;
                assert_eq!(
                    lanes.counts(from),
                    (slides, hops),
                    "from {from} occupied {occupied:?} targets {targets:?}"
                );
            }
        }
        assert!(takes > 1000, "the boards give captures: {takes}");
    }
}
