//! The alpha-beta search: iterative deepening, principal variation search with aspiration
//! windows, a shared transposition table, late move reductions, a forced-move extension,
//! exact win/loss scores by distance, and draws by repetition and by the no-progress rule.
//!
//! One `Searcher` runs per thread; they share the `Shared` state (table, stop flags,
//! node count). Only the main thread reports and decides when to stop.

use crate::order::Orderer;
use crate::score::{self, from_tt, is_decisive, lost_at, to_tt, INFINITE, MAX_PLY};
use crate::time::Clock;
use crate::tt::{Bound, MoveKey, Table};
use kharbaga::{Move, Position, Rules};
use kharbaga_tablebase::tablebase::Tablebase;
use kharbaga_tablebase::value::Wdl;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// Switches and numbers of the search, for experiments and tuning (the defaults are the
/// engine's choices).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct SearchParams {
    /// Late move reductions.
    pub lmr: bool,
    /// Aspiration windows around the previous iteration's score.
    pub aspiration: bool,
    /// A node with a single legal move does not use up depth.
    pub forced_extension: bool,
    /// Cutoffs from the transposition table at non-PV nodes.
    pub tt_cutoffs: bool,
    /// Killer and history move ordering.
    pub history: bool,
}

impl Default for SearchParams {
    fn default() -> SearchParams {
        SearchParams {
            lmr: true,
            aspiration: true,
            forced_extension: true,
            tt_cutoffs: true,
            history: true,
        }
    }
}

/// The first move (0-based, in search order) that late move reductions apply to. From the
/// third move (index 2) measured no different (STRENGTH.md).
const LMR_FROM: usize = 3;

/// The late move reduction for the `index`-th move at `depth`: 1 ply, 2 for late moves
/// far from the leaves. A logarithmic formula that reduces more measured weaker
/// (STRENGTH.md).
fn lmr_reduction(depth: i32, index: usize) -> i32 {
    if index >= 8 && depth >= 6 {
        2
    } else {
        1
    }
}

/// What all search threads share.
pub(crate) struct Shared<'a> {
    pub tt: &'a Table,
    pub rules: Rules,
    pub params: SearchParams,
    pub weights: crate::eval::Weights,
    /// The caller's stop request.
    pub stop: &'a AtomicBool,
    /// Set by the main thread when the search must end (limits reached or done).
    pub abort: AtomicBool,
    /// Nodes of all threads (flushed in batches by the helpers).
    pub nodes: AtomicU64,
    pub node_limit: Option<u64>,
    pub clock: Clock,
    /// The repetition-relevant history: the hashes of the game's positions, oldest first,
    /// the root last, and the root's count of plies without progress.
    pub history: Vec<u64>,
    pub root_quiet: u32,
    /// Endgame tables probed at every node they cover.
    pub tables: Option<&'a Tablebase>,
}

/// A move at the root with its latest score and line.
#[derive(Clone, Debug)]
pub(crate) struct RootMove {
    pub mv: Move,
    /// The score of this iteration, or `-INFINITE` when not (yet) better than the window.
    pub score: i32,
    /// The score of the last iteration where it was searched exactly.
    pub previous: i32,
    pub pv: Vec<Move>,
    /// The deepest ply reached.
    pub seldepth: usize,
}

/// One thread's search state.
pub(crate) struct Searcher<'a> {
    pub shared: &'a Shared<'a>,
    pub main: bool,
    pub nodes: u64,
    flushed: u64,
    pub aborted: bool,
    pub order: Orderer,
    /// Position hashes: the game history, then the current search path.
    keys: Vec<u64>,
    root_index: usize,
    buffers: Vec<Vec<Move>>,
    pv: Vec<Vec<Move>>,
    pub seldepth: usize,
}

