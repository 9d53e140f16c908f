//! The benchmark: a fixed set of positions searched to a fixed depth, with the total nodes
//! (on one thread, a signature that changes only when the search changes) and the speed.

use crate::{Engine, Limits, Options};
use kharbaga::{Game, Position, Rules};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// The benchmark positions (standard rules): openings, middle games with and without
/// pending captures, Mullah endings.
pub const POSITIONS: &[&str] = &[
    kharbaga::START_FEN,
    "W:Ba1,c1,e1,g1,i1,b2,f2,h2,a3,e3,g3,i3,b4,f4,h4,e5,g5,i5:Wc5,b6,d6,h6,a7,c7,e7,g7,i7,b8,d8,f8,h8,a9,c9,e9,g9,i9",
    "B:Ba1,c1,g1,i1,b2,f2,a3,c3,i3,f4,a5:Wb6,a7,c7,e7,i7,b8,h8,a9,i9",
    "W:Bc1,e1,b2,d2,h2,i5:Wf4,a5,c7,b8,f8,h8,a9,c9,i9",
    "B:Bc1,g1,i1,g3,f4:Wa5,c5,i5,f6,d8,a9,c9,e9,g9",
    "B:Ba1,c1,a3,c3:Wa5,c5,i5,d6,a7,c7,f8,a9,c9,e9,g9",
    "B:Ba1,c1,g3,i5:Wa5,a7,a9,c9,e9,g9,i9",
    "B:Bc1,e1,i1,g3,f8:Wa5,i5,a9,c9,i9",
    "W:Bc1,g1,i1,e5,g5:Wc7,f8",
    "B:Bh2,h4:WKe3,c5,i7,e9,g9",
    "B:Bi7,Kg9:Wf2,a9,c9",
];

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

/// The depth the documentation quotes: some seconds on one thread.
pub const DEFAULT_DEPTH: u32 = 14;

/// Searches every benchmark position to `depth` with a fresh table of `options` for each.
/// With one thread the node count is the same on every run and machine; with more, the
/// threads race and it varies.
pub fn bench(depth: u32, options: &Options) -> BenchResult {
    bench_positions(POSITIONS, depth, options)
}

/// Searches each of `positions` (standard rules) to `depth` with a fresh table.
pub fn bench_positions(positions: &[&str], depth: u32, options: &Options) -> BenchResult {
    let stop = AtomicBool::new(false);
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let mut nodes = 0;
    let mut time = Duration::ZERO;
    for fen in positions {
        let pos = Position::from_fen(fen).expect("benchmark positions are valid");
        let game = Game::from_position(Rules::standard(), pos);
        let mut engine = Engine::new(options.clone());
        // Clearing writes every entry, so the operating system maps the table's pages now,
        // outside the timing: a game's searches reuse one table, and the benchmark measures
        // the search, not the first touch of fresh memory (11% of the time otherwise).
        engine.new_game();
        let start = Instant::now();
        let report = engine.search(&game, &limits, &stop, &mut |_| {});
        time += start.elapsed();
        nodes += report.nodes;
    }
    BenchResult {
        positions: positions.len(),
        nodes,
        time,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_are_valid_and_the_count_is_repeatable() {
        for fen in POSITIONS {
            assert!(Position::from_fen(fen).is_ok(), "{fen}");
        }
        let a = bench_positions(&POSITIONS[..3], 3, &Options::default());
        let b = bench_positions(&POSITIONS[..3], 3, &Options::default());
        assert_eq!(a.positions, 3);
        assert_eq!(a.nodes, b.nodes);
        assert!(a.nodes > 0);
    }
}
