//! The `kharbaga` command run as a process. Expected move lists and counts come from the
//! rules (docs/rules.md, worked out by hand there or here), not from the program's output.

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// A data directory that does not exist, so that no endgame tables the machine has in the
/// default place change what the commands answer.
const NO_TABLES: &str = "/nonexistent/kharbaga-tests";

/// Runs `kharbaga` with `args`, feeding `input` to standard input, with `env` set.
fn run_with(args: &[&str], input: &str, env: &[(&str, &str)]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_kharbaga"));
    cmd.args(args)
        .env("XDG_DATA_HOME", NO_TABLES)
        .env_remove("KHARBAGA_SEED")
        .env_remove("NO_COLOR")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (k, v) in env {
        cmd.env(k, v);
    }
    let mut child = cmd.spawn().expect("the kharbaga binary starts");
    child
        .stdin
        .take()
        .expect("piped stdin")
        .write_all(input.as_bytes())
        .expect("input written");
    child.wait_with_output().expect("kharbaga finishes")
}

fn run(args: &[&str], input: &str) -> Output {
    run_with(args, input, &[])
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("UTF-8 output")
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).expect("UTF-8 errors")
}

/// Asserts success and returns standard output.
fn ok(o: Output) -> String {
    assert_eq!(o.status.code(), Some(0), "stderr: {}", stderr(&o));
    stdout(&o)
}

/// Asserts exit status 2 with nothing on standard output; returns standard error.
fn bad(o: Output) -> String {
    assert_eq!(o.status.code(), Some(2), "stdout: {}", stdout(&o));
    assert!(o.stdout.is_empty(), "stdout: {}", stdout(&o));
    stderr(&o)
}

// --- moves ---

#[test]
fn moves_of_the_start_position() {
    // Only e5 is empty. Black's men reach it from e3 (straight forward), d4 and f4
    // (diagonally forward); g5 would need a sideways step.
    assert_eq!(ok(run(&["moves", "start"], "")), "d4-e5\ne3-e5\nf4-e5\n");
    assert_eq!(
        ok(run(&["moves", "--rules", "sideways", "start"], "")),
        "d4-e5\ne3-e5\nf4-e5\ng5-e5\n"
    );
    // --rule applies on top of --rules.
    assert_eq!(
        ok(run(&["moves", "--rule", "sideways=yes", "start"], "")),
        "d4-e5\ne3-e5\nf4-e5\ng5-e5\n"
    );
}

#[test]
fn moves_of_composed_positions() {
    // The capture is compulsory and chains: over d4 to e5, over f6 to g7.
    assert_eq!(ok(run(&["moves", "B:Bc3:Wd4,f6"], "")), "c3xe5xg7\n");
    // docs/rules.md, majority rule: e3xc5xa7 takes two men, e3xg5 only the Mullah.
    assert_eq!(ok(run(&["moves", "B:Be3:Wd4,b6,Kf4"], "")), "e3xc5xa7\n");
    assert_eq!(
        ok(run(
            &["moves", "--rule", "majority=no", "B:Be3:Wd4,b6,Kf4"],
            ""
        )),
        "e3xc5xa7\ne3xg5\n"
    );
    // docs/rules.md, Mullah: five moves of two pieces each, sorted by byte order.
    assert_eq!(
        ok(run(&["moves", "B:BKa1:Wd4,g5"], "")),
        "a1xe5xi5\na1xf6xh4\na1xf6xi3\na1xg7xg1\na1xg7xg3\n"
    );
}

#[test]
fn moves_with_every_path() {
    // docs/rules.md, delayed removal: the triangle can be run either way round; one move,
    // two paths.
    let pos = "B:Bc5:Wd4,f4,e5";
    let one = ok(run(&["moves", pos], ""));
    assert!(one == "c5xe3xg5xc5\n" || one == "c5xg5xe3xc5\n", "{one}");
    assert_eq!(
        ok(run(&["moves", "--paths", pos], "")),
        "c5xe3xg5xc5\nc5xg5xe3xc5\n"
    );
}

