//! `kharbaga engine`: the engine behind a line protocol on standard input and output,
//! modelled on the Hub protocol (version 2) of the Scan draughts engine. The protocol is
//! specified in docs/protocol.md.
//!
//! The main thread reads commands; a search runs on its own thread and writes its `info`
//! lines and its `done` line itself, so that `ping`, `stop` and `ponder-hit` are answered
//! while it thinks.

use crate::analyze::{game_after, moves_text};
use crate::args::{CliError, TablesDir};
use kharbaga::{Game, Position, Rules, OPTION_KEYS};
use kharbaga_engine::book::Book;
use kharbaga_engine::{Engine, Info, Limits, Options, Report, Score};
use std::io::{self, BufRead, Write};
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::Duration;

/// Talk to the engine through the Hub protocol on standard input and output
///
/// A line protocol for programs (graphical interfaces, match runners), modelled on the Hub
/// protocol of the Scan draughts engine: `hub` (identification and parameters), `set-param`,
/// `init`, `new-game`, `pos`, `level`, `go think|ponder|analyze`, `ponder-hit`, `stop`,
/// `ping`, `quit`. Positions are position strings, moves are in our notation. See
/// docs/protocol.md for the exact commands and answers.
#[derive(clap::Args, Debug)]
#[command(after_help = "\
Example session (> to the engine, < from it):
  > hub
  < id name=kharbaga version=0.1.0 author=\"the Kharbaga project\"
  < param name=rules value=standard type=string
  < ...
  < wait
  > init
  < ready
  > pos start moves=\"d4-e5 f6xd4\"
  > level move-time=1
  > go think
  < info depth=1 seldepth=3 score=0.12 nodes=40 time=0.000 nps=0.40 pv=\"c3xe5\"
  < ...
  < done move=c3xe5 ponder=d6xf4
  > quit")]
pub struct HubArgs {}

pub use kharbaga_engine::protocol::{quote, Line};

/// Writes one line to standard output at once (lines of the search thread and of the main
/// thread never mix). A closed output is ignored: the end of input ends the session.
fn send(line: &str) {
    let mut out = io::stdout().lock();
    let _ = writeln!(out, "{line}").and_then(|()| out.flush());
}

/// Reports a problem with the `error` answer.
fn send_error(message: &str) {
    send(&format!("error message={}", quote(message)));
}

/// A score as the protocol writes it: men with two decimals, `win-in-N` / `loss-in-N`, or
/// from the endgame tables `tb-win-N`, `tb-win`, `tb-draw`, `tb-loss-N`, `tb-loss`.
pub fn score_value(score: Score) -> String {
    match score {
        Score::Centi(c) => format!(
            "{}{}.{:02}",
            if c < 0 { "-" } else { "" },
            c.abs() / 100,
            c.abs() % 100
        ),
        Score::WinIn(n) => format!("win-in-{n}"),
        Score::LossIn(n) => format!("loss-in-{n}"),
        Score::TableWin(Some(n)) => format!("tb-win-{n}"),
        Score::TableWin(None) => "tb-win".to_string(),
        Score::TableDraw => "tb-draw".to_string(),
        Score::TableLoss(Some(n)) => format!("tb-loss-{n}"),
        Score::TableLoss(None) => "tb-loss".to_string(),
    }
}

/// The `info` line of a search report; `multipv` adds the line's index.
fn info_line(info: &Info, multipv: bool) -> String {
    let secs = info.time.as_secs_f64();
    let mnps = if secs > 0.0 {
        info.nodes as f64 / secs / 1e6
    } else {
        0.0
    };
    let mut line = format!("info depth={} seldepth={}", info.depth, info.seldepth);
    if multipv {
        line.push_str(&format!(" multipv={}", info.multipv));
    }
    line.push_str(&format!(
        " score={} nodes={} time={secs:.3} nps={mnps:.2} pv={}",
        score_value(info.score),
        info.nodes,
        quote(&moves_text(&info.pv))
    ));
    line
}

/// The `done` line of a finished search.
fn done_line(report: &Report) -> String {
    let mut line = match report.best {
        Some(mv) => format!("done move={mv}"),
        // The session never searches a position without a legal move.
        None => "done".to_string(),
    };
    if let Some(ponder) = report.ponder {
        line.push_str(&format!(" ponder={ponder}"));
    }
    if report.book {
        line.push_str(" book=yes");
    }
    line
}

