//! The clocks of games against a person: what is left on them, the flag, the time a move
//! takes off and adds, and the timers that end a game whose clock runs out when nobody is
//! asking about it.
//!
//! Each side's time left is stored as it was when the current turn began, with the time the
//! turn began; the clock of the side to move runs from the second move on (each side's first
//! move is not timed, and the game may be aborted until then).

use super::ids::now_ms;
use super::AppState;
use crate::store::{Clocks, End, GameRow};
use kharbaga::{Color, Game};
use serde::Serialize;
use std::sync::Arc;
use std::time::Duration;

/// The clocks as sent: the time left on each at the moment the state was made.
#[derive(Serialize)]
pub(super) struct ClocksJson {
    /// The time control, `MIN+INC`.
    control: String,
    base_ms: u128,
    increment_ms: u128,
    black_ms: i64,
    white_ms: i64,
    /// The side whose clock is running.
    running: Option<&'static str>,
}

/// The time left on each clock at `now` (never below 0), and the side whose clock runs.
fn left_at(clocks: &Clocks, turn: Color, now: i64) -> ([i64; 2], Option<Color>) {
    let mut left = clocks.left_ms;
    let running = clocks.turn_started_ms.map(|started| {
        let side = &mut left[turn.index()];
        *side = (*side - (now - started).max(0)).max(0);
        turn
    });
    (left, running)
}

impl ClocksJson {
    pub(super) fn new(clocks: &Clocks, game: &Game) -> ClocksJson {
        let (left, running) = left_at(clocks, game.position().turn(), now_ms());
        ClocksJson {
            control: clocks.control.to_string(),
            base_ms: clocks.control.base.as_millis(),
            increment_ms: clocks.control.increment.as_millis(),
            black_ms: left[Color::Black.index()],
            white_ms: left[Color::White.index()],
            running: running.map(Color::name),
        }
    }
}

/// Fresh clocks of a time control, not running.
pub(super) fn fresh(control: kharbaga::TimeControl) -> Clocks {
    let base = i64::try_from(control.base.as_millis()).unwrap_or(i64::MAX);
    Clocks {
        control,
        left_ms: [base; 2],
        turn_started_ms: None,
    }
}

/// The side whose clock has run out at `now`, in a game not over yet.
pub(super) fn fallen(row: &GameRow, game: &Game, now: i64) -> Option<Color> {
    let clocks = row.clocks.as_ref()?;
    if row.end.is_some() || game.outcome().is_some() {
        return None;
    }
    let turn = game.position().turn();
    let (left, running) = left_at(clocks, turn, now);
    running.filter(|_| left[turn.index()] == 0)
}

/// Ends the game on the flag of `side`.
pub(super) fn flag(row: &mut GameRow, game: &mut Game, side: Color) {
    if let Some(clocks) = &mut row.clocks {
        clocks.left_ms[side.index()] = 0;
        clocks.turn_started_ms = None;
    }
    row.end = Some(End::Flagged(side));
    row.draw_offer = None;
    game.flag(side);
}

/// Runs the clocks on after `mover` has made the move that led to `game`: the mover's time
/// taken off and its increment added, the next side's clock started from the second move
/// on, every clock stopped once the game is over.
pub(super) fn after_move(clocks: &mut Clocks, mover: Color, game: &Game, now: i64) {
    if let Some(started) = clocks.turn_started_ms {
        let side = &mut clocks.left_ms[mover.index()];
        let increment = i64::try_from(clocks.control.increment.as_millis()).unwrap_or(0);
        *side = (*side - (now - started).max(0)).max(0) + increment;
    }
    clocks.turn_started_ms = (game.moves().len() >= 2 && game.outcome().is_none()).then_some(now);
}

/// Stops the clocks (the game has ended otherwise than on the board or the clock).
pub(super) fn stop(clocks: &mut Option<Clocks>, turn: Color, now: i64) {
    if let Some(c) = clocks {
        let (left, _) = left_at(c, turn, now);
        c.left_ms = left;
        c.turn_started_ms = None;
    }
}

/// When the clock of the side to move runs out, if it is running.
fn deadline(row: &GameRow, game: &Game) -> Option<i64> {
    let clocks = row.clocks.as_ref()?;
    let started = clocks.turn_started_ms?;
    Some(started + clocks.left_ms[game.position().turn().index()])
}

/// Ends game `id` when its running clock runs out, unless a change comes first (the game is
/// then read again and the flag checked as of then).
pub(super) fn watch(app: &Arc<AppState>, row: &GameRow, game: &Game) {
    let Some(deadline) = deadline(row, game) else {
        return;
    };
    let app = Arc::clone(app);
    let id = row.id.clone();
    tokio::spawn(async move {
        let wait = u64::try_from(deadline - now_ms()).unwrap_or(0);
        tokio::time::sleep(Duration::from_millis(wait)).await;
        if let Err(e) = app.settle(&id).await {
            eprintln!("clocks: cannot check the clock of game {id}: {e:?}");
        }
    });
}

/// Watches the running clocks of the stored games (when the server starts).
pub(crate) async fn watch_stored_clocks(app: Arc<AppState>) {
    let ids = match app.db(|s| s.running_clocks()).await {
        Ok(ids) => ids,
        Err(e) => {
            eprintln!("clocks: cannot list the games with a running clock: {e:?}");
            return;
        }
    };
    for id in ids {
        if let Ok((row, game)) = app.load(&id).await {
            watch(&app, &row, &game);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kharbaga::Rules;

    /// A game of `n` moves (the first legal move each time).
    fn game(n: usize) -> Game {
        let mut g = Game::new(Rules::standard());
        for _ in 0..n {
            let mv = g.legal_moves()[0];
            g.play(&mv).unwrap();
        }
        g
    }

    #[test]
    fn clocks_start_with_the_second_move_and_take_the_mover_s_time() {
        let mut c = fresh("1+2".parse().unwrap());
        after_move(&mut c, Color::Black, &game(1), 1_000);
        assert_eq!((c.left_ms, c.turn_started_ms), ([60_000; 2], None));
        let two = game(2);
        after_move(&mut c, Color::White, &two, 5_000);
        assert_eq!((c.left_ms, c.turn_started_ms), ([60_000; 2], Some(5_000)));
        // Black thinks 7 s: 53 s left, plus 2 s.
        let three = game(3);
        after_move(&mut c, Color::Black, &three, 12_000);
        assert_eq!(c.left_ms, [55_000, 60_000]);
        assert_eq!(c.turn_started_ms, Some(12_000));
        // White's clock runs: 20 s later it shows 40 s.
        assert_eq!(
            left_at(&c, Color::White, 32_000),
            ([55_000, 40_000], Some(Color::White))
        );
    }

    #[test]
    fn the_flag_falls_when_the_running_clock_reaches_zero() {
        let two = game(2);
        let mut row = GameRow::new("a".into(), "b".into(), "standard".into(), "start".into());
        row.clocks = Some(Clocks {
            control: "1+0".parse().unwrap(),
            left_ms: [1_000, 60_000],
            turn_started_ms: Some(10_000),
        });
        assert_eq!(fallen(&row, &two, 10_999), None);
        assert_eq!(fallen(&row, &two, 11_000), Some(Color::Black));
        assert_eq!(deadline(&row, &two), Some(11_000));
        row.end = Some(End::Agreed);
        assert_eq!(
            fallen(&row, &two, 20_000),
            None,
            "not once the game is over"
        );
    }
}
