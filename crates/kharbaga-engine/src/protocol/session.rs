//! The command loop: the engine's state between commands, and what each command does.

use super::config::Config;
use super::limits::read_limits;
use super::line::{quote, Line};
use super::moves::game_after;
use super::output::Output;
use super::search_thread::{Search, Status};
use super::values::number;
use crate::book::Book;
use crate::{Engine, Limits, Options};
use kharbaga::{Position, Rules, OPTION_KEYS};
use kharbaga_tablebase::tablebase::Tablebase;
use std::io::Write;
use std::path::Path;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

/// What the caller does after a line.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Go on reading lines.
    Continue,
    /// `quit`: read no more (dropping the session, or [`Session::run`], ends it).
    Quit,
}

/// The limit before any `level` command: one second a move.
const DEFAULT_MOVE_TIME: Duration = Duration::from_secs(1);

/// A session of the engine protocol: the engine's state between commands. It handles the
/// lines it is given ([`Session::handle`], [`Session::run`]) and writes its answers, one
/// line at a time and flushed, to the writer it was given. A search runs on a thread of its
/// own, which writes its own `info` and `done` lines; dropping the session stops the search
/// and waits for it (its `done` is written), so that no thread of the session outlives it.
pub struct Session {
    config: Config,
    out: Output,
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

/// The built-in opening book, read once.
fn standard_book() -> Arc<Book> {
    static BOOK: OnceLock<Arc<Book>> = OnceLock::new();
    Arc::clone(BOOK.get_or_init(|| Arc::new(Book::standard())))
}

impl Session {
    /// A session in its initial state (docs/protocol.md: the standard rules, the parameters'
    /// defaults, the start position, one second a move), answering to `out`.
    pub fn new(config: Config, out: impl Write + Send + 'static) -> Session {
        let options = Options {
            tables: config.tables.clone(),
            book: Some(standard_book()),
            ..Options::default()
        };
        Session {
            config,
            out: Output::new(out),
            rules: Rules::standard(),
            options,
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

    /// Handles the lines until `quit` or their end, then ends the session (stopping a
    /// search and waiting for its `done`).
    pub fn run<S: AsRef<str>>(mut self, lines: impl IntoIterator<Item = S>) {
        for text in lines {
            if self.handle(text.as_ref().trim()) == Flow::Quit {
                break;
            }
        }
    }

    /// Handles one input line.
    pub fn handle(&mut self, text: &str) -> Flow {
        let line = match Line::parse(text) {
            Ok(Some(line)) => line,
            Ok(None) => return Flow::Continue,
            Err(e) => {
                self.out.error(&e);
                return Flow::Continue;
            }
        };
        self.reap();
        if self.search.is_some() {
            match line.command.as_str() {
                "ping" => self.out.send("pong"),
                "stop" => self.stop(),
                "ponder-hit" => self.ponder_hit(),
                "quit" => return Flow::Quit,
                other => self.out.error(&format!(
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
                self.out.send("ready");
                Ok(())
            }
            "new-game" => {
                self.engine().new_game();
                Ok(())
            }
            "ping" => {
                self.out.send("pong");
                Ok(())
            }
            "set-param" => self.set_param(&line),
            "pos" => self.set_position(&line),
            "level" => read_limits(&line).map(|limits| self.limits = limits),
            "go" => self.go(&line),
            // A search that already ended: nothing to stop.
            "stop" | "ponder-hit" => Ok(()),
            "quit" => return Flow::Quit,
            other => Err(format!("unknown command '{other}'")),
        };
        if let Err(e) = result {
            self.out.error(&e);
        }
        Flow::Continue
    }

    /// The engine options in use: those set, within the sandbox's bounds.
    fn engine_options(&self) -> Options {
        match &self.config.sandbox {
            Some(sandbox) => sandbox.options(self.options.clone()),
            None => self.options.clone(),
        }
    }

    /// The idle engine with the current options.
    fn engine(&mut self) -> &mut Engine {
        let options = self.engine_options();
        let engine = self
            .engine
            .get_or_insert_with(|| Engine::new(options.clone()));
        engine.set_options(options);
        engine
    }

    /// Takes the engine back from a search that has ended on its own.
    fn reap(&mut self) {
        if let Some(search) = self.search.take_if(|s| s.status() == Status::Finished) {
            self.engine = Some(search.stop());
        }
    }

    /// Stops the search, if any, and waits for its `done`.
    fn stop(&mut self) {
        if let Some(search) = self.search.take() {
            self.engine = Some(search.stop());
        }
    }

    /// The opponent played the move a ponder search expected: the search goes on as a
    /// normal search on the clock (restarted; the transposition table keeps what pondering
    /// found).
    fn ponder_hit(&mut self) {
        let Some(search) = self.search.take_if(|s| s.on_hit.is_some()) else {
            return;
        };
        let was_running = search.mute();
        let (game, limits) = search.on_hit.clone().expect("checked");
        let engine = search.stop();
        if was_running {
            self.search = Some(Search::start(engine, game, limits, &self.out));
        } else {
            // The ponder search ended on its own and gave its answer already.
            self.engine = Some(engine);
        }
    }

    /// Answers `hub`: the identity, the parameters with their current values, `wait`.
    fn identify(&self) {
        let send = |line: &str| self.out.send(line);
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
                    "yes" => Some(standard_book()),
                    "no" => None,
                    _ => return Err(format!("book: expected yes or no, not '{value}'")),
                }
            }
            "tables" if value.is_empty() => self.options.tables = None,
            "tables" if self.config.sandbox.is_some() => {
                return Err("tables: this session opens no files".to_string())
            }
            "tables" => {
                let tables = Tablebase::open(Path::new(value), self.rules)
                    .map_err(|e| format!("tables: {e}"))?;
                self.options.tables = Some(Arc::new(tables));
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
        let limits = match &self.config.sandbox {
            Some(sandbox) => sandbox.limits(self.limits.clone()),
            None => self.limits.clone(),
        };
        let think = Limits {
            multipv: 1,
            ..limits.clone()
        };
        let mut engine = {
            self.engine();
            self.engine.take().expect("just created")
        };
        if mode != "think" {
            // Analysing and pondering search until stopped: no answer from the book.
            engine.set_options(Options {
                book: None,
                ..self.engine_options()
            });
        }
        let search = match mode {
            "think" => Search::start(engine, game, think, &self.out),
            "analyze" => {
                let limits = Limits {
                    multipv: self.multipv,
                    ..limits
                };
                Search::start(engine, game, limits, &self.out)
            }
            _ => {
                // Pondering: no time limits until ponder-hit (depth and nodes still apply).
                let limits = Limits {
                    depth: think.depth,
                    nodes: think.nodes,
                    ..Limits::default()
                };
                let mut search = Search::start(engine, game.clone(), limits, &self.out);
                search.on_hit = Some((game, think));
                search
            }
        };
        self.search = Some(search);
        Ok(())
    }
}

impl Drop for Session {
    /// Ends the session: stops a search and waits for it (its `done` is written).
    fn drop(&mut self) {
        self.stop();
    }
}
