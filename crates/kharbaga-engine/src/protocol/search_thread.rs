//! A search of the session on a thread of its own, which writes its `info` lines and its
//! `done` line itself, so that the session answers `ping`, `stop` and `ponder-hit` while it
//! thinks.

use super::answer::{done_line, info_line};
use super::output::Output;
use crate::{Engine, Limits};
use kharbaga::Game;
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;

/// Whether a search thread is still going, and whether its `done` is wanted.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum Status {
    /// Searching; `muted` once a ponder search was superseded by `ponder-hit`.
    Running { muted: bool },
    /// The search returned (and wrote its `done` unless muted).
    Finished,
}

/// A search on its own thread, which hands the engine back when it ends.
pub(super) struct Search {
    handle: JoinHandle<Engine>,
    stop: Arc<AtomicBool>,
    status: Arc<Mutex<Status>>,
    /// For `go ponder`: the game and limits of the real search that `ponder-hit` starts.
    pub(super) on_hit: Option<(Game, Limits)>,
}

impl Search {
    /// Starts searching `game` within `limits`, showing lines up to `limits.multipv` on
    /// `out`.
    pub(super) fn start(mut engine: Engine, game: Game, limits: Limits, out: &Output) -> Search {
        let stop = Arc::new(AtomicBool::new(false));
        let status = Arc::new(Mutex::new(Status::Running { muted: false }));
        let (thread_stop, thread_status) = (Arc::clone(&stop), Arc::clone(&status));
        let out = out.clone();
        let handle = std::thread::spawn(move || {
            let lock = || thread_status.lock().unwrap_or_else(PoisonError::into_inner);
            let shown = limits.multipv.max(1);
            let searched = panic::catch_unwind(AssertUnwindSafe(|| {
                engine.search(&game, &limits, &thread_stop, &mut |info| {
                    let status = lock();
                    if info.multipv <= shown && *status == (Status::Running { muted: false }) {
                        out.send(&info_line(info, shown > 1));
                    }
                })
            }));
            let mut status = lock();
            match searched {
                Ok(report) if *status == (Status::Running { muted: false }) => {
                    out.send(&done_line(&report));
                }
                Ok(_) => {}
                Err(_) => {
                    out.error("internal error: the search failed (the engine is reset)");
                    engine = Engine::new(engine.options().clone());
                }
            }
            *status = Status::Finished;
            engine
        });
        Search {
            handle,
            stop,
            status,
            on_hit: None,
        }
    }

    /// Whether the search is still going.
    pub(super) fn status(&self) -> Status {
        *self.status.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Mutes a search that is still going (its `info` and `done` lines are no longer
    /// written); false if it had finished already.
    pub(super) fn mute(&self) -> bool {
        let mut status = self.status.lock().unwrap_or_else(PoisonError::into_inner);
        let running = *status != Status::Finished;
        if running {
            *status = Status::Running { muted: true };
        }
        running
    }

    /// Asks the search to end soon, waits for its thread (and its `done`, unless muted) and
    /// takes the engine back.
    pub(super) fn stop(self) -> Engine {
        self.stop.store(true, Ordering::Relaxed);
        self.handle
            .join()
            .expect("the search thread catches the search's panics")
    }
}
