//! Random playouts: games from a position with every move drawn uniformly from the legal
//! moves, played to the rules' end. General game systems compare their speed on them
//! (`kharbaga bench --playouts N`); they are also the plainest sanity check of the rules'
//! end conditions over millions of games.

use crate::rng::Rng;
use kharbaga::{Color, Move, Position, Rules};
use std::time::{Duration, Instant};

/// How a playout ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum End {
    /// The side to move had no legal move (no pieces, or all blocked): the other side won.
    Win(Color),
    /// Third occurrence of a position (rule sets with threefold repetition).
    Repetition,
    /// The no-progress limit was reached.
    NoProgress,
    /// The playout was cut at the ply cap before the rules ended it (rule sets without
    /// draw rules can cycle for ever).
    Cap,
}

/// One finished playout.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Playout {
    /// How it ended.
    pub end: End,
    /// Plies played.
    pub plies: u32,
}

/// The longest playout: longer games stop as [`End::Cap`].
pub const PLY_CAP: u32 = 100_000;

/// Reusable buffers for playouts, so a run of many allocates once.
#[derive(Default)]
pub struct Player {
    moves: Vec<Move>,
    /// Hashes of the positions since the last progress move (capture or man move), the
    /// current one last: only these can repeat.
    quiet: Vec<u64>,
}

impl Player {
    /// Plays one random game from `start` under `rules`.
    pub fn play(&mut self, rules: &Rules, start: &Position, rng: &mut Rng) -> Playout {
        let mut pos = *start;
        self.quiet.clear();
        self.quiet.push(pos.hash());
        // Without draw rules (`ludii`) nothing reads the positions since the last progress.
        let draws = rules.threefold_repetition || rules.no_progress_limit.is_some();
        let mut plies = 0;
        loop {
            // The order of the rules' own end conditions (`Game::outcome`): no move, then
            // repetition, then no progress. The move is drawn before the draws are looked
            // at, since a side without a move loses even on a repetition.
            let Some(mv) = pos.pick_legal_move(rules, |n| rng.below(n), &mut self.moves) else {
                return Playout {
                    end: End::Win(!pos.turn()),
                    plies,
                };
            };
            let end = if rules.threefold_repetition && self.is_third_occurrence() {
                Some(End::Repetition)
            } else if rules.no_progress_limit == Some(self.quiet.len() as u32 - 1) {
                Some(End::NoProgress)
            } else if plies >= PLY_CAP {
                Some(End::Cap)
            } else {
                None
            };
            if let Some(end) = end {
                return Playout { end, plies };
            }
            if draws && pos.is_progress(&mv) {
                self.quiet.clear();
            }
            pos = pos.play(&mv);
            plies += 1;
            if draws {
                self.quiet.push(pos.hash());
            }
        }
    }

    /// Whether the current position occurred twice before since the last progress move
    /// (same side to move: every second entry back).
    fn is_third_occurrence(&self) -> bool {
        let (&now, before) = self.quiet.split_last().expect("never empty");
        before
            .iter()
            .rev()
            .skip(1)
            .step_by(2)
            .filter(|&&h| h == now)
            .count()
            >= 2
    }
}

/// What a run of playouts measured.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games played.
    pub games: u64,
    /// Plies played, summed over the games.
    pub plies: u64,
    /// Games won by Black, by White, drawn by repetition, by the no-progress rule, cut at
    /// the cap.
    pub black: u64,
    /// Games won by White.
    pub white: u64,
    /// Games drawn by repetition.
    pub repetition: u64,
    /// Games drawn by the no-progress rule.
    pub no_progress: u64,
    /// Games cut at [`PLY_CAP`].
    pub capped: u64,
    /// The shortest and longest games, in plies.
    pub shortest: u32,
    /// The longest game.
    pub longest: u32,
    /// Game lengths in buckets of 50 plies (`lengths[i]`: games of `50i` to `50i + 49`
    /// plies; the last bucket holds everything longer).
    pub lengths: [u64; LENGTH_BUCKETS],
}

/// Buckets of the length histogram.
pub const LENGTH_BUCKETS: usize = 12;

impl Tally {
    /// Counts one playout.
    pub fn add(&mut self, p: Playout) {
        if self.games == 0 || p.plies < self.shortest {
            self.shortest = p.plies;
        }
        self.longest = self.longest.max(p.plies);
        self.games += 1;
        self.plies += u64::from(p.plies);
        match p.end {
            End::Win(Color::Black) => self.black += 1,
            End::Win(Color::White) => self.white += 1,
            End::Repetition => self.repetition += 1,
            End::NoProgress => self.no_progress += 1,
            End::Cap => self.capped += 1,
        }
        self.lengths[(p.plies as usize / 50).min(LENGTH_BUCKETS - 1)] += 1;
    }

    /// Adds another tally's counts.
    pub fn merge(&mut self, other: &Tally) {
        if other.games == 0 {
            return;
        }
        if self.games == 0 || other.shortest < self.shortest {
            self.shortest = other.shortest;
        }
        self.longest = self.longest.max(other.longest);
        self.games += other.games;
        self.plies += other.plies;
        self.black += other.black;
        self.white += other.white;
        self.repetition += other.repetition;
        self.no_progress += other.no_progress;
        self.capped += other.capped;
        for (a, b) in self.lengths.iter_mut().zip(other.lengths) {
            *a += b;
        }
    }
}

