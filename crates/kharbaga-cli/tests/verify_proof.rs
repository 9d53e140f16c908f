//! `kharbaga verify-proof` run as a process: its summary line and its three exit statuses.
//! The proofs are worked out by hand from the rules (see the checker's own tests in
//! crates/kharbaga-solver/tests/check.rs).

mod common;

use common::run;
use std::path::{Path, PathBuf};
use std::process::Output;

/// Black: c3-d4, then White's man must step next to a Black man and is taken.
const SMALL_WIN: &str = "\
# kharbaga proof
# rules: standard
# claim: win
B:Bc3,e3:Wd6 c3-d4
W:Bd4,e3:Wd6 all
B:Bd4,e3:Wc5 d4xb6
B:Bd4,e3:We5 e3xe7
";

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).expect("UTF-8 output")
}

/// A fresh temporary directory for one test.
fn temp_dir(name: &str) -> PathBuf {
    common::temp_dir("verify-proof", name)
}

/// Writes `contents` to `name` in `dir` and gives its path as a string.
fn write(dir: &Path, name: &str, contents: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, contents).unwrap();
    path.to_str().unwrap().to_string()
}

/// Asserts the exit status and that the other stream is empty; returns the message.
fn status(o: &Output, code: i32) -> String {
    assert_eq!(
        o.status.code(),
        Some(code),
        "stdout: {}\nstderr: {}",
        text(&o.stdout),
        text(&o.stderr)
    );
    if code == 0 {
        assert!(o.stderr.is_empty(), "{}", text(&o.stderr));
        text(&o.stdout)
    } else {
        assert!(o.stdout.is_empty(), "{}", text(&o.stdout));
        text(&o.stderr)
    }
}

#[test]
fn a_proof_that_holds_exits_0_with_a_summary() {
    let dir = temp_dir("holds");
    let file = write(&dir, "win.txt", SMALL_WIN);
    let out = status(&run(&["verify-proof", &file]), 0);
    assert_eq!(
        out,
        "proof holds: standard, Black wins from B:Bc3,e3:Wd6 \
         (4 lines, 6 positions, longest line 3 plies)\n"
    );
    // The same proof under rules given as a string and an override.
    let no_comment = write(
        &dir,
        "plain.txt",
        &SMALL_WIN.replace("# rules: standard\n", ""),
    );
    let args = [
        "verify-proof",
        "--rules",
        "ludii",
        "--rule",
        "chains=yes",
        &no_comment,
    ];
    assert!(status(&run(&args), 0).starts_with("proof holds: ludii,chains=yes, Black wins"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_proof_that_does_not_hold_exits_1() {
    let dir = temp_dir("fails");
    let dropped = write(
        &dir,
        "dropped.txt",
        &SMALL_WIN.replace("B:Bd4,e3:We5 e3xe7\n", ""),
    );
    let err = status(&run(&["verify-proof", &dropped]), 1);
    assert!(err.contains("dropped.txt"), "{err}");
    assert!(err.contains("line 5: after d6-e5"), "{err}");
    assert!(err.contains("not covered"), "{err}");
    // Two quiet plies before the capture: drawn under a limit of 2.
    let quiet = write(
        &dir,
        "quiet.txt",
        "B:BKi1,Kd2,Kg3:WKh2 d2-f4\nW:BKi1,Kf4,Kg3:WKh2 all\n\
         B:BKi1,Kf4,Kg3:WKi3 i1xi5\nB:BKi1,Kf4,Kg3:WKg1 i1xe1\n",
    );
    status(&run(&["verify-proof", &quiet]), 0);
    let err = status(
        &run(&["verify-proof", "--rule", "no-progress=2", &quiet]),
        1,
    );
    assert!(err.contains("the limit is 2"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn table_leaves_need_the_tables() {
    let dir = temp_dir("tables");
    let tables = dir.join("tables");
    let tables = tables.to_str().unwrap();
    let gen = ["tablebase", "generate", "--pieces", "2", "--dir", tables];
    assert_eq!(run(&gen).status.code(), Some(0));
    // White to move loses: either step of the man on d6 is taken.
    let file = write(&dir, "leaf.txt", "W:Bd4:Wd6 all\n");
    let out = status(&run(&["verify-proof", "--tables", tables, &file]), 0);
    assert!(
        out.contains("Black wins from W:Bd4:Wd6 (1 line, 3 positions, longest line 1 ply)"),
        "{out}"
    );
    let err = status(&run(&["verify-proof", &file]), 1);
    assert!(err.contains("no table holds it"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_unusable_file_or_bad_arguments_exit_2() {
    let dir = temp_dir("bad");
    let bad = write(&dir, "bad.txt", "B:Bc3,e3:Wd6 c3-d4\nW:Bd4,e3:Wd6\n");
    let err = status(&run(&["verify-proof", &bad]), 2);
    assert!(err.contains("bad.txt: line 2:"), "{err}");
    let other_rules = write(&dir, "ludii.txt", &SMALL_WIN.replace("standard", "ludii"));
    let err = status(&run(&["verify-proof", &other_rules]), 2);
    assert!(err.contains("for the rules ludii"), "{err}");
    let missing = dir.join("missing.txt");
    let err = status(&run(&["verify-proof", missing.to_str().unwrap()]), 2);
    assert!(err.contains("missing.txt"), "{err}");
    let good = write(&dir, "win.txt", SMALL_WIN);
    status(&run(&["verify-proof", "--rules", "standrd", &good]), 2);
    status(
        &run(&["verify-proof", "--tables", "/nonexistent/tables", &good]),
        2,
    );
    status(&run(&["verify-proof"]), 2);
    std::fs::remove_dir_all(&dir).unwrap();
}