#[test]
fn batch_mode_answers_each_line() {
    let input = "start\n\
                 B:Ba7:Wa9,b8,c9\n\
                 B:Bb3:W\n\
                 W:Bc3:Wd4\n";
    let o = run(&["moves"], input);
    assert_eq!(o.status.code(), Some(2));
    // Line 2 is blocked (docs/rules.md, end of the game): an empty line. Line 3 is not a
    // position (b3 is no point): reported, with an empty line to keep the lines in step.
    // Line 4: White's man on d4 must jump c3 diagonally forward to b2.
    assert_eq!(stdout(&o), "d4-e5 e3-e5 f4-e5\n\n\nd4xb2\n");
    let err = stderr(&o);
    assert!(err.contains("line 3") && err.contains("b3"), "{err}");
    assert!(!err.contains("line 1") && !err.contains("line 4"), "{err}");

    let good = ok(run(
        &["moves", "--rules", "sideways"],
        "start\r\nW:Bc3:Wd4\n",
    ));
    assert_eq!(good, "d4-e5 e3-e5 f4-e5 g5-e5\nd4xb2\n");
    assert_eq!(ok(run(&["moves"], "")), "");
}

// --- perft ---

/// The first two fields of each perft line, after checking the line's format.
fn perft_counts(text: &str) -> Vec<(u32, u64)> {
    text.lines()
        .map(|line| {
            let f: Vec<&str> = line.split(' ').collect();
            assert_eq!(f.len(), 5, "depth nodes time speed unit: {line}");
            let secs = f[2].strip_suffix('s').expect("time in seconds");
            assert!(secs.parse::<f64>().is_ok(), "{line}");
            assert!(f[3].parse::<f64>().is_ok(), "{line}");
            assert!(["n/s", "kn/s", "Mn/s", "Gn/s"].contains(&f[4]), "{line}");
            (f[0].parse().unwrap(), f[1].parse().unwrap())
        })
        .collect()
}

#[test]
fn perft_of_the_start_position() {
    // The reference table of docs/rules.md.
    let standard = [3, 5, 7, 10, 26, 91];
    let expected: Vec<(u32, u64)> = (1..).zip(standard).collect();
    assert_eq!(
        perft_counts(&ok(run(&["perft", "--depth", "6"], ""))),
        expected
    );
    let paths = perft_counts(&ok(run(&["perft", "-d", "6", "--paths"], "")));
    assert_eq!(paths.last(), Some(&(6, 92)));
    let ludii = perft_counts(&ok(run(&["perft", "--rules", "ludii", "-d", "4"], "")));
    assert_eq!(ludii, [(1, 3), (2, 6), (3, 23), (4, 111)]);
    let from = ok(run(&["perft", "--position", "B:Bc3:Wd4,f6", "-d", "1"], ""));
    assert_eq!(perft_counts(&from), [(1, 1)]);
}

#[test]
fn perft_divide() {
    let text = ok(run(&["perft", "-d", "6", "--divide"], ""));
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4, "{text}");
    let moves: Vec<&str> = lines[..3]
        .iter()
        .map(|l| l.split(' ').next().unwrap())
        .collect();
    assert_eq!(moves, ["d4-e5", "e3-e5", "f4-e5"]);
    let sum: u64 = lines[..3]
        .iter()
        .map(|l| l.split(' ').nth(1).unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(sum, 91);
    assert_eq!(lines[3], "total 91");
    // At depth 1 each move is one leaf.
    let text = ok(run(&["perft", "-d", "1", "--divide"], ""));
    assert_eq!(text, "d4-e5 1\ne3-e5 1\nf4-e5 1\ntotal 3\n");
}

// --- bad input ---

#[test]
fn bad_input_exits_2_and_names_the_problem() {
    let e = bad(run(&["moves", "B:Ba2:Wc7"], ""));
    assert!(e.contains("a2") && e.contains("column"), "{e}");
    let e = bad(run(&["moves", "--rules", "standrd", "start"], ""));
    assert!(
        e.contains("standrd") && e.contains("unknown rule set"),
        "{e}"
    );
    let e = bad(run(
        &["moves", "--rules", "standard,removal=sometimes", "start"],
        "",
    ));
    assert!(
        e.contains("sometimes") && e.contains("delayed|immediate"),
        "{e}"
    );
    let e = bad(run(&["moves", "--rule", "colour=red", "start"], ""));
    assert!(
        e.contains("colour") && e.contains("unknown rule option"),
        "{e}"
    );
    let e = bad(run(&["moves", "--rule", "majority", "start"], ""));
    assert!(e.contains("OPTION=VALUE"), "{e}");
    let e = bad(run(&["perft", "--depth", "0"], ""));
    assert!(e.contains("--depth") && e.contains('0'), "{e}");
    let e = bad(run(&["perft", "--depth", "six"], ""));
    assert!(e.contains("--depth") && e.contains("six"), "{e}");
    let e = bad(run(&["perft"], ""));
    assert!(e.contains("--depth"), "{e}");
    let e = bad(run(&["perft", "-d", "2", "--position", "X:Ba1"], ""));
    assert!(e.contains("side to move"), "{e}");
    let e = bad(run(&["play", "--first", "red"], ""));
    assert!(e.contains("red") && e.contains("black"), "{e}");
    let e = bad(run(&["frobnicate"], ""));
    assert!(e.contains("frobnicate"), "{e}");
    // The server does not start with tables it cannot read.
    let e = bad(run(
        &["serve", "--tables", "/nonexistent/kharbaga-tables"],
        "",
    ));
    assert!(
        e.contains("/nonexistent/kharbaga-tables") && e.contains("table directory"),
        "{e}"
    );
    let e = bad(run(&["serve", "--tables-rules", "standrd"], ""));
    assert!(e.contains("standrd"), "{e}");
}

