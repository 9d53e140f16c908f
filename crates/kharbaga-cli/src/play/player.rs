//! A seat at the game and what it does on its turn.

use kharbaga::{Game, Move};
use std::time::Duration;

/// What a player does on its turn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Choice {
    /// Play this move (legal in the current position).
    Play(Move),
    /// Take back the last move.
    Undo,
    /// Offer the opponent a draw.
    OfferDraw,
    /// Give up the game.
    Resign,
    /// Leave the game without a result.
    Quit,
}

/// A seat at the game: a person at the terminal or a program.
pub(super) trait Player {
    /// Who sits here, for the game's header (e.g. `human`).
    fn name(&self) -> String;

    /// What to do in the current position of `game`, which is not over and has this seat's
    /// side to move, with `time_left` on its clock when the game has clocks.
    fn choose(&mut self, game: &Game, time_left: Option<Duration>) -> Choice;

    /// Whether this seat accepts the draw offered by the side to move in `game`.
    fn accept_draw(&mut self, game: &Game) -> bool;

    /// Whether this seat plays by itself (a program): taking back its move alone would only
    /// make it play again, so `undo` takes back the move before it too.
    fn automatic(&self) -> bool {
        false
    }
}
