//! Engine searches off the async threads: on tokio's blocking pool, at most a set number at
//! once (a bounded number of others wait for a turn; more are refused), each bounded in
//! time (told to stop when it overruns, or when the request that wanted it goes away), and
//! a panicking search reported as an error instead of taking the server down. Searches get the server's endgame tables in
//! games whose rules they fit (the engine probes them at level 10).

use crate::tables::Tables;
use kharbaga::Game;
use kharbaga_engine::book::Book;
use kharbaga_engine::{Engine, Limits, Options, Report};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
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
    /// Every search slot is taken and the queue of waiting searches is full.
    Busy,
}

impl std::fmt::Display for SearchError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SearchError::Panicked(m) => write!(f, "the engine failed: {m}"),
            SearchError::Hung => f.write_str("the engine did not stop in time"),
            SearchError::BadMove(m) => write!(f, "the engine answered badly: {m}"),
            SearchError::Busy => f.write_str(
                "the engine is busy: too many searches are running or waiting; try again shortly",
            ),
        }
    }
}

/// The searches' shared limits.
pub(crate) struct EnginePool {
    permits: Arc<Semaphore>,
    /// How many requests wait for a permit.
    waiting: AtomicUsize,
    /// At most this many may wait.
    max_waiting: usize,
    hash_mib: usize,
    tables: Arc<Tables>,
    book: Option<Arc<Book>>,
}

impl EnginePool {
    /// A pool running at most `max_searches` searches at once (at least one), with at most
    /// `max_waiting` more waiting for a turn, with `tables`.
    pub fn new(
        max_searches: usize,
        max_waiting: usize,
        hash_mib: usize,
        tables: Arc<Tables>,
    ) -> EnginePool {
        EnginePool {
            permits: Arc::new(Semaphore::new(max_searches.max(1))),
            waiting: AtomicUsize::new(0),
            max_waiting,
            hash_mib: hash_mib.max(1),
            tables,
            book: None,
        }
    }

    /// The pool with an opening book for its searches.
    pub fn with_book(self, book: Option<Arc<Book>>) -> EnginePool {
        EnginePool { book, ..self }
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
        let permit = match Arc::clone(&self.permits).try_acquire_owned() {
            Ok(permit) => permit,
            Err(_) => {
                let queued = Waiting::new(&self.waiting);
                if queued.ahead >= self.max_waiting {
                    return Err(SearchError::Busy);
                }
                Arc::clone(&self.permits)
                    .acquire_owned()
                    .await
                    .expect("the semaphore is never closed")
            }
        };
        // Told to stop when it overruns, and when this request ends early (its client went
        // away): nobody would read the result.
        let stop = StopOnDrop(Arc::new(AtomicBool::new(false)));
        let options = Options {
            hash_mib: self.hash_mib,
            threads: 1,
            level,
            tables: self.tables.for_rules(game.rules()),
            book: self.book.clone(),
        };
        let limits = Limits {
            movetime: Some(movetime),
            depth,
            ..Limits::default()
        };
        let position = *game.position();
        let rules = *game.rules();
        let has_moves = !game.legal_moves().is_empty();
        let worker_stop = Arc::clone(&stop.0);
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
                stop.0.store(true, Ordering::Relaxed);
                tracing::warn!(
                    time_ms = movetime.as_millis(),
                    "a search overran its time: told to stop"
                );
                tokio::time::timeout(GRACE, &mut task).await.map_err(|_| {
                    tracing::error!("a search did not stop when told; its thread goes on");
                    SearchError::Hung
                })?
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

/// Sets its flag when dropped: a search's stop flag, set when the search's request ends.
struct StopOnDrop(Arc<AtomicBool>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// A request waiting for a search slot, counted while alive.
struct Waiting<'a> {
    count: &'a AtomicUsize,
    /// How many were waiting before this one.
    ahead: usize,
}

impl Waiting<'_> {
    fn new(count: &AtomicUsize) -> Waiting<'_> {
        Waiting {
            ahead: count.fetch_add(1, Ordering::SeqCst),
            count,
        }
    }
}

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        self.count.fetch_sub(1, Ordering::SeqCst);
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

#[cfg(test)]
mod tests {
    use super::*;
    use kharbaga::Rules;
    use std::time::Instant;

    /// A search long enough never to end by itself within a test.
    const LONG: Duration = Duration::from_secs(60);

    /// How long a test waits for what should happen at once.
    const DEADLINE: Duration = Duration::from_secs(10);

    fn pool(searches: usize, waiting: usize) -> Arc<EnginePool> {
        Arc::new(EnginePool::new(
            searches,
            waiting,
            1,
            Arc::new(Tables::new(None)),
        ))
    }

    fn start_game() -> Game {
        Game::new(Rules::default())
    }

    /// A long search in a task, returned once `started` says (up to [`DEADLINE`]) that it
    /// runs or waits.
    async fn spawn_long(
        pool: &Arc<EnginePool>,
        started: impl Fn(&EnginePool) -> bool,
    ) -> tokio::task::JoinHandle<Result<Report, SearchError>> {
        let task = {
            let pool = Arc::clone(pool);
            tokio::spawn(async move { pool.search(start_game(), 10, LONG).await })
        };
        let start = Instant::now();
        while !started(pool) {
            assert!(start.elapsed() < DEADLINE, "the search did not start");
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        task
    }

    fn running(pool: &EnginePool) -> bool {
        pool.permits.available_permits() == 0
    }

    #[tokio::test]
    async fn a_search_whose_request_went_away_is_stopped() {
        let pool = pool(1, 4);
        let long = spawn_long(&pool, running).await;
        long.abort();
        // The slot is free long before the abandoned search's time is up.
        let quick = tokio::time::timeout(
            DEADLINE,
            pool.search(start_game(), 1, Duration::from_millis(10)),
        )
        .await
        .expect("the abandoned search is stopped and frees its slot");
        assert!(quick.expect("a move").best.is_some());
    }

    #[tokio::test]
    async fn searches_beyond_the_queue_are_refused() {
        let pool = pool(1, 1);
        let first = spawn_long(&pool, running).await;
        let queued = spawn_long(&pool, |p| p.waiting.load(Ordering::SeqCst) == 1).await;
        let refused = pool
            .search(start_game(), 1, Duration::from_millis(10))
            .await;
        assert!(matches!(refused, Err(SearchError::Busy)), "{refused:?}");
        assert_eq!(
            pool.waiting.load(Ordering::SeqCst),
            1,
            "the refused one left"
        );
        for task in [queued, first] {
            task.abort();
            assert!(task.await.is_err(), "cancelled");
        }
        let later = tokio::time::timeout(
            DEADLINE,
            pool.search(start_game(), 1, Duration::from_millis(10)),
        )
        .await
        .expect("the queue empties");
        assert!(later.is_ok());
    }
}
