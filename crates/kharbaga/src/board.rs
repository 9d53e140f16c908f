//! Board geometry: the eight line directions, neighbours, rays and edges, as tables built at
//! compile time.
//!
//! With the point numbering of [`Point`] (`(9y + x) / 2`), a step in a direction is a fixed
//! index offset, so a whole set of points steps at once with one shift of a [`Bitboard`]
//! ([`shift`]); the per-direction masks keep steps from wrapping around an edge and keep
//! orthogonal steps on the grid points (cell centres have only diagonal lines).

use crate::bitboard::Bitboard;
use crate::point::{Point, NUM_POINTS};

/// One of the eight directions along the board's lines.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    /// Up the board (towards rank 9), along a file; grid points only.
    N = 0,
    /// Up and right along a diagonal.
    NE = 1,
    /// Right along a rank; grid points only.
    E = 2,
    /// Down and right along a diagonal.
    SE = 3,
    /// Down along a file; grid points only.
    S = 4,
    /// Down and left along a diagonal.
    SW = 5,
    /// Left along a rank; grid points only.
    W = 6,
    /// Up and left along a diagonal.
    NW = 7,
}

impl Direction {
    /// All eight directions, clockwise from north.
    pub const ALL: [Direction; 8] = [
        Direction::N,
        Direction::NE,
        Direction::E,
        Direction::SE,
        Direction::S,
        Direction::SW,
        Direction::W,
        Direction::NW,
    ];

    /// The index of the direction, `0..8`, clockwise from north.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The direction pointing the other way.
    #[inline]
    pub const fn opposite(self) -> Direction {
        Direction::ALL[(self as usize + 4) % 8]
    }

    /// The step in doubled coordinates `(dx, dy)`.
    pub const fn dxdy(self) -> (i8, i8) {
        match self {
            Direction::N => (0, 2),
            Direction::NE => (1, 1),
            Direction::E => (2, 0),
            Direction::SE => (1, -1),
            Direction::S => (0, -2),
            Direction::SW => (-1, -1),
            Direction::W => (-2, 0),
            Direction::NW => (-1, 1),
        }
    }

    /// Whether the direction runs along a file or a rank (only grid points have those lines).
    #[inline]
    pub const fn is_orthogonal(self) -> bool {
        (self as usize) % 2 == 0
    }

    /// The change of point index for one step: `(9 dy + dx) / 2`.
    #[inline(always)]
    pub const fn delta(self) -> i8 {
        DELTAS[self as usize]
    }
}

const fn build_deltas() -> [i8; 8] {
    let mut t = [0; 8];
    let mut d = 0;
    while d < 8 {
        let (dx, dy) = Direction::ALL[d].dxdy();
        t[d] = (dy * 9 + dx) / 2;
        d += 1;
    }
    t
}

/// `DELTAS[d]`: the change of point index for one step in direction `d`.
const DELTAS: [i8; 8] = build_deltas();

const fn neighbour_raw(p: u8, d: Direction) -> Option<Point> {
    let pt = Point::new_unchecked(p);
    if d.is_orthogonal() && !pt.is_grid() {
        return None;
    }
    let (dx, dy) = d.dxdy();
    let x = pt.x() as i8 + dx;
    let y = pt.y() as i8 + dy;
    if x < 0 || y < 0 || x > 8 || y > 8 {
        return None;
    }
    Point::from_xy(x as u8, y as u8)
}

const fn build_neighbours() -> [[Option<Point>; 8]; NUM_POINTS] {
    let mut t = [[None; 8]; NUM_POINTS];
    let mut p = 0;
    while p < NUM_POINTS {
        let mut d = 0;
        while d < 8 {
            t[p][d] = neighbour_raw(p as u8, Direction::ALL[d]);
            d += 1;
        }
        p += 1;
    }
    t
}

const fn build_step_masks() -> [Bitboard; 8] {
    let mut m = [Bitboard::EMPTY; 8];
    let mut p = 0;
    while p < NUM_POINTS {
        let mut d = 0;
        while d < 8 {
            if NEIGHBOURS[p][d].is_some() {
                m[d] = Bitboard(m[d].0 | (1u64 << p));
            }
            d += 1;
        }
        p += 1;
    }
    m
}

