//! `kharbaga solve` run as a process: the value and its `result:` line, the proof file that
//! `verify-proof` accepts, a split at a frontier combined back (with only the lines reached
//! from the root), and bad input refused with a message.

mod common;

use common::run;
use std::path::PathBuf;
use std::process::Output;

fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).expect("UTF-8 output")
}

fn stderr(out: &Output) -> String {
    String::from_utf8(out.stderr.clone()).expect("UTF-8 output")
}

/// A fresh temporary directory for one test.
fn temp_dir(name: &str) -> PathBuf {
    common::temp_dir("solve", name)
}

/// From an engine game: White to move loses (the suite in the solver's tests/data).
const LOSS: &str = "B:Bh2,a3:Wb4,c5,e5,b8,h8,g9";

/// From an engine game: White to move wins, and each position 2 plies on solves at once.
const WIN: &str = "W:Bg1,b4,g7:Wi5,a7,a9,c9,g9";

#[test]
fn a_solved_position_ends_with_its_result_line_and_its_proof_holds() {
    let dir = temp_dir("proof");
    let proof = dir.join("p.txt.gz");
    let out = run(&[
        "solve",
        "--position",
        LOSS,
        "--proof",
        proof.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("Black to move loses"), "{text}");
    assert_eq!(
        text.lines().last(),
        Some(format!("result: {LOSS} loss").as_str())
    );
    let check = run(&["verify-proof", proof.to_str().unwrap()]);
    assert!(check.status.success(), "{}", stderr(&check));
    assert!(
        stdout(&check).contains("White wins from"),
        "{}",
        stdout(&check)
    );
}

#[test]
fn a_node_limit_gives_an_unknown_result() {
    let out = run(&["solve", "--nodes", "1", "--time", "5"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("unknown: the search stopped at its limit"),
        "{text}"
    );
    assert!(text.trim_end().ends_with(" unknown"), "{text}");
}

/// Splits `WIN` at 2 plies and solves each frontier position with a proof, in `dir`: the
/// files to combine (the frontier file, then each part's output and proof file).
fn solve_in_parts(dir: &std::path::Path) -> Vec<String> {
    let frontier = run(&["solve", "--position", WIN, "--frontier", "2"]);
    assert!(frontier.status.success(), "{}", stderr(&frontier));
    let listing = stdout(&frontier);
    assert_eq!(
        listing.lines().next(),
        Some(format!("# frontier: {WIN} plies 2").as_str())
    );
    let frontier_file = dir.join("frontier.txt");
    std::fs::write(&frontier_file, &listing).unwrap();
    let mut files = vec![frontier_file.to_str().unwrap().to_string()];
    for (i, pos) in listing.lines().skip(1).enumerate() {
        let proof = dir.join(format!("part-{i}.txt"));
        let out = run(&[
            "solve",
            "--position",
            pos,
            "--proof",
            proof.to_str().unwrap(),
        ]);
        assert!(out.status.success(), "{}", stderr(&out));
        let result = dir.join(format!("part-{i}.out"));
        std::fs::write(&result, stdout(&out)).unwrap();
        files.push(result.to_str().unwrap().to_string());
        if proof.exists() {
            files.push(proof.to_str().unwrap().to_string());
        }
    }
    assert!(files.len() > 2, "the frontier has positions");
    files
}

/// Combines `files` into the proof `root_proof`; returns the combine's output.
fn combine(files: &[String], root_proof: &std::path::Path) -> String {
    let mut args = vec![
        "solve",
        "--proof",
        root_proof.to_str().unwrap(),
        "--combine",
    ];
    args.extend(files.iter().map(String::as_str));
    let out = run(&args);
    assert!(out.status.success(), "{}", stderr(&out));
    stdout(&out)
}

#[test]
fn a_frontier_solved_in_parts_combines_into_the_value_and_a_proof() {
    let dir = temp_dir("split");
    let files = solve_in_parts(&dir);
    let root_proof = dir.join("root.txt");
    let out = combine(&files, &root_proof);
    assert!(out.contains(&format!("result: {WIN} win ")), "{out}");
    let check = run(&["verify-proof", root_proof.to_str().unwrap()]);
    assert!(check.status.success(), "{}", stderr(&check));
}

#[test]
fn a_combined_proof_has_only_the_lines_reached_from_its_root() {
    let dir = temp_dir("reached");
    let files = solve_in_parts(&dir);
    // A valid line no line of play from the root reaches, in a part's proof.
    let extra = format!("{LOSS} a3-a5");
    let part = files
        .iter()
        .find(|f| f.ends_with(".txt") && f.contains("part-"))
        .expect("a part with a proof");
    let mut text = std::fs::read_to_string(part).unwrap();
    text.push_str(&extra);
    text.push('\n');
    std::fs::write(part, text).unwrap();
    let root_proof = dir.join("root.txt");
    let out = combine(&files, &root_proof);
    let proof = std::fs::read_to_string(&root_proof).unwrap();
    assert!(!proof.contains(&extra), "{proof}");
    let lines = proof
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .count();
    assert!(
        out.contains(&format!("({lines} lines, win for White)")),
        "{out}"
    );
    let check = run(&["verify-proof", root_proof.to_str().unwrap()]);
    assert!(check.status.success(), "{}", stderr(&check));
    assert!(
        stdout(&check).contains(&format!("({lines} lines, ")),
        "{}",
        stdout(&check)
    );
    assert!(!stdout(&check).contains("unused"), "{}", stdout(&check));
}

#[test]
fn bad_input_is_refused_with_a_message() {
    let out = run(&["solve", "--position", "B:Bz9:Wd4"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("z9"), "{}", stderr(&out));

    let out = run(&["solve", "--moves", "d4-e5 e5-e7"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("move 2 (e5-e7)"), "{}", stderr(&out));

    let out = run(&["solve", "--combine", "/nonexistent/frontier.txt"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("/nonexistent/frontier.txt"),
        "{}",
        stderr(&out)
    );

    let dir = temp_dir("bad");
    let frontier = dir.join("frontier.txt");
    std::fs::write(
        &frontier,
        "# frontier: B:Bc3:Wd4 plies 2\nresult: B:Bq3 win\n",
    )
    .unwrap();
    let out = run(&["solve", "--combine", frontier.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("line 2: bad position"),
        "{}",
        stderr(&out)
    );

    let no_root = dir.join("parts.out");
    std::fs::write(&no_root, "result: B:Bc3:Wd4 win c3xe5\n").unwrap();
    let out = run(&["solve", "--combine", no_root.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("no frontier file"),
        "{}",
        stderr(&out)
    );
}

/// The nodes a solve's output reports.
fn nodes(text: &str) -> u64 {
    let line = text.lines().find(|l| l.contains(" nodes in ")).expect(text);
    line.split(' ').next().unwrap().parse().unwrap()
}

#[test]
fn a_hash_file_carries_the_table_to_the_next_solve_and_a_wrong_one_is_refused() {
    let dir = temp_dir("hash-file");
    let file = dir.join("table.khtt");
    let path = file.to_str().unwrap();
    let solve = |extra: &[&str]| {
        let mut args = vec!["solve", "--position", LOSS, "--hash-file", path];
        args.extend_from_slice(extra);
        run(&args)
    };
    let first = solve(&["--hash", "1"]);
    assert!(first.status.success(), "{}", stderr(&first));
    assert!(stdout(&first).contains("(new)"), "{}", stdout(&first));
    let saved = std::fs::read(&file).unwrap();
    assert_eq!((saved.len() - 40) % 24, 0, "a header and whole entries");
    assert!(saved.len() > 40 && saved.len() <= 40 + (1 << 20) / 64 * 3 / 8 * 24);

    // The second solve finds the root's value in the table it starts from.
    let second = solve(&["--hash", "1"]);
    assert!(second.status.success(), "{}", stderr(&second));
    let text = stdout(&second);
    let entries = (saved.len() - 40) / 24;
    assert!(
        text.contains(&format!("(an earlier solve's, {entries} entries)")),
        "{text}"
    );
    assert_eq!(
        text.lines().last(),
        Some(format!("result: {LOSS} loss").as_str())
    );
    assert!(
        nodes(&text) * 10 < nodes(&stdout(&first)),
        "{} nodes, then {}",
        nodes(&stdout(&first)),
        nodes(&text)
    );

    // Other rules, a damaged file: refused, and the file is kept as it was.
    let before = std::fs::read(&file).unwrap();
    let out = solve(&["--hash", "1", "--rules", "ludii"]);
    assert_eq!(out.status.code(), Some(2), "{}", stdout(&out));
    assert!(stderr(&out).contains(path), "{}", stderr(&out));
    assert!(stderr(&out).contains("other rules"), "{}", stderr(&out));
    assert!(std::fs::read(&file).unwrap() == before);
    let mut damaged = before.clone();
    damaged[40] ^= 0x40;
    std::fs::write(&file, &damaged).unwrap();
    let out = solve(&["--hash", "1"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("damaged"), "{}", stderr(&out));
}

/// From an engine game: White to move wins, in about 100,000 nodes without tables.
const LONGER_WIN: &str = "W:Ba1,g1,d2:Wb4,c7,b8,d8,h8,e9,g9";

#[test]
fn a_solve_stopped_at_a_limit_goes_on_from_its_resume_file() {
    let dir = temp_dir("resume");
    let file = dir.join("part.khtt");
    let path = file.to_str().unwrap();
    let solve = |position: &str, extra: &[&str]| {
        let mut args = vec!["solve", "--position", position, "--resume", path];
        args.extend_from_slice(extra);
        let out = run(&args);
        assert!(out.status.success(), "{}", stderr(&out));
        stdout(&out)
    };
    let whole = stdout(&run(&["solve", "--position", LONGER_WIN]));
    let half = (nodes(&whole) / 2).to_string();
    let first = solve(LONGER_WIN, &["--nodes", &half]);
    assert!(
        first.contains(&format!("resume file: {path} (new)")),
        "{first}"
    );
    assert!(
        first.ends_with(&format!("result: {LONGER_WIN} unknown\n")),
        "{first}"
    );

    // Run again without the limit: it starts from the first run's numbers, open entries
    // included. (It need not take fewer nodes than a whole solve: measured, from half of
    // this one it takes a few more, so only the entries read are checked.)
    let second = solve(LONGER_WIN, &[]);
    let entries = second
        .split("this position's earlier solve goes on: ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse::<u64>().ok());
    assert!(
        entries.is_some_and(|n| n > 0 && n <= nodes(&first)),
        "{second}"
    );
    assert!(
        second.contains(&format!("result: {LONGER_WIN} win ")),
        "{second}"
    );

    // Another position reads the file's solved entries only.
    let other = solve(LOSS, &[]);
    assert!(other.contains(" solved entries)"), "{other}");
    assert!(
        other.ends_with(&format!("result: {LOSS} loss\n")),
        "{other}"
    );
}

/// The frontier of `LONGER_WIN` at 2 plies, written to `dir/frontier.txt`: the listing
/// and the file.
fn longer_win_frontier(dir: &std::path::Path) -> (String, PathBuf) {
    let listing = stdout(&run(&[
        "solve",
        "--position",
        LONGER_WIN,
        "--frontier",
        "2",
    ]));
    let frontier = dir.join("frontier.txt");
    std::fs::write(&frontier, &listing).unwrap();
    (listing, frontier)
}

#[test]
fn a_combine_left_open_gives_each_needed_part_the_fewest_that_decide_the_root_through_it() {
    use kharbaga::{Position, Rules};
    let (listing, frontier) = longer_win_frontier(&temp_dir("through"));
    let out = stdout(&run(&["solve", "--combine", frontier.to_str().unwrap()]));
    let through: std::collections::HashMap<&str, (&str, &str)> = out
        .lines()
        .filter_map(|l| l.strip_prefix("needed: "))
        .map(|l| {
            let fields: Vec<&str> = l.split(' ').collect();
            assert_eq!(fields.len(), 3, "{l}");
            (fields[0], (fields[1], fields[2]))
        })
        .collect();
    assert_eq!(through.len(), listing.lines().count() - 1, "{out}");

    // Nothing solved yet: White wins through a move once all its replies are won (the
    // fewest for a move with a single reply: 1), and loses once every one of its 13 moves
    // has a reply lost (13): the fewer first, then the other. No position here is over or
    // repeated.
    let rules = Rules::standard();
    let root = Position::from_fen(LONGER_WIN).unwrap();
    let moves = root.legal_moves(&rules);
    assert_eq!(moves.len(), 13);
    let mut expected = std::collections::HashMap::new();
    let mut single = 0;
    for mv in &moves {
        let after = root.play(mv);
        let replies = after.legal_moves(&rules);
        single += usize::from(replies.len() == 1);
        for reply in &replies {
            let fewest = expected.entry(after.play(reply).to_fen()).or_insert(13);
            *fewest = replies.len().min(*fewest);
        }
    }
    assert!(single > 0);
    assert_eq!(expected.len(), through.len());
    for (leaf, fewest) in &expected {
        let (first, other) = (fewest.to_string(), 13.to_string());
        assert_eq!(
            through[leaf.as_str()],
            (first.as_str(), other.as_str()),
            "{leaf}: {out}"
        );
    }
}

/// Each answer of `kharbaga solve --serve` to `requests` (its output split at the `end`
/// lines), and its standard error.
fn serve(args: &[&str], requests: &str) -> (Vec<String>, String) {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_kharbaga"))
        .args(["solve", "--serve"])
        .args(args)
        .env("XDG_DATA_HOME", "/nonexistent/kharbaga-tests")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("kharbaga runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(requests.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let mut answers: Vec<String> = text.split_inclusive("end\n").map(String::from).collect();
    assert!(answers.iter().all(|a| a.ends_with("\nend\n")), "{text}");
    for a in &mut answers {
        a.truncate(a.len() - "end\n".len());
    }
    (answers, stderr(&out))
}

/// From an engine game, 14 pieces: open after hours.
const HARD: &str = "W:Ba1,e1,g1,i1,h2,a3,e5:Wa7,c7,b8,d8,a9,e9,i9";

#[test]
fn a_serving_solve_answers_each_request_with_the_table_of_those_before() {
    let dir = temp_dir("serve");
    let proof = dir.join("p.txt");
    let file = dir.join("table.khtt");
    let damaged = dir.join("damaged.khtt");
    std::fs::write(&damaged, "KHTT and not a table").unwrap();
    let requests = format!(
        "--position\t{LOSS}\t--proof\t{}\n--position\tnonsense\n\n\
         --position\t{HARD}\t--resume\t{}\n--position\t{LOSS}\n\
         --position\t{HARD}\t--nodes\t5000\n",
        proof.display(),
        damaged.display()
    );
    let (answers, _) = serve(
        &["--hash", "1", "--hash-file", file.to_str().unwrap()],
        &requests,
    );
    assert_eq!(
        answers.len(),
        5,
        "an answer a request, none for the empty line"
    );

    // The first as `kharbaga solve` answers it, with its proof.
    let alone = run(&["solve", "--hash", "1", "--position", LOSS]);
    let first = &answers[0];
    assert!(first.starts_with(&format!("solving {LOSS} ")), "{first}");
    assert!(first.contains("\ntable: 0 solved entries from the solves before\n"));
    assert_eq!(nodes(first), nodes(&stdout(&alone)), "{first}");
    assert!(
        first.ends_with(&format!("result: {LOSS} loss\n")),
        "{first}"
    );
    let check = run(&["verify-proof", proof.to_str().unwrap()]);
    assert!(check.status.success(), "{}", stderr(&check));

    // A request that cannot be read is refused with a message, and the next is answered.
    assert!(
        answers[1].starts_with("error: ") && answers[1].contains("nonsense"),
        "{}",
        answers[1]
    );
    assert_eq!(answers[1].lines().count(), 1, "{}", answers[1]);
    // A resume file that is not a table is refused, and the table stays as it was.
    let refused = answers[2].lines().last().unwrap_or_default();
    assert!(
        refused.starts_with("error: --resume ") && refused.contains("damaged.khtt"),
        "{}",
        answers[2]
    );

    // The same position again: its value is in the table the first left.
    let again = &answers[3];
    assert!(!again.contains("table: 0 solved"), "{again}");
    assert!(
        again.ends_with(&format!("result: {LOSS} loss\n")),
        "{again}"
    );
    assert!(nodes(again) * 10 < nodes(first), "{again}");
    assert!(
        answers[4].ends_with(&format!("result: {HARD} unknown\n")),
        "each request has its own limits: {}",
        answers[4]
    );

    // At the end of the input the table is saved; a server started from it knows the loss.
    assert!(std::fs::metadata(&file).unwrap().len() > 40);
    let (from_file, _) = serve(
        &["--hash", "1", "--hash-file", file.to_str().unwrap()],
        &format!("--position\t{LOSS}\n"),
    );
    assert!(
        !from_file[0].contains("table: 0 solved"),
        "{}",
        from_file[0]
    );
    assert!(nodes(&from_file[0]) * 10 < nodes(first), "{}", from_file[0]);
}

#[cfg(unix)]
#[test]
fn a_serving_solve_whose_parent_ends_stops_saves_its_table_and_ends() {
    use std::process::Command;
    use std::time::{Duration, Instant};
    let dir = temp_dir("serve-orphan");
    let file = dir.join("table.khtt");
    // The shell starts the server with a request of hours and an input left open, then is
    // killed: the server's parent is gone, but not the end of its input.
    let script = format!(
        "(printf -- '--position\\t{HARD}\\t--time\\t3600\\n'; sleep 30) | \
         '{}' solve --serve --hash 16 --hash-file '{}' >/dev/null & sleep 30",
        env!("CARGO_BIN_EXE_kharbaga"),
        file.display()
    );
    let mut shell = Command::new("sh")
        .args(["-c", &script])
        .env("XDG_DATA_HOME", "/nonexistent/kharbaga-tests")
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_secs(2));
    assert!(!file.exists(), "nothing saved while the solve runs");
    shell.kill().unwrap();
    shell.wait().unwrap();
    let start = Instant::now();
    while !file.exists() && start.elapsed() < Duration::from_secs(20) {
        std::thread::sleep(Duration::from_millis(200));
    }
    assert!(file.exists(), "the table is saved within seconds");
}

/// The combine's `leaf:` lines with the frontier of `LONGER_WIN` at 2 plies in `dir` and
/// `value` given to each frontier position by `value_of` (in `result:` lines).
fn combined_leaves(
    dir: &std::path::Path,
    value_of: impl Fn(&str) -> &'static str,
) -> (std::collections::HashSet<String>, String) {
    let (listing, frontier) = longer_win_frontier(dir);
    let results: String = listing
        .lines()
        .skip(1)
        .map(|p| format!("result: {p} {}\n", value_of(p)))
        .collect();
    let values = dir.join("parts.value");
    std::fs::write(&values, results).unwrap();
    let out = stdout(&run(&[
        "solve",
        "--combine",
        frontier.to_str().unwrap(),
        values.to_str().unwrap(),
    ]));
    let leaves = out
        .lines()
        .filter_map(|l| l.strip_prefix("leaf: "))
        .map(String::from)
        .collect();
    (leaves, out)
}

#[test]
fn a_decided_combine_lists_the_frontier_positions_its_proof_rests_on() {
    use kharbaga::{Position, Rules};
    use std::collections::HashSet;
    let rules = Rules::standard();
    let root = Position::from_fen(LONGER_WIN).unwrap();
    let moves = root.legal_moves(&rules);
    let (listing, _) = longer_win_frontier(&temp_dir("leaves"));
    let frontier: HashSet<String> = listing.lines().skip(1).map(String::from).collect();
    let under = |mv| -> Vec<String> {
        let after = root.play(mv);
        after
            .legal_moves(&rules)
            .iter()
            .map(|r| after.play(r).to_fen())
            .collect()
    };

    // White wins where every reply to its first move leaves White winning, and loses
    // everywhere else: the win rests on the frontier positions under that move alone (its
    // first move is the one a checker's walk tries first).
    let first: HashSet<String> = under(&moves[0])
        .into_iter()
        .filter(|p| frontier.contains(p))
        .collect();
    assert!(!first.is_empty() && first.len() < frontier.len());
    let (leaves, out) = combined_leaves(&temp_dir("leaves-win"), |p| {
        if first.contains(p) {
            "win"
        } else {
            "loss"
        }
    });
    assert!(out.contains(&format!("result: {LONGER_WIN} win ")), "{out}");
    assert_eq!(leaves, first, "{out}");
    assert!(
        out.contains(&format!(
            "rests on: {} of the {} frontier positions",
            first.len(),
            frontier.len()
        )),
        "{out}"
    );

    // White loses everywhere: the loss rests, under each of White's moves, on the position
    // after Black's first reply (when it is on the frontier, not over).
    let refutations: HashSet<String> = moves
        .iter()
        .map(|mv| under(mv)[0].clone())
        .filter(|p| frontier.contains(p))
        .collect();
    let (leaves, out) = combined_leaves(&temp_dir("leaves-loss"), |_| "loss");
    assert!(out.contains(&format!("result: {LONGER_WIN} loss")), "{out}");
    assert_eq!(leaves, refutations, "{out}");

    // Undecided: no leaf.
    let (leaves, out) = combined_leaves(&temp_dir("leaves-open"), |_| "unknown");
    assert!(out.contains(" unknown"), "{out}");
    assert!(leaves.is_empty(), "{out}");
}
