//! `kharbaga_engine::protocol::Session` run in the process, on lines and a writer: the
//! session ends its searches when it ends, and a sandboxed session keeps every search small
//! and opens no files. (The protocol itself is tested through `kharbaga engine` in the
//! kharbaga-cli crate.)

use kharbaga_engine::protocol::{Config, Flow, Sandbox, Session};
use std::io::{self, Write};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Long enough for a debug build on a busy machine; a healthy session answers in far less.
const PATIENCE: Duration = Duration::from_secs(60);

/// A writer that hands each whole line written to a channel.
struct Lines {
    sender: Sender<String>,
    partial: Vec<u8>,
}

impl Write for Lines {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.partial.extend_from_slice(bytes);
        while let Some(end) = self.partial.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = self.partial.drain(..=end).collect();
            let text = String::from_utf8(line[..end].to_vec()).expect("UTF-8 output");
            let _ = self.sender.send(text);
        }
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// A session writing to a channel, and the channel's end.
fn session(sandbox: Option<Sandbox>) -> (Session, Receiver<String>) {
    let (sender, lines) = mpsc::channel();
    let writer = Lines {
        sender,
        partial: Vec::new(),
    };
    let config = Config {
        tables: None,
        sandbox,
    };
    (Session::new(config, writer), lines)
}

/// The lines up to and including the first that starts with `prefix`.
fn until(lines: &Receiver<String>, prefix: &str) -> Vec<String> {
    let mut seen = Vec::new();
    loop {
        let line = lines
            .recv_timeout(PATIENCE)
            .unwrap_or_else(|e| panic!("no '{prefix}' in time ({e}) after {seen:?}"));
        let found = line.starts_with(prefix);
        seen.push(line);
        if found {
            return seen;
        }
    }
}

const SMALL: Sandbox = Sandbox {
    nodes: 5000,
    hash_mib: 1,
    threads: 1,
};

#[test]
fn the_end_of_the_lines_stops_a_search_and_waits_for_its_done() {
    let (session, lines) = session(None);
    // An analysis with no limit runs until stopped: the end of the lines stops it.
    session.run(["level infinite", "go analyze"]);
    // The session is gone, and with it every writer: the channel holds all there is.
    let output: Vec<String> = lines.iter().collect();
    let last = output.last().expect("some output");
    assert!(last.starts_with("done move="), "{output:?}");
    assert_eq!(
        output.iter().filter(|l| l.starts_with("done")).count(),
        1,
        "{output:?}"
    );
}

#[test]
fn quit_ends_the_lines_read_and_the_search() {
    let (mut session, lines) = session(None);
    assert_eq!(session.handle("level infinite"), Flow::Continue);
    assert_eq!(session.handle("go ponder"), Flow::Continue);
    assert_eq!(session.handle("quit"), Flow::Quit);
    drop(session);
    let output: Vec<String> = lines.iter().collect();
    assert_eq!(
        output.iter().filter(|l| l.starts_with("done")).count(),
        1,
        "{output:?}"
    );
}

/// The most nodes an `info` line of `lines` reports.
fn most_nodes(lines: &[String]) -> u64 {
    lines
        .iter()
        .filter_map(|l| l.split(' ').find_map(|w| w.strip_prefix("nodes=")))
        .map(|n| n.parse().unwrap())
        .max()
        .unwrap_or_else(|| panic!("no info line in {lines:?}"))
}

#[test]
fn a_sandboxed_search_ends_by_itself_within_its_nodes() {
    let (mut session, lines) = session(Some(SMALL));
    session.handle("level infinite");
    session.handle("go analyze");
    // No stop: the sandbox's node limit ends the search (the limit is checked every 64
    // nodes).
    let seen = until(&lines, "done");
    assert!(most_nodes(&seen) <= SMALL.nodes + 64, "{seen:?}");
    // A smaller limit of `level` still applies.
    session.handle("level nodes=1000");
    session.handle("go analyze");
    let seen = until(&lines, "done");
    assert!(most_nodes(&seen) <= 1000 + 64, "{seen:?}");
}

#[test]
fn a_sandboxed_session_opens_no_files_and_shows_the_parameters_set() {
    let (mut session, lines) = session(Some(SMALL));
    session.handle("set-param name=tables value=/");
    let error = until(&lines, "error");
    assert_eq!(
        error,
        ["error message=\"tables: this session opens no files\""]
    );
    // An empty value (no tables) is allowed.
    session.handle("set-param name=tables value=\"\"");
    // The engine gets 1 MiB whatever is set, but `hub` shows what was set.
    session.handle("set-param name=hash value=4096");
    session.handle("hub");
    let answer = until(&lines, "wait");
    assert!(
        answer.contains(&"param name=hash value=4096 type=int min=1 max=65536".to_string()),
        "{answer:?}"
    );
    session.handle("init");
    assert_eq!(until(&lines, "ready"), ["ready"]);
}

#[test]
fn writers_are_released_when_the_session_ends() {
    // A writer shared with the test: once the session is dropped, nothing else holds it,
    // so no search thread can write after the end.
    #[derive(Clone)]
    struct Shared(Arc<Mutex<Vec<u8>>>);
    impl Write for Shared {
        fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(bytes);
            Ok(bytes.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }
    let out = Shared(Arc::new(Mutex::new(Vec::new())));
    let config = Config {
        tables: None,
        sandbox: None,
    };
    let mut session = Session::new(config, out.clone());
    session.handle("level infinite");
    session.handle("go ponder");
    session.handle("ponder-hit");
    drop(session);
    assert_eq!(Arc::strong_count(&out.0), 1);
    let text = String::from_utf8(out.0.lock().unwrap().clone()).unwrap();
    let done = text.lines().filter(|l| l.starts_with("done ")).count();
    assert_eq!(done, 1, "{text}");
}
