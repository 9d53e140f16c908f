//! `kharbaga engine`: scripted protocol sessions (docs/protocol.md). Legal moves come from
//! the rules (docs/rules.md), not from the program's output.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::Duration;

/// A running `kharbaga engine`, its input, and its output lines as they arrive.
struct Session {
    child: Child,
    input: Option<ChildStdin>,
    lines: Receiver<String>,
}

/// Long enough for a debug build on a busy machine; a healthy engine answers in far less.
const PATIENCE: Duration = Duration::from_secs(60);

impl Session {
    fn start() -> Session {
        let mut child = Command::new(env!("CARGO_BIN_EXE_kharbaga"))
            .arg("engine")
            // No endgame tables the machine has in the default place.
            .env("XDG_DATA_HOME", "/nonexistent/kharbaga-tests")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("the kharbaga binary starts");
        let output = child.stdout.take().unwrap();
        let (sender, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(output).lines() {
                if sender.send(line.expect("UTF-8 output")).is_err() {
                    break;
                }
            }
        });
        Session {
            input: child.stdin.take(),
            child,
            lines,
        }
    }

    fn send(&mut self, line: &str) {
        let input = self.input.as_mut().expect("input open");
        writeln!(input, "{line}").unwrap();
        input.flush().unwrap();
    }

    /// The next line.
    fn next(&mut self) -> String {
        self.lines
            .recv_timeout(PATIENCE)
            .expect("the engine answers in time")
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

    /// Closes the input (or not, after `quit`) and returns the exit status.
    fn finish(mut self) -> Option<i32> {
        self.input = None;
        let status = self.child.wait().unwrap();
        status.code()
    }
}

/// The value of `name=value` (or `name="value"`) in a line.
fn field(line: &str, name: &str) -> Option<String> {
    let start = line.find(&format!(" {name}="))? + name.len() + 2;
    let rest = &line[start..];
    Some(match rest.strip_prefix('"') {
        Some(quoted) => quoted[..quoted.find('"').unwrap()].to_string(),
        None => rest.split_whitespace().next().unwrap_or("").to_string(),
    })
}

/// Black's legal first moves: only e5 is empty, reached from e3 (straight), d4 and f4
/// (diagonally forward).
const FIRST_MOVES: [&str; 3] = ["d4-e5", "e3-e5", "f4-e5"];

#[test]
fn a_search_from_identification_to_done() {
    let mut s = Session::start();
    s.send("hub");
    let intro = s.until("wait");
    assert!(
        intro[0].starts_with("id name=kharbaga version="),
        "{intro:?}"
    );
    for param in [
        "param name=rules value=standard type=string",
        "param name=removal value=delayed type=enum values=\"delayed immediate\"",
        "param name=level value=10 type=int min=1 max=10",
        "param name=hash value=64 type=int min=1 max=65536",
        "param name=threads value=1 type=int min=1 max=256",
    ] {
        assert!(intro.iter().any(|l| l == param), "{param} in {intro:?}");
    }
    s.send("init");
    assert_eq!(s.next(), "ready");
    s.send("pos start");
    s.send("level depth=3");
    // The start is in the opening book: the move comes from it, marked so.
    s.send("go think");
    let done = s.until("done").pop().unwrap();
    assert!(done.ends_with(" book=yes"), "{done}");
    assert!(FIRST_MOVES.contains(&field(&done, "move").unwrap().as_str()));
    s.send("set-param name=book value=maybe");
    assert!(s.next().starts_with("error"));
    s.send("set-param name=book value=no");
    s.send("go think");
    let lines = s.until("done");
    let (done, infos) = lines.split_last().unwrap();
    let depths: Vec<u32> = infos
        .iter()
        .map(|l| {
            assert!(l.starts_with("info "), "{l}");
            for name in ["score", "nodes", "time", "nps", "pv"] {
                assert!(field(l, name).is_some(), "{name} in {l}");
            }
            field(l, "depth").unwrap().parse().unwrap()
        })
        .collect();
    assert_eq!(depths, [1, 2, 3], "{lines:?}");
    let mv = field(done, "move").unwrap();
    assert!(FIRST_MOVES.contains(&mv.as_str()), "{done}");
    // The principal variation starts with the move played.
    let pv = field(infos.last().unwrap(), "pv").unwrap();
    assert_eq!(pv.split(' ').next(), Some(mv.as_str()), "{lines:?}");
    s.send("quit");
    assert_eq!(s.finish(), Some(0));
}

#[test]
fn moves_after_the_position_are_played() {
    let mut s = Session::start();
    // After d4-e5 White must capture the man on e5 from f6, landing on the emptied d4: the
    // only legal move.
    s.send("pos pos=start moves=\"d4-e5\"");
    s.send("level depth=2");
    s.send("go think");
    let done = s.until("done").pop().unwrap();
    assert_eq!(field(&done, "move").as_deref(), Some("f6xd4"), "{done}");
    // A composed position: Black's man on c3 must take d4 and f6 (c3xe5xg7), White then has
    // no piece left; nothing follows it, so no ponder move.
    s.send("pos pos=B:Bc3:Wd4,f6");
    s.send("go think");
    let done = s.until("done").pop().unwrap();
    assert_eq!(done, "done move=c3xe5xg7");
    assert_eq!(s.finish(), Some(0));
}

