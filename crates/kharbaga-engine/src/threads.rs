//! Lazy SMP: helper threads run the same iterative deepening on the shared transposition
//! table (odd helpers one ply ahead), which fills it with results the main thread reuses.
//! Only the main thread reports, and its result is the one played; when it finishes it
//! stops the helpers.

use crate::search::{Deepening, Outcome, RootMove, Searcher, Shared};
use kharbaga::Position;
use std::sync::atomic::Ordering;

/// Searches `root` with `threads` threads; `on_iteration` is called by the main thread
/// after each completed iteration.
pub(crate) fn search(
    shared: &Shared<'_>,
    root: &Position,
    moves: Vec<RootMove>,
    max_depth: u32,
    multipv: usize,
    threads: usize,
    on_iteration: &mut dyn FnMut(&Searcher<'_>, &[RootMove], u32),
) -> Outcome {
    std::thread::scope(|scope| {
        let mut helpers = Vec::new();
        for helper in 1..threads.max(1) {
            let moves = moves.clone();
            helpers.push(scope.spawn(move || {
                let mut searcher = Searcher::new(shared, false);
                searcher.deepen(
                    root,
                    moves,
                    Deepening {
                        max_depth,
                        multipv: 1,
                        helper_index: helper,
                        on_iteration: &mut |_, _, _| {},
                    },
                );
            }));
        }
        let mut searcher = Searcher::new(shared, true);
        let outcome = searcher.deepen(
            root,
            moves,
            Deepening {
                max_depth,
                multipv,
                helper_index: 0,
                on_iteration,
            },
        );
        shared.abort.store(true, Ordering::Relaxed);
        // Each helper is joined here rather than left to the end of the scope: the scope
        // only waits for the helpers' closures, a join waits for the threads to exit (their
        // thread-local storage freed), so no thread of this search is left when it returns.
        for helper in helpers {
            if let Err(panic) = helper.join() {
                std::panic::resume_unwind(panic);
            }
        }
        outcome
    })
}
