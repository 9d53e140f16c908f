//! `kharbaga engine` misused as a careless GUI would (docs/protocol.md): a stop with no
//! search, two `go`s in a row, a position sent mid-search, the end of input mid-search,
//! garbage lines. The engine answers per the protocol and never hangs or panics: every wait
//! has a timeout, and the process must end with status 0 within it.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// Long enough for a debug build on a busy machine; a healthy engine answers in far less.
const PATIENCE: Duration = Duration::from_secs(60);

/// A running `kharbaga engine`, its input, and its output lines as they arrive.
struct Engine {
    child: Child,
    input: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Engine {
    fn start() -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_kharbaga"))
            .arg("engine")
            .env("XDG_DATA_HOME", "/nonexistent/kharbaga-tests")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the kharbaga binary starts");
        let output = child.stdout.take().unwrap();
        let (sender, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(output).lines() {
                let Ok(line) = line else { break };
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        let mut engine = Engine {
            input: child.stdin.take(),
            child,
            lines,
        };
        // Searches of the start must search, not answer from the opening book at once.
        engine.send("set-param name=book value=no");
        engine
    }

    fn send_bytes(&mut self, bytes: &[u8]) {
        let input = self.input.as_mut().expect("input open");
        input.write_all(bytes).unwrap();
        input.flush().unwrap();
    }

    fn send(&mut self, line: &str) {
        self.send_bytes(format!("{line}\n").as_bytes());
    }

    /// The next line, within the patience.
    fn next(&mut self) -> String {
        match self.lines.recv_timeout(PATIENCE) {
            Ok(line) => line,
            Err(RecvTimeoutError::Timeout) => {
                let _ = self.child.kill();
                panic!("the engine did not answer within {PATIENCE:?}");
            }
            Err(RecvTimeoutError::Disconnected) => panic!("the engine ended its output"),
        }
    }

    /// The lines up to and including the first that starts with `prefix`.
    fn until(&mut self, prefix: &str) -> Vec<String> {
        let mut seen = Vec::new();
        loop {
            let line = self.next();
            let found = line.starts_with(prefix);
            seen.push(line);
            if found {
                return seen;
            }
        }
    }

    /// `ping` answered by `pong` after any `info` lines: the engine is alive.
    fn alive(&mut self) {
        self.send("ping");
        let lines = self.until("pong");
        assert!(
            lines.iter().all(|l| l.starts_with("info") || l == "pong"),
            "{lines:?}"
        );
    }

    /// Closes the input and waits, within the patience, for the exit; checks status 0 and
    /// no panic on standard error.
    fn finish(mut self) {
        self.input = None;
        let deadline = Instant::now() + PATIENCE;
        let status = loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                break status;
            }
            if Instant::now() > deadline {
                let _ = self.child.kill();
                panic!("the engine did not end within {PATIENCE:?} of the end of input");
            }
            std::thread::sleep(Duration::from_millis(10));
        };
        let mut errors = String::new();
        if let Some(mut e) = self.child.stderr.take() {
            std::io::Read::read_to_string(&mut e, &mut errors).unwrap();
        }
        assert!(!errors.contains("panicked"), "{errors}");
        assert_eq!(status.code(), Some(0), "{errors}");
    }
}

#[test]
fn stop_and_ponder_hit_with_no_search_are_ignored() {
    let mut e = Engine::start();
    e.send("stop");
    e.send("ponder-hit");
    e.send("stop");
    // Nothing answers them: the next line is the pong.
    e.send("ping");
    assert_eq!(e.next(), "pong");
    e.finish();
}

#[test]
fn a_second_go_during_a_search_is_an_error_and_the_first_goes_on() {
    let mut e = Engine::start();
    e.send("level infinite");
    e.send("go analyze");
    e.send("go think");
    let error = e.until("error").pop().unwrap();
    assert!(
        error.contains("'go' cannot be done during a search"),
        "{error}"
    );
    e.alive();
    e.send("stop");
    e.until("done");
    // One search, one done: the engine is idle and answers at once.
    e.alive();
    e.finish();
}

#[test]
fn a_position_mid_search_is_refused_and_the_search_ends_on_stop() {
    let mut e = Engine::start();
    e.send("level infinite");
    e.send("go analyze");
    e.send("pos pos=W:Bc3:Wd4");
    let error = e.until("error").pop().unwrap();
    assert!(
        error.contains("'pos' cannot be done during a search"),
        "{error}"
    );
    e.send("stop");
    let done = e.until("done").pop().unwrap();
    // The search was of the start position: Black's first move.
    assert!(
        ["done move=d4-e5", "done move=e3-e5", "done move=f4-e5"]
            .iter()
            .any(|p| done.starts_with(p)),
        "{done}"
    );
    e.finish();
}

#[test]
fn the_end_of_input_mid_search_ends_the_engine() {
    for mode in ["analyze", "think", "ponder"] {
        let mut e = Engine::start();
        e.send("level infinite");
        e.send(&format!("go {mode}"));
        e.finish();
    }
}

#[test]
fn garbage_lines_get_errors_and_the_engine_goes_on() {
    let mut e = Engine::start();
    // Each gets one `error` line (an unreadable line, an unknown command or a bad value).
    let garbage: [&[u8]; 8] = [
        b"\xff\xfe\x00garbage\n",
        b"=\n",
        b"pos pos=\"\n",
        b"level depth=99999999999999999999999\n",
        b"go thunk think ponder=\n",
        b"\x1b[2J\x07\n",
        b"set-param name= value=\"\"\n",
        b"pos pos=start moves=\"d4-e5 d4-e5 d4-e5 d4-e5 d4-e5\"\n",
    ];
    for bytes in garbage {
        e.send_bytes(bytes);
        e.send("ping");
        let lines = e.until("pong");
        assert!(
            lines.len() == 2 && lines[0].starts_with("error message="),
            "{:?}: {lines:?}",
            String::from_utf8_lossy(bytes)
        );
    }
    // A long line.
    e.send(&"x".repeat(1 << 20));
    assert!(e.next().starts_with("error message=\"unknown command"));
    e.alive();
    // Still searches.
    e.send("level depth=2");
    e.send("go think");
    e.until("done");
    e.send("quit");
    e.finish();
}
