//! Retrograde generation of one slice pair: a slice and its [`flip`](SliceId::flip), which
//! the moves that neither capture nor promote connect.
//!
//! 1. **Seed.** Every position's moves are generated with the rules library. Moves that
//!    capture or promote lead into smaller slices, already built (held in
//!    [`MemoryTables`]): their values are known. A position with no move is a loss in 0. A
//!    position whose moves all leave the pair (with compulsory capture: every position that
//!    can capture) is decided now, finally. A position with a known win is provisionally a
//!    win (a move inside the pair may win faster). The others get a counter: the number of
//!    distinct places their moves inside the pair lead to (plus one if a move out of the pair
//!    draws, so that it can never reach zero).
//! 2. **Iterate** by distance `n = 1, 2, ...`: every place decided as a loss in `n - 1` makes
//!    each predecessor (by [`unmoves`]) a win in `n`, unless it is final or already a win as
//!    fast; every place decided as a win in `n - 1` takes one off each undecided
//!    predecessor's counter, and a predecessor whose counter reaches zero is a loss in `n`
//!    (its longest move, to the win just decided, was the last one), or, if it has a move out
//!    of the pair (marked on its counter), a loss whose exact distance is found by looking at
//!    all its moves again. The passes stop after the largest distance decided so far.
//! 3. Whatever is still undecided is a draw: neither side can force the end of the game.
//!
//! Places are processed by both cores (rayon) in index ranges; the values and counters are
//! atomics. The left-right mirror is folded by the index (a place stands for a position and
//! its mirror image): counters count distinct child places, and unmoving a place's position
//! finds each predecessor place, so each (place, child place) link is counted and taken off
//! exactly once.

mod unmove;

pub use unmove::unmoves;

use crate::frame::mirror;
use crate::frame::{child_setup, swap_setup};
use crate::index::{DecodeCache, MenPart, Place, SliceIndex};
use crate::memory::MemoryTables;
use crate::slice::SliceId;
use crate::value::{Value, BROKEN, DRAW_CODE};
use kharbaga::{Move, Position, Rules, Setup};
use rayon::prelude::*;
use std::sync::atomic::{AtomicU16, AtomicU64, AtomicU8, Ordering::Relaxed};

/// Set on a value that nothing in the iteration may change any more.
const FINAL: u16 = 0x8000;
/// The code bits of a working value.
const CODE: u16 = 0x7FFF;
/// Set on a counter whose position has a move out of the pair (which the counter does not
/// count): the exact distance of its loss needs a look at all its moves.
const OUTSIDE: u8 = 0x80;
/// The count bits of a counter.
const COUNT: u8 = 0x7F;
/// Places per bit mask of [`Work::decided`].
const RUN: u64 = 1 << 10;
/// Places handed to a worker at a time.
const CHUNK: usize = 1 << 14;

/// What one pass of the generator reports.
#[derive(Copy, Clone, Debug)]
pub enum Phase {
    /// Seeding: places looked at so far.
    Seed,
    /// Iteration at this distance.
    Iterate(u16),
}

/// A slice's generated codes and their counts.
pub struct Generated {
    /// The slice.
    pub slice: SliceId,
    /// The code of every place (broken places hold [`BROKEN`]).
    pub codes: Vec<u16>,
}

/// Why a pair could not be generated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GenerateError {
    /// A slice that captures or promotions lead into is not loaded.
    MissingDependency(SliceId),
    /// A position has more distinct moves than a counter holds.
    TooManyMoves(SliceId),
    /// A distance does not fit the 15 bits of a working value.
    TooDeep(SliceId),
}

impl std::fmt::Display for GenerateError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GenerateError::MissingDependency(s) => {
                write!(f, "slice {s} is needed first (its table is not loaded)")
            }
            GenerateError::TooManyMoves(s) => write!(f, "a position of {s} has too many moves"),
            GenerateError::TooDeep(s) => write!(f, "a distance in {s} exceeds 32766 plies"),
        }
    }
}

impl std::error::Error for GenerateError {}

struct Part {
    slice: SliceId,
    index: SliceIndex,
    offset: u64,
}

