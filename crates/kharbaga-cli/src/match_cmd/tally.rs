//! The results of a match as they come: the games, the wins, draws and losses, the game
//! pairs for the SPRT, and the time the players took.

use crate::elo::{elo_text, Pentanomial, Sprt, Wdl};
use kharbaga::{Color, Game};
use kharbaga_engine::selfplay::End;
use std::time::Duration;

/// The time a player took for its moves.
#[derive(Copy, Clone, Debug, Default)]
pub(super) struct MoveTimes {
    pub(super) moves: u64,
    pub(super) total: Duration,
    pub(super) longest: Duration,
    /// The most a move took beyond the budget.
    pub(super) overrun: Duration,
    /// Moves that took longer than the budget.
    pub(super) late: u64,
}

impl MoveTimes {
    pub(super) fn record(&mut self, used: Duration, budget: Option<Duration>) {
        self.moves += 1;
        self.total += used;
        self.longest = self.longest.max(used);
        if let Some(budget) = budget {
            if used > budget {
                self.late += 1;
                self.overrun = self.overrun.max(used - budget);
            }
        }
    }

    fn merge(&mut self, other: &MoveTimes) {
        self.moves += other.moves;
        self.total += other.total;
        self.longest = self.longest.max(other.longest);
        self.overrun = self.overrun.max(other.overrun);
        self.late += other.late;
    }
}

/// A played game.
#[derive(Clone, Debug)]
pub(super) struct Played {
    pub(super) pair: usize,
    pub(super) first_is_black: bool,
    pub(super) game: Game,
    pub(super) end: End,
}

impl Played {
    /// The first player's points, in half points (0, 1 or 2).
    fn first_half_points(&self) -> usize {
        let first = if self.first_is_black {
            Color::Black
        } else {
            Color::White
        };
        match self.end.winner() {
            Some(c) if c == first => 2,
            Some(_) => 0,
            None => 1,
        }
    }
}

/// The running totals.
#[derive(Default)]
pub(super) struct Tally {
    pub(super) wdl: Wdl,
    pub(super) pairs: Pentanomial,
    pub(super) times: [MoveTimes; 2],
    pub(super) played: Vec<Played>,
}

impl Tally {
    pub(super) fn add(&mut self, games: [Played; 2], times: [MoveTimes; 2]) {
        let mut pair_points = 0;
        for game in &games {
            let points = game.first_half_points();
            pair_points += points;
            match points {
                2 => self.wdl.wins += 1,
                1 => self.wdl.draws += 1,
                _ => self.wdl.losses += 1,
            }
        }
        self.pairs.add(pair_points);
        self.times[0].merge(&times[0]);
        self.times[1].merge(&times[1]);
        self.played.extend(games);
    }

    /// The one-line summary of the progress.
    pub(super) fn progress(&self, total: u32, sprt: Option<&Sprt>) -> String {
        let wdl = self.wdl;
        let mut line = format!(
            "[{}/{total}] +{} ={} -{}",
            wdl.games(),
            wdl.wins,
            wdl.draws,
            wdl.losses
        );
        if let (Some(score), Some((elo, low, high))) = (wdl.score(), wdl.elo()) {
            let interval = match wdl.sweep_bound() {
                Some(bound) => format!("bound {}", elo_text(bound)),
                None => format!("{} to {}", elo_text(low), elo_text(high)),
            };
            line.push_str(&format!(
                " {:.1}% Elo {} ({interval})",
                100.0 * score,
                elo_text(elo),
            ));
        }
        if let Some(sprt) = sprt {
            line.push_str(&format!(" LLR {:.2}", self.pairs.llr(sprt.elo0, sprt.elo1)));
        }
        line
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kharbaga::Rules;
    use kharbaga_engine::selfplay::{Failure, FailureKind};

    #[test]
    fn move_times_track_the_worst_overrun() {
        let mut t = MoveTimes::default();
        let ms = Duration::from_millis;
        t.record(ms(90), Some(ms(100)));
        t.record(ms(130), Some(ms(100)));
        t.record(ms(110), Some(ms(100)));
        assert_eq!(
            (t.moves, t.late, t.overrun, t.longest),
            (3, 2, ms(30), ms(130))
        );
        let mut u = MoveTimes::default();
        u.record(ms(500), None);
        u.merge(&t);
        assert_eq!(
            (u.moves, u.late, u.overrun, u.longest),
            (4, 2, ms(30), ms(500))
        );
    }

    #[test]
    fn a_forfeit_loses_the_pair_game() {
        let played = Played {
            pair: 0,
            first_is_black: false,
            game: Game::new(Rules::standard()),
            end: End::Forfeit {
                loser: Color::White,
                failure: Failure::new(FailureKind::Crash, "x"),
            },
        };
        assert_eq!(played.first_half_points(), 0);
        let played = Played {
            first_is_black: true,
            ..played
        };
        assert_eq!(played.first_half_points(), 2);
    }
}
