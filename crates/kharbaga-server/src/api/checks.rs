//! The checks requests pass before they change a game: the token, the ply, the game not
//! over, the engine not thinking, the level in range.

use super::errors::ApiError;
use super::ids::sha256_hex;
use super::{AppState, TOKEN_HEADER};
use crate::store::{GameRow, Player};
use axum::http::{HeaderMap, StatusCode};
use kharbaga::{Color, Game};

/// Checks that the request carries the game's token.
pub(super) fn authorize(row: &GameRow, headers: &HeaderMap) -> Result<(), ApiError> {
    let Some(token) = headers.get(TOKEN_HEADER) else {
        return Err(ApiError::new(
            StatusCode::UNAUTHORIZED,
            "unauthorized",
            format!("this needs the game's token in the {TOKEN_HEADER} header (anyone may watch, only its creator may play)"),
        ));
    };
    let ok = token
        .to_str()
        .is_ok_and(|t| sha256_hex(t.trim()) == row.token_sha256);
    if ok {
        Ok(())
    } else {
        Err(ApiError::new(
            StatusCode::FORBIDDEN,
            "forbidden",
            "the token is not this game's",
        ))
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

pub(super) fn check_not_over(game: &Game) -> Result<(), ApiError> {
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
