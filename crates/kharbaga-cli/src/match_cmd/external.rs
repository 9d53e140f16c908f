//! An external program playing a match, spoken to with the engine protocol.

use super::spec::EngineSpec;
use crate::analyze::moves_text;
use kharbaga::{Game, Move, Rules};
use kharbaga_engine::protocol::{quote, Line};
use kharbaga_engine::selfplay::{Failure, FailureKind, Player};
use kharbaga_engine::Limits;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// An external program spoken to with the engine protocol.
pub(super) struct External {
    pub(super) command: String,
    pub(super) spec: EngineSpec,
    pub(super) limits: Limits,
    pub(super) rules: Rules,
    pub(super) running: Option<Process>,
}

/// A running external program: its input, and its output lines as they arrive.
pub(super) struct Process {
    child: Child,
    input: ChildStdin,
    lines: Receiver<String>,
}

/// How long a program may take to identify itself and to get ready.
const STARTUP_TIME: Duration = Duration::from_secs(30);

impl Process {
    pub(super) fn send(&mut self, line: &str) -> Result<(), Failure> {
        writeln!(self.input, "{line}")
            .and_then(|()| self.input.flush())
            .map_err(|e| Failure::new(FailureKind::Crash, format!("cannot write to it: {e}")))
    }

    /// Reads lines until one with command `want`, within `limit`; an `error` line fails.
    fn expect(&mut self, want: &str, limit: Duration) -> Result<Line, Failure> {
        let deadline = Instant::now() + limit;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let text = match self.lines.recv_timeout(left) {
                Ok(text) => text,
                Err(RecvTimeoutError::Timeout) => {
                    return Err(Failure::new(
                        FailureKind::Timeout,
                        format!("no '{want}' within {:.1} s", limit.as_secs_f64()),
                    ))
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(Failure::new(
                        FailureKind::Crash,
                        format!("it ended while '{want}' was awaited"),
                    ))
                }
            };
            let Ok(Some(line)) = Line::parse(&text) else {
                continue;
            };
            if line.command == "error" {
                let message = line.get("message").unwrap_or(&text).to_string();
                return Err(Failure::new(
                    FailureKind::Crash,
                    format!("it answered error: {message}"),
                ));
            }
            if line.command == want {
                return Ok(line);
            }
        }
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.send("quit");
        let deadline = Instant::now() + Duration::from_secs(1);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl External {
    /// Starts the program and goes through `hub` ... `wait`, the parameters, `init` ... `ready`.
    pub(super) fn start(&mut self) -> Result<(), Failure> {
        let mut words = self.command.split_whitespace();
        let program = words
            .next()
            .ok_or_else(|| Failure::new(FailureKind::Crash, "the command is empty"))?;
        let mut child = Command::new(program)
            .args(words)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| Failure::new(FailureKind::Crash, format!("cannot start it: {e}")))?;
        let input = child.stdin.take().expect("piped");
        let output = child.stdout.take().expect("piped");
        let (sender, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(output).lines() {
                let Ok(line) = line else { break };
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        let mut process = Process {
            child,
            input,
            lines,
        };
        process.send("hub")?;
        process.expect("wait", STARTUP_TIME)?;
        process.send(&format!(
            "set-param name=rules value={}",
            quote(&self.rules.to_string())
        ))?;
        // The same settings as the engine in this process would get.
        let options = self.spec.options();
        for (name, value) in [
            ("level", usize::from(options.level)),
            ("hash", options.hash_mib),
            ("threads", options.threads),
        ] {
            process.send(&format!("set-param name={name} value={value}"))?;
        }
        if let Some(book) = self.spec.book {
            let value = if book { "yes" } else { "no" };
            process.send(&format!("set-param name=book value={value}"))?;
        }
        process.send("init")?;
        process.expect("ready", STARTUP_TIME)?;
        self.running = Some(process);
        Ok(())
    }

    /// The `level` line of the limits.
    fn level_line(&self) -> String {
        let mut line = "level".to_string();
        if let Some(d) = self.limits.depth {
            line.push_str(&format!(" depth={d}"));
        }
        if let Some(n) = self.limits.nodes {
            line.push_str(&format!(" nodes={n}"));
        }
        if let Some(t) = self.limits.movetime {
            line.push_str(&format!(" move-time={}", t.as_secs_f64()));
        }
        line
    }

    /// Runs `f` on the running program; a failure stops the program (it is started again
    /// for the next game).
    fn with_process<T>(
        &mut self,
        f: impl FnOnce(&mut Process) -> Result<T, Failure>,
    ) -> Result<T, Failure> {
        let process = self
            .running
            .as_mut()
            .ok_or_else(|| Failure::new(FailureKind::Crash, "it is not running"))?;
        let result = f(process);
        if result.is_err() {
            self.running = None;
        }
        result
    }
}

impl Player for External {
    fn new_game(&mut self) -> Result<(), Failure> {
        if self.running.is_none() {
            self.start()?;
        }
        self.with_process(|p| p.send("new-game"))
    }

    fn choose(&mut self, game: &Game) -> Result<Move, Failure> {
        let pos = format!(
            "pos pos={} moves={}",
            game.start(),
            quote(&moves_text(game.moves()))
        );
        let level = self.level_line();
        // Generous: a program is late only when it is far beyond its time.
        let limit = self
            .limits
            .movetime
            .map_or(Duration::from_secs(600), |b| b * 3 + Duration::from_secs(2));
        let done = self.with_process(|p| {
            p.send(&pos)?;
            p.send(&level)?;
            p.send("go think")?;
            p.expect("done", limit)
        })?;
        let text = done
            .get("move")
            .ok_or_else(|| Failure::new(FailureKind::Illegal, "'done' without a move"))?;
        game.position()
            .parse_move(game.rules(), text)
            .map_err(|e| Failure::new(FailureKind::Illegal, format!("{text}: {e}")))
    }
}