#[test]
fn every_command_has_help() {
    for (args, usage) in [
        (&["--help"][..], "Usage: kharbaga <COMMAND>"),
        (
            &["moves", "--help"][..],
            "Usage: kharbaga moves [OPTIONS] [POSITION]",
        ),
        (
            &["perft", "--help"][..],
            "Usage: kharbaga perft [OPTIONS] --depth <D>",
        ),
        (&["play", "--help"][..], "Usage: kharbaga play [OPTIONS]"),
        (&["help", "play"][..], "Usage: kharbaga play [OPTIONS]"),
    ] {
        let text = ok(run(args, ""));
        assert!(text.contains(usage), "{args:?}: {text}");
    }
}

// --- play ---

#[test]
fn play_a_few_moves_a_mistake_and_an_undo() {
    let script = "e3-e5\ne7-e5\nundo\nd4-e5\nmoves\nquit\n";
    let out = ok(run(&["play", "--first", "black"], script));
    assert!(
        !out.contains('\x1b'),
        "no colour when output is not a terminal"
    );
    assert!(out.contains("Black to move."), "{out}");
    // After e3-e5 White must capture the man on e5 (e7 can take it, landing on the emptied
    // e3); e7-e5 is refused with the legal moves of that piece, and the game goes on.
    assert!(out.contains("White must capture (1 piece)."), "{out}");
    assert!(out.contains("e7-e5 is not legal here"), "{out}");
    assert!(out.contains("legal: e7xe3"), "{out}");
    assert!(out.contains("Took back e3-e5 (Black)."), "{out}");
    // After d4-e5 White must take the man on e5 from f6, landing on the emptied d4.
    assert!(out.contains("Last move: d4-e5 (Black)"), "{out}");
    assert!(out.contains("Legal moves: f6xd4"), "{out}");
    assert!(
        out.contains("Game left unfinished after 1 ply; no result."),
        "{out}"
    );
    assert!(!out.contains("Result:"), "{out}");
}

#[test]
fn play_to_a_win() {
    let out = ok(run(&["play", "--position", "B:Bc3:Wd4"], "c3xe5\n"));
    assert!(
        out.contains("Black wins: White has no pieces left"),
        "{out}"
    );
    assert!(out.contains("Result: 1-0"), "{out}");
    // The final board: Black's man on e5 (in brackets, the move's landing point), the
    // captured man on d4 shown as ×.
    assert!(
        out.contains("5  ·───────·──────[b]──────·───────·  5"),
        "{out}"
    );
    assert!(
        out.contains("4  │   ·   │   ×   │   ·   │   ·   │  4"),
        "{out}"
    );

    // The short form start x end names the whole capture.
    let out = ok(run(&["play", "--position", "B:Bc3:Wd4,f6"], "c3xg7\n"));
    assert!(out.contains("Last move: c3xe5xg7 (Black)"), "{out}");
    assert!(out.contains("Result: 1-0"), "{out}");

    // --first overrides the position's side to move: White's d4 takes c3.
    let out = ok(run(
        &["play", "--position", "B:Bc3:Wd4", "--first", "white"],
        "d4xb2\n",
    ));
    assert!(
        out.contains("White wins: Black has no pieces left"),
        "{out}"
    );
    assert!(out.contains("Result: 0-1"), "{out}");

    // A blocked side loses before anyone types (docs/rules.md, end of the game).
    let out = ok(run(&["play", "--position", "B:Ba7:Wa9,b8,c9"], ""));
    assert!(out.contains("White wins: Black has no legal move"), "{out}");
    assert!(!out.contains("Black >"), "{out}");
}

