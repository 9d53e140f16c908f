//! The engine at the game: in a seat, and as the adviser that gives hints.

use super::console::Console;
use super::player::{Choice, Player};
use crate::analyze::{moves_text, score_text};
use kharbaga::{Color, Game};
use kharbaga_engine::{Engine, Info, Limits, Options, Report, Score};
use std::cell::RefCell;
use std::io::{self, IsTerminal};
use std::panic::{self, AssertUnwindSafe};
use std::rc::Rc;
use std::sync::atomic::AtomicBool;
use std::sync::{mpsc, Mutex, PoisonError};
use std::time::{Duration, Instant};

/// Searches with a progress line on standard error while the engine thinks, when standard
/// error is a terminal (so that the terminal does not look frozen). `None` if the search
/// failed (a bug in the engine, reported on standard error).
fn think(engine: &mut Engine, game: &Game, limits: &Limits, who: &str) -> Option<Report> {
    let stop = AtomicBool::new(false);
    let latest: Mutex<Option<Info>> = Mutex::new(None);
    let show = io::stderr().is_terminal();
    let (done, finished) = mpsc::channel();
    std::thread::scope(|scope| {
        let search = scope.spawn(|| {
            let report = panic::catch_unwind(AssertUnwindSafe(|| {
                engine.search(game, limits, &stop, &mut |info| {
                    if info.multipv == 1 {
                        *latest.lock().unwrap_or_else(PoisonError::into_inner) = Some(info.clone());
                    }
                })
            }));
            let _ = done.send(());
            report.ok()
        });
        let started = Instant::now();
        let spinner = ['|', '/', '-', '\\'];
        let mut frame = 0;
        while let Err(mpsc::RecvTimeoutError::Timeout) =
            finished.recv_timeout(Duration::from_millis(100))
        {
            if !show {
                continue;
            }
            let mut line = format!(
                "{} {who} is thinking ({:.1} s)",
                spinner[frame % spinner.len()],
                started.elapsed().as_secs_f64()
            );
            if let Some(info) = &*latest.lock().unwrap_or_else(PoisonError::into_inner) {
                line.push_str(&format!(
                    ": depth {}, score {}, {}",
                    info.depth,
                    score_text(info.score),
                    moves_text(&info.pv)
                ));
            }
            let line: String = line.chars().take(79).collect();
            eprint!("\r\x1b[2K{line}");
            frame += 1;
        }
        if show && frame > 0 {
            eprint!("\r\x1b[2K");
        }
        search.join().ok().flatten()
    })
}

/// A score in men from the point of view of `side`, for people: `+0.35 for Black`, `Black
/// wins in 7 plies`.
fn verdict_text(score: Score, side: Color) -> String {
    match score {
        Score::Centi(_) => format!("{} for {side}", score_text(score)),
        Score::WinIn(n) | Score::TableWin(Some(n)) => format!("{side} wins in {n} plies"),
        Score::LossIn(n) | Score::TableLoss(Some(n)) => format!("{} wins in {n} plies", !side),
        Score::TableWin(None) => format!("{side} wins (endgame tables)"),
        Score::TableLoss(None) => format!("{} wins (endgame tables)", !side),
        Score::TableDraw => "a draw (endgame tables)".to_string(),
    }
}

/// The engine in a seat.
pub(super) struct EngineSeat {
    pub(super) engine: Engine,
    /// The time for each move, when the game has no clocks.
    pub(super) movetime: Duration,
    /// The increment of the clocks, when the game has them.
    pub(super) increment: Duration,
    pub(super) console: Rc<RefCell<Console>>,
}

impl Player for EngineSeat {
    fn name(&self) -> String {
        format!("engine (level {})", self.engine.options().level)
    }

    fn choose(&mut self, game: &Game, time_left: Option<Duration>) -> Choice {
        let side = game.position().turn();
        let limits = move_limits(game, time_left, self.movetime, self.increment);
        let mut console = self.console.borrow_mut();
        match think(&mut self.engine, game, &limits, &format!("{side} (engine)")) {
            Some(Report {
                best: Some(mv),
                score,
                book: true,
                ..
            }) => {
                console.say(&format!(
                    "{side} (engine) plays {mv} from the opening book: {}",
                    verdict_text(score, side),
                ));
                Choice::Play(mv)
            }
            Some(Report {
                best: Some(mv),
                score,
                depth,
                time,
                pv,
                ..
            }) => {
                // The line it expects after its own move.
                let rest = pv.strip_prefix(&[mv][..]).unwrap_or(&pv);
                let expects = if rest.is_empty() {
                    String::new()
                } else {
                    format!("; expects {}", moves_text(rest))
                };
                console.say(&format!(
                    "{side} (engine) plays {mv}: {}, depth {depth}, {:.1} s{expects}",
                    verdict_text(score, side),
                    time.as_secs_f64(),
                ));
                Choice::Play(mv)
            }
            _ => {
                console.say(&format!("{side} (engine) failed to choose a move."));
                Choice::Quit
            }
        }
    }

