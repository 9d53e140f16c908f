//! The engine commands of `kharbaga` run as a process: analyze, play with engine seats,
//! match and bench. Legal moves come from the rules (docs/rules.md), not from the program's
//! output; searches are tiny so that the tests stay fast.

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// Runs `kharbaga` with `args`, feeding `input` to standard input.
fn run(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_kharbaga"))
        .args(args)
        // No endgame tables the machine has in the default place.
        .env("XDG_DATA_HOME", "/nonexistent/kharbaga-tests")
        .env("KHARBAGA_SEED", "7")
        .env_remove("NO_COLOR")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the kharbaga binary starts");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    child.wait_with_output().expect("kharbaga finishes")
}

/// Asserts success and returns standard output.
fn ok(o: Output) -> String {
    let err = String::from_utf8_lossy(&o.stderr).to_string();
    assert_eq!(o.status.code(), Some(0), "stderr: {err}");
    String::from_utf8(o.stdout).expect("UTF-8 output")
}

/// Asserts exit status 2 and returns standard error.
fn bad(o: Output) -> String {
    assert_eq!(
        o.status.code(),
        Some(2),
        "stdout: {}",
        String::from_utf8_lossy(&o.stdout)
    );
    String::from_utf8(o.stderr).expect("UTF-8 errors")
}

/// The value after `name` in a space-separated line (`depth 3` gives 3).
fn after<'a>(line: &'a str, name: &str) -> Option<&'a str> {
    let mut words = line.split(' ');
    words.find(|w| *w == name)?;
    words.next()
}

/// Black's legal first moves: only e5 is empty, reached from e3 (straight), d4 and f4
/// (diagonally forward).
const FIRST_MOVES: [&str; 3] = ["d4-e5", "e3-e5", "f4-e5"];

#[test]
fn analyze_prints_each_depth_then_a_legal_best_move() {
    let out = ok(run(&["analyze", "--depth", "3", "--no-book"], ""));
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[0].starts_with("position B:"), "{out}");
    let infos = &lines[1..lines.len() - 1];
    let depths: Vec<&str> = infos.iter().map(|l| after(l, "depth").unwrap()).collect();
    assert_eq!(depths, ["1", "2", "3"], "{out}");
    for info in infos {
        let score = after(info, "score").unwrap();
        // Men with two decimals and a sign, or a forced result.
        assert!(
            (score.starts_with('+') || score.starts_with('-')) && score.contains('.')
                || score == "win"
                || score == "loss",
            "{info}"
        );
        for name in ["nodes", "nps", "time"] {
            let value = after(info, name).unwrap();
            assert!(value.parse::<f64>().is_ok(), "{name} in {info}");
        }
        assert!(info.contains(" pv "), "{info}");
    }
    let best = lines.last().unwrap();
    let mv = after(best, "bestmove").unwrap();
    assert!(FIRST_MOVES.contains(&mv), "{out}");
    // The last principal variation starts with the best move.
    assert_eq!(after(infos.last().unwrap(), "pv"), Some(mv), "{out}");
}

#[test]
fn analyze_after_moves_and_without_moves() {
    // After d4-e5 White's only move is f6xd4 (it must take the man on e5).
    let out = ok(run(
        &[
            "analyze",
            "--moves",
            "d4-e5",
            "--depth",
            "2",
            "--multipv",
            "3",
        ],
        "",
    ));
    assert!(
        out.ends_with("\nbestmove f6xd4\n") || out.contains("\nbestmove f6xd4 ponder "),
        "{out}"
    );
    // One legal move: one line per depth even with --multipv 3.
    assert!(!out.contains("multipv 2"), "{out}");
    // Black is blocked in this position (docs/rules.md, end of the game).
    let out = ok(run(
        &[
            "analyze",
            "--position",
            "B:Ba7:Wa9,b8,c9",
            "--nodes",
            "1000",
        ],
        "",
    ));
    assert!(
        out.ends_with("bestmove none (White wins: Black has no legal move)\n"),
        "{out}"
    );
    // Three legal moves and --multipv 2: two lines per depth.
    let out = ok(run(
        &["analyze", "--depth", "2", "--multipv", "2", "--no-book"],
        "",
    ));
    assert_eq!(out.matches(" multipv 1 ").count(), 2, "{out}");
    assert_eq!(out.matches(" multipv 2 ").count(), 2, "{out}");
    assert!(!out.contains(" multipv 3 "), "{out}");
}

