//! The JSON API (documented in `docs/api.md`): the shared state and the routes; the
//! handlers live in `games` (create, read, move, take back, record), `search` (the
//! engine's move, hints), `analysis` (any position of a game, for the analysis after it)
//! and `events` (live game states for watchers), the game state as
//! sent in `state` (with the endgame tables' values from `tables`), errors in `errors`.

mod analysis;
mod checks;
mod cleanup;
mod clocks;
mod errors;
mod events;
mod extract;
mod games;
mod ids;
mod people;
mod quota;
mod search;
mod state;
mod tables;
#[cfg(test)]
mod tests;

pub(crate) use cleanup::sweep_abandoned;
pub(crate) use clocks::watch_stored_clocks;
pub(crate) use errors::{method_not_allowed, not_found, ApiError};

use crate::engine::EnginePool;
use crate::store::{End, GameRow, Store};
use crate::tables::Tables;
use crate::Config;
use axum::extract::DefaultBodyLimit;
use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::Router;
use errors::no_such_game;
use ids::{is_game_id, now, now_ms};
use kharbaga::{Game, Move};
use state::{replay, GameState};
use std::collections::{HashMap, HashSet};
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::OwnedMutexGuard;

/// The locks of the games being changed, by id.
type Locks = Arc<Mutex<HashMap<String, Arc<tokio::sync::Mutex<()>>>>>;

/// The request header that carries a game's secret token.
pub(crate) const TOKEN_HEADER: &str = "x-kharbaga-token";

/// The shortest engine time a request may ask for.
const MIN_ENGINE_TIME: Duration = Duration::from_millis(10);

/// What every handler shares.
pub(crate) struct AppState {
    config: Config,
    store: Arc<Store>,
    engines: EnginePool,
    /// The endgame tables, for the games whose rules they fit.
    tables: Arc<Tables>,
    /// One lock per game being changed, so that changes to a game happen one at a time.
    locks: Locks,
    /// The games whose engine is thinking.
    thinking: Mutex<HashSet<String>>,
    /// The watched games, to send their new states to.
    watchers: Arc<events::Watchers>,
    /// The games created recently, by client.
    quota: quota::Quota,
}

impl AppState {
    pub fn new(config: Config, store: Store) -> AppState {
        let tables = Arc::new(Tables::new(config.tables.clone()));
        AppState {
            engines: EnginePool::new(
                config.max_engine_searches,
                config.max_waiting_searches,
                config.engine_hash_mib,
                Arc::clone(&tables),
            )
            .with_book(config.book.clone()),
            tables,
            quota: quota::Quota::new(config.max_games_per_minute),
            config,
            store: Arc::new(store),
            locks: Locks::default(),
            thinking: Mutex::new(HashSet::new()),
            watchers: Arc::default(),
        }
    }

    /// Waits for the right to change game `id`. An id that is not a game id is refused
    /// before any lock is made for it; the lock is forgotten when nobody holds or waits for it.
    async fn lock_game(&self, id: &str) -> Result<GameLock, ApiError> {
        if !is_game_id(id) {
            return Err(no_such_game(id));
        }
        let lock = {
            let mut locks = self.locks.lock().unwrap_or_else(|e| e.into_inner());
            if locks.len() > 1024 {
                // Forget the locks left by requests that went away while they waited.
                locks.retain(|_, l| Arc::strong_count(l) > 1);
            }
            Arc::clone(locks.entry(id.to_string()).or_default())
        };
        Ok(GameLock {
            guard: Some(lock.lock_owned().await),
            id: id.to_string(),
            locks: Arc::clone(&self.locks),
        })
    }

    /// How many games have a lock (held or waited for).
    #[cfg(test)]
    fn lock_count(&self) -> usize {
        self.locks.lock().unwrap_or_else(|e| e.into_inner()).len()
    }

    fn is_thinking(&self, id: &str) -> bool {
        self.thinking
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .contains(id)
    }

    /// Counts a game created by `client` against the cap of games per client per minute;
    /// refused with 429 (and `Retry-After`) when the client has reached it.
    fn count_new_game(&self, client: Option<IpAddr>) -> Result<(), ApiError> {
        let Some(ip) = client else {
            return Ok(());
        };
        self.quota.take(ip, Instant::now()).map_err(|wait| {
            ApiError::new(
                StatusCode::TOO_MANY_REQUESTS,
                "rate_limited",
                format!(
                    "too many games created from this address (at most {} a minute): \
                     try again in {} s",
                    self.config.max_games_per_minute,
                    wait.as_secs() + 1
                ),
            )
            .retry_after(wait.as_secs() + 1)
        })
    }