    /// Accepts unless it thinks itself better by more than a quarter of a man.
    fn accept_draw(&mut self, game: &Game) -> bool {
        let limits = Limits {
            movetime: Some(self.movetime.min(Duration::from_secs(1))),
            ..Limits::default()
        };
        let offering = game.position().turn();
        let report = think(
            &mut self.engine,
            game,
            &limits,
            &format!("{} (engine)", !offering),
        );
        // The score is the offering side's.
        match report.map(|r| r.score) {
            Some(Score::Centi(c)) => c >= -25,
            Some(Score::WinIn(_) | Score::TableWin(_) | Score::TableDraw) => true,
            Some(Score::LossIn(_) | Score::TableLoss(_)) | None => false,
        }
    }

    fn automatic(&self) -> bool {
        true
    }
}

/// The engine's limits for choosing a move in `game`: on its clock when the game has clocks,
/// else thinking `movetime`. A forced move (the only legal one) is played at once, after one
/// iteration for its score: the engine does so by itself on the clock, but takes a fixed
/// move time as time to think, as analysis wants.
fn move_limits(
    game: &Game,
    time_left: Option<Duration>,
    movetime: Duration,
    increment: Duration,
) -> Limits {
    match time_left {
        Some(clock) => Limits {
            clock: Some(clock),
            increment,
            ..Limits::default()
        },
        None => Limits {
            movetime: Some(movetime),
            depth: (game.legal_moves().len() == 1).then_some(1),
            ..Limits::default()
        },
    }
}

/// The engine that gives hints, made at the first `hint`.
pub(super) struct Adviser {
    pub(super) engine: Option<Engine>,
    pub(super) options: Options,
    pub(super) movetime: Duration,
}

impl Adviser {
    /// The suggestion for the side to move in `game`, as a sentence.
    pub(super) fn advise(&mut self, game: &Game) -> String {
        let options = self.options.clone();
        let engine = self.engine.get_or_insert_with(|| Engine::new(options));
        let limits = Limits {
            movetime: Some(self.movetime),
            ..Limits::default()
        };
        let side = game.position().turn();
        match think(engine, game, &limits, "the adviser") {
            Some(Report {
                best: Some(mv),
                score,
                pv,
                ..
            }) => format!(
                "Hint: {mv} ({}; line {})",
                verdict_text(score, side),
                moves_text(&pv)
            ),
            _ => "No hint: the engine failed.".to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kharbaga::Position;

    #[test]
    fn a_forced_move_is_played_at_once() {
        let rules = kharbaga::Rules::standard();
        // e3xc5xa7 is Black's only move (docs/rules.md, the majority rule).
        let forced = Game::from_position(rules, Position::from_fen("B:Be3:Wd4,b6,Kf4").unwrap());
        let second = Duration::from_secs(1);
        let limits = move_limits(&forced, None, second, Duration::ZERO);
        assert_eq!((limits.movetime, limits.depth), (Some(second), Some(1)));
        let mut engine = Engine::new(Options {
            hash_mib: 1,
            ..Options::default()
        });
        let started = Instant::now();
        let report = engine.search(&forced, &limits, &AtomicBool::new(false), &mut |_| {});
        assert_eq!(
            report.best.map(|m| m.to_string()).as_deref(),
            Some("e3xc5xa7")
        );
        assert!(
            started.elapsed() < Duration::from_millis(500),
            "{:?}",
            started.elapsed()
        );
        // A move with a choice gets its time; on the clock the engine decides.
        let free = Game::new(rules);
        let limits = move_limits(&free, None, second, Duration::ZERO);
        assert_eq!((limits.movetime, limits.depth), (Some(second), None));
        let limits = move_limits(&forced, Some(second * 60), second, second);
        assert_eq!(
            (limits.clock, limits.movetime, limits.depth),
            (Some(second * 60), None, None)
        );
    }
}
