//! A short engine search that guides the solver's choices: which side's win is searched for
//! first, and in which order the parts of a split come. A fixed depth, at most a fixed
//! number of nodes and one thread, so always the same answer for the same questions in the
//! same order. It changes how long a solve takes, never a value.

use std::sync::atomic::AtomicBool;

use kharbaga::{Color, Game, Position, Rules};
use kharbaga_engine::{Engine, Limits, Options, Score};

/// The transposition table of a scout's engine, in MiB.
const HASH_MIB: usize = 16;

/// An engine for short searches under one rule set (its table kept between searches).
pub struct Scout {
    engine: Engine,
    rules: Rules,
    limits: Limits,
}

impl Scout {
    /// A scout for `rules` that searches to `depth` plies, at most `nodes` nodes a search:
    /// depth 8 and 100,000 nodes take a few milliseconds in a release build.
    pub fn new(rules: &Rules, depth: u32, nodes: u64) -> Scout {
        Scout {
            engine: Engine::new(Options {
                hash_mib: HASH_MIB,
                ..Options::default()
            }),
            rules: *rules,
            limits: Limits {
                depth: Some(depth),
                nodes: Some(nodes),
                ..Default::default()
            },
        }
    }

    /// The search's score of `pos` for its side to move.
    pub fn score(&mut self, pos: &Position) -> Score {
        let game = Game::from_position(self.rules, *pos);
        let stop = AtomicBool::new(false);
        self.engine
            .search(&game, &self.limits, &stop, &mut |_| {})
            .score
    }

    /// The side the search scores ahead at `pos` (the side to move when even). The static
    /// evaluation alone misjudges positions with captures due.
    pub fn favoured(&mut self, pos: &Position) -> Color {
        let behind = match self.score(pos) {
            Score::Centi(c) => c < 0,
            Score::LossIn(_) | Score::TableLoss(_) => true,
            Score::WinIn(_) | Score::TableWin(_) | Score::TableDraw => false,
        };
        if behind {
            !pos.turn()
        } else {
            pos.turn()
        }
    }
}
