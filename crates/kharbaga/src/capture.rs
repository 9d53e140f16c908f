//! Capture sequences: the depth-first search that follows a piece from landing point to
//! landing point, under every removal and promotion option, and the bitboard test for a first
//! hop that decides which pieces to search at all.

use crate::bitboard::Bitboard;
use crate::board::{leap_back, leap_landings, leap_starts, line, rank, ray, Direction, LEAPS};
use crate::color::Color;
use crate::moves::{Move, MAX_PATH};
use crate::point::{Point, NUM_POINTS};
use crate::position::Position;
use crate::rules::{BackRank, Rules, ALL_WAYS, BLACK_NOT_BACK, WHITE_NOT_BACK};

#[inline(always)]
fn hops_in<const N: usize>(
    dirs: &[Direction; N],
    men: Bitboard,
    enemies: Bitboard,
    empty: Bitboard,
    mut each: impl FnMut(Direction, Bitboard),
) {
    for &d in dirs {
        each(d, leap_landings(men, d, enemies, empty));
    }
}

/// Calls `each(direction, landings)` with the landing points of the first hops of `men` (of
/// `color`) in each direction men may capture in: one bitboard operation per direction.
#[inline]
pub(crate) fn man_first_hops(
    rules: &Rules,
    color: Color,
    men: Bitboard,
    enemies: Bitboard,
    empty: Bitboard,
    each: impl FnMut(Direction, Bitboard),
) {
    match (rules.men_capture_backwards, color) {
        (true, _) => hops_in(&ALL_WAYS, men, enemies, empty, each),
        (false, Color::Black) => hops_in(&BLACK_NOT_BACK, men, enemies, empty, each),
        (false, Color::White) => hops_in(&WHITE_NOT_BACK, men, enemies, empty, each),
    }
}

const fn build_leap_overs(dirs: &[Direction]) -> [Bitboard; NUM_POINTS] {
    let mut t = [Bitboard::EMPTY; NUM_POINTS];
    let mut p = 0;
    while p < NUM_POINTS {
        let mut i = 0;
        while i < dirs.len() {
            if let Some((over, _)) = LEAPS[p][dirs[i].index()] {
                t[p] = t[p].with(over);
            }
            i += 1;
        }
        p += 1;
    }
    t
}

const LEAP_OVERS_ALL: [Bitboard; NUM_POINTS] = build_leap_overs(&ALL_WAYS);
const LEAP_OVERS_BLACK: [Bitboard; NUM_POINTS] = build_leap_overs(&BLACK_NOT_BACK);
const LEAP_OVERS_WHITE: [Bitboard; NUM_POINTS] = build_leap_overs(&WHITE_NOT_BACK);

/// For each point, the points a man of `color` there may leap over under `rules`.
fn leap_overs(rules: &Rules, color: Color) -> &'static [Bitboard; NUM_POINTS] {
    match (rules.men_capture_backwards, color) {
        (true, _) => &LEAP_OVERS_ALL,
        (false, Color::Black) => &LEAP_OVERS_BLACK,
        (false, Color::White) => &LEAP_OVERS_WHITE,
    }
}

/// For each direction (by index), the points from which a man of `color` could capture in
/// it (an enemy next to it that way, an empty point beyond), empty for a direction men may
/// not capture in: a few bitboard operations per direction, with no branch.
#[inline(always)]
pub(crate) fn hop_starts(
    rules: &Rules,
    color: Color,
    enemies: Bitboard,
    empty: Bitboard,
) -> [Bitboard; 8] {
    // One copy of the code per set of directions, so that the masks are constants.
    let starts = |allowed: &[Bitboard; 8]| {
        std::array::from_fn(|d| allowed[d] & leap_starts(Direction::ALL[d], enemies, empty))
    };
    match (rules.men_capture_backwards, color) {
        (true, _) => starts(&MEN_ALL_WAYS),
        (false, Color::Black) => starts(&MEN_BLACK_NOT_BACK),
        (false, Color::White) => starts(&MEN_WHITE_NOT_BACK),
    }
}

const fn direction_masks(dirs: &[Direction]) -> [Bitboard; 8] {
    let mut m = [Bitboard::EMPTY; 8];
    let mut i = 0;
    while i < dirs.len() {
        m[dirs[i].index()] = Bitboard::FULL;
        i += 1;
    }
    m
}

const MEN_ALL_WAYS: [Bitboard; 8] = direction_masks(&ALL_WAYS);
const MEN_BLACK_NOT_BACK: [Bitboard; 8] = direction_masks(&BLACK_NOT_BACK);
const MEN_WHITE_NOT_BACK: [Bitboard; 8] = direction_masks(&WHITE_NOT_BACK);

