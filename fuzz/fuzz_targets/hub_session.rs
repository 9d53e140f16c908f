//! Whole sessions of the engine protocol: the input, split on newlines (at most 64 lines of
//! at most 200 bytes), is fed line by line to a `kharbaga_engine::protocol::Session` in a
//! sandbox (every search stops after 1000 nodes, a 1 MiB table, at most 2 threads, no
//! files). Checks, besides "never panics" (a search thread's panic shows as an `internal
//! error` line, which fails too):
//! - every output line is a whole line, and starts with an answer the protocol defines
//!   (`id`, `param`, `wait`, `ready`, `info`, `done`, `pong`, `error`);
//! - no input line gets more than one `error` line;
//! - every `go` that was not refused ends in exactly one `done move=...` line, by the end of
//!   the session (`quit` or the end of the lines), and no search thread outlives it;
//! - every `ping` gets one `pong`, every `hub` and `init` not refused one `wait` and one
//!   `ready`.
#![no_main]

use kharbaga_engine::protocol::{Config, Flow, Line, Sandbox, Session};
use libfuzzer_sys::fuzz_target;
use std::io::{self, Write};
use std::sync::{Arc, Mutex};

const MAX_LINES: usize = 64;
const MAX_LINE_BYTES: usize = 200;

/// The first words of the answers of docs/protocol.md.
const ANSWERS: [&str; 8] = [
    "id", "param", "wait", "ready", "info", "done", "pong", "error",
];

/// The commands answered by one line each when they are not refused (`go`: at the end of
/// its search), and that line's first word.
const ANSWERED: [(&str, &str); 4] = [
    ("go", "done"),
    ("ping", "pong"),
    ("hub", "wait"),
    ("init", "ready"),
];

/// The session's output, kept for the checks.
#[derive(Clone, Default)]
struct Recorder(Arc<Mutex<Vec<u8>>>);

impl Write for Recorder {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl Recorder {
    /// The whole lines written so far that start with `word`.
    fn count(&self, word: &str) -> usize {
        let bytes = self.0.lock().unwrap();
        let whole = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        bytes[..whole]
            .split(|&b| b == b'\n')
            .filter(|line| first_word(line) == word.as_bytes())
            .count()
    }
}

fn first_word(line: &[u8]) -> &[u8] {
    line.split(|&b| b == b' ').next().unwrap_or_default()
}

/// `text` cut to at most `max` bytes, at a character boundary.
fn cut(text: &str, max: usize) -> &str {
    let mut end = text.len().min(max);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let out = Recorder::default();
    let config = Config {
        tables: None,
        sandbox: Some(Sandbox {
            nodes: 1000,
            hash_mib: 1,
            threads: 2,
        }),
    };
    let mut session = Session::new(config, out.clone());
    // How many lines of each first word of ANSWERED are due.
    let mut due = [0; ANSWERED.len()];
    for raw in text.split('\n').take(MAX_LINES) {
        let line = cut(raw, MAX_LINE_BYTES).trim();
        let errors = out.count("error");
        let flow = session.handle(line);
        let new_errors = out.count("error") - errors;
        assert!(new_errors <= 1, "{line:?} got {new_errors} error lines");
        if let (Ok(Some(l)), 0) = (Line::parse(line), new_errors) {
            if let Some(i) = ANSWERED.iter().position(|(c, _)| *c == l.command) {
                due[i] += 1;
            }
        }
        if flow == Flow::Quit {
            break;
        }
    }
    drop(session);
    assert_eq!(
        Arc::strong_count(&out.0),
        1,
        "a search thread outlived the session"
    );
    let bytes = out.0.lock().unwrap();
    let output = std::str::from_utf8(&bytes).expect("the output is UTF-8");
    assert!(
        output.is_empty() || output.ends_with('\n'),
        "a line was left unfinished: {output:?}"
    );
    let mut answered = [0; ANSWERED.len()];
    for answer in output.lines() {
        let word = answer.split(' ').next().unwrap_or_default();
        assert!(ANSWERS.contains(&word), "not an answer: {answer:?}");
        assert!(
            !answer.starts_with("error message=\"internal error"),
            "{answer}"
        );
        assert!(
            word != "done" || answer.starts_with("done move="),
            "{answer}"
        );
        if let Some(i) = ANSWERED.iter().position(|(_, a)| *a == word) {
            answered[i] += 1;
        }
    }
    for ((command, answer), (due, answered)) in ANSWERED.iter().zip(due.iter().zip(answered)) {
        assert_eq!(
            *due, answered,
            "{due} '{command}' lines due an answer, {answered} '{answer}' lines:\n{output}"
        );
    }
});