const fn build_jump_masks() -> [Bitboard; 8] {
    let mut m = [Bitboard::EMPTY; 8];
    let mut p = 0;
    while p < NUM_POINTS {
        let mut d = 0;
        while d < 8 {
            if let Some(q) = NEIGHBOURS[p][d] {
                if NEIGHBOURS[q.index()][d].is_some() {
                    m[d] = Bitboard(m[d].0 | (1u64 << p));
                }
            }
            d += 1;
        }
        p += 1;
    }
    m
}

const fn build_rays() -> [[Bitboard; 8]; NUM_POINTS] {
    let mut r = [[Bitboard::EMPTY; 8]; NUM_POINTS];
    let mut p = 0;
    while p < NUM_POINTS {
        let mut d = 0;
        while d < 8 {
            let mut bits = 0u64;
            let mut cur = NEIGHBOURS[p][d];
            while let Some(q) = cur {
                bits |= 1u64 << q.index();
                cur = NEIGHBOURS[q.index()][d];
            }
            r[p][d] = Bitboard(bits);
            d += 1;
        }
        p += 1;
    }
    r
}

/// `NEIGHBOURS[p][d]`: the point one step from `p` in direction `d`, if the line goes on.
pub const NEIGHBOURS: [[Option<Point>; 8]; NUM_POINTS] = build_neighbours();
/// `STEP_MASKS[d]`: the points that have a neighbour in direction `d`.
pub const STEP_MASKS: [Bitboard; 8] = build_step_masks();
/// `JUMP_MASKS[d]`: the points from which a short leap in direction `d` stays on the line.
pub const JUMP_MASKS: [Bitboard; 8] = build_jump_masks();
/// `RAYS[p][d]`: every point beyond `p` in direction `d`, to the edge of the board.
pub const RAYS: [[Bitboard; 8]; NUM_POINTS] = build_rays();
/// `LEAPS[p][d]`: the jumped point and the landing point of a short leap from `p` in
/// direction `d`, if the line is long enough.
pub const LEAPS: [[Option<(Point, Point)>; 8]; NUM_POINTS] = build_leaps();

const fn build_leaps() -> [[Option<(Point, Point)>; 8]; NUM_POINTS] {
    let mut t = [[None; 8]; NUM_POINTS];
    let mut p = 0;
    while p < NUM_POINTS {
        let mut d = 0;
        while d < 8 {
            if let Some(over) = NEIGHBOURS[p][d] {
                if let Some(land) = NEIGHBOURS[over.index()][d] {
                    t[p][d] = Some((over, land));
                }
            }
            d += 1;
        }
        p += 1;
    }
    t
}

/// The point one step from `p` in direction `d`, if the line goes on.
#[inline]
pub fn neighbour(p: Point, d: Direction) -> Option<Point> {
    NEIGHBOURS[p.index()][d.index()]
}

/// The points beyond `p` in direction `d`, to the edge.
#[inline]
pub fn ray(p: Point, d: Direction) -> Bitboard {
    RAYS[p.index()][d.index()]
}

/// Moves every point of `bb` that has a neighbour in direction `d` one step along `d`;
/// the others fall off.
#[inline(always)]
pub fn shift(bb: Bitboard, d: Direction) -> Bitboard {
    Bitboard(shift_raw((bb & STEP_MASKS[d.index()]).0, d.delta()))
}

/// Shifts every bit of `bb` by `delta` places (up for positive), without any masking.
///
/// It is a rotation (one instruction, no branch on the sign): the bits of the 41 points
/// shifted by at most 18 places never wrap past bit 63 going up, and going down they wrap
/// into bits 46 and above, off the board; every caller masks the result with a set of
/// points (or shifts only points whose target is on the board).
#[inline(always)]
fn shift_raw(bb: u64, delta: i8) -> u64 {
    bb.rotate_left((delta as i32).rem_euclid(64) as u32)
}

/// The landing points of the short leaps in direction `d` by pieces on `from` over a point
/// of `over` onto a point of `landing`.
#[inline(always)]
pub fn leap_landings(from: Bitboard, d: Direction, over: Bitboard, landing: Bitboard) -> Bitboard {
    let delta = d.delta();
    let src = (from & JUMP_MASKS[d.index()]).0;
    Bitboard(shift_raw(src, 2 * delta) & shift_raw(over.0, delta) & landing.0)
}

