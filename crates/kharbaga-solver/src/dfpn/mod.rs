//! Depth-first proof-number search (df-pn, Nagai 2002) with the 1+ε threshold trick
//! (Pawlewicz and Lew 2007) and evaluation-guided initial numbers.
//!
//! One search answers one question: does the prover (a colour) win from a position? Nodes
//! where the prover is to move are OR nodes, the others AND nodes. Leaves:
//!
//! - a position where the side to move has no legal move ends the game;
//! - a position reached when the no-progress count has reached the rules' limit is a draw, so
//!   a disproof;
//! - a position that repeats one on the search path is a draw (the opponent can repeat it
//!   again), so a disproof; such a disproof depends on the path: it is passed up but stored in
//!   the table only once the node it repeats is the one being stored or below it (then every
//!   search of that node meets the same repetition), which avoids the graph-history
//!   interaction of transpositions (Kishimoto and Müller 2004) at the price of searching
//!   some positions again;
//! - a position in the endgame tables has its table value: a win for the prover in `d` plies
//!   is a proof when the count plus `d` stays within the limit.
//!
//! Proofs and disproofs carry the range of no-progress counts they hold for (see
//! [`crate::tt`]), so a proof found with a low count is not used where the count is too high.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use kharbaga::{Color, Move, Position, Rules};
use kharbaga_engine::eval::{evaluate, Weights};
use kharbaga_tablebase::tablebase::Tablebase;
use kharbaga_tablebase::value::Wdl;

use crate::tt::{key, Entry, Tt, INF};

mod numbers;

use numbers::{combine, grow, initial_number, sat_add, scan, settle};

/// No path dependency.
const NONE: usize = usize::MAX;

/// What a node's numbers are, with what a solved node depends on.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Num {
    /// Proof number (0: proven).
    pub pn: u32,
    /// Disproof number (0: disproven).
    pub dn: u32,
    /// For a proof, the longest quiet run it needs; for a disproof the least count it holds
    /// from.
    pub aux: u32,
    /// For a proof, the longest line to the end of the game in plies.
    pub dist: u32,
    /// For a disproof resting on a repetition: the path index of the repeated position.
    dep: usize,
    /// A position where the side to move has no legal move.
    terminal: bool,
}

impl Num {
    fn unknown(pn: u32, dn: u32) -> Num {
        Num {
            pn,
            dn,
            aux: 0,
            dist: 0,
            dep: NONE,
            terminal: false,
        }
    }

    fn proof(aux: u32, dist: u32) -> Num {
        Num {
            pn: 0,
            dn: INF,
            aux,
            dist,
            dep: NONE,
            terminal: false,
        }
    }

    fn disproof(aux: u32, dep: usize) -> Num {
        Num {
            pn: INF,
            dn: 0,
            aux,
            dist: 0,
            dep,
            terminal: false,
        }
    }

    /// Whether the node is proven.
    pub fn proven(&self) -> bool {
        self.pn == 0
    }

    /// Whether the node is disproven.
    pub fn disproven(&self) -> bool {
        self.dn == 0
    }

    /// Whether the side to move has no legal move (the game is over).
    pub fn terminal(&self) -> bool {
        self.terminal
    }
}

/// When to stop a search that has not finished.
#[derive(Copy, Clone, Debug, Default)]
pub struct Limits {
    /// At most this many nodes.
    pub nodes: Option<u64>,
    /// Stop at this time.
    pub deadline: Option<Instant>,
    /// Stop once this flag is set (by another thread: `kharbaga solve --serve` stops a
    /// solve when asked). Looked at with the clock, every 1,024 nodes.
    pub stop: Option<&'static AtomicBool>,
}

/// Counters of a search.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Nodes expanded (their moves generated).
    pub nodes: u64,
    /// Positions answered by the endgame tables.
    pub table_hits: u64,
    /// Positions whose numbers came from the transposition table.
    pub tt_hits: u64,
    /// Repetitions met on the search path.
    pub repetitions: u64,
}

/// What a progress report shows.
#[derive(Copy, Clone, Debug)]
pub struct Progress {
    /// The prover.
    pub prover: Color,
    /// The root's proof and disproof numbers at the last update.
    pub root: (u32, u32),
    /// The counters so far.
    pub stats: Stats,
    /// The transposition table's size now, in MiB (it grows as it fills).
    pub table_mib: usize,
}

/// A child of an expanded node.
struct Kid {
    pos: Position,
    q: u32,
    quiet: bool,
    num: Num,
}

