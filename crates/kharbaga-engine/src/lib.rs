//! The Kharbaga engine: iterative-deepening alpha-beta search with a transposition table,
//! capture-aware quiescence, a tuned evaluation, time management and playing levels.
//!
//! The public API below is the contract the command-line program and the web server use.

#![warn(missing_docs)]

pub mod baseline;
pub mod bench;
pub mod book;
pub mod eval;
pub mod level;
pub mod order;
pub mod playout;
pub mod protocol;
mod qsearch;
pub mod rng;
pub mod score;
pub mod search;
pub mod selfplay;
pub mod slots;
mod table;
mod threads;
pub mod time;
pub mod tt;
pub mod weights;

pub use level::Level;
pub use search::SearchParams;

use kharbaga::{Game, Move, Rules};
use kharbaga_tablebase::files::rules_key;
use kharbaga_tablebase::tablebase::Tablebase;
use rng::Rng;
use search::{RootMove, Searcher, Shared};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tt::Table;

/// A search score from the side to move's point of view.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Score {
    /// An evaluation in centi-men (100 = one man of material).
    Centi(i32),
    /// A forced win in this many plies (counted from the searched position).
    WinIn(u32),
    /// A forced loss in this many plies.
    LossIn(u32),
    /// A win by the endgame tables, with its distance in plies from the searched position
    /// when known (at the root; a table position found inside the search gives none).
    TableWin(Option<u32>),
    /// A draw by the endgame tables.
    TableDraw,
    /// A loss by the endgame tables, with its distance when known.
    TableLoss(Option<u32>),
}

/// How a search is limited. Unset limits do not apply; with none set the search runs until
/// stopped (or to the maximum depth).
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// The deepest iteration, in plies.
    pub depth: Option<u32>,
    /// The most nodes.
    pub nodes: Option<u64>,
    /// A fixed time for this move.
    pub movetime: Option<Duration>,
    /// The time left on the mover's clock, for the engine's own time allocation.
    pub clock: Option<Duration>,
    /// The increment per move, with `clock`.
    pub increment: Duration,
    /// How many principal variations to report (1 by default; 0 counts as 1).
    pub multipv: usize,
}

/// Engine settings.
#[derive(Clone, Debug)]
pub struct Options {
    /// Transposition table size in MiB.
    pub hash_mib: usize,
    /// Search threads (lazy SMP); 1 is deterministic at a fixed depth.
    pub threads: usize,
    /// Playing level 1 (beginner) to 10 (full strength).
    pub level: u8,
    /// Endgame tables to probe (at level 10 only: lower levels play their endgames by
    /// search too).
    pub tables: Option<Arc<Tablebase>>,
    /// The opening book to play from while the game is in it (`None`: no book).
    pub book: Option<Arc<book::Book>>,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            hash_mib: 64,
            threads: 1,
            level: 10,
            tables: None,
            book: None,
        }
    }
}

/// What the search reports after each completed iteration (and for each line with multipv).
#[derive(Clone, Debug)]
pub struct Info {
    /// The iteration depth.
    pub depth: u32,
    /// The deepest ply reached (quiescence included).
    pub seldepth: u32,
    /// 1-based index of the line with multipv.
    pub multipv: usize,
    /// The score of the line.
    pub score: Score,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Time since the search started.
    pub time: Duration,
    /// The principal variation, from the searched position.
    pub pv: Vec<Move>,
}

/// The result of a search.
#[derive(Clone, Debug)]
pub struct Report {
    /// The move to play; `None` only when there is no legal move (or the game is over).
    pub best: Option<Move>,
    /// The expected reply, if known.
    pub ponder: Option<Move>,
    /// The score of the best move.
    pub score: Score,
    /// The last completed depth.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// The principal variation.
    pub pv: Vec<Move>,
    /// Time spent.
    pub time: Duration,
    /// Whether the move came from the opening book (no search: the score and depth are
    /// the book's).
    pub book: bool,
}

/// A search engine: its transposition table and settings persist between searches.
pub struct Engine {
    options: Options,
    table: Table,
    params: SearchParams,
    weights: weights::WeightsChoice,
    rng: Rng,
}

impl Engine {
    /// An engine with these settings.
    pub fn new(options: Options) -> Engine {
        Engine {
            table: Table::new(options.hash_mib),
            options,
            params: SearchParams::default(),
            weights: weights::WeightsChoice::default(),
            rng: Rng::from_time(),
        }
    }

    /// The settings.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// Changes the settings (a new hash size empties the table).
    pub fn set_options(&mut self, options: Options) {
        if options.hash_mib != self.options.hash_mib {
            self.table = Table::new(options.hash_mib);
        }
        self.options = options;
    }

    /// How full the transposition table is with entries of the last search, in permille.
    pub fn hashfull(&self) -> usize {
        self.table.hashfull()
    }

    /// The search switches in use.
    pub fn params(&self) -> SearchParams {
        self.params
    }

    /// Changes the search switches (for experiments; the defaults are the strongest known).
    pub fn set_params(&mut self, params: SearchParams) {
        self.params = params;
    }

    /// Which evaluation weights the engine uses (by default, each rule set's own).
    pub fn weights(&self) -> &weights::WeightsChoice {
        &self.weights
    }

    /// Changes the evaluation weights (for tuning and experiments).
    pub fn set_weights(&mut self, weights: weights::WeightsChoice) {
        self.weights = weights;
    }

    /// Seeds the random choices of levels below 10 (seeded from the clock by default).
    pub fn set_seed(&mut self, seed: u64) {
        self.rng = Rng::new(seed);
    }

