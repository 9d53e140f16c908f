//! Engine searches off the async threads: on tokio's blocking pool, at most a set number at
//! once (the rest wait for a turn), each bounded in time, and a panicking search reported as
//! an error instead of taking the server down. Searches get the server's endgame tables in
//! games whose rules they fit (the engine probes them at level 10).

use crate::tables::Tables;
use kharbaga::Game;
use kharbaga_engine::{Engine, Limits, Options, Report};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::Semaphore;

/// How long past its time a search may run before it is told to stop, and again before the
/// request gives up on it.
const GRACE: Duration = Duration::from_millis(500);

/// Why a search gave no usable move.
#[derive(Debug)]
pub(crate) enum SearchError {
    /// The search panicked (the message, if it was text).
    Panicked(String),
    /// The search did not return in time even after being told to stop.
    Hung,
    /// The search returned no move, or an illegal one, in a position with legal moves.
    BadMove(String),
}

impl std::fmt::Display for SearchError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SearchError::Panicked(m) => write!(f, "the engine failed: {m}"),
            SearchError::Hung => f.write_str("the engine did not stop in time"),
            SearchError::BadMove(m) => write!(f, "the engine answered badly: {m}"),
        }
    }
}

/// The searches' shared limits.
pub(crate) struct EnginePool {
    permits: Arc<Semaphore>,
    hash_mib: usize,
    tables: Arc<Tables>,
}

impl EnginePool {
    /// A pool running at most `max_searches` searches at once (at least one), with `tables`.
    pub fn new(max_searches: usize, hash_mib: usize, tables: Arc<Tables>) -> EnginePool {
        EnginePool {
            permits: Arc::new(Semaphore::new(max_searches.max(1))),
            hash_mib: hash_mib.max(1),
            tables,
        }
    }

    /// Searches the current position of `game` at `level` for `movetime`, waiting first for
    /// a free slot. The report's best move, if any, is legal in the game's position.
    pub async fn search(
        &self,
        game: Game,
        level: u8,
        movetime: Duration,
    ) -> Result<Report, SearchError> {
        self.run(game, level, movetime, None).await
    }

    /// Chooses the move to play, as [`EnginePool::search`] does, except that a forced move
    /// (the only legal one) is played at once: one iteration, for its score. (The engine
    /// takes a fixed move time as time to think, as analysis wants.)
    pub async fn play(
        &self,
        game: Game,
        level: u8,
        movetime: Duration,
    ) -> Result<Report, SearchError> {
        let forced = game.legal_moves().len() == 1;
        self.run(game, level, movetime, forced.then_some(1)).await
    }

    async fn run(
        &self,
        game: Game,
        level: u8,
        movetime: Duration,
        depth: Option<u32>,
    ) -> Result<Report, SearchError> {
        let permit = Arc::clone(&self.permits)
            .acquire_owned()
            .await
            .expect("the semaphore is never closed");
        let stop = Arc::new(AtomicBool::new(false));
        let options = Options {
            hash_mib: self.hash_mib,
            threads: 1,
            level,
            tables: self.tables.for_rules(game.rules()),
        };
        let limits = Limits {
            movetime: Some(movetime),
            depth,
            ..Limits::default()
        };
        let position = *game.position();
        let rules = *game.rules();
        let has_moves = !game.legal_moves().is_empty();
        let worker_stop = Arc::clone(&stop);
        let mut task = tokio::task::spawn_blocking(move || {
            // The permit is held until the search really ends, even if the request gave up.
            let _permit = permit;
            catch_unwind(AssertUnwindSafe(|| {
                let mut engine = Engine::new(options);
                engine.search(&game, &limits, &worker_stop, &mut |_| {})
            }))
        });
        let joined = match tokio::time::timeout(movetime + GRACE, &mut task).await {
            Ok(joined) => joined,
            Err(_) => {
                stop.store(true, Ordering::Relaxed);
                tokio::time::timeout(GRACE, &mut task)
                    .await
                    .map_err(|_| SearchError::Hung)?
            }
        };
        let report = match joined {
            Ok(Ok(report)) => report,
            Ok(Err(payload)) => return Err(SearchError::Panicked(panic_message(&*payload))),
            Err(e) => return Err(SearchError::Panicked(e.to_string())),
        };
        match report.best {
            Some(mv) if !position.is_legal(&rules, &mv) => {
                Err(SearchError::BadMove(format!("{mv} is not legal")))
            }
            None if has_moves => Err(SearchError::BadMove("no move".to_string())),
            _ => Ok(report),
        }
    }
}

fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "a panic".to_string()
    }
}
