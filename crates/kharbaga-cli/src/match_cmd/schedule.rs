//! The openings of a match and the workers that play the game pairs from them.

use super::players::contestant;
use super::tally::{MoveTimes, Played};
use super::MatchArgs;
use kharbaga::{Game, Rules};
use kharbaga_engine::rng::Rng;
use kharbaga_engine::selfplay::{balanced_openings, play_game};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;

/// What a worker sends back.
pub(super) enum Message {
    /// A game pair: the games, and the move times of the first and second players.
    Pair(Box<[Played; 2]>, [MoveTimes; 2]),
    /// A player could not be made.
    Fatal(String),
}

/// The openings, in an order shuffled by `seed`.
pub(super) fn openings(rules: &Rules, plies: u32, margin: u32, seed: u64) -> Vec<Game> {
    let mut openings = balanced_openings(rules, plies as usize, margin as i32);
    let mut rng = Rng::new(seed);
    for i in (1..openings.len()).rev() {
        openings.swap(i, rng.below(i + 1));
    }
    openings
}

/// The pairs to play, shared by the workers.
pub(super) struct Schedule<'a> {
    pub(super) args: &'a MatchArgs,
    pub(super) rules: Rules,
    pub(super) max_plies: Option<u32>,
    pub(super) openings: &'a [Game],
    pub(super) pairs: usize,
    /// The next pair to play.
    pub(super) next: AtomicUsize,
    /// Set to play no more pairs (an SPRT decided, or a player could not be made).
    pub(super) stop: AtomicBool,
}

impl Schedule<'_> {
    /// A worker: makes its own two players, then plays pairs until none is left.
    pub(super) fn work(&self, worker: usize, sender: &mpsc::Sender<Message>) {
        let args = self.args;
        let seed = args.seed.wrapping_mul(1000).wrapping_add(2 * worker as u64);
        let make = |spec, cmd: &Option<String>, seed| {
            contestant(spec, cmd.as_deref(), self.rules, args.movetime, seed)
        };
        let made = make(&args.first, &args.first_cmd, seed)
            .and_then(|first| make(&args.second, &args.second_cmd, seed + 1).map(|s| (first, s)));
        let (mut first, mut second) = match made {
            Ok(players) => players,
            Err(e) => {
                let _ = sender.send(Message::Fatal(e));
                return;
            }
        };
        while !self.stop.load(Ordering::Relaxed) {
            let pair = self.next.fetch_add(1, Ordering::Relaxed);
            if pair >= self.pairs {
                break;
            }
            let opening = &self.openings[pair % self.openings.len()];
            let mut times = [MoveTimes::default(); 2];
            let [a, b] = [true, false].map(|first_is_black| {
                // The seats by colour, and the index of each colour's player in `times`.
                let (seats, owners) = if first_is_black {
                    ([&mut first, &mut second], [0, 1])
                } else {
                    ([&mut second, &mut first], [1, 0])
                };
                let budgets = [seats[0].budget, seats[1].budget];
                let [black, white] = seats;
                let (game, end) = play_game(
                    opening,
                    [black.player.as_mut(), white.player.as_mut()],
                    self.max_plies,
                    &mut |side, used| {
                        times[owners[side.index()]].record(used, budgets[side.index()]);
                    },
                );
                Played {
                    pair,
                    first_is_black,
                    game,
                    end,
                }
            });
            if sender.send(Message::Pair(Box::new([a, b]), times)).is_err() {
                break;
            }
        }
    }
}
