//! The result of a game as a record declares it, and the comments of a record's movetext.

use crate::color::Color;
use crate::game::Outcome;
use std::fmt;

/// The result of a game as a record gives it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// Black won: `1-0`.
    BlackWins,
    /// White won: `0-1`.
    WhiteWins,
    /// A draw: `1/2-1/2`.
    Draw,
    /// The game is not finished: `*`.
    Unfinished,
}

impl GameResult {
    /// The result an outcome gives (`Unfinished` for no outcome).
    pub fn of(outcome: Option<Outcome>) -> GameResult {
        match outcome.map(|o| o.winner) {
            None => GameResult::Unfinished,
            Some(None) => GameResult::Draw,
            Some(Some(Color::Black)) => GameResult::BlackWins,
            Some(Some(Color::White)) => GameResult::WhiteWins,
        }
    }

    /// The token a record writes: `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub fn as_str(self) -> &'static str {
        match self {
            GameResult::BlackWins => "1-0",
            GameResult::WhiteWins => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::Unfinished => "*",
        }
    }

    /// Reads a result token; the draughts scores `2-0`, `0-2` and `1-1` are read too.
    pub(super) fn from_token(token: &str) -> Option<GameResult> {
        match token {
            "1-0" | "2-0" => Some(GameResult::BlackWins),
            "0-1" | "0-2" => Some(GameResult::WhiteWins),
            "1/2-1/2" | "1-1" => Some(GameResult::Draw),
            "*" => Some(GameResult::Unfinished),
            _ => None,
        }
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A comment of the movetext, `{...}`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Comment {
    /// The number of moves played before the comment (0: before the first move).
    pub ply: usize,
    /// The text between the braces, with every run of whitespace made one space and none at
    /// either end.
    pub text: String,
}