#[test]
fn analyze_names_a_bad_move_and_bad_options() {
    // After d4-e5, f6-e5 is not legal: White must capture.
    let e = bad(run(
        &["analyze", "--moves", "d4-e5 f6-e5", "--depth", "2"],
        "",
    ));
    assert!(e.contains("move 2 (f6-e5)"), "{e}");
    let e = bad(run(&["analyze", "--moves", "e5-e6"], ""));
    assert!(e.contains("move 1 (e5-e6)"), "{e}");
    let e = bad(run(&["analyze", "--depth", "0"], ""));
    assert!(e.contains("--depth"), "{e}");
    let e = bad(run(&["analyze", "--position", "B:Bz1:W"], ""));
    assert!(e.contains("--position"), "{e}");
}

#[test]
fn engine_against_engine_plays_a_game_to_its_end() {
    let out = ok(run(&["play", "--engine", "both", "--level", "1"], ""));
    assert!(
        out.starts_with(
            "Kharbaga. Rules: standard. Black: engine (level 1). White: engine (level 1)."
        ),
        "{out}"
    );
    let result = out
        .lines()
        .find_map(|l| l.strip_prefix("Result: "))
        .expect("a result line");
    assert!(["1-0", "0-1", "1/2-1/2"].contains(&result), "{out}");
    assert!(out.contains("Game over. "), "{out}");
    assert!(out.contains(" (engine) plays "), "{out}");
    // Nobody was asked to type.
    assert!(
        !out.contains("Black >") && !out.contains("White >"),
        "{out}"
    );
}

#[test]
fn a_person_against_the_engine_with_undo_and_hint() {
    let script = "d4-e5\nundo\nhint\nquit\n";
    let out = ok(run(
        &[
            "play",
            "--engine",
            "white",
            "--first",
            "black",
            "--movetime",
            "50",
        ],
        script,
    ));
    assert!(
        out.contains("Black: human. White: engine (level 10)."),
        "{out}"
    );
    // After d4-e5 White's only move is f6xd4 (over e5 onto the emptied d4).
    // The position is in the opening book, and the engine says so.
    assert!(
        out.contains("White (engine) plays f6xd4 from the opening book: "),
        "{out}"
    );
    // Undo takes back the engine's reply and the person's move.
    assert!(
        out.contains("Took back f6xd4 (White) and d4-e5 (Black)."),
        "{out}"
    );
    let hint = out
        .lines()
        .find_map(|l| {
            l.strip_prefix("Black > Hint: ")
                .or(l.strip_prefix("Hint: "))
        })
        .expect("a hint");
    assert!(
        FIRST_MOVES
            .iter()
            .any(|m| hint.starts_with(&format!("{m} ("))),
        "{hint}"
    );
    assert!(out.contains("Game left unfinished after 0 plies"), "{out}");

    // The engine cannot be taken back alone: with only its move played, nothing of the
    // person's can be taken back.
    let out = ok(run(
        &[
            "play", "--black", "engine", "--first", "black", "--level", "1",
        ],
        "undo\nquit\n",
    ));
    assert!(
        out.contains("There is no move of yours to take back."),
        "{out}"
    );
    assert!(out.contains("Game left unfinished after 1 ply"), "{out}");
}

#[test]
fn the_engine_answers_a_draw_offer_by_its_score() {
    // One Black man against four White men: the engine (White) is far ahead and declines;
    // then Black resigns.
    let out = ok(run(
        &[
            "play",
            "--engine",
            "white",
            "--position",
            "B:Ba1:Wc9,e9,g9,i9",
            "--movetime",
            "50",
        ],
        "draw\nresign\n",
    ));
    assert!(out.contains("White declines the draw."), "{out}");
    assert!(out.contains("Result: 0-1"), "{out}");
    // Four Black men against one: the engine (White) is far behind and accepts.
    let out = ok(run(
        &[
            "play",
            "--engine",
            "white",
            "--position",
            "B:Ba1,c1,e1,g1:Wi9",
            "--movetime",
            "50",
        ],
        "draw\n",
    ));
    assert!(out.contains("Draw by agreement"), "{out}");
    assert!(out.contains("Result: 1/2-1/2"), "{out}");
}