/// The points from which a short leap in direction `d` passes over a point of `over` and
/// lands on a point of `landing`.
#[inline(always)]
pub fn leap_starts(d: Direction, over: Bitboard, landing: Bitboard) -> Bitboard {
    let delta = d.delta();
    Bitboard(JUMP_MASKS[d.index()].0 & shift_raw(over.0, -delta) & shift_raw(landing.0, -2 * delta))
}

/// The points of `bb` moved back two steps along `d`: the start points of the short leaps
/// in direction `d` that land on `bb` (the inverse of [`leap_landings`] for landing points
/// it returned; a point of `bb` with no such start gives a point off the board or a wrong
/// one, so the result must be masked with starts that can leap that way).
#[inline(always)]
pub fn leap_back(bb: Bitboard, d: Direction) -> Bitboard {
    Bitboard(shift_raw(bb.0, -2 * d.delta()))
}

/// The first point of `occupied` met going from `p` in direction `d`, if any.
#[inline]
pub fn first_on_ray(p: Point, d: Direction, occupied: Bitboard) -> Option<Point> {
    let hits = ray(p, d) & occupied;
    if d.delta() > 0 {
        hits.first()
    } else {
        hits.last()
    }
}

/// The empty points from `p` in direction `d` up to (not including) the first point of
/// `occupied`, and that first point if there is one.
#[inline]
pub fn run_until(p: Point, d: Direction, occupied: Bitboard) -> (Bitboard, Option<Point>) {
    let r = ray(p, d);
    match first_on_ray(p, d, occupied) {
        Some(b) => (r & !(ray(b, d).with(b)), Some(b)),
        None => (r, None),
    }
}

/// What a flying piece on `p` finds along direction `d`, computed without a branch on the
/// board: see [`line()`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// The empty points before the first occupied one (the slides).
    pub run: Bitboard,
    /// The first occupied point, if it is one of the targets (at most one point).
    pub target: Bitboard,
    /// The empty points beyond the target up to the next occupied one (the landing points
    /// of a capture of the target); empty when the first piece met is not a target.
    pub beyond: Bitboard,
}

/// The part of `r` (a ray of direction `d`) up to and including its first point of `hits`,
/// all of `r` when there is none: the lowest hit for a direction of rising indices, the
/// highest for the others.
#[inline(always)]
fn up_to_first(r: u64, hits: u64, d: Direction) -> u64 {
    let keep = if d.delta() > 0 {
        // Every bit up to and including the lowest set one; all bits when there is none.
        hits ^ hits.wrapping_sub(1)
    } else {
        // Every bit from the highest set one up; all bits when there is none (bit 0 then
        // stands in for it).
        u64::MAX << (63 - (hits | 1).leading_zeros())
    };
    r & keep
}

/// The line from `p` in direction `d` as a flying piece sees it: its slides before the first
/// point of `occupied`, that point if it is in `targets`, and the empty points beyond it to
/// the next point of `occupied`. The same as two calls of [`run_until`], with no branch.
#[inline(always)]
pub fn line(p: Point, d: Direction, occupied: Bitboard, targets: Bitboard) -> Line {
    let r = ray(p, d).0;
    let near = up_to_first(r, r & occupied.0, d);
    let first = near & occupied.0;
    let rest = r & !near;
    let far = up_to_first(rest, rest & occupied.0, d) & !occupied.0;
    let hit = first & targets.0;
    // All ones when the first piece is a target, else zero.
    let mask = 0u64.wrapping_sub((hit != 0) as u64);
    Line {
        run: Bitboard(near & !occupied.0),
        target: Bitboard(hit),
        beyond: Bitboard(far & mask),
    }
}

/// The lines of the board as edges between neighbouring points, each once (from its lower
/// end: the step N, NE, NW or E leads to the other end).
pub fn edges() -> impl Iterator<Item = (Point, Point)> {
    Point::all().flat_map(|p| {
        [Direction::N, Direction::NE, Direction::E, Direction::NW]
            .into_iter()
            .filter_map(move |d| neighbour(p, d).map(|q| (p, q)))
    })
}

const fn build_ranks() -> [Bitboard; 9] {
    let mut r = [Bitboard::EMPTY; 9];
    let mut p = 0;
    while p < NUM_POINTS {
        let y = Point::new_unchecked(p as u8).y() as usize;
        r[y] = Bitboard(r[y].0 | (1u64 << p));
        p += 1;
    }
    r
}