/// A run of playouts and its wall-clock time.
#[derive(Clone, Debug)]
pub struct Run {
    /// The counts.
    pub tally: Tally,
    /// Wall-clock time of the run.
    pub time: Duration,
    /// Threads used.
    pub threads: usize,
}

impl Run {
    /// Games a second.
    pub fn games_per_second(&self) -> f64 {
        self.tally.games as f64 / self.time.as_secs_f64().max(1e-9)
    }

    /// Plies a second.
    pub fn plies_per_second(&self) -> f64 {
        self.tally.plies as f64 / self.time.as_secs_f64().max(1e-9)
    }
}

/// Plays `games` random games from `start` on `threads` threads (each thread its own share
/// and its own generator, seeded from `seed` and its number, so a run is repeatable for a
/// given thread count).
pub fn run(rules: &Rules, start: &Position, games: u64, threads: usize, seed: u64) -> Run {
    let threads = threads.max(1);
    let begin = Instant::now();
    let tallies: Vec<Tally> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads as u64)
            .map(|t| {
                let share = games / threads as u64 + u64::from(t < games % threads as u64);
                scope.spawn(move || {
                    let mut rng = Rng::new(seed ^ t.wrapping_mul(0x9E37_79B9_7F4A_7C15));
                    let mut player = Player::default();
                    let mut tally = Tally::default();
                    for _ in 0..share {
                        tally.add(player.play(rules, start, &mut rng));
                    }
                    tally
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a playout thread panicked"))
            .collect()
    });
    let mut tally = Tally::default();
    for t in &tallies {
        tally.merge(t);
    }
    Run {
        tally,
        time: begin.elapsed(),
        threads,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kharbaga::{Game, Outcome, Reason};

    /// Replays the playout's random choices through [`Game`], the rules library's own
    /// record of a game, and checks that it ends the same way after the same number of
    /// plies: the playout's fast end detection agrees with the rules.
    fn replay_agrees(rules: Rules, seed: u64, games: usize) {
        let start = Position::start();
        let mut player = Player::default();
        for g in 0..games as u64 {
            let mut rng = Rng::new(seed + g);
            let playout = player.play(&rules, &start, &mut rng);
            let mut rng = Rng::new(seed + g);
            let mut game = Game::from_position(rules, start);
            let mut plies = 0;
            while game.outcome().is_none() && plies < PLY_CAP {
                let moves = game.legal_moves();
                let mv = moves[rng.below(moves.len())];
                game.play(&mv).unwrap();
                plies += 1;
            }
            assert_eq!(playout.plies, plies, "seed {}", seed + g);
            let expected = match game.outcome() {
                Some(Outcome {
                    winner: Some(c),
                    reason: Reason::NoMoves { .. },
                }) => End::Win(c),
                Some(Outcome {
                    reason: Reason::Repetition,
                    ..
                }) => End::Repetition,
                Some(Outcome {
                    reason: Reason::NoProgress(_),
                    ..
                }) => End::NoProgress,
                None => End::Cap,
                Some(other) => panic!("unexpected outcome {other:?}"),
            };
            assert_eq!(playout.end, expected, "seed {}", seed + g);
        }
    }

    #[test]
    fn playouts_end_as_the_game_record_does_standard() {
        replay_agrees(Rules::standard(), 1, 200);
    }

    #[test]
    fn playouts_end_as_the_game_record_does_other_rule_sets() {
        replay_agrees(Rules::sideways(), 1000, 100);
        replay_agrees(Rules::ludii(), 2000, 50);
        replay_agrees(Rules::dagaz(), 3000, 50);
    }

    #[test]
    fn a_run_counts_every_game_once() {
        let run = run(&Rules::standard(), &Position::start(), 2000, 2, 7);
        let t = &run.tally;
        assert_eq!(t.games, 2000);
        assert_eq!(
            t.black + t.white + t.repetition + t.no_progress + t.capped,
            2000
        );
        assert_eq!(t.lengths.iter().sum::<u64>(), 2000);
        assert!(t.black > 0 && t.white > 0, "{t:?}");
        assert!(t.shortest <= t.longest);
    }

    #[test]
    fn a_run_is_repeatable_for_a_seed_and_thread_count() {
        let a = run(&Rules::standard(), &Position::start(), 300, 2, 42);
        let b = run(&Rules::standard(), &Position::start(), 300, 2, 42);
        assert_eq!(a.tally, b.tally);
        let one = run(&Rules::standard(), &Position::start(), 300, 1, 42);
        assert_eq!(one.tally.games, 300);
    }

    #[test]
    fn a_position_without_moves_ends_at_once() {
        // Black to move with no pieces.
        let pos: Position = "B:B:Wa9".parse().unwrap();
        let p = Player::default().play(&Rules::standard(), &pos, &mut Rng::new(1));
        assert_eq!(
            p,
            Playout {
                end: End::Win(Color::White),
                plies: 0
            }
        );
    }
}