/// One proof search: the prover, the rules, the tables and the transposition table.
pub struct Search<'a> {
    rules: &'a Rules,
    tables: Option<&'a Tablebase>,
    tt: &'a mut Tt,
    prover: Color,
    limit: u32,
    weights: &'static Weights,
    path: Vec<u64>,
    limits: Limits,
    aborted: bool,
    root: (u32, u32),
    stats: Stats,
    report_every: u64,
    next_report: u64,
    path_safe: bool,
    report: Option<&'a mut dyn FnMut(&Progress)>,
    /// Scratch space for a node's moves and children while its kids are made.
    moves: Vec<Move>,
    children: Vec<Position>,
    /// The kids of the nodes on the path, one list per depth, kept so that expanding a
    /// node allocates nothing once the search is warm.
    kids: Vec<Vec<Kid>>,
    /// Which kid each node on the path is searching, for the progress reports.
    searching: Vec<usize>,
}

impl<'a> Search<'a> {
    /// A search for a win of `prover`.
    pub fn new(
        rules: &'a Rules,
        tables: Option<&'a Tablebase>,
        tt: &'a mut Tt,
        prover: Color,
    ) -> Search<'a> {
        Search {
            rules,
            tables,
            tt,
            prover,
            limit: rules.no_progress_limit.unwrap_or(u32::MAX),
            weights: Weights::for_rules(rules),
            path: Vec::new(),
            limits: Limits::default(),
            aborted: false,
            root: (1, 1),
            stats: Stats::default(),
            report_every: 0,
            next_report: 0,
            path_safe: true,
            report: None,
            moves: Vec::new(),
            children: Vec::new(),
            kids: Vec::new(),
            searching: Vec::new(),
        }
    }

    /// Stops the search at these limits.
    pub fn with_limits(mut self, limits: Limits) -> Search<'a> {
        self.limits = limits;
        self
    }

    /// With `false`, a disproof that rests on a repetition is stored as if it held whatever
    /// the path (the graph-history interaction ignored): much faster where positions repeat,
    /// as in Mullah endings, but then a disproof may be wrong, so a draw found this way must be
    /// confirmed (see [`crate::solve`]). Proofs are never affected: a proof never rests on a
    /// repetition.
    pub fn path_safe(mut self, safe: bool) -> Search<'a> {
        self.path_safe = safe;
        self
    }

    /// Replaces the limits (and forgets that a limit stopped the search).
    pub fn set_limits(&mut self, limits: Limits) {
        self.limits = limits;
        self.aborted = false;
    }

    /// Calls `report` about every `every` nodes.
    pub fn with_report(mut self, every: u64, report: &'a mut dyn FnMut(&Progress)) -> Search<'a> {
        self.report_every = every.max(1);
        self.report = Some(report);
        self
    }

    /// The counters so far.
    pub fn stats(&self) -> Stats {
        self.stats
    }

    /// Whether a limit stopped the search.
    pub fn aborted(&self) -> bool {
        self.aborted
    }

    /// The rules.
    pub fn rules(&self) -> &Rules {
        self.rules
    }

    /// The prover.
    pub fn prover(&self) -> Color {
        self.prover
    }

    /// The rules' no-progress limit (`u32::MAX` when there is none).
    pub fn limit(&self) -> u32 {
        self.limit
    }

    /// Proves or disproves that the prover wins from `pos`, reached with no-progress count
    /// `q` and no earlier positions, unless a limit stops it first (then the numbers are
    /// neither 0).
    pub fn run(&mut self, pos: &Position, q: u32) -> Num {
        self.path.clear();
        let leaf = self.leaf(pos, q);
        if leaf.pn == 0 || leaf.dn == 0 {
            return leaf;
        }
        self.mid(pos, q, INF, INF)
    }

    /// [`Search::run`], but searching from `pos`'s children whatever the transposition table
    /// holds for `pos` itself (unless the game is over there, the count has reached the
    /// limit or the tables hold it): for a proof walk that needs the children's results of a
    /// position whose own result is stored without them.
    pub fn run_below(&mut self, pos: &Position, q: u32) -> Num {
        self.path.clear();
        let leaf = self.leaf(pos, q);
        if leaf.terminal || q >= self.limit || self.table_verdict(pos, q).is_some() {
            return leaf;
        }
        self.mid(pos, q, INF, INF)
    }

    /// What is known of a position reached with count `q` outside any search (no path):
    /// solved when the game is over, the count has reached the limit, the tables hold it or
    /// the transposition table has a result valid at `q`.
    pub fn known(&mut self, pos: &Position, q: u32) -> Num {
        self.path.clear();
        self.leaf(pos, q)
    }

    /// Drops the stored result of the position with this hash (for the prover): for a proof
    /// walk that found stored proofs justifying each other in a cycle.
    pub fn forget(&mut self, hash: u64) {
        self.tt.remove(key(hash, self.prover));
    }

    /// The tables' verdict on a position, for the prover at count `q` (see the module
    /// documentation): `None` when they do not hold it.
    pub fn table_verdict(&self, pos: &Position, q: u32) -> Option<Num> {
        let tb = self.tables.filter(|tb| tb.covers(pos))?;
        self.covered_value(tb, pos, q)
    }

    /// The numbers of a position before it is expanded: solved when the game is over, the
    /// count has reached the limit, it repeats the path, or the tables hold it; else from
    /// the transposition table or the evaluation and the number of moves.
    ///
    /// Whether the side to move is blocked (the game over) is asked only where the answer
    /// can differ: not for a position on the path (it was expanded, so it has a move) nor
    /// for one in the transposition table (only expanded positions are stored), which many
    /// positions looked at again are; the tables are asked before the transposition table,
    /// as a table may hold a position an earlier solve without it stored. A blocked side
    /// loses even at the no-progress limit (the rules look at the moves first).
    fn leaf(&mut self, pos: &Position, q: u32) -> Num {
        if q >= self.limit {
            return if pos.is_blocked(self.rules) {
                self.terminal(pos)
            } else {
                Num::disproof(self.limit, NONE)
            };
        }
        let hash = pos.hash();
        let back = self.path.len().saturating_sub(q as usize);
        if let Some(i) = self.path[back..].iter().position(|&h| h == hash) {
            self.stats.repetitions += 1;
            return Num::disproof(0, back + i);
        }
        if let Some(tb) = self.tables.filter(|tb| tb.covers(pos)) {
            if pos.is_blocked(self.rules) {
                return self.terminal(pos);
            }
            if let Some(num) = self.covered_value(tb, pos, q) {
                self.stats.table_hits += 1;
                return num;
            }
        }
        if let Some(e) = self.tt.get(key(hash, self.prover)) {
            if e.proof_at(q, self.limit) {
                self.stats.tt_hits += 1;
                return Num::proof(u32::from(e.aux), u32::from(e.dist));
            }
            if e.disproof_at(q) {
                self.stats.tt_hits += 1;
                return Num::disproof(u32::from(e.aux), NONE);
            }
            if e.pn != 0 && e.dn != 0 {
                self.stats.tt_hits += 1;
                return Num::unknown(e.pn, e.dn);
            }
        }
        match pos.count_legal(self.rules) {
            0 => self.terminal(pos),
            moves => self.initial(pos, moves as u32),
        }
    }

    /// The numbers of a position whose side to move is blocked: it has lost.
    fn terminal(&self, pos: &Position) -> Num {
        let mut num = if pos.turn() == self.prover {
            Num::disproof(0, NONE)
        } else {
            Num::proof(0, 0)
        };
        num.terminal = true;
        num
    }

    /// The verdict of `tb`, which holds `pos`, for the prover at count `q` (`None` only
    /// when a probe fails).
    ///
    /// A win is read from the fast win/draw/loss part of the table, with the longest
    /// distance of its slice standing for its own: a proof that claims the longer quiet run
    /// holds at fewer counts, so it is still sound. Only where that bound would pass the
    /// no-progress limit is the exact distance read (a block of the table decompressed).
    fn covered_value(&self, tb: &Tablebase, pos: &Position, q: u32) -> Option<Num> {
        let (wdl, bound) = tb.probe_wdl_bounded(pos).ok()?;
        let prover_wins = match wdl {
            Wdl::Draw => false,
            Wdl::Win => pos.turn() == self.prover,
            Wdl::Loss => pos.turn() != self.prover,
        };
        if !prover_wins {
            return Some(Num::disproof(0, NONE));
        }
        let d = if q.saturating_add(bound) <= self.limit {
            bound
        } else {
            u32::from(tb.probe(pos).ok()?.plies()?)
        };
        Some(if q.saturating_add(d) <= self.limit {
            Num::proof(d.saturating_sub(1), d)
        } else {
            // The fastest win passes the limit: not a proof at this count.
            Num::disproof(self.limit.saturating_sub(d).saturating_add(1), NONE)
        })
    }

    /// Initial numbers from the evaluation and the side to move's `moves` (at least 1): a
    /// position good for the prover gets a small proof number and a large disproof number
    /// (about one step of 3/4 of a man each), and the number that needs every move answered
    /// (the disproof number where the prover moves, the proof number where the opponent
    /// does) counts one more for each move past the first, as the weak sum will once the
    /// position is expanded.
    fn initial(&self, pos: &Position, moves: u32) -> Num {
        let e = evaluate(pos, self.rules, self.weights);
        let (pn, dn) = if pos.turn() == self.prover {
            (initial_number(-e), initial_number(e) + moves - 1)
        } else {
            (initial_number(e) + moves - 1, initial_number(-e))
        };
        Num::unknown(pn, dn)
    }

    /// Whether a limit has been reached, looking at the clock now (then any search run
    /// after this stops at once). For work between searches that must keep to the limits,
    /// such as the walk that writes a proof.
    pub fn over_limits(&mut self) -> bool {
        if self.limits.nodes.is_some_and(|n| self.stats.nodes >= n)
            || self.limits.deadline.is_some_and(|d| Instant::now() >= d)
            || self.limits.stop.is_some_and(|s| s.load(Ordering::Relaxed))
        {
            self.aborted = true;
        }
        self.aborted
    }

    fn poll(&mut self) {
        self.over_limits();
        if self.report_every > 0 && self.stats.nodes >= self.next_report {
            self.next_report = self.stats.nodes + self.report_every;
            let progress = Progress {
                prover: self.prover,
                root: self.live_root(),
                stats: self.stats,
                table_mib: self.tt.mib(),
            };
            if let Some(report) = self.report.as_mut() {
                report(&progress);
            }
        }
    }

    /// The root's numbers now: each node on the path combines its kids' numbers with the
    /// searched kid's own numbers now instead of those it had when its search began. (The
    /// numbers the root last computed can be long out of date: a root with one move, or
    /// one unsolved move, searches it to the end before it looks at its numbers again.)
    fn live_root(&self) -> (u32, u32) {
        let mut live = None;
        for d in (0..self.path.len()).rev() {
            let kids = &self.kids[d];
            let or = kids.first().is_some_and(|k| k.pos.turn() != self.prover);
            let searched = self.searching[d];
            let below = live;
            live = Some(combine(
                or,
                kids.iter().enumerate().map(|(i, k)| match below {
                    Some(now) if i == searched => now,
                    _ => (k.num.pn, k.num.dn),
                }),
            ));
        }
        live.unwrap_or(self.root)
    }

    /// Expands `pos` (not a leaf) and searches below it until its proof number reaches
    /// `th_pn` or its disproof number `th_dn`.
    fn mid(&mut self, pos: &Position, q: u32, th_pn: u32, th_dn: u32) -> Num {
        self.stats.nodes += 1;
        if self.stats.nodes % 1024 == 0 {
            self.poll();
        }
        let depth = self.path.len();
        let or = pos.turn() == self.prover;
        let start = self.stats.nodes;
        self.path.push(pos.hash());
        let mut moves = std::mem::take(&mut self.moves);
        let mut children = std::mem::take(&mut self.children);
        let mut kids = self
            .kids
            .get_mut(depth)
            .map(std::mem::take)
            .unwrap_or_default();
        pos.legal_moves_into(self.rules, &mut moves);
        // The children's table lines are fetched first, all at once, so that the waits for
        // memory overlap.
        children.clear();
        children.extend(moves.iter().map(|mv| pos.play(mv)));
        for child in &children {
            self.tt.prefetch(key(child.hash(), self.prover));
        }
        kids.clear();
        for (mv, child) in moves.iter().zip(&children) {
            let kid = self.kid(pos, mv, *child, q);
            kids.push(kid);
        }
        self.moves = moves;
        self.children = children;
        if self.kids.len() <= depth {
            self.kids.resize_with(depth + 1, Vec::new);
            self.searching.resize(depth + 1, 0);
        }
        self.kids[depth] = kids;
        loop {
            let kids = &self.kids[depth];
            let (pn, dn, best, second) = scan(or, kids);
            if depth == 0 {
                self.root = (pn, dn);
            }
            if pn >= th_pn || dn >= th_dn || self.aborted {
                break;
            }
            let k = &kids[best];
            let (c_pn, c_dn) = if or {
                (
                    th_pn.min(grow(second)),
                    sat_add(th_dn - dn, k.num.dn).min(INF),
                )
            } else {
                (
                    sat_add(th_pn - pn, k.num.pn).min(INF),
                    th_dn.min(grow(second)),
                )
            };
            let (child, cq) = (k.pos, k.q);
            self.searching[depth] = best;
            let num = self.mid(&child, cq, c_pn, c_dn);
            self.kids[depth][best].num = num;
        }
        self.path.pop();
        let mut num = settle(or, &self.kids[depth]);
        if num.dep >= depth || !self.path_safe {
            num.dep = NONE;
        }
        if num.dep == NONE {
            self.tt.put(Entry {
                key: key(pos.hash(), self.prover),
                pn: num.pn,
                dn: num.dn,
                work: (self.stats.nodes - start + 1).min(u64::from(u32::MAX)) as u32,
                dist: num.dist.min(u32::from(u16::MAX)) as u16,
                aux: num.aux.min(u32::from(u16::MAX)) as u16,
            });
        }
        num
    }

    fn kid(&mut self, pos: &Position, mv: &Move, child: Position, q: u32) -> Kid {
        let quiet = !pos.is_progress(mv);
        let cq = if quiet { q.saturating_add(1) } else { 0 };
        let num = self.leaf(&child, cq);
        Kid {
            pos: child,
            q: cq,
            quiet,
            num,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_blocked_side_loses_at_any_count_and_an_open_position_is_a_disproof_at_the_limit() {
        let rules = Rules::standard();
        let limit = rules.no_progress_limit.expect("standard has the rule");
        // Black to move without a piece: the game is over, White has won.
        let over = Position::from_fen("B:B:Wc7").unwrap();
        let open = Position::from_fen("B:Bc3:Wc7").unwrap();
        let mut tt = Tt::new(1);
        for q in [0, limit - 1, limit, limit + 5] {
            let mut white = Search::new(&rules, None, &mut tt, Color::White);
            let num = white.known(&over, q);
            assert!(num.proven() && num.terminal(), "count {q}: {num:?}");
            let num = white.known(&open, q);
            assert_eq!(num.disproven(), q >= limit, "count {q}: {num:?}");
            assert!(!num.terminal());
            let mut black = Search::new(&rules, None, &mut tt, Color::Black);
            let num = black.known(&over, q);
            assert!(num.disproven() && num.terminal(), "count {q}: {num:?}");
        }
    }

    #[test]
    fn the_number_that_needs_every_move_answered_counts_the_moves() {
        let rules = Rules::standard();
        let weights = Weights::for_rules(&rules);
        let mut tt = Tt::new(1);
        // The start, six steps of two men, a Mullah's only move (a capture).
        let positions = [
            Position::start(),
            Position::from_fen("B:Bc3,g1:We5,a9").unwrap(),
            Position::from_fen("W:BKc3,g1:WKe5,a9,i9").unwrap(),
        ];
        let counts: Vec<usize> = positions
            .iter()
            .map(|p| p.legal_moves(&rules).len())
            .collect();
        assert_eq!(counts[1..], [6, 1]);
        for (pos, moves) in positions.iter().zip(counts) {
            let moves = moves as u32;
            let e = evaluate(pos, &rules, weights);
            let us = pos.turn();
            // The side to move proving: every move must be refuted to disprove it.
            let num = Search::new(&rules, None, &mut tt, us).known(pos, 0);
            let expected = (initial_number(-e), initial_number(e) + moves - 1);
            assert_eq!((num.pn, num.dn), expected, "{pos}");
            // The other side proving: every move must be answered to prove it.
            let num = Search::new(&rules, None, &mut tt, !us).known(pos, 0);
            let expected = (initial_number(e) + moves - 1, initial_number(-e));
            assert_eq!((num.pn, num.dn), expected, "{pos}");
        }
    }

    #[test]
    fn the_reported_root_numbers_follow_the_search_below_a_single_move() {
        // Black's one legal move is i5xe5xe1 (ply 32 of the engine's main line, open after
        // hours). The root searches it to the end without looking at its own numbers again,
        // so numbers kept from the root's last look would never change in the reports.
        let pos =
            Position::from_fen("B:Ba1,g1,i1,b2,h2,a3,i3,h4,i5:We3,a5,g5,a7,c7,h8,a9,c9,e9,i9")
                .unwrap();
        let rules = Rules::standard();
        assert_eq!(pos.legal_moves(&rules).len(), 1);
        let mut tt = Tt::new(16);
        let mut reported = Vec::new();
        let mut report = |p: &Progress| reported.push(p.root);
        let mut search = Search::new(&rules, None, &mut tt, Color::Black)
            .with_limits(Limits {
                nodes: Some(20_000),
                ..Limits::default()
            })
            .with_report(1, &mut report);
        let root = search.run(&pos, 0);
        assert!(!root.proven() && !root.disproven());
        assert!(reported.len() >= 15, "{} reports", reported.len());
        let mut distinct = reported.clone();
        distinct.sort_unstable();
        distinct.dedup();
        assert!(
            distinct.len() > 1,
            "the root's numbers never changed: {reported:?}"
        );
    }
}