#[test]
fn ping_and_stop_during_an_analysis() {
    let mut s = Session::start();
    s.send("level infinite");
    s.send("go analyze");
    s.until("info");
    s.send("ping");
    let lines = s.until("pong");
    assert!(
        lines.iter().all(|l| l.starts_with("info") || l == "pong"),
        "{lines:?}"
    );
    s.send("stop");
    let lines = s.until("done");
    let done = lines.last().unwrap();
    let mv = field(done, "move").unwrap();
    assert!(FIRST_MOVES.contains(&mv.as_str()), "{done}");
    // Idle again: commands are answered.
    s.send("ping");
    assert_eq!(s.next(), "pong");
    // Other commands wait for the end of a search.
    s.send("go analyze");
    s.until("info");
    s.send("pos start");
    let e = s.until("error").pop().unwrap();
    assert!(e.contains("'pos' cannot be done during a search"), "{e}");
    s.send("quit");
    assert_eq!(s.finish(), Some(0));
}

#[test]
fn bad_commands_get_an_error_and_the_engine_goes_on() {
    let mut s = Session::start();
    for (command, expected) in [
        (
            "frobnicate now",
            "error message=\"unknown command 'frobnicate'\"",
        ),
        ("pos pos=B:Bz9:W", "error message=\"pos: "),
        (
            "pos start moves=\"d4-e5 f6-e5\"",
            "error message=\"pos: move 2 (f6-e5): ",
        ),
        (
            "pos moves=\"d4-e5\"",
            "error message=\"pos needs pos=POSITION",
        ),
        (
            "level depth=deep",
            "error message=\"depth must be a whole number",
        ),
        (
            "level move-time=-2",
            "error message=\"move-time must be a time in seconds",
        ),
        ("go", "error message=\"go needs think, ponder or analyze\""),
        ("go fast", "error message=\"unknown search mode 'fast'"),
        (
            "set-param name=hash value=0",
            "error message=\"hash must be a whole number from 1",
        ),
        (
            "set-param name=colour value=red",
            "error message=\"unknown parameter 'colour'\"",
        ),
        (
            "set-param name=rules value=chess",
            "error message=\"rules: ",
        ),
        (
            "set-param name=level",
            "error message=\"set-param name=level needs value=VALUE\"",
        ),
        (
            "pos moves=\"d4-e5",
            "error message=\"the value of 'moves' has no closing quote\"",
        ),
        ("pos pos=B:Ba7:Wa9,b8,c9", ""),
        // Black is blocked in that position (docs/rules.md, end of the game).
        (
            "go think",
            "error message=\"no legal move to search (White wins: Black has no legal move)\"",
        ),
    ] {
        s.send(command);
        if expected.is_empty() {
            continue;
        }
        let answer = s.next();
        assert!(answer.starts_with(expected), "{command}: {answer}");
    }
    s.send("ping");
    assert_eq!(s.next(), "pong");
    // The failed `pos` commands left the last good position in place: still blocked.
    s.send("go think");
    assert!(s.next().starts_with("error message=\"no legal move"));
    assert_eq!(s.finish(), Some(0));
}

#[test]
fn parameters_set_the_rules() {
    let mut s = Session::start();
    s.send("set-param name=rules value=sideways");
    s.send("set-param name=removal value=immediate");
    s.send("hub");
    let intro = s.until("wait");
    for param in [
        "param name=rules value=\"sideways,removal=immediate\" type=string",
        "param name=sideways value=yes type=enum values=\"yes no\"",
        "param name=removal value=immediate type=enum values=\"delayed immediate\"",
    ] {
        assert!(intro.iter().any(|l| l == param), "{param} in {intro:?}");
    }
    // Under the sideways rules a man on c1 steps along the rank too. With only that man and
    // a White man far away, Black's moves are b2, c3, d2 (forward) and a1, e1 (sideways);
    // a search to depth 1 still answers one of them.
    s.send("set-param name=level value=1");
    s.send("pos pos=B:Bc1:Wi9");
    s.send("level depth=1");
    s.send("go think");
    let done = s.until("done").pop().unwrap();
    let mv = field(&done, "move").unwrap();
    assert!(
        ["c1-b2", "c1-c3", "c1-d2", "c1-a1", "c1-e1"].contains(&mv.as_str()),
        "{done}"
    );
    assert_eq!(s.finish(), Some(0));
}

#[test]
fn ponder_then_ponder_hit_gives_one_answer() {
    let mut s = Session::start();
    s.send("pos start moves=\"d4-e5 f6xd4\"");
    s.send("level move-time=0.2");
    s.send("go ponder");
    s.until("info");
    s.send("ponder-hit");
    let done = s.until("done").pop().unwrap();
    // After d4-e5 f6xd4 Black must capture the man on d4, a cell centre whose neighbours are
    // c3, e3, c5 and e5: from c3 over d4 to the empty e5 (from e3 the landing point c5 is
    // White's). Nothing else can capture and the capture cannot go on, so c3xe5 is the only
    // move.
    assert_eq!(field(&done, "move").as_deref(), Some("c3xe5"), "{done}");
    s.send("ping");
    let after = s.until("pong");
    assert!(
        after.iter().all(|l| !l.starts_with("done")),
        "a second done: {after:?}"
    );
    // Quitting during a search ends the engine at once.
    s.send("level infinite");
    s.send("go ponder");
    s.until("info");
    s.send("quit");
    assert_eq!(s.finish(), Some(0));
}
