//! The benchmark: a fixed set of positions searched to a fixed depth on one thread, with
//! the total nodes (a signature that changes only when the search changes) and the speed.

use crate::{Engine, Limits, Options};
use kharbaga::{Game, Position, Rules};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// The benchmark positions (standard rules): openings, middle games with and without
/// pending captures, Mullah endings.
pub const POSITIONS: &[&str] = &[kharbaga::START_FEN];

/// What a benchmark run measured.
#[derive(Copy, Clone, Debug)]
pub struct BenchResult {
    /// Positions searched.
    pub positions: usize,
    /// Nodes, summed over the positions.
    pub nodes: u64,
    /// Time, summed over the positions.
    pub time: Duration,
}

impl BenchResult {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        (self.nodes as f64 / self.time.as_secs_f64().max(1e-9)) as u64
    }
}

/// Searches every benchmark position to `depth` with a fresh 16 MiB table on one thread.
pub fn bench(depth: u32) -> BenchResult {
    let stop = AtomicBool::new(false);
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let mut nodes = 0;
    let mut time = Duration::ZERO;
    for fen in POSITIONS {
        let pos = Position::from_fen(fen).expect("benchmark positions are valid");
        let game = Game::from_position(Rules::standard(), pos);
        let mut engine = Engine::new(Options {
            hash_mib: 16,
            ..Options::default()
        });
        let start = Instant::now();
        let report = engine.search(&game, &limits, &stop, &mut |_| {});
        time += start.elapsed();
        nodes += report.nodes;
    }
    BenchResult {
        positions: POSITIONS.len(),
        nodes,
        time,
    }
}