struct Work<'a> {
    rules: &'a Rules,
    deps: &'a MemoryTables,
    parts: Vec<Part>,
    vals: Vec<AtomicU16>,
    counts: Vec<AtomicU8>,
    /// For each run of [`RUN`] places, bit `c % 64` is set once a place of the run has been
    /// given the decisive code `c`: a pass skips the runs with nothing to propagate.
    decided: Vec<AtomicU64>,
    max_distance: AtomicU16,
    too_many: std::sync::atomic::AtomicBool,
}

/// A child of a position: in the pair (its global place) or out of it (its code).
#[derive(Copy, Clone)]
enum Child {
    Inside(u64),
    Outside(u16),
}

/// Asks the processor to fetch `slice[i]` (in bounds) into its cache ahead of its use.
#[inline]
fn prefetch<T>(slice: &[T], i: usize) {
    debug_assert!(i < slice.len());
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch has no effect on memory, and the address is inside the slice.
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch::<_MM_HINT_T0>(slice.as_ptr().add(i).cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (slice, i);
}

/// The men part of the last place computed, with its part of the pair.
type MenCache = Option<(usize, MenPart)>;

/// Per-worker buffers.
#[derive(Default)]
struct Scratch {
    moves: Vec<Move>,
    back: Vec<Setup>,
    places: Vec<u64>,
    men: MenCache,
    /// The last men placement decoded, in each part of the pair.
    decoded: [DecodeCache; 2],
}

/// Generates the pair of `pair` (the slice and its flip) under `rules`; the tables of every
/// slice its captures and promotions lead into must be in `deps`. `report` is called after
/// each pass with the phase and the places done.
pub fn generate_pair(
    rules: &Rules,
    pair: SliceId,
    deps: &MemoryTables,
    report: &(dyn Fn(Phase, u64, u64) + Sync),
) -> Result<Vec<Generated>, GenerateError> {
    for d in pair.dependencies() {
        for s in [d, d.flip()] {
            if !deps.contains(s) {
                return Err(GenerateError::MissingDependency(s));
            }
        }
    }
    let mut parts = vec![Part {
        slice: pair,
        index: SliceIndex::new(pair),
        offset: 0,
    }];
    if pair.flip() != pair {
        let offset = parts[0].index.len();
        parts.push(Part {
            slice: pair.flip(),
            index: SliceIndex::new(pair.flip()),
            offset,
        });
    }
    let total: u64 = parts.iter().map(|p| p.index.len()).sum();
    let work = Work {
        rules,
        deps,
        parts,
        vals: (0..total).map(|_| AtomicU16::new(0)).collect(),
        counts: (0..total).map(|_| AtomicU8::new(0)).collect(),
        decided: (0..total.div_ceil(RUN))
            .map(|_| AtomicU64::new(0))
            .collect(),
        max_distance: AtomicU16::new(0),
        too_many: Default::default(),
    };
    let done = AtomicU64::new(0);
    work.for_each_chunk(|w, start, end, scratch| {
        w.seed_range(start, end, scratch);
        let d = done.fetch_add(end - start, Relaxed) + end - start;
        report(Phase::Seed, d, total);
    });
    if work.too_many.load(Relaxed) {
        return Err(GenerateError::TooManyMoves(pair));
    }
    let mut n: u16 = 1;
    while n - 1 <= work.max_distance.load(Relaxed) {
        if n >= CODE - 1 {
            return Err(GenerateError::TooDeep(pair));
        }
        work.for_each_chunk(|w, start, end, scratch| w.propagate_range(start, end, n, scratch));
        report(Phase::Iterate(n), total, total);
        n += 1;
    }
    Ok(work.finish())
}

impl Work<'_> {
    fn for_each_chunk(&self, f: impl Fn(&Self, u64, u64, &mut Scratch) + Sync) {
        let total = self.vals.len() as u64;
        let chunks = total.div_ceil(CHUNK as u64);
        (0..chunks)
            .into_par_iter()
            .for_each_init(Scratch::default, |scratch, c| {
                let start = c * CHUNK as u64;
                let end = (start + CHUNK as u64).min(total);
                f(self, start, end, scratch);
            });
    }

    /// The part a global place belongs to and its index there.
    #[inline]
    fn locate(&self, g: u64) -> (usize, u64) {
        if self.parts.len() > 1 && g >= self.parts[1].offset {
            (1, g - self.parts[1].offset)
        } else {
            (0, g)
        }
    }

    /// The part holding a slice, if it is in the pair.
    #[inline]
    fn part_of(&self, counts: (u8, u8, u8, u8)) -> Option<usize> {
        self.parts.iter().position(|p| p.slice.counts() == counts)
    }

    fn position(&self, g: u64, decoded: &mut [DecodeCache; 2]) -> Option<Position> {
        let (t, i) = self.locate(g);
        self.parts[t].index.position_cached(i, &mut decoded[t])
    }

    /// Where a child (in the mover frame) is: its global place in the pair, or its code
    /// in the tables it leads into.
    #[inline]
    fn child(&self, child: &Setup, cache: &mut MenCache) -> Child {
        match self.part_of(SliceId::counts_of(child)) {
            Some(t) => Child::Inside(self.parts[t].offset + self.place(t, child, cache).index),
            None => Child::Outside(
                self.deps
                    .code(child)
                    .expect("dependencies were checked before the seed"),
            ),
        }
    }

    /// The current code of a child.
    #[inline]
    fn code(&self, child: Child) -> u16 {
        match child {
            Child::Inside(g) => self.vals[g as usize].load(Relaxed) & CODE,
            Child::Outside(code) => code,
        }
    }

    /// The place of a setup of part `t`, reusing the men part of the last setup with the
    /// same men.
    #[inline]
    fn place(&self, t: usize, s: &Setup, cache: &mut MenCache) -> Place {
        let index = &self.parts[t].index;
        match cache {
            Some((ct, part)) if *ct == t && part.same_men(s) => index.place_with(part, s),
            _ => {
                let part = index.men_part(s);
                *cache = Some((t, part));
                index.place_with(&part, s)
            }
        }
    }

    /// Notes that place `g` has been given the decisive code `code`. Both notes are read
    /// before they are written: they are shared by the threads, and mostly set already.
    #[inline]
    fn note(&self, g: u64, code: u16) {
        let bit = 1u64 << (code % 64);
        let run = &self.decided[(g / RUN) as usize];
        if run.load(Relaxed) & bit == 0 {
            run.fetch_or(bit, Relaxed);
        }
        if self.max_distance.load(Relaxed) < code - 1 {
            self.max_distance.fetch_max(code - 1, Relaxed);
        }
    }

    /// Seeds the places from `start` to `end` (excluded), decoding them in order; broken
    /// places get [`BROKEN`].
    fn seed_range(&self, start: u64, end: u64, s: &mut Scratch) {
        for part in &self.parts {
            let (lo, hi) = (
                start.max(part.offset),
                end.min(part.offset + part.index.len()),
            );
            if lo >= hi {
                continue;
            }
            let mut next = lo;
            part.index
                .for_each_position(lo - part.offset, hi - part.offset, |i, pos| {
                    let g = part.offset + i;
                    for broken in next..g {
                        self.vals[broken as usize].store(BROKEN, Relaxed);
                    }
                    next = g + 1;
                    self.seed(g, &pos, s);
                });
            for broken in next..hi {
                self.vals[broken as usize].store(BROKEN, Relaxed);
            }
        }
    }

    fn seed(&self, g: u64, pos: &Position, s: &mut Scratch) {
        pos.legal_moves_into(self.rules, &mut s.moves);
        let setup = pos.to_setup();
        if s.moves.is_empty() {
            self.vals[g as usize].store(FINAL | Value::Loss(0).code(), Relaxed);
            self.note(g, Value::Loss(0).code());
            return;
        }
        s.places.clear();
        let mut best: Option<Value> = None;
        // Children of Mullah moves share the position's men (turned round). Where those men
        // are not symmetric, two of them are never one place (the mirror image of one has
        // other men), so they are counted without their places, unless a man move's child
        // has the mirror image of those men.
        let men = (setup.black & !setup.mullahs, setup.white & !setup.mullahs);
        let men_symmetric = mirror(men.0) == men.0 && mirror(men.1) == men.1;
        let mirrored_men = {
            let turned = swap_setup(&setup);
            (
                mirror(turned.black & !turned.mullahs),
                mirror(turned.white & !turned.mullahs),
            )
        };
        let mut mullah_children = 0usize;
        let mut clash = men_symmetric;
        let mut cache = s.men.take();
        for mv in &s.moves {
            let child = child_setup(&setup, mv);
            let inside = self.part_of(SliceId::counts_of(&child)).is_some();
            if inside && !men_symmetric && setup.mullahs.contains(mv.from()) {
                mullah_children += 1;
                continue;
            }
            if inside
                && (child.black & !child.mullahs, child.white & !child.mullahs) == mirrored_men
            {
                clash = true;
            }
            match self.child(&child, &mut cache) {
                Child::Inside(place) => s.places.push(place),
                Child::Outside(code) => {
                    let v = Value::from_code(code).parent();
                    if best.map_or(true, |b| v.preference() > b.preference()) {
                        best = Some(v);
                    }
                }
            }
        }
        if clash && mullah_children > 0 {
            // Rare: count the Mullah moves' children by their places after all.
            mullah_children = 0;
            for mv in s.moves.iter().filter(|m| setup.mullahs.contains(m.from())) {
                let child = child_setup(&setup, mv);
                if let Child::Inside(place) = self.child(&child, &mut cache) {
                    s.places.push(place);
                }
            }
        }
        s.men = cache;
        s.places.sort_unstable();
        s.places.dedup();
        let inside = s.places.len() + mullah_children;
        let cell = &self.vals[g as usize];
        match best {
            Some(v @ Value::Win(_)) => {
                // A move inside the pair may still win faster.
                let flag = if inside == 0 { FINAL } else { 0 };
                cell.store(flag | v.code(), Relaxed);
                self.counts[g as usize].store(1, Relaxed);
                self.note(g, v.code());
            }
            _ if inside == 0 => {
                let v = best.expect("a position with moves has a best one");
                cell.store(FINAL | v.code(), Relaxed);
                if v != Value::Draw {
                    self.note(g, v.code());
                }
            }
            _ => {
                let extra = usize::from(best == Some(Value::Draw));
                let count = match u8::try_from(inside + extra) {
                    Ok(c) if c <= COUNT => c,
                    _ => {
                        self.too_many.store(true, Relaxed);
                        return;
                    }
                };
                let outside = if best.is_some() { OUTSIDE } else { 0 };
                self.counts[g as usize].store(outside | count, Relaxed);
            }
        }
    }

    /// The places that have a move inside the pair to the place `g` (whose position is
    /// `pos`).
    ///
    /// A place `e` links to `g` when its position moves to `g`'s position or to its mirror
    /// image (a place stands for both). Unmoving `g`'s position alone finds them all: an
    /// unmove found is `e`'s position itself or its mirror image (which moves to the image
    /// of `g`'s position), and both have the place `e`.
    fn predecessors(&self, pos: &Position, s: &mut Scratch) {
        s.places.clear();
        unmoves(self.rules, pos, &mut s.back);
        for q in &s.back {
            let tq = self
                .part_of(SliceId::counts_of(q))
                .expect("an unmove stays in the pair");
            let place = self.place(tq, q, &mut s.men);
            s.places.push(self.parts[tq].offset + place.index);
        }
        s.places.sort_unstable();
        s.places.dedup();
    }

    /// Propagates from every place of `start..end` decided at distance `n - 1` (code `n`:
    /// no draw, broken place or value still to be propagated has that code in pass `n`).
    fn propagate_range(&self, start: u64, end: u64, n: u16, s: &mut Scratch) {
        let bit = 1u64 << (n % 64);
        let mut run = start;
        while run < end {
            let run_end = (run + RUN).min(end);
            if self.decided[(run / RUN) as usize].load(Relaxed) & bit != 0 {
                for g in run..run_end {
                    if self.vals[g as usize].load(Relaxed) & CODE == n {
                        self.propagate(g, n, s);
                    }
                }
            }
            run = run_end;
        }
    }

    /// Propagates from the place `g`, decided at distance `n - 1`, to its predecessors.
    #[inline(never)]
    fn propagate(&self, g: u64, n: u16, s: &mut Scratch) {
        let pos = self
            .position(g, &mut s.decoded)
            .expect("a decided place is a position");
        self.predecessors(&pos, s);
        let child_lost = (n - 1) % 2 == 0;
        let places = std::mem::take(&mut s.places);
        // The predecessors' cells are far apart, and each update is an atomic operation that
        // waits for its cell: ask for all of them first.
        for &p in &places {
            prefetch(&self.vals, p as usize);
            if !child_lost {
                prefetch(&self.counts, p as usize);
            }
        }
        for &p in &places {
            if child_lost {
                self.mark_win(p, n);
            } else {
                self.count_down(p, n, s);
            }
        }
        s.places = places;
    }

    /// The predecessor `p` of a loss in `n - 1` wins in `n`, unless it is final or wins as
    /// fast already.
    fn mark_win(&self, p: u64, n: u16) {
        let cell = &self.vals[p as usize];
        let win = Value::Win(n).code();
        let mut cur = cell.load(Relaxed);
        loop {
            if cur & FINAL != 0 {
                return;
            }
            let code = cur & CODE;
            if code != DRAW_CODE
                && (code <= win || !matches!(Value::from_code(code), Value::Win(_)))
            {
                return;
            }
            match cell.compare_exchange_weak(cur, win, Relaxed, Relaxed) {
                Ok(_) => {
                    self.note(p, win);
                    return;
                }
                Err(now) => cur = now,
            }
        }
    }

    /// One more move of the undecided predecessor `p` leads to a win for the opponent; when
    /// none is left, `p` is lost.
    fn count_down(&self, p: u64, n: u16, s: &mut Scratch) {
        if self.vals[p as usize].load(Relaxed) != 0 {
            return;
        }
        let before = self.counts[p as usize].fetch_sub(1, Relaxed);
        if before & COUNT != 1 {
            return;
        }
        // Every move inside the pair leads to a win for the opponent, the longest being the
        // one at `n - 1` just decided (they are decided in order of distance): a loss in `n`,
        // unless a move out of the pair holds out longer.
        let v = if before & OUTSIDE != 0 {
            self.evaluate(p, s)
        } else {
            Value::Loss(n)
        };
        debug_assert_eq!(v, self.evaluate(p, s), "at {n}");
        debug_assert!(matches!(v, Value::Loss(d) if d >= n), "{v:?} at {n}");
        if self.vals[p as usize]
            .compare_exchange(0, FINAL | v.code(), Relaxed, Relaxed)
            .is_ok()
        {
            self.note(p, v.code());
        }
    }

    /// The value of place `p` from the current values of all its children.
    fn evaluate(&self, p: u64, s: &mut Scratch) -> Value {
        let pos = self
            .position(p, &mut s.decoded)
            .expect("a counted place is a position");
        let mut moves = std::mem::take(&mut s.moves);
        pos.legal_moves_into(self.rules, &mut moves);
        let setup = pos.to_setup();
        let best = moves
            .iter()
            .map(|mv| {
                let child = self.child(&child_setup(&setup, mv), &mut s.men);
                Value::from_code(self.code(child)).parent()
            })
            .max_by_key(|v| v.preference())
            .expect("a counted place has moves");
        s.moves = moves;
        best
    }

    fn finish(self) -> Vec<Generated> {
        let Work { parts, vals, .. } = self;
        let codes: Vec<u16> = vals
            .into_iter()
            .map(|v| {
                let v = v.into_inner();
                if v == BROKEN {
                    BROKEN
                } else {
                    v & CODE
                }
            })
            .collect();
        let mut out = Vec::new();
        for p in parts.iter().rev() {
            let start = p.offset as usize;
            let end = start + p.index.len() as usize;
            out.push(Generated {
                slice: p.slice,
                codes: codes[start..end].to_vec(),
            });
        }
        out.reverse();
        out
    }
}

/// Generates every slice of at most `max_pieces` pieces in memory, in dependency order
/// (for tests and small tables; [`crate::build`] writes files and resumes).
pub fn generate_in_memory(rules: &Rules, max_pieces: u32) -> Result<MemoryTables, GenerateError> {
    let mut tables = MemoryTables::new();
    for pair in SliceId::plan(max_pieces) {
        for g in generate_pair(rules, pair, &tables, &|_, _, _| {})? {
            tables.insert(g.slice, g.codes);
        }
    }
    Ok(tables)
}
