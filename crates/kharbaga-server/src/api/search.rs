//! The handlers that search: the engine's move and hints.

use super::checks::{
    authorize, check_level, check_not_over, check_not_thinking, check_ply, player_of,
};
use super::errors::ApiError;
use super::extract::{Body, GameId};
use super::state::GameState;
use super::{AppState, ThinkingMark};
use crate::engine::SearchError;
use crate::store::Player;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::Json;
use kharbaga::{Color, Move};
use kharbaga_engine::{Report, Score};
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use std::time::Duration;

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub(super) struct EngineRequest {
    /// Playing level 1-10 (default: the engine player's level, else 10).
    level: Option<u8>,
    /// Thinking time in milliseconds (default and maximum set by the server).
    movetime_ms: Option<u64>,
    /// The number of moves the client believes have been played.
    ply: Option<usize>,
}

#[derive(Serialize)]
struct ScoreJson {
    /// `centi` (centi-men), `win` or `loss` (in `value` plies).
    kind: &'static str,
    value: i64,
    /// The side whose point of view the score takes (the side to move when searched).
    side: &'static str,
}

#[derive(Serialize)]
pub(super) struct SearchJson {
    best: Option<String>,
    score: ScoreJson,
    depth: u32,
    nodes: u64,
    pv: Vec<String>,
    time_ms: u128,
    /// Whether the move came from the opening book (then `depth` is the book's).
    book: bool,
}

impl SearchJson {
    pub(super) fn new(report: &Report, side: Color) -> SearchJson {
        let (kind, value) = match report.score {
            Score::Centi(c) => ("centi", i64::from(c)),
            Score::WinIn(n) => ("win", i64::from(n)),
            Score::LossIn(n) => ("loss", i64::from(n)),
            // From the endgame tables: -1 when the distance is not known.
            Score::TableWin(n) => ("tb-win", n.map_or(-1, i64::from)),
            Score::TableDraw => ("tb-draw", 0),
            Score::TableLoss(n) => ("tb-loss", n.map_or(-1, i64::from)),
        };
        SearchJson {
            best: report.best.map(|m| m.to_string()),
            score: ScoreJson {
                kind,
                value,
                side: side.name(),
            },
            depth: report.depth,
            nodes: report.nodes,
            pv: report.pv.iter().map(Move::to_string).collect(),
            time_ms: report.time.as_millis(),
            book: report.book,
        }
    }
}

#[derive(Serialize)]
pub(super) struct EngineMoved {
    state: GameState,
    search: SearchJson,
}

pub(super) fn search_failed(e: SearchError, movetime: Duration) -> ApiError {
    match e {
        SearchError::Busy => ApiError::new(StatusCode::SERVICE_UNAVAILABLE, "busy", e.to_string())
            .retry_after(movetime.as_secs() + 1),
        _ => ApiError::internal(e.to_string()),
    }
}

pub(super) async fn engine_move(
    State(app): State<Arc<AppState>>,
    GameId(id): GameId,
    headers: HeaderMap,
    Body(req): Body<EngineRequest>,
) -> Result<Json<EngineMoved>, ApiError> {
    let movetime = app.movetime(req.movetime_ms)?;
    if let Some(level) = req.level {
        check_level(level)?;
    }
    check_not_thinking(&app, &id)?;
    // The token is checked before waiting for the game. The game as it is now is the one the
    // request is about: one that waited while another request moved is refused.
    let (row, game) = app.load(&id).await?;
    authorize(&row, &headers)?;
    let ply = game.moves().len();
    let lock = app.lock_game(&id).await?;
    // Again now that the game is this request's: others may have searched and moved since.
    check_not_thinking(&app, &id)?;
    let (mut row, game) = app.load_locked(&lock).await?;
    if req.ply.is_none() && game.moves().len() != ply {
        return Err(ApiError::conflict(
            "stale",
            format!(
                "the game changed while this request waited (it has {} moves now): reload it",
                game.moves().len()
            ),
        ));
    }
    check_ply(&game, req.ply)?;
    check_not_over(&row, &game)?;
    let side = game.position().turn();
    let Player::Engine { level: own_level } = player_of(&row, side) else {
        return Err(ApiError::conflict(
            "human_turn",
            format!("{side} is played by a person, not the engine: it is their move"),
        ));
    };
    let level = req.level.unwrap_or(own_level);
    let mark = ThinkingMark::new(&app, &id);
    if app.watchers.watched(&id) {
        app.watchers.publish(&app.state(&row, &game).await);
    }
    let worker = Arc::clone(&app);
    // The search goes on, and its move is stored, even if the client goes away.
    let task = tokio::spawn(async move {
        let moved = async {
            let report = worker
                .engines
                .play(game.clone(), level, movetime)
                .await
                .map_err(|e| search_failed(e, movetime))?;
            let best = report
                .best
                .ok_or_else(|| ApiError::internal("the engine found no move"))?;
            let mut after = game.clone();
            after
                .play(&best)
                .map_err(|e| ApiError::internal(format!("the engine's move was refused: {e}")))?;
            worker.save(&mut row, &after).await?;
            Ok::<_, ApiError>((after, report))
        }
        .await;
        // Done thinking, moved or not: the watchers see the game as it now is before anyone
        // else may change it.
        drop(mark);
        let (game, moved) = match moved {
            Ok((after, report)) => (after, Ok(report)),
            Err(e) => (game, Err(e)),
        };
        let state = worker.state(&row, &game).await;
        worker.watchers.publish(&state);
        drop(lock);
        moved.map(|report| (state, report))
    });
    let (state, report) = task
        .await
        .map_err(|e| ApiError::internal(format!("the engine task failed: {e}")))??;
    Ok(Json(EngineMoved {
        state,
        search: SearchJson::new(&report, side),
    }))
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub(super) struct HintRequest {
    /// Playing level 1-10 (10 by default).
    level: Option<u8>,
    /// Thinking time in milliseconds (default and maximum set by the server).
    movetime_ms: Option<u64>,
}

#[derive(Serialize)]
pub(super) struct HintJson {
    ply: usize,
    search: SearchJson,
}

pub(super) async fn hint(
    State(app): State<Arc<AppState>>,
    GameId(id): GameId,
    headers: HeaderMap,
    Body(req): Body<HintRequest>,
) -> Result<Json<HintJson>, ApiError> {
    let movetime = app.movetime(req.movetime_ms)?;
    let level = check_level(req.level.unwrap_or(10))?;
    let (row, game) = app.read(&id).await?;
    authorize(&row, &headers)?;
    check_not_over(&row, &game)?;
    if row.person_side().is_some() {
        return Err(ApiError::conflict(
            "no_hints",
            "no hints in a game against a person elsewhere while it goes on",
        ));
    }
    let side = game.position().turn();
    let ply = game.moves().len();
    let report = app
        .engines
        .search(game, level, movetime)
        .await
        .map_err(|e| search_failed(e, movetime))?;
    Ok(Json(HintJson {
        ply,
        search: SearchJson::new(&report, side),
    }))
}