    /// Searches the current position of `game` (its rules, and its history for repetitions
    /// and the no-progress count) within `limits`, until done or until `stop` becomes true;
    /// calls `on_info` as the search deepens. Always returns a legal move when there is one.
    pub fn search(
        &mut self,
        game: &Game,
        limits: &Limits,
        stop: &AtomicBool,
        on_info: &mut dyn FnMut(&Info),
    ) -> Report {
        let clock = time::Clock::start(limits);
        let rules = *game.rules();
        let root = *game.position();
        let legal = game.legal_moves();
        if legal.is_empty() {
            let lost = game
                .outcome()
                .is_some_and(|o| o.winner == Some(!root.turn()));
            return Report {
                best: None,
                ponder: None,
                score: if lost {
                    Score::LossIn(0)
                } else {
                    Score::Centi(0)
                },
                depth: 0,
                nodes: 0,
                pv: Vec::new(),
                time: clock.elapsed(),
                book: false,
            };
        }
        if let Some(report) = self.book_move(game, limits, &clock, on_info) {
            return report;
        }
        let tables = self.tables(&rules);
        if let Some(tb) = tables.as_deref() {
            if let Some(report) = table::root(tb, game, limits.multipv.max(1), &clock, on_info) {
                return report;
            }
        }
        let level = Level::new(self.options.level);
        let multipv = if level.randomized() {
            legal.len()
        } else {
            limits.multipv.clamp(1, legal.len())
        };
        let mut max_depth = limits.depth.unwrap_or(score::MAX_PLY as u32 - 1);
        if let Some(d) = level.max_depth {
            max_depth = max_depth.min(d);
        }
        // A forced move on the clock is played at once (one iteration, for a score).
        if legal.len() == 1 && clock.managed() && limits.movetime.is_none() {
            max_depth = 1;
        }
        let quiet = game.quiet_plies() as usize;
        let positions = game.positions();
        let history = positions[positions.len() - 1 - quiet.min(positions.len() - 1)..]
            .iter()
            .map(|p| p.hash())
            .collect();
        self.table.new_search();
        let shared = Shared {
            tt: &self.table,
            rules,
            params: self.params,
            weights: self.weights.resolve(&rules),
            stop,
            abort: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
            node_limit: limits.nodes,
            clock,
            history,
            root_quiet: game.quiet_plies(),
            tables: tables.as_deref(),
        };
        let mut ordered = legal;
        {
            let tt_move = self.table.probe(root.hash()).and_then(|h| h.mv);
            order::Orderer::default().sort(&root, &mut ordered, tt_move, 0);
        }
        let root_moves: Vec<RootMove> = ordered
            .into_iter()
            .map(|mv| RootMove {
                mv,
                score: -score::INFINITE,
                previous: -score::INFINITE,
                pv: vec![mv],
                seldepth: 0,
            })
            .collect();
        let mut report_iteration = |s: &Searcher<'_>, moves: &[RootMove], depth: u32| {
            let nodes = s.shared.nodes.load(Ordering::Relaxed) + s.unflushed();
            for (i, rm) in moves.iter().take(multipv).enumerate() {
                on_info(&Info {
                    depth,
                    seldepth: rm.seldepth.max(depth as usize) as u32,
                    multipv: i + 1,
                    score: score::to_public(rm.score),
                    nodes,
                    time: s.shared.clock.elapsed(),
                    pv: rm.pv.clone(),
                });
            }
        };
        let outcome = threads::search(
            &shared,
            &root,
            root_moves,
            max_depth,
            multipv,
            self.options.threads,
            &mut report_iteration,
        );
        let mut chosen = 0;
        if level.randomized() && outcome.depth > 0 {
            let scores: Vec<i32> = outcome.moves.iter().map(|m| m.previous).collect();
            chosen = level.pick(&scores, &mut self.rng);
        }
        let rm = &outcome.moves[chosen];
        let raw = if rm.score > -score::INFINITE {
            rm.score
        } else {
            rm.previous
        };
        Report {
            best: Some(rm.mv),
            ponder: rm.pv.get(1).copied(),
            score: if raw > -score::INFINITE {
                score::to_public(raw)
            } else {
                Score::Centi(0)
            },
            depth: outcome.depth,
            nodes: shared.nodes.load(Ordering::Relaxed),
            pv: rm.pv.clone(),
            time: shared.clock.elapsed(),
            book: false,
        }
    }

    /// The book's move in `game`, if the engine has a book and the position is in it; its
    /// best moves are reported as lines, up to `limits.multipv`.
    fn book_move(
        &mut self,
        game: &Game,
        limits: &Limits,
        clock: &time::Clock,
        on_info: &mut dyn FnMut(&Info),
    ) -> Option<Report> {
        let book = self.options.book.clone()?;
        let chosen = book.choose(game, self.options.level, &mut self.rng)?;
        let moves = book.moves(game.rules(), game.position())?;
        for (i, m) in moves.iter().take(limits.multipv.max(1)).enumerate() {
            on_info(&Info {
                depth: m.depth,
                seldepth: m.depth,
                multipv: i + 1,
                score: m.score,
                nodes: 0,
                time: clock.elapsed(),
                pv: vec![m.mv],
            });
        }
        Some(Report {
            best: Some(chosen.mv),
            ponder: None,
            score: chosen.score,
            depth: chosen.depth,
            nodes: 0,
            pv: vec![chosen.mv],
            time: clock.elapsed(),
            book: true,
        })
    }

    /// The endgame tables this engine probes under `rules`: those of its options, at level
    /// 10, when they were built for the same moves.
    fn tables(&self, rules: &Rules) -> Option<Arc<Tablebase>> {
        self.options
            .tables
            .clone()
            .filter(|tb| self.options.level >= 10 && rules_key(tb.rules()) == rules_key(rules))
    }

    /// Clears the transposition table and other learned state (for a new game).
    pub fn new_game(&mut self) {
        self.table.clear();
    }
}