    /// Runs a database call on the blocking pool.
    async fn db<T: Send + 'static>(
        &self,
        call: impl FnOnce(&Store) -> rusqlite::Result<T> + Send + 'static,
    ) -> Result<T, ApiError> {
        let store = Arc::clone(&self.store);
        match tokio::task::spawn_blocking(move || call(&store)).await {
            Ok(Ok(v)) => Ok(v),
            Ok(Err(e)) => Err(ApiError::internal(format!("database error: {e}"))),
            Err(e) => Err(ApiError::internal(format!("database call failed: {e}"))),
        }
    }

    /// Reads and replays a game, as stored.
    async fn load(&self, id: &str) -> Result<(GameRow, Game), ApiError> {
        if !is_game_id(id) {
            return Err(no_such_game(id));
        }
        let key = id.to_string();
        let row = self
            .db(move |s| s.load(&key))
            .await?
            .ok_or_else(|| no_such_game(id))?;
        let game = replay(&row)
            .map_err(|e| ApiError::internal(format!("stored game {id} cannot be replayed: {e}")))?;
        Ok((row, game))
    }

    /// Reads a game as it is now: one whose clock has run out since it was stored is ended
    /// (stored and sent to its watchers) first.
    async fn read(&self, id: &str) -> Result<(GameRow, Game), ApiError> {
        let (row, game) = self.load(id).await?;
        if clocks::fallen(&row, &game, now_ms()).is_none() {
            return Ok((row, game));
        }
        let lock = self.lock_game(id).await?;
        self.load_locked(&lock).await
    }

    /// Ends game `id` if its clock has run out.
    async fn settle(&self, id: &str) -> Result<(), ApiError> {
        let lock = self.lock_game(id).await?;
        self.load_locked(&lock).await.map(|_| ())
    }

    /// Reads the game a request has locked, as it is now (see [`AppState::read`]).
    async fn load_locked(&self, lock: &GameLock) -> Result<(GameRow, Game), ApiError> {
        let (mut row, mut game) = self.load(&lock.id).await?;
        if let Some(side) = clocks::fallen(&row, &game, now_ms()) {
            clocks::flag(&mut row, &mut game, side);
            self.save(&mut row, &game).await?;
            self.watchers.publish(&self.state(&row, &game).await);
        }
        Ok((row, game))
    }

    /// Stores a game's changes: its row as it is now, with the moves of `game` (only those
    /// past the stored ones that are still played are written).
    async fn save(&self, row: &mut GameRow, game: &Game) -> Result<(), ApiError> {
        let moves: Vec<String> = game.moves().iter().map(Move::to_string).collect();
        let unchanged = row
            .moves
            .iter()
            .zip(&moves)
            .take_while(|(a, b)| a == b)
            .count();
        row.moves = moves;
        row.updated = now();
        // A result on the board is stored too (and forgotten when its move is taken back).
        match (&row.end, game.outcome()) {
            (None, Some(o)) => row.end = Some(End::Rules(o.result_str().to_string())),
            (Some(End::Rules(_)), None) => row.end = None,
            _ => {}
        }
        let stored = row.clone();
        self.db(move |s| s.save(&stored, unchanged)).await
    }

    /// Stores a changed game, sends its new state to the watchers and watches its clock;
    /// returns the state.
    async fn commit(
        self: &Arc<Self>,
        row: &mut GameRow,
        game: &Game,
    ) -> Result<GameState, ApiError> {
        self.save(row, game).await?;
        let state = self.state(row, game).await;
        self.watchers.publish(&state);
        clocks::watch(self, row, game);
        Ok(state)
    }

    fn movetime(&self, requested_ms: Option<u64>) -> Result<Duration, ApiError> {
        let time = match requested_ms {
            None => self.config.default_engine_time,
            Some(ms) => Duration::from_millis(ms),
        };
        if time < MIN_ENGINE_TIME {
            return Err(ApiError::bad_request(format!(
                "movetime_ms must be at least {}",
                MIN_ENGINE_TIME.as_millis()
            )));
        }
        Ok(time.min(self.config.max_engine_time))
    }

    /// The game state to send, with the tables' values of the current position.
    async fn state(&self, row: &GameRow, game: &Game) -> GameState {
        let tables = tables::values(&self.tables, game).await;
        GameState::new(row, game, self.is_thinking(&row.id), tables)
    }
}

/// The right to change one game, held while alive.
struct GameLock {
    guard: Option<OwnedMutexGuard<()>>,
    id: String,
    locks: Locks,
}

impl Drop for GameLock {
    fn drop(&mut self) {
        let mut locks = self.locks.lock().unwrap_or_else(|e| e.into_inner());
        self.guard = None;
        // Only the map holds it now (others take their copy under the map's lock): forget it.
        if locks
            .get(&self.id)
            .is_some_and(|l| Arc::strong_count(l) == 1)
        {
            locks.remove(&self.id);
        }
    }
}

/// Marks a game as thinking while alive.
struct ThinkingMark {
    app: Arc<AppState>,
    id: String,
}

impl ThinkingMark {
    fn new(app: &Arc<AppState>, id: &str) -> ThinkingMark {
        app.thinking
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(id.to_string());
        ThinkingMark {
            app: Arc::clone(app),
            id: id.to_string(),
        }
    }
}

impl Drop for ThinkingMark {
    fn drop(&mut self) {
        self.app
            .thinking
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&self.id);
    }
}

/// The API's routes.
pub(crate) fn router(app: Arc<AppState>) -> Router {
    Router::new()
        .route("/api/meta", get(games::meta))
        .route("/api/games", post(games::create))
        .route("/api/games/{id}", get(games::get_game))
        .route("/api/games/{id}/moves", post(games::make_move))
        .route("/api/games/{id}/engine", post(search::engine_move))
        .route("/api/games/{id}/undo", post(games::undo))
        .route("/api/games/{id}/hint", post(search::hint))
        .route("/api/games/{id}/analysis", post(analysis::analysis))
        .route("/api/games/{id}/record", get(games::record))
        .route("/api/games/{id}/events", get(events::events))
        .route("/api/games/{id}/join", post(people::join))
        .route("/api/games/{id}/resign", post(people::resign))
        .route("/api/games/{id}/draw/offer", post(people::offer_draw))
        .route("/api/games/{id}/draw/accept", post(people::accept_draw))
        .route("/api/games/{id}/draw/decline", post(people::decline_draw))
        .route("/api/games/{id}/abort", post(people::abort))
        .route("/api/games/{id}/rematch", post(people::rematch))
        .layer(DefaultBodyLimit::max(app.config.max_body_bytes))
        .with_state(app)
}