impl<'a> Searcher<'a> {
    pub fn new(shared: &'a Shared<'a>, main: bool) -> Searcher<'a> {
        let keys = shared.history.clone();
        let root_index = keys.len() - 1;
        Searcher {
            shared,
            main,
            nodes: 0,
            flushed: 0,
            aborted: false,
            order: Orderer::default(),
            keys,
            root_index,
            buffers: (0..=MAX_PLY).map(|_| Vec::with_capacity(64)).collect(),
            pv: vec![Vec::new(); MAX_PLY + 1],
            seldepth: 0,
        }
    }

    /// Counts a node at `ply` and checks the limits now and then.
    #[inline]
    pub fn visit(&mut self, ply: usize) {
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        if (self.shared.node_limit.is_some() && self.nodes & 63 == 0) || self.nodes & 1023 == 0 {
            self.poll();
        }
    }

    fn poll(&mut self) {
        let sh = self.shared;
        sh.nodes
            .fetch_add(self.nodes - self.flushed, Ordering::Relaxed);
        self.flushed = self.nodes;
        if sh.abort.load(Ordering::Relaxed) || sh.stop.load(Ordering::Relaxed) {
            self.aborted = true;
            return;
        }
        if let Some(limit) = sh.node_limit {
            if sh.nodes.load(Ordering::Relaxed) >= limit {
                self.aborted = true;
                sh.abort.store(true, Ordering::Relaxed);
            }
        }
        if self.main && sh.clock.past_hard_limit() {
            self.aborted = true;
            sh.abort.store(true, Ordering::Relaxed);
        }
    }

    /// Nodes counted locally but not yet added to the shared count.
    pub fn unflushed(&self) -> u64 {
        self.nodes - self.flushed
    }

    /// Flushes the local node count into the shared one.
    pub fn flush(&mut self) {
        self.shared
            .nodes
            .fetch_add(self.nodes - self.flushed, Ordering::Relaxed);
        self.flushed = self.nodes;
    }

    /// A move buffer for `ply` (so that deeper plies do not clobber it).
    pub fn take_buffer(&mut self, ply: usize) -> Vec<Move> {
        std::mem::take(&mut self.buffers[ply])
    }

    /// Returns a buffer taken with [`Searcher::take_buffer`].
    pub fn give_buffer(&mut self, ply: usize, buf: Vec<Move>) {
        self.buffers[ply] = buf;
    }

    /// Whether the position at `ply` (hash `key`, `quiet` plies without progress) is a draw
    /// by repetition: a repeat of a position on the search path, or the third occurrence
    /// counting the game's history.
    fn is_repetition(&self, key: u64, ply: usize, quiet: u32) -> bool {
        if !self.shared.rules.threefold_repetition {
            return false;
        }
        let cur = self.root_index + ply;
        let oldest = cur.saturating_sub(quiet as usize);
        let mut seen_before_root = 0;
        let mut i = cur;
        while i >= oldest + 2 {
            i -= 2;
            if self.keys[i] == key {
                if i >= self.root_index {
                    return true;
                }
                seen_before_root += 1;
                if seen_before_root >= 2 {
                    return true;
                }
            }
        }
        false
    }

    /// Whether the position is drawn by the no-progress rule (and not lost by blocking,
    /// which takes precedence).
    fn is_no_progress_draw(&self, pos: &Position, quiet: u32) -> bool {
        match self.shared.rules.no_progress_limit {
            Some(limit) => quiet >= limit && !pos.is_blocked(&self.shared.rules),
            None => false,
        }
    }

    /// The score of a position the endgame tables decide, where the no-progress rule cannot
    /// change its value: no decisive value of its slice takes longer than the plies left
    /// before a no-progress draw.
    fn table_score(&mut self, pos: &Position, ply: usize, quiet: u32) -> Option<i32> {
        let tb = self.shared.tables?;
        if pos.occupied().count() > tb.max_pieces() {
            return None;
        }
        let left = self
            .shared
            .rules
            .no_progress_limit
            .map_or(u32::MAX, |limit| limit.saturating_sub(quiet));
        let wdl = tb.probe_wdl_within(pos, left).ok()??;
        self.visit(ply);
        Some(match wdl {
            Wdl::Win => score::TB_WIN - ply as i32,
            Wdl::Draw => 0,
            Wdl::Loss => -(score::TB_WIN - ply as i32),
        })
    }

    fn set_key(&mut self, ply: usize, key: u64) {
        let i = self.root_index + ply;
        if self.keys.len() <= i {
            self.keys.resize(i + 1, 0);
        }
        self.keys[i] = key;
    }

    /// The alpha-beta search of `pos` at `ply` with `depth` plies left; `quiet` counts the
    /// plies without progress up to `pos`.
    pub fn search(
        &mut self,
        pos: &Position,
        depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        quiet: u32,
    ) -> i32 {
        let pv_node = beta - alpha > 1;
        if pv_node {
            self.pv[ply].clear();
        }
        let key = pos.hash();
        self.set_key(ply, key);
        if ply > 0 {
            if self.is_repetition(key, ply, quiet) || self.is_no_progress_draw(pos, quiet) {
                return 0;
            }
            // Mate distance pruning: nothing here can beat a faster win found already.
            alpha = alpha.max(lost_at(ply));
            beta = beta.min(-lost_at(ply + 1));
            if alpha >= beta {
                return alpha;
            }
        }
        if ply > 0 {
            if let Some(s) = self.table_score(pos, ply, quiet) {
                return s;
            }
        }
        if depth <= 0 || ply >= MAX_PLY - 1 {
            return self.qsearch(pos, alpha, beta, ply);
        }
        self.visit(ply);
        if self.aborted {
            return 0;
        }
        let params = self.shared.params;
        let hit = self.shared.tt.probe(key);
        let tt_move = hit.and_then(|h| h.mv);
        if let Some(h) = hit {
            if params.tt_cutoffs && !pv_node && h.depth >= depth {
                let s = from_tt(h.score, ply);
                let cut = match h.bound {
                    Bound::Exact => true,
                    Bound::Lower => s >= beta,
                    Bound::Upper => s <= alpha,
                };
                if cut {
                    return s;
                }
            }
        }
        let rules = self.shared.rules;
        let mut moves = self.take_buffer(ply);
        pos.legal_moves_into(&rules, &mut moves);
        if moves.is_empty() {
            self.give_buffer(ply, moves);
            return lost_at(ply);
        }
        let extend = params.forced_extension && moves.len() == 1 && ply < MAX_PLY / 2;
        let new_depth = if extend { depth } else { depth - 1 };
        if new_depth > 0 {
            // The children will probe the table: fetch all their buckets at once, so that
            // the memory's latency overlaps the ordering and the other children's fetches.
            for mv in moves.iter() {
                self.shared.tt.prefetch(pos.hash_after(mv));
            }
        }
        self.order.sort(pos, &mut moves, tt_move, ply);
        let original_alpha = alpha;
        let mut best = -INFINITE;
        let mut best_move: Option<Move> = None;
        for (i, mv) in moves.iter().enumerate() {
            let child = pos.play(mv);
            let child_quiet = if pos.is_progress(mv) { 0 } else { quiet + 1 };
            let mut score;
            if i == 0 {
                score = -self.search(&child, new_depth, -beta, -alpha, ply + 1, child_quiet);
            } else {
                let quiet_move = !mv.is_capture() && !pos.is_promotion(mv);
                let reduction = if params.lmr && quiet_move && depth >= 3 && i >= LMR_FROM {
                    lmr_reduction(depth, i)
                } else {
                    0
                };
                score = -self.search(
                    &child,
                    new_depth - reduction,
                    -alpha - 1,
                    -alpha,
                    ply + 1,
                    child_quiet,
                );
                if score > alpha && reduction > 0 {
                    score =
                        -self.search(&child, new_depth, -alpha - 1, -alpha, ply + 1, child_quiet);
                }
                if score > alpha && score < beta {
                    score = -self.search(&child, new_depth, -beta, -alpha, ply + 1, child_quiet);
                }
            }
            if self.aborted {
                self.give_buffer(ply, moves);
                return 0;
            }
            if score > best {
                best = score;
                best_move = Some(*mv);
                if score > alpha {
                    alpha = score;
                    if pv_node {
                        self.update_pv(ply, mv);
                    }
                    if score >= beta {
                        if params.history {
                            self.order.cutoff(pos, mv, ply, depth, &moves[..i]);
                        }
                        break;
                    }
                }
            }
        }
        self.give_buffer(ply, moves);
        let bound = if best >= beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.shared.tt.store(
            key,
            best_move.as_ref().map(MoveKey::of),
            to_tt(best, ply),
            depth,
            bound,
        );
        best
    }

    fn update_pv(&mut self, ply: usize, mv: &Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(*mv);
        line.extend_from_slice(&tail[0]);
    }

    /// Searches the root moves from index `first` on (the earlier ones are the lines already
    /// found by multi-PV) in the window `(alpha, beta)`; sets each move's score (`-INFINITE`
    /// unless it beat alpha) and line; returns the best score.
    pub fn root(
        &mut self,
        root: &Position,
        moves: &mut [RootMove],
        first: usize,
        depth: i32,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        let quiet = self.shared.root_quiet;
        self.set_key(0, root.hash());
        self.visit(0);
        let mut best = -INFINITE;
        for (i, rm) in moves.iter_mut().enumerate().skip(first) {
            let mv = rm.mv;
            let child = root.play(&mv);
            let child_quiet = if root.is_progress(&mv) { 0 } else { quiet + 1 };
            self.seldepth = 0;
            let mut score;
            if i == first {
                score = -self.search(&child, depth - 1, -beta, -alpha, 1, child_quiet);
            } else {
                score = -self.search(&child, depth - 1, -alpha - 1, -alpha, 1, child_quiet);
                if score > alpha && score < beta && !self.aborted {
                    score = -self.search(&child, depth - 1, -beta, -alpha, 1, child_quiet);
                }
            }
            if self.aborted {
                break;
            }
            rm.seldepth = self.seldepth;
            if score > best {
                best = score;
            }
            if score > alpha || i == first {
                rm.score = if score > alpha { score } else { -INFINITE };
                if score > alpha {
                    rm.pv.clear();
                    rm.pv.push(mv);
                    rm.pv.extend_from_slice(&self.pv[1]);
                    // A line that fails high keeps only its first move.
                    if score >= beta {
                        rm.pv.truncate(1);
                    }
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            } else {
                rm.score = -INFINITE;
            }
        }
        best
    }
}

