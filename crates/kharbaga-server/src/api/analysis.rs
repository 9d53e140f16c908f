//! Analysis of a game's positions: the engine's evaluation and best line, and the endgame
//! tables' values, of the position after any number of its moves. Anyone may analyse a
//! game that is over; a game in play only with its token (as a hint).

use super::checks::{authorize, check_level};
use super::errors::ApiError;
use super::extract::{Body, GameId};
use super::search::{search_failed, SearchJson};
use super::tables::{values, TablesJson};
use super::AppState;
use axum::extract::State;
use axum::http::HeaderMap;
use axum::Json;
use kharbaga::Game;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub(super) struct AnalysisRequest {
    /// The position after this many moves (default: the current position).
    ply: Option<usize>,
    /// Playing level 1-10 (10 by default).
    level: Option<u8>,
    /// Thinking time in milliseconds (default and maximum set by the server).
    movetime_ms: Option<u64>,
}

#[derive(Serialize)]
pub(super) struct AnalysisJson {
    ply: usize,
    /// The position analysed.
    position: String,
    /// The engine's search, or none when the game was over in that position.
    search: Option<SearchJson>,
    /// The endgame tables' values, when the server has tables that cover the position.
    tables: Option<TablesJson>,
}

/// The game as it was after its first `ply` moves.
fn game_at(game: &Game, ply: usize) -> Result<Game, ApiError> {
    let played = game.moves();
    if ply > played.len() {
        return Err(ApiError::bad_request(format!(
            "ply {ply} is out of range: the game has {} moves",
            played.len()
        )));
    }
    let mut at = Game::from_position(*game.rules(), *game.start());
    for mv in &played[..ply] {
        at.play(mv).map_err(|e| {
            ApiError::internal(format!("the stored move {mv} cannot be replayed: {e}"))
        })?;
    }
    Ok(at)
}

pub(super) async fn analysis(
    State(app): State<Arc<AppState>>,
    GameId(id): GameId,
    headers: HeaderMap,
    Body(req): Body<AnalysisRequest>,
) -> Result<Json<AnalysisJson>, ApiError> {
    let movetime = app.movetime(req.movetime_ms)?;
    let level = check_level(req.level.unwrap_or(10))?;
    let (row, game) = app.load(&id).await?;
    if game.outcome().is_none() {
        authorize(&row, &headers)?;
    }
    let ply = req.ply.unwrap_or(game.moves().len());
    let at = game_at(&game, ply)?;
    let tables = values(&app.tables, &at).await;
    let position = at.position().to_fen();
    let search = if at.outcome().is_some() {
        None
    } else {
        let side = at.position().turn();
        let report = app
            .engines
            .search(at, level, movetime)
            .await
            .map_err(|e| search_failed(e, movetime))?;
        Some(SearchJson::new(&report, side))
    };
    Ok(Json(AnalysisJson {
        ply,
        position,
        search,
        tables,
    }))
}
