//! Live games: `GET /api/games/<id>/events` streams the game state as Server-Sent Events
//! (`event: state`), first as it is, then after each change, to anyone watching.
//!
//! A watched game has a channel that holds its latest state as JSON; a watcher that falls
//! behind skips to the latest. Changes are published while the game is locked, so states
//! come in the order the changes were made. The first watcher of a game makes its channel,
//! the last one to go away drops it. A watcher's first state is read when it comes (not
//! the channel's, made at the last change), so that the clocks in it are read then.

use super::errors::ApiError;
use super::extract::GameId;
use super::state::GameState;
use super::AppState;
use axum::extract::State;
use axum::response::sse::{Event, KeepAlive, Sse};
use futures_util::stream::{self, Stream};
use std::collections::HashMap;
use std::convert::Infallible;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;
use tokio::sync::watch;

/// A game's latest state as JSON (none until a change since the first watcher came).
type Latest = Option<Arc<str>>;

/// How long a browser waits before it reconnects after losing the stream.
const RETRY: Duration = Duration::from_secs(2);

/// The channels of the watched games, by id.
#[derive(Default)]
pub(crate) struct Watchers {
    games: Mutex<HashMap<String, watch::Sender<Latest>>>,
}

impl Watchers {
    fn games(&self) -> MutexGuard<'_, HashMap<String, watch::Sender<Latest>>> {
        self.games.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Whether anyone watches game `id` (to skip making a state nobody will read).
    pub(super) fn watched(&self, id: &str) -> bool {
        self.games().contains_key(id)
    }

    /// Sends a game's new state to its watchers, if it has any.
    pub(super) fn publish(&self, state: &GameState) {
        let games = self.games();
        if let Some(channel) = games.get(&state.id) {
            match serde_json::to_string(state) {
                Ok(json) => {
                    channel.send_replace(Some(json.into()));
                }
                Err(e) => eprintln!("events: cannot write the state of {}: {e}", state.id),
            }
        }
    }

    fn subscribe(self: &Arc<Self>, id: &str) -> Watching {
        let receiver = self
            .games()
            .entry(id.to_string())
            .or_insert_with(|| watch::channel(None).0)
            .subscribe();
        Watching {
            watchers: Arc::clone(self),
            id: id.to_string(),
            receiver: Some(receiver),
        }
    }

    /// How many games have watchers.
    #[cfg(test)]
    pub(super) fn count(&self) -> usize {
        self.games().len()
    }
}

/// One watcher of a game; the game's channel goes with its last watcher.
struct Watching {
    watchers: Arc<Watchers>,
    id: String,
    /// Always there until dropped.
    receiver: Option<watch::Receiver<Latest>>,
}

impl Watching {
    fn receiver(&mut self) -> &mut watch::Receiver<Latest> {
        self.receiver.as_mut().expect("kept until dropped")
    }

    /// The latest state if there is one, marked as seen.
    fn latest(&mut self) -> Latest {
        self.receiver().borrow_and_update().clone()
    }

    /// The next new state. `None` once the server stops.
    async fn next(&mut self) -> Option<Arc<str>> {
        loop {
            self.receiver().changed().await.ok()?;
            if let Some(json) = self.latest() {
                return Some(json);
            }
        }
    }
}

impl Drop for Watching {
    fn drop(&mut self) {
        let mut games = self.watchers.games();
        self.receiver = None;
        if games
            .get(&self.id)
            .is_some_and(|channel| channel.receiver_count() == 0)
        {
            games.remove(&self.id);
        }
    }
}

/// `GET /api/games/<id>/events`.
pub(super) async fn events(
    State(app): State<Arc<AppState>>,
    GameId(id): GameId,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, ApiError> {
    // Watch first, then read: a change made meanwhile is not missed (at worst it comes
    // twice).
    let watching = app.watchers.subscribe(&id);
    let (row, game) = app.read(&id).await?;
    let now = serde_json::to_string(&app.state(&row, &game).await)
        .map_err(|e| ApiError::internal(format!("cannot write the state of {id}: {e}")))?;
    let first: Option<Arc<str>> = Some(now.into());
    let states = stream::unfold((watching, first), |(mut watching, first)| async move {
        let event = match first {
            Some(json) => Event::default().event("state").data(&*json).retry(RETRY),
            None => Event::default()
                .event("state")
                .data(&*watching.next().await?),
        };
        Some((Ok(event), (watching, None)))
    });
    Ok(Sse::new(states).keep_alive(KeepAlive::default()))
}