#[test]
fn white_can_start_from_the_start_position() {
    // White's men reach e5 from e7 (straight forward) and d6, f6 (diagonally forward).
    let out = ok(run(&["play", "--first", "white"], "moves\n"));
    assert!(out.contains("White to move."), "{out}");
    assert!(out.contains("White > moves"), "{out}");
    assert!(out.contains("Legal moves: d6-e5 e7-e5 f6-e5"), "{out}");
}

#[test]
fn draw_resign_and_end_of_input() {
    let out = ok(run(&["play", "--first", "black"], "draw\nyes\n"));
    assert!(
        out.contains("Black offers a draw. White, do you accept?"),
        "{out}"
    );
    assert!(out.contains("Draw by agreement"), "{out}");
    assert!(out.contains("Result: 1/2-1/2"), "{out}");

    let out = ok(run(&["play", "--first", "black"], "draw\nno\nresign\n"));
    assert!(out.contains("White declines the draw."), "{out}");
    assert!(out.contains("White wins: Black resigned"), "{out}");
    assert!(out.contains("Result: 0-1"), "{out}");

    let out = ok(run(&["play", "--first", "black"], "e3-e5\n"));
    assert!(
        out.contains("End of input. Game left unfinished after 1 ply"),
        "{out}"
    );

    let out = ok(run(&["play", "--first", "black"], "undo\nhelp\nboard\n"));
    assert!(out.contains("There is no move to take back."), "{out}");
    assert!(
        out.contains("c3xg7"),
        "the help explains the short form: {out}"
    );
}

/// The die rolls announced by `play` and the side said to start.
fn die_rolls(out: &str) -> (Vec<(u32, u32)>, String) {
    let rolls = out
        .lines()
        .filter_map(|l| l.strip_prefix("Die roll for the first move: Black "))
        .map(|rest| {
            let (b, w) = rest.trim_end_matches('.').split_once(", White ").unwrap();
            (b.parse().unwrap(), w.parse().unwrap())
        })
        .collect();
    let starter = out
        .lines()
        .find_map(|l| l.strip_suffix(" starts."))
        .expect("the starter is announced")
        .to_string();
    (rolls, starter)
}

#[test]
fn the_die_decides_who_starts() {
    let (mut black_started, mut white_started, mut ties) = (false, false, false);
    for seed in 1..=20 {
        let seed = seed.to_string();
        let out = ok(run_with(&["play"], "", &[("KHARBAGA_SEED", &seed)]));
        let (rolls, starter) = die_rolls(&out);
        let (&(b, w), earlier) = rolls.split_last().expect("at least one roll");
        assert!(
            earlier.iter().all(|(b, w)| b == w),
            "only ties are rolled again: {out}"
        );
        assert_eq!(
            out.matches("A tie: rolling again.").count(),
            earlier.len(),
            "{out}"
        );
        assert!(
            (1..=6).contains(&b) && (1..=6).contains(&w) && b != w,
            "{out}"
        );
        let expected = if b > w { "Black" } else { "White" };
        assert_eq!(starter, expected, "{out}");
        assert!(out.contains(&format!("{expected} to move.")), "{out}");
        black_started |= b > w;
        white_started |= w > b;
        ties |= !earlier.is_empty();
        // The same seed gives the same rolls.
        let again = ok(run_with(&["play"], "", &[("KHARBAGA_SEED", &seed)]));
        assert_eq!(again, out);
    }
    assert!(black_started && white_started && ties);
    let e = bad(run_with(&["play"], "", &[("KHARBAGA_SEED", "dice")]));
    assert!(e.contains("KHARBAGA_SEED") && e.contains("dice"), "{e}");
    // --first and positions other than the start need no die.
    let out = ok(run_with(
        &["play", "--first", "white"],
        "",
        &[("KHARBAGA_SEED", "dice")],
    ));
    assert!(!out.contains("Die roll"), "{out}");
}