/// The men of the side to move that can capture, split in two: `.0`, those with a first
/// hop after which another hop may follow (their sequences need the search), and `.1`, for
/// each direction, the other men that can hop that way: each such hop is a whole sequence.
/// Without chains every man that can hop is in `.0`.
///
/// After one hop in direction `d` from `from` onto `land`, the only points whose state
/// differs from the start position's are `from` (now empty) and, with immediate removal,
/// the point of the piece just taken (now empty). That point is next to `land`, so no leap
/// from `land` lands on it, and an empty point is never leapt over; `from` is reached from
/// `land` only by leaping back over that very piece, which may not be taken twice. So another hop
/// from `land` exists exactly when a man on `land` could hop in the start position: the
/// set `goes_on` below. A man that lands on its promotion rank with [`BackRank::Promote`]
/// stops there.
#[inline(always)]
fn split_men(pos: &Position, rules: &Rules) -> (Bitboard, [Bitboard; 8]) {
    let us = pos.turn();
    let starts = hop_starts(rules, us, pos.pieces(!us), pos.empty());
    let any = starts.iter().fold(Bitboard::EMPTY, |all, &s| all | s);
    let men = pos.men(us);
    if !rules.capture_chains || (men & any).is_empty() {
        return (men & any, [Bitboard::EMPTY; 8]);
    }
    let mut goes_on = any;
    if rules.back_rank == BackRank::Promote {
        goes_on &= !rank(us.promotion_y());
    }
    let searched = (0..8).fold(Bitboard::EMPTY, |all, d| {
        all | (men & starts[d] & leap_back(goes_on, Direction::ALL[d]))
    });
    (searched, starts.map(|s| s & men & !searched))
}

/// Receives each capture sequence found.
pub(crate) trait Sink {
    /// One maximal sequence (or single hop without chains) from `from` through `path`.
    fn emit(&mut self, from: Point, path: &[Point], captured: Bitboard);

    /// The single hops in direction `d` of the men on `starts`, none of whose captures
    /// goes on: each is a whole sequence, distinct from every other found.
    #[inline]
    fn single_hops(&mut self, d: Direction, starts: Bitboard) {
        for from in starts {
            let over = Point::new_unchecked((from.index() as i8 + d.delta()) as u8);
            let land = Point::new_unchecked((over.index() as i8 + d.delta()) as u8);
            self.emit(from, &[land], Bitboard::from_point(over));
        }
    }
}

impl Sink for Vec<Move> {
    #[inline]
    fn emit(&mut self, from: Point, path: &[Point], captured: Bitboard) {
        self.push(Move::capture(from, path, captured));
    }
}

/// Every capture sequence of the side to move, each path separately, given to `sink`.
/// Sequences are maximal when chains are on; no majority filter, no merging. The men
/// whose captures are all single hops go to [`Sink::single_hops`], without a search, after
/// the sequences of the men searched and before the Mullahs'.
pub(crate) fn capture_sequences(pos: &Position, rules: &Rules, sink: &mut impl Sink) {
    let (searched, singles) = split_men(pos, rules);
    let mullahs = pos.mullahs(pos.turn());
    if (searched | mullahs).is_empty() {
        // Nothing to search (the common case): no search state to set up.
        single_hops(sink, &singles);
        return;
    }
    let mut search = CaptureSearch::new(pos, rules, sink);
    for from in searched {
        search.start(from);
        search.man(from, Bitboard::EMPTY);
    }
    single_hops(search.sink, &singles);
    for from in mullahs {
        search.start(from);
        search.mullah(from, Bitboard::EMPTY, None);
    }
}

/// Gives `sink` the single hops of the men in `singles` (by direction index).
#[inline(always)]
fn single_hops(sink: &mut impl Sink, singles: &[Bitboard; 8]) {
    for (d, &starts) in Direction::ALL.iter().zip(singles) {
        if starts.any() {
            sink.single_hops(*d, starts);
        }
    }
}

struct CaptureSearch<'a, S: Sink> {
    rules: &'a Rules,
    promotion_y: u8,
    /// For each point, the points a man there may leap over (the directions it may
    /// capture in, where the line is long enough).
    leap_overs: &'static [Bitboard; NUM_POINTS],
    /// The opponent's pieces, captured or not.
    enemies: Bitboard,
    /// Every occupied point before the move.
    all: Bitboard,
    /// Every occupied point but the moving piece's start.
    occupied: Bitboard,
    from: Point,
    path: [Point; MAX_PATH],
    len: usize,
    sink: &'a mut S,
}

