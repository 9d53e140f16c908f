//! The Kharbaga engine: iterative-deepening alpha-beta search with a transposition table,
//! capture-aware quiescence, a tuned evaluation, time management and playing levels.
//!
//! The public API below is the contract the command-line program and the web server use.

#![warn(missing_docs)]

use kharbaga::{Game, Move};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// A search score from the side to move's point of view.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Score {
    /// An evaluation in centi-men (100 = one man of material).
    Centi(i32),
    /// A forced win in this many plies (counted from the searched position).
    WinIn(u32),
    /// A forced loss in this many plies.
    LossIn(u32),
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
}

impl Default for Options {
    fn default() -> Options {
        Options {
            hash_mib: 64,
            threads: 1,
            level: 10,
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
}

/// A search engine: its transposition table and settings persist between searches.
pub struct Engine {
    _options: Options,
}

impl Engine {
    /// An engine with these settings.
    pub fn new(options: Options) -> Engine {
        Engine { _options: options }
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
        let _ = (game, limits, stop, on_info);
        unimplemented!("the engine is being written (issue 3)")
    }

    /// Clears the transposition table and other learned state (for a new game).
    pub fn new_game(&mut self) {}
}