#[test]
fn play_with_clocks_and_bad_seat_options() {
    let out = ok(run(
        &[
            "play", "--engine", "both", "--level", "2", "--time", "1+0.5",
        ],
        "",
    ));
    assert!(
        out.contains("Time control: 1:00.0 for each side, plus 0.5 s a move."),
        "{out}"
    );
    assert!(out.contains("Clocks: Black 1:00.0, White 1:00.0."), "{out}");
    assert!(out.contains("Result: "), "{out}");
    let e = bad(run(&["play", "--time", "0+5"], ""));
    assert!(e.contains("no time"), "{e}");
    let e = bad(run(&["play", "--time", "five"], ""));
    assert!(e.contains("'five' is not MIN+INC"), "{e}");
    let e = bad(run(&["play", "--engine", "both", "--black", "human"], ""));
    assert!(e.contains("cannot be used with"), "{e}");
    let e = bad(run(&["play", "--level", "11"], ""));
    assert!(e.contains("--level"), "{e}");
}

/// The wins, draws and losses of a match report.
fn wdl(out: &str) -> (u32, u32, u32) {
    let line = out
        .lines()
        .find_map(|l| l.strip_prefix("Result (first player's view): "))
        .expect("a result line");
    let n: Vec<u32> = line
        .split(", ")
        .map(|part| part.rsplit(' ').next().unwrap().parse().unwrap())
        .collect();
    (n[0], n[1], n[2])
}

// The matches below use openings 4 plies deep (quick to prepare) within 3 men: the start
// favours the first mover, and no 4-ply opening is within half a man.