/// `RANKS[y]`: the points of rank `y` (doubled coordinates, `0` is rank 1).
const RANKS: [Bitboard; 9] = build_ranks();

/// The points of one rank, `y` in doubled coordinates (`0` is rank 1). Panics if `y > 8`.
#[inline]
pub fn rank(y: u8) -> Bitboard {
    RANKS[y as usize]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pt(s: &str) -> Point {
        s.parse().unwrap()
    }

    #[test]
    fn point_counts_and_degrees() {
        let grid = Point::all().filter(|p| p.is_grid()).count();
        assert_eq!(grid, 25);
        assert_eq!(Point::all().count() - grid, 16);
        for p in Point::all() {
            let deg = Direction::ALL
                .iter()
                .filter(|&&d| neighbour(p, d).is_some())
                .count();
            if p.is_grid() {
                assert!((3..=8).contains(&deg), "{p} has {deg}");
            } else {
                assert_eq!(deg, 4, "centre {p}");
            }
        }
        assert_eq!(
            Direction::ALL
                .iter()
                .filter(|&&d| neighbour(pt("e5"), d).is_some())
                .count(),
            8
        );
        assert_eq!(
            Direction::ALL
                .iter()
                .filter(|&&d| neighbour(pt("a1"), d).is_some())
                .count(),
            3
        );
    }

    #[test]
    fn edges_count_104() {
        let all: Vec<_> = edges().collect();
        assert_eq!(all.len(), 104);
        let orth = all
            .iter()
            .filter(|(p, q)| p.x() == q.x() || p.y() == q.y())
            .count();
        assert_eq!(orth, 40);
    }

    #[test]
    fn neighbours_are_symmetric_and_shift_agrees() {
        for p in Point::all() {
            for d in Direction::ALL {
                if let Some(q) = neighbour(p, d) {
                    assert_eq!(neighbour(q, d.opposite()), Some(p));
                    assert_eq!(shift(Bitboard::from_point(p), d), Bitboard::from_point(q));
                } else {
                    assert!(shift(Bitboard::from_point(p), d).is_empty());
                }
            }
        }
    }

    #[test]
    fn named_neighbours() {
        assert_eq!(neighbour(pt("e3"), Direction::N), Some(pt("e5")));
        assert_eq!(neighbour(pt("d4"), Direction::NE), Some(pt("e5")));
        assert_eq!(neighbour(pt("d4"), Direction::N), None);
        assert_eq!(neighbour(pt("i5"), Direction::E), None);
        assert_eq!(neighbour(pt("i5"), Direction::NW), Some(pt("h6")));
        assert_eq!(neighbour(pt("a1"), Direction::SW), None);
    }

    #[test]
    fn rays_and_runs() {
        assert_eq!(ray(pt("a1"), Direction::NE).count(), 8);
        assert_eq!(ray(pt("a1"), Direction::N).count(), 4);
        assert_eq!(ray(pt("b2"), Direction::N).count(), 0);
        let occ = Bitboard::from_point(pt("e5"));
        let (run, hit) = run_until(pt("a1"), Direction::NE, occ);
        assert_eq!(hit, Some(pt("e5")));
        assert_eq!(run, [pt("b2"), pt("c3"), pt("d4")].into_iter().collect());
        let (run, hit) = run_until(pt("i9"), Direction::SW, occ);
        assert_eq!(hit, Some(pt("e5")));
        assert_eq!(run.count(), 3);
    }

    #[test]
    fn a_line_is_two_runs() {
        // Crowded and sparse boards from a fixed generator: every point, direction and
        // split of the pieces into targets and others.
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..3_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let occupied = Bitboard(x & Bitboard::FULL.0 & (x >> 20 | x >> 41));
            let targets = Bitboard(occupied.0 & x.rotate_left(23));
            for p in Point::all() {
                for d in Direction::ALL {
                    let (run, first) = run_until(p, d, occupied);
                    let target = first.filter(|&f| targets.contains(f));
                    let beyond = target.map_or(Bitboard::EMPTY, |t| run_until(t, d, occupied).0);
                    let want = Line {
                        run,
                        target: target.map_or(Bitboard::EMPTY, Bitboard::from_point),
                        beyond,
                    };
                    assert_eq!(
                        line(p, d, occupied, targets),
                        want,
                        "{p} {d:?} {occupied:?}"
                    );
                }
            }
        }
    }
}
