//! Time management: how long to think, from a fixed move time or from the clock.
//!
//! Two limits: the *soft* one is checked between iterations (a new iteration is not
//! started after it, since it would likely not finish), the *hard* one aborts a running
//! iteration.

use crate::Limits;
use std::time::{Duration, Instant};

/// Kept back from the clock for the time the program and the transport lose per move.
pub const MOVE_OVERHEAD: Duration = Duration::from_millis(10);

/// The moves the allocation plans for when the clock has no moves-to-go.
const MOVES_TO_GO: u32 = 30;

/// The search's timer.
#[derive(Clone, Debug)]
pub struct Clock {
    start: Instant,
    soft: Option<Duration>,
    hard: Option<Duration>,
}

impl Clock {
    /// A timer starting now for these limits.
    pub fn start(limits: &Limits) -> Clock {
        let (soft, hard) = allocate(limits);
        Clock {
            start: Instant::now(),
            soft,
            hard,
        }
    }

    /// Time since the start.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Whether the running iteration must be abandoned.
    pub fn past_hard_limit(&self) -> bool {
        self.hard.is_some_and(|h| self.elapsed() >= h)
    }

    /// Whether no new iteration should start.
    pub fn iteration_should_stop(&self) -> bool {
        self.soft.is_some_and(|s| self.elapsed() >= s)
    }

    /// Whether the search runs on the clock (rather than a fixed budget or forever).
    pub fn managed(&self) -> bool {
        self.hard.is_some()
    }
}

/// The soft and hard limits for `limits`: with both a move time and a clock, the tighter
/// applies.
pub fn allocate(limits: &Limits) -> (Option<Duration>, Option<Duration>) {
    let mut soft: Option<Duration> = None;
    let mut hard: Option<Duration> = None;
    let mut tighten = |s: Duration, h: Duration| {
        soft = Some(soft.map_or(s, |x| x.min(s)));
        hard = Some(hard.map_or(h, |x| x.min(h)));
    };
    if let Some(m) = limits.movetime {
        // An iteration takes a few times the previous one: do not start one after half.
        // The hard limit keeps a margin back for unwinding the search, returning the move
        // and the odd millisecond the system keeps the thread waiting, so that the move
        // arrives within the move time: a quarter of it, at most MOVE_OVERHEAD.
        let margin = (m / 4).clamp(Duration::from_millis(1), MOVE_OVERHEAD);
        let hard_limit = m
            .saturating_sub(margin)
            .max(Duration::from_millis(1).min(m));
        tighten(m / 2, hard_limit);
    }
    if let Some(clock) = limits.clock {
        let usable = clock.saturating_sub(MOVE_OVERHEAD);
        let target = usable / MOVES_TO_GO + limits.increment * 3 / 4;
        let hard_limit = (target * 4).min(usable / 3).max(Duration::from_millis(1));
        let soft_limit = (target * 6 / 10).min(hard_limit);
        tighten(soft_limit, hard_limit);
    }
    (soft, hard)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn allocation_stays_within_the_clock() {
        let limits = Limits {
            clock: Some(Duration::from_secs(60)),
            increment: Duration::from_secs(1),
            ..Limits::default()
        };
        let (soft, hard) = allocate(&limits);
        let (soft, hard) = (soft.unwrap(), hard.unwrap());
        assert!(soft <= hard);
        assert!(hard <= Duration::from_secs(20), "{hard:?}");
        // About 2 s planned per move (60 s / 30 + 0.75 s).
        assert!(soft > Duration::from_millis(1000) && soft < Duration::from_millis(3000));
        // Almost no time left: still a positive, tiny budget.
        let low = Limits {
            clock: Some(Duration::from_millis(5)),
            ..Limits::default()
        };
        assert_eq!(allocate(&low).1, Some(Duration::from_millis(1)));
    }

    #[test]
    fn move_time_and_no_limits() {
        let limits = Limits {
            movetime: Some(Duration::from_millis(100)),
            ..Limits::default()
        };
        // Half the move time for starting iterations; the hard limit keeps a quarter back
        // (at most MOVE_OVERHEAD, at least 1 ms).
        assert_eq!(
            allocate(&limits),
            (
                Some(Duration::from_millis(50)),
                Some(Duration::from_millis(90))
            )
        );
        let long = Limits {
            movetime: Some(Duration::from_secs(5)),
            ..Limits::default()
        };
        assert_eq!(allocate(&long).1, Some(Duration::from_millis(4990)));
        let short = Limits {
            movetime: Some(Duration::from_millis(5)),
            ..Limits::default()
        };
        assert_eq!(allocate(&short).1, Some(Duration::from_micros(3750)));
        let fast = Limits {
            movetime: Some(Duration::from_millis(20)),
            ..Limits::default()
        };
        assert_eq!(allocate(&fast).1, Some(Duration::from_millis(15)));
        assert_eq!(allocate(&Limits::default()), (None, None));
    }
}
