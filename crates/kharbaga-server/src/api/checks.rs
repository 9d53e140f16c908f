//! The checks requests pass before they change a game: the token (and the seat it holds),
//! the ply, the game not over, the engine not thinking, the level in range.

use super::errors::ApiError;
use super::ids::sha256_hex;
use super::{AppState, TOKEN_HEADER};
use crate::store::{End, GameRow, Player};
use axum::http::{HeaderMap, StatusCode};
use kharbaga::{Color, Game};

/// Who a request's token makes it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum Seat {
    /// The game's creator: plays the sides of [`Player::Human`], asks the engine to play.
    Owner,
    /// The person who took the seat by the invitation: plays the side of [`Player::Person`].
    Guest,
}

impl Seat {
    /// The side this seat plays in a game against a person elsewhere (`None` in other
    /// games, where the owner plays every human side).
    pub(super) fn side(self, row: &GameRow) -> Option<Color> {
        let person = row.person_side()?;
        Some(match self {
            Seat::Owner => !person,
            Seat::Guest => person,
        })
    }
}

/// The seat of the request's token: the owner's or the guest's.
pub(super) fn seat(row: &GameRow, headers: &HeaderMap) -> Result<Seat, ApiError> {
    let Some(token) = headers.get(TOKEN_HEADER) else {
        return Err(ApiError::new(
            StatusCode::UNAUTHORIZED,
            "unauthorized",
            format!("this needs a player's token in the {TOKEN_HEADER} header (anyone may watch, only the players may play)"),
        ));
    };
    let hash = token.to_str().map(|t| sha256_hex(t.trim()));
    match hash {
        Ok(h) if h == row.token_sha256 => Ok(Seat::Owner),
        Ok(h) if row.guest_sha256.as_ref() == Some(&h) => Ok(Seat::Guest),
        _ => Err(ApiError::new(
            StatusCode::FORBIDDEN,
            "forbidden",
            "the token is not this game's",
        )),
    }
}

/// Checks that the request carries the owner's token (to take back, ask the engine, ask for
/// a hint).
pub(super) fn authorize(row: &GameRow, headers: &HeaderMap) -> Result<(), ApiError> {
    match seat(row, headers)? {
        Seat::Owner => Ok(()),
        Seat::Guest => Err(ApiError::new(
            StatusCode::FORBIDDEN,
            "forbidden",
            "only the game's creator may do this",
        )),
    }
}

/// Checks the client's idea of the number of moves played, if it sent one.
pub(super) fn check_ply(game: &Game, ply: Option<usize>) -> Result<(), ApiError> {
    match ply {
        Some(p) if p != game.moves().len() => Err(ApiError::conflict(
            "stale",
            format!(
                "the game has {} moves, not {p}: reload it",
                game.moves().len()
            ),
        )),
        _ => Ok(()),
    }
}

/// Checks that the game goes on: not over on the board, by a declared result or aborted.
pub(super) fn check_not_over(row: &GameRow, game: &Game) -> Result<(), ApiError> {
    if row.end == Some(End::Aborted) {
        return Err(ApiError::conflict("game_over", "the game was aborted"));
    }
    match game.outcome() {
        Some(o) => Err(ApiError::conflict(
            "game_over",
            format!("the game is over: {o}"),
        )),
        None => Ok(()),
    }
}

pub(super) fn check_not_thinking(app: &AppState, id: &str) -> Result<(), ApiError> {
    if app.is_thinking(id) {
        Err(ApiError::conflict(
            "thinking",
            "the engine is thinking in this game; wait for its move",
        ))
    } else {
        Ok(())
    }
}

pub(super) fn check_level(level: u8) -> Result<u8, ApiError> {
    if (1..=10).contains(&level) {
        Ok(level)
    } else {
        Err(ApiError::bad_request(format!(
            "level {level} is out of range (1 to 10)"
        )))
    }
}

pub(super) fn player_of(row: &GameRow, color: Color) -> Player {
    row.players[color.index()]
}