/// The outcome of one thread's iterative deepening.
pub(crate) struct Outcome {
    pub moves: Vec<RootMove>,
    pub depth: u32,
}

/// Options of one iterative deepening run.
pub(crate) struct Deepening<'r> {
    pub max_depth: u32,
    pub multipv: usize,
    /// Helper threads start one ply deeper on odd indices, to spread the work.
    pub helper_index: usize,
    pub on_iteration: &'r mut dyn FnMut(&Searcher<'_>, &[RootMove], u32),
}

impl Searcher<'_> {
    /// Iterative deepening from `root` over `moves` (all legal, at least one).
    pub fn deepen(&mut self, root: &Position, mut moves: Vec<RootMove>, run: Deepening) -> Outcome {
        let Deepening {
            max_depth,
            multipv,
            helper_index,
            on_iteration,
        } = run;
        let multipv = multipv.clamp(1, moves.len());
        let mut completed = 0;
        let start = 1 + (helper_index % 2) as u32;
        for depth in start..=max_depth.max(1) {
            for rm in moves.iter_mut() {
                rm.score = -INFINITE;
            }
            for pv_index in 0..multipv {
                let previous = moves[pv_index].previous;
                let mut delta = 30;
                let use_window = self.shared.params.aspiration
                    && multipv == 1
                    && depth >= 5
                    && !is_decisive(previous);
                let (mut alpha, mut beta) = if use_window {
                    (previous - delta, previous + delta)
                } else {
                    (-INFINITE, INFINITE)
                };
                loop {
                    let score = self.root(root, &mut moves, pv_index, depth as i32, alpha, beta);
                    if self.aborted {
                        break;
                    }
                    if score <= alpha {
                        alpha = (alpha - delta).max(-INFINITE);
                        delta *= 2;
                    } else if score >= beta {
                        beta = (beta + delta).min(INFINITE);
                        delta *= 2;
                    } else {
                        break;
                    }
                    if delta > 1000 {
                        alpha = -INFINITE;
                        beta = INFINITE;
                    }
                }
                // Best first among the lines not yet fixed; moves without a score this
                // iteration keep their order behind.
                moves[pv_index..].sort_by_key(|m| std::cmp::Reverse(m.score));
                if self.aborted {
                    break;
                }
                moves[pv_index].previous = moves[pv_index].score;
            }
            if self.aborted {
                break;
            }
            for rm in moves[multipv..].iter_mut() {
                rm.previous = -INFINITE;
            }
            completed = depth;
            on_iteration(self, &moves, depth);
            if self.main && self.shared.clock.iteration_should_stop() {
                break;
            }
            // A proven result cannot change with more depth once the whole line fits.
            let best = moves[0].score;
            if multipv == 1 && is_decisive(best) && (score::MATE - best.abs()) < depth as i32 {
                break;
            }
        }
        self.flush();
        Outcome {
            moves,
            depth: completed,
        }
    }
}