#[test]
fn a_small_match_reports_the_score_and_writes_records() {
    let dir = std::env::temp_dir().join(format!("kharbaga-match-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pgn = dir.join("games.pdn");
    let out = ok(run(
        &[
            "match",
            "--first",
            "level=2",
            "--second",
            "random",
            "--games",
            "3",
            "--opening-plies",
            "4",
            "--opening-margin",
            "300",
            "--movetime",
            "20",
            "--sprt",
            "elo0=0,elo1=10",
            "--pgn",
            pgn.to_str().unwrap(),
        ],
        "",
    ));
    // Three games round up to two pairs.
    let (w, d, l) = wdl(&out);
    assert_eq!(w + d + l, 4, "{out}");
    assert!(out.contains("\nElo: "), "{out}");
    assert!(
        out.contains("\nSPRT elo0=0,elo1=10,alpha=0.05,beta=0.05: LLR "),
        "{out}"
    );
    assert!(
        out.contains("forfeits 0 (illegal moves 0, crashes 0, time-outs 0)"),
        "{out}"
    );
    let text = std::fs::read_to_string(&pgn).unwrap();
    let records = kharbaga::parse_many(&text).expect("the records read back");
    assert_eq!(records.len(), 4);
    // Each opening is played with both colours: the first player is Black, then White.
    assert_eq!(records[0].tag("Black"), Some("level=2"));
    assert_eq!(records[1].tag("White"), Some("level=2"));
    assert_eq!(
        records[0].game().moves()[..4],
        records[1].game().moves()[..4]
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_match_against_an_external_program() {
    let command = format!("{} engine", env!("CARGO_BIN_EXE_kharbaga"));
    let out = ok(run(
        &[
            "match",
            "--first",
            "level=1",
            "--second",
            "level=1",
            "--second-cmd",
            &command,
            "--games",
            "2",
            "--opening-plies",
            "4",
            "--opening-margin",
            "300",
            "--movetime",
            "20",
        ],
        "",
    ));
    let (w, d, l) = wdl(&out);
    assert_eq!(w + d + l, 2, "{out}");
    assert!(
        out.contains(&format!("Second: {command} (level=1).")),
        "{out}"
    );
    assert!(
        out.contains("forfeits 0 (illegal moves 0, crashes 0, time-outs 0)"),
        "{out}"
    );
    let e = bad(run(
        &[
            "match",
            "--second-cmd",
            "/nonexistent/engine",
            "--games",
            "2",
            "--opening-plies",
            "4",
            "--opening-margin",
            "300",
        ],
        "",
    ));
    assert!(e.contains("cannot start it"), "{e}");
    let e = bad(run(&["match", "--first", "level=11"], ""));
    assert!(
        e.contains("level must be a whole number from 1 to 10"),
        "{e}"
    );
    let e = bad(run(&["match", "--sprt", "elo0=5,elo1=0"], ""));
    assert!(e.contains("must be above"), "{e}");
}

#[test]
fn bench_prints_a_stable_node_count() {
    let nodes = |out: &str| -> u64 {
        out.lines()
            .find_map(|l| l.strip_prefix("nodes "))
            .expect("a node count")
            .parse()
            .unwrap()
    };
    let first = ok(run(&["bench", "--depth", "4"], ""));
    let second = ok(run(&["bench", "--depth", "4"], ""));
    assert!(nodes(&first) > 0, "{first}");
    // The node count is a signature: the same on every run.
    assert_eq!(nodes(&first), nodes(&second));
    assert!(first.contains("\nnps "), "{first}");
    // A deeper search visits more nodes.
    let deeper = ok(run(&["bench", "--depth", "5"], ""));
    assert!(nodes(&deeper) > nodes(&first), "{deeper}");
    // The table size and the threads are settings; two threads search the same positions.
    let wide = ok(run(
        &["bench", "--depth", "4", "--hash", "1", "--threads", "2"],
        "",
    ));
    assert!(wide.contains("\nhash 1 MiB\n"), "{wide}");
    assert!(wide.contains("\nthreads 2\n"), "{wide}");
    assert!(nodes(&wide) > 0, "{wide}");
    let e = bad(run(&["bench", "--threads", "0"], ""));
    assert!(e.contains("--threads"), "{e}");
}

#[test]
fn bench_playouts_report_speed_and_results() {
    let field = |out: &str, prefix: &str| -> String {
        out.lines()
            .find_map(|l| l.strip_prefix(prefix))
            .unwrap_or_else(|| panic!("no {prefix:?} line in {out}"))
            .to_string()
    };
    let args = [
        "bench",
        "--playouts",
        "2000",
        "--rules",
        "ludii",
        "--seed",
        "3",
    ];
    let out = ok(run(&args, ""));
    assert_eq!(field(&out, "playouts "), "2000");
    assert!(field(&out, "threads 1 ").contains("games/s "), "{out}");
    // The shares of the results add up to 100%.
    let results = field(&out, "results ");
    let total: f64 = results
        .split_whitespace()
        .filter_map(|w| w.strip_suffix('%'))
        .filter_map(|n| n.parse::<f64>().ok())
        .sum();
    assert!((total - 100.0).abs() < 0.05, "{results}");
    // Ludii's own random playouts under these rules last 192 plies on average (measured
    // with Ludii, docs/strength.md "Random playouts"): the same rules give the same length.
    let mean: f64 = field(&out, "plies mean ")
        .split_whitespace()
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!((180.0..205.0).contains(&mean), "{out}");
    // A seed repeats its games exactly.
    let again = ok(run(&args, ""));
    assert_eq!(field(&again, "results "), results);
    assert_eq!(field(&again, "plies mean "), field(&out, "plies mean "));
    let e = bad(run(&["bench", "--rules", "ludii"], ""));
    assert!(e.contains("--playouts"), "{e}");
    let e = bad(run(&["bench", "--playouts", "0"], ""));
    assert!(e.contains("--playouts"), "{e}");
}

#[test]
fn analyze_and_the_engine_play_from_the_opening_book() {
    // The start is in the book: its moves come at once with the book's scores, no nodes.
    let out = ok(run(&["analyze", "--multipv", "3"], ""));
    assert!(out.contains("\ninfo string book move\n"), "{out}");
    let infos: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("info depth"))
        .collect();
    assert_eq!(infos.len(), 3, "{out}");
    let mut played: Vec<&str> = infos.iter().map(|l| after(l, "pv").unwrap()).collect();
    played.sort_unstable();
    assert_eq!(played, FIRST_MOVES, "{out}");
    assert!(
        infos.iter().all(|l| after(l, "nodes") == Some("0")),
        "{out}"
    );
    let best = out
        .lines()
        .last()
        .unwrap()
        .strip_prefix("bestmove ")
        .unwrap();
    assert_eq!(after(infos[0], "pv"), Some(best), "{out}");
    // `book show` lists the same moves, best first.
    let shown = ok(run(&["book", "show"], ""));
    assert!(shown.starts_with(&format!("{best} ")), "{shown}");
    assert_eq!(shown.lines().count(), 3, "{shown}");
    // Out of the book (another rule set), the engine searches.
    let out = ok(run(&["analyze", "--rules", "sideways", "--depth", "2"], ""));
    assert!(!out.contains("book"), "{out}");
    let shown = ok(run(&["book", "show", "--position", "B:Ba1:Wi9"], ""));
    assert_eq!(shown, "not in the book\n");
}