impl<'a, S: Sink> CaptureSearch<'a, S> {
    /// A search of the side to move's captures in `pos`, giving its sequences to `sink`.
    fn new(pos: &Position, rules: &'a Rules, sink: &'a mut S) -> CaptureSearch<'a, S> {
        let us = pos.turn();
        CaptureSearch {
            rules,
            promotion_y: us.promotion_y(),
            leap_overs: leap_overs(rules, us),
            enemies: pos.pieces(!us),
            all: pos.occupied(),
            occupied: pos.occupied(),
            from: Point::E5,
            path: [Point::E5; MAX_PATH],
            len: 0,
            sink,
        }
    }

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

    #[inline]
    fn emit(&mut self, captured: Bitboard) {
        self.sink.emit(self.from, &self.path[..self.len], captured);
    }

    /// Records the hop to `land`, then ends the sequence (no chains) or goes on with `next`.
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
        for over in self.leap_overs[cur.index()] & targets {
            // Indices are linear along a line: the landing point is as far beyond the
            // jumped point as the jumped point is beyond the start.
            let land = Point::new_unchecked((2 * over.index() - cur.index()) as u8);
            if blockers.contains(land) {
                continue;
            }
            found = true;
            let taken = captured.with(over);
            self.hop(land, taken, |s| {
                if s.rules.back_rank == BackRank::Promote && land.y() == s.promotion_y {
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
            // Most lines hold no piece to take at all: that test is cheaper than the ray's
            // first blocker.
            if (ray(cur, d) & targets).is_empty()
                || !self.rules.mullah_turn_back && previous == Some(d.opposite())
            {
                continue;
            }
            let l = line(cur, d, blockers, targets);
            let taken = captured | l.target;
            for land in l.beyond {
                found = true;
                self.hop(land, taken, |s| s.mullah(land, taken, Some(d)));
            }
        }
        if !found && captured.any() {
            self.emit(captured);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Setup;

    /// Every sequence of the side to move found by searching every man that can make a
    /// first hop, as the generator did before the single-hop split, sorted.
    fn searching_every_man(pos: &Position, rules: &Rules) -> Vec<Move> {
        let us = pos.turn();
        let mut out = Vec::new();
        let mut search = CaptureSearch::new(pos, rules, &mut out);
        let mut capturers = Bitboard::EMPTY;
        man_first_hops(
            rules,
            us,
            pos.men(us),
            pos.pieces(!us),
            pos.empty(),
            |d, l| {
                capturers |= leap_back(l, d);
            },
        );
        for from in capturers | pos.mullahs(us) {
            search.start(from);
            if pos.mullahs(us).contains(from) {
                search.mullah(from, Bitboard::EMPTY, None);
            } else {
                search.man(from, Bitboard::EMPTY);
            }
        }
        out.sort();
        out
    }

    /// A crowded random placement (about half the points taken, men only off their
    /// promotion ranks, a few Mullahs), from a small linear congruential generator.
    fn placement(state: &mut u64) -> Position {
        let mut next = || {
            *state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (*state >> 33) as u32
        };
        let mut setup = Setup {
            turn: if next() % 2 == 0 {
                Color::Black
            } else {
                Color::White
            },
            ..Setup::default()
        };
        for p in Point::all() {
            let roll = next() % 16;
            let color = match roll {
                0..=3 => Color::Black,
                4..=7 => Color::White,
                _ => continue,
            };
            let mullah = next() % 8 == 0 || p.y() == color.promotion_y();
            if setup.pieces(color).count() >= 20 {
                continue;
            }
            match color {
                Color::Black => setup.black = setup.black.with(p),
                Color::White => setup.white = setup.white.with(p),
            }
            if mullah {
                setup.mullahs = setup.mullahs.with(p);
            }
        }
        Position::from_setup(setup).expect("a legal placement")
    }

    #[test]
    fn the_single_hop_split_finds_what_searching_every_man_finds() {
        let mut variants = Vec::new();
        for name in crate::RULE_SET_NAMES {
            let base = Rules::named(name).unwrap();
            for option in ["", "removal=immediate", "back-rank=promote", "backwards=no"] {
                let mut rules = base;
                if !option.is_empty() {
                    rules.set_option_str(option).unwrap();
                }
                variants.push(rules);
            }
        }
        let mut state = 7;
        let (mut with_singles, mut with_searched) = (0, 0);
        for _ in 0..3000 {
            let pos = placement(&mut state);
            for rules in &variants {
                let mut found = Vec::new();
                capture_sequences(&pos, rules, &mut found);
                found.sort();
                assert_eq!(
                    found,
                    searching_every_man(&pos, rules),
                    "{} under {rules}",
                    pos.to_fen()
                );
                let (searched, singles) = split_men(&pos, rules);
                with_searched += usize::from(searched.any());
                with_singles += usize::from(singles.iter().any(|s| s.any()));
            }
        }
        // Both kinds of men occur often enough for the comparison to mean something.
        assert!(
            with_singles > 5000 && with_searched > 5000,
            "{with_singles} {with_searched}"
        );
    }
}