/// A fresh temporary directory for one test.
fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("kharbaga-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[test]
fn a_tables_directory_without_tables_is_warned_about() {
    // The tables of a rule set kept where the default directory keeps them, in a
    // subdirectory named for the rules; the user names the directory above it.
    let dir = temp_dir("tb-parent");
    let sub = dir.join("standard");
    let s = sub.to_str().unwrap();
    ok(run(
        &["tablebase", "generate", "--pieces", "2", "--dir", s],
        "",
    ));
    let parent = dir.to_str().unwrap();
    let probe = run(
        &["tablebase", "probe", "--tables", parent, "B:BKe5:Wc3"],
        "",
    );
    assert_eq!(probe.status.code(), Some(2));
    let e = stderr(&probe);
    assert!(
        e.contains(&format!(
            "warning: {parent} holds no endgame tables; did you mean {s}?"
        )),
        "{e}"
    );
    // The tables themselves give no warning.
    let probe = run(&["tablebase", "probe", "--tables", s, "B:BKe5:Wc3"], "");
    assert!(!stderr(&probe).contains("warning"), "{}", stderr(&probe));
    assert!(ok(probe).starts_with("win 1"));
    // The commands that use tables (solve here) warn the same way and go on without them.
    let out = run(
        &["solve", "--tables", parent, "--position", "B:BKe5:Wc3"],
        "",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("holds no endgame tables"),
        "{}",
        stderr(&out)
    );
    assert!(stdout(&out).contains("win e5x"), "{}", stdout(&out));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn tablebase_generate_probe_and_resume() {
    let dir = temp_dir("tb");
    let d = dir.to_str().unwrap();
    let out = run(&["tablebase", "generate", "--pieces", "2", "--dir", d], "");
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("3 slice pairs (3 built now)"),
        "{}",
        stdout(&out)
    );
    for name in ["0m1k-0m1k", "0m1k-1m0k", "1m0k-0m1k", "1m0k-1m0k"] {
        assert!(dir.join(format!("{name}.kbt")).is_file(), "{name}");
    }
    // A second run builds nothing.
    let again = run(&["tablebase", "generate", "--pieces", "2", "--dir", d], "");
    assert!(
        stdout(&again).contains("(0 built now)"),
        "{}",
        stdout(&again)
    );
    // The Mullah on e5 must take the man on c3, landing on b2 or a1: a win in 1 either way.
    let probe = run(&["tablebase", "probe", "--tables", d, "B:BKe5:Wc3"], "");
    assert!(probe.status.success(), "{}", stderr(&probe));
    assert_eq!(stdout(&probe), "win 1\ne5xa1 win 1\ne5xb2 win 1\n");
    // A man on d4 against a man on d6, either to move: the mover steps (it cannot capture)
    // and the other man takes it (worked out in tests/exhaustive_solver.rs): a loss in 2.
    let probe = run(&["tablebase", "probe", "--tables", d, "W:Bd4:Wd6"], "");
    assert_eq!(stdout(&probe).lines().next(), Some("loss 2"));
    // Batch mode: one line per input line, errors in place, exit status 2 at the end.
    let batch = run(
        &["tablebase", "probe", "--tables", d],
        "B:BKe5:Wc3\nnonsense\nB:Bc3,e3:Wd6\n",
    );
    assert_eq!(batch.status.code(), Some(2));
    let lines: Vec<String> = stdout(&batch).lines().map(String::from).collect();
    assert_eq!(lines.len(), 3, "{lines:?}");
    assert_eq!(lines[0], "win 1");
    assert!(
        lines[1].starts_with("error: line 2: position string"),
        "{}",
        lines[1]
    );
    assert!(
        lines[2].contains("no table for slice 2m0k-1m0k"),
        "{}",
        lines[2]
    );
    // One position outside the tables: exit status 2, the missing slice named.
    let missing = run(&["tablebase", "probe", "--tables", d, "B:Bc3,e3:Wd6"], "");
    assert_eq!(missing.status.code(), Some(2));
    assert!(
        stderr(&missing).contains("2m0k-1m0k"),
        "{}",
        stderr(&missing)
    );
    let verify = run(&["tablebase", "verify", "--dir", d], "");
    assert!(verify.status.success(), "{}", stderr(&verify));
    assert!(
        stdout(&verify).contains("1m0k-1m0k ok: "),
        "{}",
        stdout(&verify)
    );
    // One pair only: its two slices, nothing else.
    let one = run(
        &["tablebase", "verify", "--dir", d, "--slice", "1m0k-0m1k"],
        "",
    );
    assert!(one.status.success(), "{}", stderr(&one));
    let text = stdout(&one);
    let checked: Vec<&str> = text
        .lines()
        .filter_map(|l| l.split_once(" ok: ").map(|(s, _)| s))
        .collect();
    assert_eq!(checked, ["0m1k-1m0k", "1m0k-0m1k"], "{text}");
    // A slice with no file is named.
    let none = run(
        &["tablebase", "verify", "--dir", d, "--slice", "3m0k-0m1k"],
        "",
    );
    assert_eq!(none.status.code(), Some(2));
    assert!(stderr(&none).contains("3m0k-0m1k"), "{}", stderr(&none));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn tablebase_damaged_and_foreign_files_are_refused() {
    let dir = temp_dir("tb-bad");
    let d = dir.to_str().unwrap();
    assert!(
        run(&["tablebase", "generate", "--pieces", "2", "--dir", d], "")
            .status
            .success()
    );
    // Flip one byte in the middle of a file.
    let file = dir.join("1m0k-1m0k.kbt");
    let mut bytes = std::fs::read(&file).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0x40;
    std::fs::write(&file, &bytes).unwrap();
    let probe = run(&["tablebase", "probe", "--tables", d, "B:Bd4:Wd6"], "");
    assert_eq!(probe.status.code(), Some(2));
    assert!(stderr(&probe).contains("1m0k-1m0k"), "{}", stderr(&probe));
    assert!(
        stderr(&probe).to_lowercase().contains("checksum"),
        "{}",
        stderr(&probe)
    );
    let verify = run(&["tablebase", "verify", "--dir", d], "");
    assert_eq!(verify.status.code(), Some(2), "{}", stdout(&verify));
    // Generating again replaces the damaged file, and only it.
    let again = run(&["tablebase", "generate", "--pieces", "2", "--dir", d], "");
    assert!(
        stdout(&again).contains("(1 built now)"),
        "{}",
        stdout(&again)
    );
    let probe = run(&["tablebase", "probe", "--tables", d, "B:Bd4:Wd6"], "");
    assert!(probe.status.success(), "{}", stderr(&probe));
    // A file built under other rules is foreign here.
    let other = temp_dir("tb-sideways");
    let o = other.to_str().unwrap();
    let built = run(
        &[
            "tablebase",
            "generate",
            "--rules",
            "sideways",
            "--pieces",
            "2",
            "--dir",
            o,
        ],
        "",
    );
    assert!(built.status.success(), "{}", stderr(&built));
    std::fs::copy(other.join("1m0k-1m0k.kbt"), &file).unwrap();
    let probe = run(&["tablebase", "probe", "--tables", d, "B:Bd4:Wd6"], "");
    assert_eq!(probe.status.code(), Some(2));
    assert!(
        stderr(&probe).contains("under sideways"),
        "{}",
        stderr(&probe)
    );
    // A memory budget too small for the first pair is refused before any work.
    let small = run(
        &[
            "tablebase",
            "generate",
            "--rules",
            "sideways",
            "--pieces",
            "2",
            "--memory",
            "0",
            "--dir",
            o,
        ],
        "",
    );
    assert!(
        small.status.success(),
        "everything is built already: {}",
        stderr(&small)
    );
    let fresh = temp_dir("tb-small");
    let f = fresh.to_str().unwrap();
    let small = run(
        &[
            "tablebase",
            "generate",
            "--pieces",
            "2",
            "--memory",
            "0",
            "--dir",
            f,
        ],
        "",
    );
    assert_eq!(small.status.code(), Some(2));
    assert!(
        stderr(&small).contains("memory budget"),
        "{}",
        stderr(&small)
    );
    for d in [dir, other, fresh] {
        let _ = std::fs::remove_dir_all(d);
    }
}

#[test]
fn tablebase_plan_lists_pairs_in_dependency_order() {
    let out = run(&["tablebase", "plan", "--pieces", "3"], "");
    assert!(out.status.success());
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    // 2 pieces: a Mullah each, a man each, a Mullah against a man (and its flip); 3 pieces:
    // six pairs.
    assert_eq!(lines.len(), 9, "{text}");
    // Two Mullahs on 41 points, in order: 41 * 40 places, nothing before it.
    assert_eq!(lines[0], "0m1k-0m1k 1640 -");
    let seen: Vec<&str> = lines.iter().map(|l| l.split(' ').next().unwrap()).collect();
    for (i, line) in lines.iter().enumerate() {
        let deps = line.split(' ').nth(2).unwrap();
        for d in deps.split(',').filter(|d| *d != "-") {
            let j = seen
                .iter()
                .position(|s| s == &d)
                .expect("dependency listed");
            assert!(j < i, "{line}");
        }
    }
}