/// Whether a search thread is still going, and whether its `done` is wanted.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Status {
    /// Searching; `muted` once a ponder search was superseded by `ponder-hit`.
    Running { muted: bool },
    /// The search returned (and wrote its `done` unless muted).
    Finished,
}

/// A search on its own thread, which hands the engine back when it ends.
struct Search {
    handle: JoinHandle<Engine>,
    stop: Arc<AtomicBool>,
    status: Arc<Mutex<Status>>,
    /// For `go ponder`: the game and limits of the real search that `ponder-hit` starts.
    on_hit: Option<(Game, Limits)>,
}

impl Search {
    /// Starts searching `game` within `limits`, showing lines up to `limits.multipv`.
    fn start(mut engine: Engine, game: Game, limits: Limits) -> Search {
        let stop = Arc::new(AtomicBool::new(false));
        let status = Arc::new(Mutex::new(Status::Running { muted: false }));
        let (thread_stop, thread_status) = (Arc::clone(&stop), Arc::clone(&status));
        let handle = std::thread::spawn(move || {
            let lock = || thread_status.lock().unwrap_or_else(PoisonError::into_inner);
            let shown = limits.multipv.max(1);
            let searched = panic::catch_unwind(AssertUnwindSafe(|| {
                engine.search(&game, &limits, &thread_stop, &mut |info| {
                    let status = lock();
                    if info.multipv <= shown && *status == (Status::Running { muted: false }) {
                        send(&info_line(info, shown > 1));
                    }
                })
            }));
            let mut status = lock();
            match searched {
                Ok(report) if *status == (Status::Running { muted: false }) => {
                    send(&done_line(&report));
                }
                Ok(_) => {}
                Err(_) => {
                    send_error("internal error: the search failed (the engine is reset)");
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

    fn status(&self) -> Status {
        *self.status.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Waits for the thread and takes the engine back.
    fn join(self) -> Engine {
        self.handle
            .join()
            .expect("the search thread catches the search's panics")
    }
}

/// What the session does after a line.
enum Flow {
    Continue,
    Quit,
}

/// The engine's state between commands.
struct Session {
    rules: Rules,
    options: Options,
    multipv: usize,
    /// The position of `pos` and the moves after it (checked against the rules when given
    /// and again at `go`).
    start: Position,
    moves: String,
    limits: Limits,
    /// The engine while idle (created at `init` or the first search).
    engine: Option<Engine>,
    search: Option<Search>,
}

/// The limit before any `level` command: one second a move.
const DEFAULT_MOVE_TIME: Duration = Duration::from_secs(1);

impl Session {
    fn new() -> Session {
        let rules = Rules::standard();
        Session {
            rules,
            // The default table directory of the rules, when it exists; `set-param
            // name=tables` chooses another (or none, with an empty value).
            options: Options {
                tables: TablesDir { tables: None }.open(&rules).ok().flatten(),
                book: Some(Arc::new(Book::standard())),
                ..Options::default()
            },
            multipv: 1,
            start: Position::start(),
            moves: String::new(),
            limits: Limits {
                movetime: Some(DEFAULT_MOVE_TIME),
                ..Limits::default()
            },
            engine: None,
            search: None,
        }
    }

    /// The idle engine with the current options.
    fn engine(&mut self) -> &mut Engine {
        let options = self.options.clone();
        let engine = self
            .engine
            .get_or_insert_with(|| Engine::new(options.clone()));
        engine.set_options(options);
        engine
    }

    /// Takes the engine back from a search that has ended on its own.
    fn reap(&mut self) {
        if self
            .search
            .as_ref()
            .is_some_and(|s| s.status() == Status::Finished)
        {
            let search = self.search.take().expect("checked");
            self.engine = Some(search.join());
        }
    }

    /// Stops the search, if any, and waits for its `done`.
    fn stop(&mut self) {
        if let Some(search) = self.search.take() {
            search.stop.store(true, Ordering::Relaxed);
            self.engine = Some(search.join());
        }
    }

    /// The opponent played the move a ponder search expected: the search goes on as a
    /// normal search on the clock (restarted; the transposition table keeps what pondering
    /// found).
    fn ponder_hit(&mut self) {
        let Some(search) = self.search.take_if(|s| s.on_hit.is_some()) else {
            return;
        };
        let was_running = {
            let mut status = search.status.lock().unwrap_or_else(PoisonError::into_inner);
            let running = *status != Status::Finished;
            if running {
                *status = Status::Running { muted: true };
            }
            running
        };
        search.stop.store(true, Ordering::Relaxed);
        let (game, limits) = search.on_hit.clone().expect("checked");
        let engine = search.join();
        if was_running {
            self.search = Some(Search::start(engine, game, limits));
        } else {
            // The ponder search ended on its own and gave its answer already.
            self.engine = Some(engine);
        }
    }

    /// Handles one input line.
    fn handle(&mut self, text: &str) -> Flow {
        let line = match Line::parse(text) {
            Ok(Some(line)) => line,
            Ok(None) => return Flow::Continue,
            Err(e) => {
                send_error(&e);
                return Flow::Continue;
            }
        };
        self.reap();
        if self.search.is_some() {
            match line.command.as_str() {
                "ping" => send("pong"),
                "stop" => self.stop(),
                "ponder-hit" => self.ponder_hit(),
                "quit" => return Flow::Quit,
                other => send_error(&format!(
                    "'{other}' cannot be done during a search (only ping, ponder-hit, stop, quit)"
                )),
            }
            return Flow::Continue;
        }
        let result = match line.command.as_str() {
            "hub" => {
                self.identify();
                Ok(())
            }
            "init" => {
                self.engine();
                send("ready");
                Ok(())
            }
            "new-game" => {
                self.engine().new_game();
                Ok(())
            }
            "ping" => {
                send("pong");
                Ok(())
            }
            "set-param" => self.set_param(&line),
            "pos" => self.set_position(&line),
            "level" => self.set_level(&line),
            "go" => self.go(&line),
            // A search that already ended: nothing to stop.
            "stop" | "ponder-hit" => Ok(()),
            "quit" => return Flow::Quit,
            other => Err(format!("unknown command '{other}'")),
        };
        if let Err(e) = result {
            send_error(&e);
        }
        Flow::Continue
    }

    /// Answers `hub`: the identity, the parameters with their current values, `wait`.
    fn identify(&self) {
        send(&format!(
            "id name=kharbaga version={} author={}",
            env!("CARGO_PKG_VERSION"),
            quote("the Kharbaga project")
        ));
        send(&format!(
            "param name=rules value={} type=string",
            quote(&self.rules.to_string())
        ));
        for ((key, values), (_, value)) in OPTION_KEYS.iter().zip(self.rules.options()) {
            let kind = if values.contains('N') {
                "type=string".to_string()
            } else {
                format!("type=enum values={}", quote(&values.replace('|', " ")))
            };
            send(&format!("param name={key} value={value} {kind}"));
        }
        send(&format!(
            "param name=level value={} type=int min=1 max=10",
            self.options.level
        ));
        send(&format!(
            "param name=hash value={} type=int min=1 max=65536",
            self.options.hash_mib
        ));
        send(&format!(
            "param name=threads value={} type=int min=1 max=256",
            self.options.threads
        ));
        let tables = self
            .options
            .tables
            .as_ref()
            .map_or(String::new(), |tb| tb.dir().display().to_string());
        send(&format!(
            "param name=tables value={} type=string",
            quote(&tables)
        ));
        send(&format!(
            "param name=multipv value={} type=int min=1 max=1000",
            self.multipv
        ));
        send("wait");
    }

    fn set_param(&mut self, line: &Line) -> Result<(), String> {
        let name = line
            .get("name")
            .ok_or("set-param needs name=NAME value=VALUE")?;
        let value = line
            .args
            .iter()
            .find(|(n, _)| n == "value")
            .and_then(|(_, v)| v.as_deref())
            .ok_or_else(|| format!("set-param name={name} needs value=VALUE"))?;
        match name {
            "rules" => self.rules = value.parse().map_err(|e| format!("rules: {e}"))?,
            "level" => self.options.level = number(name, value, 1, 10)?,
            "hash" => self.options.hash_mib = number(name, value, 1, 65_536)?,
            "threads" => self.options.threads = number(name, value, 1, 256)?,
            "multipv" => self.multipv = number(name, value, 1, 1000)?,
            "book" => {
                self.options.book = match value {
                    "yes" => Some(Arc::new(Book::standard())),
                    "no" => None,
                    _ => return Err(format!("book: expected yes or no, not '{value}'")),
                }
            }
            "tables" if value.is_empty() => self.options.tables = None,
            "tables" => {
                let dir = TablesDir {
                    tables: Some(value.into()),
                };
                self.options.tables = dir.open(&self.rules).map_err(|e| format!("tables: {e}"))?;
            }
            _ if OPTION_KEYS.iter().any(|(key, _)| *key == name) => self
                .rules
                .set_option(name, value)
                .map_err(|e| e.to_string())?,
            _ => return Err(format!("unknown parameter '{name}'")),
        }
        Ok(())
    }

    fn set_position(&mut self, line: &Line) -> Result<(), String> {
        let start = match (line.get("pos"), line.get("start")) {
            (Some(text), _) => Position::from_fen(text).map_err(|e| format!("pos: {e}"))?,
            (None, Some(_)) => Position::start(),
            (None, None) => return Err("pos needs pos=POSITION (or start)".to_string()),
        };
        let moves = line.get("moves").unwrap_or("").to_string();
        game_after(self.rules, start, &moves).map_err(|e| format!("pos: {e}"))?;
        self.start = start;
        self.moves = moves;
        Ok(())
    }

    fn set_level(&mut self, line: &Line) -> Result<(), String> {
        let mut limits = Limits::default();
        for (name, value) in &line.args {
            let value = value.as_deref().unwrap_or("");
            match name.as_str() {
                "depth" => limits.depth = Some(number(name, value, 1, 127)?),
                "nodes" => limits.nodes = Some(number(name, value, 1, u64::MAX)?),
                "move-time" => limits.movetime = Some(seconds(name, value)?),
                "time" => limits.clock = Some(seconds(name, value)?),
                "inc" => limits.increment = seconds(name, value)?,
                // The engine plans its time as if many moves remained, which is safe for
                // any number of moves to the next time control.
                "moves" => {
                    number::<u32>(name, value, 1, u32::MAX)?;
                }
                // No limit: the search runs until `stop`.
                "infinite" => {}
                // Unknown arguments are ignored, as the protocol asks.
                _ => {}
            }
        }
        self.limits = limits;
        Ok(())
    }

    fn go(&mut self, line: &Line) -> Result<(), String> {
        let mode = line
            .args
            .first()
            .map(|(name, _)| name.as_str())
            .ok_or("go needs think, ponder or analyze")?;
        if !matches!(mode, "think" | "ponder" | "analyze") {
            return Err(format!(
                "unknown search mode '{mode}' (think, ponder or analyze)"
            ));
        }
        let game = game_after(self.rules, self.start, &self.moves)
            .map_err(|e| format!("the position no longer fits the rules: {e}"))?;
        if game.legal_moves().is_empty() {
            let outcome = game
                .outcome()
                .expect("no legal move means the game is over");
            return Err(format!("no legal move to search ({outcome})"));
        }
        let think = Limits {
            multipv: 1,
            ..self.limits.clone()
        };
        let mut engine = {
            self.engine();
            self.engine.take().expect("just created")
        };
        if mode != "think" {
            // Analysing and pondering search until stopped: no answer from the book.
            engine.set_options(Options {
                book: None,
                ..self.options.clone()
            });
        }
        let search = match mode {
            "think" => Search::start(engine, game, think),
            "analyze" => {
                let limits = Limits {
                    multipv: self.multipv,
                    ..self.limits.clone()
                };
                Search::start(engine, game, limits)
            }
            _ => {
                // Pondering: no time limits until ponder-hit (depth and nodes still apply).
                let limits = Limits {
                    depth: think.depth,
                    nodes: think.nodes,
                    ..Limits::default()
                };
                let mut search = Search::start(engine, game.clone(), limits);
                search.on_hit = Some((game, think));
                search
            }
        };
        self.search = Some(search);
        Ok(())
    }
}

/// A whole number from `low` to `high`.
fn number<T>(name: &str, value: &str, low: T, high: T) -> Result<T, String>
where
    T: std::str::FromStr + PartialOrd + std::fmt::Display + Copy,
{
    value
        .parse::<T>()
        .ok()
        .filter(|v| *v >= low && *v <= high)
        .ok_or_else(|| format!("{name} must be a whole number from {low} to {high}, not '{value}'"))
}

/// A time in seconds (a real number from 0 to a million).
fn seconds(name: &str, value: &str) -> Result<Duration, String> {
    value
        .parse::<f64>()
        .ok()
        .filter(|s| (0.0..=1e6).contains(s))
        .map(Duration::from_secs_f64)
        .ok_or_else(|| format!("{name} must be a time in seconds, not '{value}'"))
}

/// Runs the command: answers lines until `quit` or the end of input.
pub fn run(_args: &HubArgs) -> Result<(), CliError> {
    let mut session = Session::new();
    let mut input = io::stdin().lock();
    let mut bytes = Vec::new();
    loop {
        bytes.clear();
        match input.read_until(b'\n', &mut bytes) {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        let text = String::from_utf8_lossy(&bytes);
        if let Flow::Quit = session.handle(text.trim()) {
            break;
        }
    }
    session.stop();
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(line: &Line) -> Vec<(&str, Option<&str>)> {
        line.args
            .iter()
            .map(|(n, v)| (n.as_str(), v.as_deref()))
            .collect()
    }

    #[test]
    fn lines_are_read_with_flags_values_and_quotes() {
        let line = Line::parse("  pos pos=W:Bc3:Wd4 moves=\"d4xb2 \" start  x= ")
            .unwrap()
            .unwrap();
        assert_eq!(line.command, "pos");
        assert_eq!(
            args(&line),
            [
                ("pos", Some("W:Bc3:Wd4")),
                ("moves", Some("d4xb2 ")),
                ("start", None),
                ("x", Some("")),
            ]
        );
        assert_eq!(line.get("start"), Some(""));
        assert_eq!(line.get("moves"), Some("d4xb2 "));
        assert_eq!(line.get("nothing"), None);
        let line = Line::parse("set-param name=rules value=\"standard,removal=immediate\"")
            .unwrap()
            .unwrap();
        assert_eq!(line.get("value"), Some("standard,removal=immediate"));
        assert_eq!(Line::parse("   ").unwrap(), None);
        let e = Line::parse("pos moves=\"d4-e5").unwrap_err();
        assert!(e.contains("'moves' has no closing quote"), "{e}");
        let e = Line::parse("level =3").unwrap_err();
        assert!(e.contains("without a name"), "{e}");
    }

    #[test]
    fn values_are_quoted_when_needed() {
        assert_eq!(quote("d4-e5"), "d4-e5");
        assert_eq!(quote("d4-e5 f6xd4"), "\"d4-e5 f6xd4\"");
        assert_eq!(quote(""), "\"\"");
        assert_eq!(quote("a=b"), "\"a=b\"");
        assert_eq!(quote("say \"hi\""), "\"say 'hi'\"");
        // What quote writes, parse reads back.
        for value in ["x", "a b", "", "standard,removal=immediate"] {
            let line = Line::parse(&format!("c v={}", quote(value)))
                .unwrap()
                .unwrap();
            assert_eq!(line.get("v"), Some(value));
        }
    }

    #[test]
    fn scores_in_men_or_plies() {
        assert_eq!(score_value(Score::Centi(35)), "0.35");
        assert_eq!(score_value(Score::Centi(-105)), "-1.05");
        assert_eq!(score_value(Score::Centi(-5)), "-0.05");
        assert_eq!(score_value(Score::WinIn(3)), "win-in-3");
        assert_eq!(score_value(Score::LossIn(2)), "loss-in-2");
        assert_eq!(score_value(Score::TableWin(Some(17))), "tb-win-17");
        assert_eq!(score_value(Score::TableDraw), "tb-draw");
    }

    #[test]
    fn level_sets_every_limit_anew() {
        let mut session = Session::new();
        let level = |s: &mut Session, text: &str| s.set_level(&Line::parse(text).unwrap().unwrap());
        level(&mut session, "level depth=5 move-time=0.25 nodes=1000").unwrap();
        assert_eq!(session.limits.depth, Some(5));
        assert_eq!(session.limits.nodes, Some(1000));
        assert_eq!(session.limits.movetime, Some(Duration::from_millis(250)));
        level(&mut session, "level time=60 inc=0.5 moves=20").unwrap();
        assert_eq!(session.limits.depth, None);
        assert_eq!(session.limits.clock, Some(Duration::from_secs(60)));
        assert_eq!(session.limits.increment, Duration::from_millis(500));
        level(&mut session, "level infinite").unwrap();
        assert!(session.limits.clock.is_none() && session.limits.movetime.is_none());
        let e = level(&mut session, "level depth=0").unwrap_err();
        assert!(
            e.contains("depth must be a whole number from 1 to 127"),
            "{e}"
        );
        let e = level(&mut session, "level move-time=-1").unwrap_err();
        assert!(e.contains("move-time must be a time in seconds"), "{e}");
    }
}
