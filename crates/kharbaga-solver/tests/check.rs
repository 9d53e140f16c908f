//! The proof checker on proofs worked out by hand from the rules (each move list below was
//! read off `kharbaga moves`, each table value off `kharbaga tablebase probe`), on broken
//! copies of them, and on larger proofs written from the endgame tables.

use kharbaga::{Color, Position, Rules};
use kharbaga_solver::check::{
    check_file, check_proof, Claim, Failure, Malformed, ProofError, Verified,
};
use kharbaga_tablebase::build::{build, BuildOptions};
use kharbaga_tablebase::tablebase::Tablebase;
use kharbaga_tablebase::value::Value;
use std::collections::{HashMap, HashSet};
use std::path::PathBuf;
use std::sync::OnceLock;

/// The standard tables of up to 3 pieces, built once in a temporary directory.
fn tables_dir() -> &'static PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir =
            std::env::temp_dir().join(format!("kharbaga-check-tables-{}", std::process::id()));
        build(
            &BuildOptions::new(Rules::standard(), 3, dir.clone()),
            &|_| {},
            &mut |_| {},
        )
        .unwrap();
        dir
    })
}

/// The tables opened under `rules` (their draw rules do not change the tables).
fn tables(rules: &str) -> Tablebase {
    Tablebase::open(tables_dir(), rules.parse().unwrap()).unwrap()
}

fn check(text: &str, rules: &str, tables: Option<&Tablebase>) -> Result<Verified, ProofError> {
    check_proof(text.as_bytes(), &rules.parse().unwrap(), tables)
}

fn pos(s: &str) -> Position {
    Position::from_fen(s).unwrap()
}

/// The failure of a proof that does not hold.
fn failure(r: Result<Verified, ProofError>) -> Failure {
    match r {
        Err(ProofError::Fails(f)) => {
            assert!(!f.to_string().is_empty());
            *f
        }
        other => panic!("expected a failure, got {other:?}"),
    }
}

/// The line and problem of a malformed file.
fn malformed(r: Result<Verified, ProofError>) -> (u64, Malformed) {
    match r {
        Err(ProofError::Malformed { line, problem }) => (line, problem),
        other => panic!("expected a malformed file, got {other:?}"),
    }
}

/// Black: c3-d4, then White's man must step next to a Black man and is taken:
/// d6-c5 d4xb6, d6-e5 e3xe7 (or d4xf6). Three plies at most.
const SMALL_WIN: &str = "\
# kharbaga proof
# rules: standard
# claim: win
B:Bc3,e3:Wd6 c3-d4
W:Bd4,e3:Wd6 all
B:Bd4,e3:Wc5 d4xb6

B:Bd4,e3:We5 e3xe7
";

#[test]
fn a_small_win_holds() {
    let v = check(SMALL_WIN, "standard", None).unwrap();
    assert_eq!(v.root, pos("B:Bc3,e3:Wd6"));
    assert_eq!((v.prover, v.claim), (Color::Black, Claim::Win));
    assert_eq!((v.lines, v.unused), (4, 0));
    // The four lines and the two ends (White without pieces).
    assert_eq!(v.positions, 6);
    assert_eq!(v.longest, 3);
    assert_eq!(
        v.to_string(),
        "standard, Black wins from B:Bc3,e3:Wd6 (4 lines, 6 positions, longest line 3 plies)"
    );
    // The same rules written otherwise, and no rules comment at all.
    let other = SMALL_WIN.replace("# rules: standard", "#rules: standard,no-progress=100");
    assert!(check(&other, "standard", None).is_ok());
    let none = SMALL_WIN.replace("# rules: standard\n", "");
    assert!(check(&none, "standard,repetition=no", None).is_ok());
}

#[test]
fn a_loss_is_the_opponents_win_with_an_all_root() {
    // White to move loses: d6-c5 c3xc7, d6-e5 e3xe7.
    let proof = "\
W:Bc3,e3:Wd6 all
B:Bc3,e3:Wc5 c3xc7
B:Bc3,e3:We5 e3xe7
B:Bc3:Wd6 c3-d4
";
    let v = check(proof, "standard", None).unwrap();
    assert_eq!((v.prover, v.claim), (Color::Black, Claim::Win));
    assert_eq!((v.lines, v.unused, v.positions, v.longest), (4, 1, 5, 2));
    assert!(
        v.to_string()
            .contains("(4 lines of which 1 unused, 5 positions"),
        "{v}"
    );
    // A root whose side to move has no move at all: with a move line the prover has lost,
    // with `all` it has won.
    match failure(check("B:Ba7:Wa9,b8,c9 a7-a9\n", "standard", None)) {
        Failure::ProverBlocked {
            step,
            position,
            prover,
        } => {
            assert_eq!(
                (step, position, prover),
                (None, pos("B:Ba7:Wa9,b8,c9"), Color::Black)
            );
        }
        f => panic!("{f}"),
    }
    let v = check("B:Ba7:Wa9,b8,c9 all", "standard", None).unwrap();
    assert_eq!((v.prover, v.positions, v.longest), (Color::White, 1, 0));
}

#[test]
fn a_dropped_reply_is_not_covered() {
    let proof = SMALL_WIN.replace("B:Bd4,e3:We5 e3xe7\n", "");
    match failure(check(&proof, "standard", None)) {
        Failure::NotCovered { step, position } => {
            assert_eq!(position, pos("B:Bd4,e3:We5"));
            assert_eq!(
                (step.from, step.line, step.mv.as_str()),
                (pos("W:Bd4,e3:Wd6"), 5, "d6-e5")
            );
        }
        f => panic!("{f}"),
    }
}

#[test]
fn a_changed_move_is_rejected() {
    // Not legal: a man steps one point.
    let proof = SMALL_WIN.replace("c3-d4", "c3-c7");
    match failure(check(&proof, "standard", None)) {
        Failure::IllegalMove {
            position,
            line,
            text,
            ..
        } => {
            assert_eq!(
                (position, line, text.as_str()),
                (pos("B:Bc3,e3:Wd6"), 4, "c3-c7")
            );
        }
        f => panic!("{f}"),
    }
    // Legal but not what the proof covers: after e3-f4 there is no line.
    let proof = SMALL_WIN.replace("c3-d4", "e3-f4");
    match failure(check(&proof, "standard", None)) {
        Failure::NotCovered { step, position } => {
            assert_eq!(position, pos("W:Bc3,f4:Wd6"));
            assert_eq!((step.line, step.mv.as_str()), (4, "e3-f4"));
        }
        f => panic!("{f}"),
    }
    // Legal but drawing, by the tables: a1-c3 instead of g9-b4.
    let tb = tables("standard");
    let proof = "B:BKa1,Kg9:WKd2 a1-c3\n";
    match failure(check(proof, "standard", Some(&tb))) {
        Failure::TableValue {
            position,
            value,
            claim,
            ..
        } => {
            assert_eq!(
                (position, value, claim),
                (pos("W:BKc3,Kg9:WKd2"), Value::Draw, Claim::Win)
            );
        }
        f => panic!("{f}"),
    }
    // A move written in its short form is read like `kharbaga play` reads it: c3xe5xg7.
    let v = check("B:Bc3:Wd4,f6 c3xg7\n", "standard", None).unwrap();
    assert_eq!((v.positions, v.longest), (2, 1));
}

#[test]
fn a_line_of_the_wrong_kind_is_rejected() {
    let proof = SMALL_WIN.replace("W:Bd4,e3:Wd6 all", "W:Bd4,e3:Wd6 d6-c5");
    match failure(check(&proof, "standard", None)) {
        Failure::KindMismatch {
            position,
            line,
            step,
            ..
        } => {
            assert_eq!((position, line), (pos("W:Bd4,e3:Wd6"), 5));
            assert_eq!(step.unwrap().mv, "c3-d4");
        }
        f => panic!("{f}"),
    }
    let proof = SMALL_WIN.replace("B:Bd4,e3:Wc5 d4xb6", "B:Bd4,e3:Wc5 all");
    assert!(matches!(
        failure(check(&proof, "standard", None)),
        Failure::KindMismatch { line: 6, .. }
    ));
}

/// Black's Mullahs shuffle i7-g9-i7 while White's Mullah goes b4-d2-b4; every other White
/// move can be taken at once (the tables: a loss in 2 for White).
const CYCLE: &str = "\
B:BKa1,Ki7:WKb4 i7-g9
W:BKa1,Kg9:WKb4 all
B:BKa1,Kg9:WKd2 g9-i7
W:BKa1,Ki7:WKd2 all
";

#[test]
fn a_cycle_breaks_a_win_proof_but_not_a_hold() {
    let tb = tables("standard");
    match failure(check(CYCLE, "standard", Some(&tb))) {
        Failure::Cycle {
            step,
            position,
            line,
        } => {
            assert_eq!((position, line), (pos("B:BKa1,Ki7:WKb4"), 1));
            assert_eq!((step.line, step.mv.as_str()), (4, "d2-b4"));
        }
        f => panic!("{f}"),
    }
    let hold = format!("# claim: hold\n{CYCLE}");
    let v = check(&hold, "standard", Some(&tb)).unwrap();
    assert_eq!(
        (v.prover, v.claim, v.lines, v.longest),
        (Color::Black, Claim::Hold, 4, 4)
    );
    // Breaking the cycle with the tables' fastest win makes it a win: g9-b4, a win in 3.
    let win = CYCLE.replace("g9-i7", "g9-b4");
    let v = check(&win, "standard", Some(&tb)).unwrap();
    assert_eq!((v.unused, v.longest), (1, 3));
}

#[test]
fn a_hold_with_a_cycle_of_two_mullahs() {
    // Mullah against Mullah: Black goes a1-c1-a1, White i9-g9-i9, and back to the root.
    // Every other White move is a draw or a loss for White, by the tables.
    let proof = "\
# claim: hold
B:BKa1:WKi9 a1-c1
W:BKc1:WKi9 all
B:BKc1:WKg9 c1-a1
W:BKa1:WKg9 all
";
    let tb = tables("standard,no-progress=off");
    let v = check(proof, "standard,no-progress=off", Some(&tb)).unwrap();
    assert_eq!(
        (v.prover, v.claim, v.lines, v.unused),
        (Color::Black, Claim::Hold, 4, 0)
    );
    // The four lines and the other 15 + 15 White moves.
    assert_eq!((v.positions, v.longest), (34, 4));
    assert!(
        v.to_string()
            .contains("Black holds at least a draw from B:BKa1:WKi9"),
        "{v}"
    );
    // Without the tables the other White moves are not covered; as a win the draws fail.
    assert!(matches!(
        failure(check(proof, "standard,no-progress=off", None)),
        Failure::NotCovered { .. }
    ));
    let win = proof.replace("# claim: hold", "# claim: win");
    assert!(matches!(
        failure(check(&win, "standard,no-progress=off", Some(&tb))),
        Failure::TableValue {
            value: Value::Draw,
            claim: Claim::Win,
            ..
        }
    ));
}

#[test]
fn a_hold_ends_at_the_no_progress_limit() {
    // After a1-c1 and any White slide, two plies without progress: drawn with a limit of 2.
    let proof = "# claim: hold\nB:BKa1:WKi9 a1-c1\nW:BKc1:WKi9 all\n";
    let v = check(proof, "standard,no-progress=2", None).unwrap();
    assert_eq!((v.positions, v.longest), (2 + 16, 2));
    assert!(matches!(
        failure(check(proof, "standard,no-progress=3", None)),
        Failure::NotCovered { .. }
    ));
}

/// Black d2-f4 leaves White's Mullah on h2 only h2-i3 and h2-g1, and either is taken by
/// i1's Mullah: two plies without progress before the capture.
const QUIET_WIN: &str = "\
B:BKi1,Kd2,Kg3:WKh2 d2-f4
W:BKi1,Kf4,Kg3:WKh2 all
B:BKi1,Kf4,Kg3:WKi3 i1xi5
B:BKi1,Kf4,Kg3:WKg1 i1xe1
";

#[test]
fn the_no_progress_limit_bounds_a_win() {
    assert!(check(QUIET_WIN, "standard", None).is_ok());
    assert!(check(QUIET_WIN, "standard,no-progress=3", None).is_ok());
    match failure(check(QUIET_WIN, "standard,no-progress=2", None)) {
        Failure::NoProgress {
            step, count, limit, ..
        } => {
            assert_eq!((count, limit), (2, 2));
            assert_eq!(step.from, pos("W:BKi1,Kf4,Kg3:WKh2"));
        }
        f => panic!("{f}"),
    }
    // A rules comment must agree with the rules of the check.
    let commented = format!("# rules: standard,no-progress=2\n{QUIET_WIN}");
    let (line, problem) = malformed(check(&commented, "standard", None));
    assert_eq!(line, 1);
    assert!(
        matches!(problem, Malformed::RulesMismatch { .. }),
        "{problem}"
    );
}

#[test]
fn table_leaves() {
    // White to move loses: either step is taken (the tables: a win in 1 for Black).
    let tb = tables("standard");
    let v = check("W:Bd4:Wd6 all\n", "standard", Some(&tb)).unwrap();
    assert_eq!(
        (v.prover, v.lines, v.positions, v.longest),
        (Color::Black, 1, 3, 1)
    );
    assert!(matches!(
        failure(check("W:Bd4:Wd6 all\n", "standard", None)),
        Failure::NotCovered { .. }
    ));
    // g9-b4 leaves a win in 2 plies after one quiet ply: 1 + 2 must not pass the limit.
    let proof = "B:BKa1,Kg9:WKd2 g9-b4\n";
    assert!(check(
        proof,
        "standard,no-progress=3",
        Some(&tables("standard,no-progress=3"))
    )
    .is_ok());
    let tb2 = tables("standard,no-progress=2");
    match failure(check(proof, "standard,no-progress=2", Some(&tb2))) {
        Failure::TableTooLong {
            position,
            plies,
            count,
            limit,
            ..
        } => {
            assert_eq!(
                (position, plies, count, limit),
                (pos("W:BKa1,Kb4:WKd2"), 2, 1, 2)
            );
        }
        f => panic!("{f}"),
    }
    // A hold accepts a table draw, not a table loss.
    let hold = "# claim: hold\nB:BKa1:WKi9 a1-c1\n";
    assert!(check(hold, "standard", Some(&tb)).is_ok());
    let lose = "# claim: hold\nB:BKa1:WKi9 a1-b2\n";
    assert!(matches!(
        failure(check(lose, "standard", Some(&tb))),
        Failure::TableValue {
            claim: Claim::Hold,
            ..
        }
    ));
    // ... unless the no-progress count has reached the limit there: the game is drawn first.
    let tb1 = tables("standard,no-progress=1");
    assert!(check(lose, "standard,no-progress=1", Some(&tb1)).is_ok());
}

/// A proof text, the line expected in its error, and whether the problem is the expected one.
type MalformedCase = (&'static str, u64, fn(&Malformed) -> bool);

#[test]
fn malformed_files_name_the_line() {
    let cases: [MalformedCase; 9] = [
        ("B:Bc3,e3:Wd6\n", 1, |m| matches!(m, Malformed::MissingMove)),
        ("# c\nB:Bz3,e3:Wd6 c3-d4\n", 2, |m| {
            matches!(m, Malformed::BadPosition { .. })
        }),
        ("B:Bc3,e3:Wd6 c3-\n", 1, |m| {
            matches!(m, Malformed::BadMove { .. })
        }),
        ("B:Bc3,e3:Wd6 c3-d4 d6-c5\n", 1, |m| {
            matches!(m, Malformed::ExtraField { .. })
        }),
        ("# claim: draw\nB:Bc3,e3:Wd6 c3-d4\n", 1, |m| {
            matches!(m, Malformed::BadClaim { .. })
        }),
        ("# rules: standrd\n", 1, |m| {
            matches!(m, Malformed::BadRules { .. })
        }),
        ("# rules: ludii\n", 1, |m| {
            matches!(m, Malformed::RulesMismatch { .. })
        }),
        ("# claim: win\n# claim: win\n", 2, |m| {
            matches!(m, Malformed::RepeatedComment { first_line: 1, .. })
        }),
        ("# only comments\n\n", 0, |m| matches!(m, Malformed::NoRoot)),
    ];
    for (text, line, is) in cases {
        let (found, problem) = malformed(check(text, "standard", None));
        assert_eq!(found, line, "{text}: {problem}");
        assert!(is(&problem), "{text}: {problem}");
    }
    let e = check(
        &format!("{SMALL_WIN}B:Bd4,e3:Wc5 d4xb6\n"),
        "standard",
        None,
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "line 9: a second line for B:Be3,d4:Wc5 (the first is on line 6)"
    );
    assert!(!e.is_failure());
    let (line, problem) = malformed(check_proof(&b"B:Bc3 \xff\n"[..], &Rules::standard(), None));
    assert_eq!((line, problem), (1, Malformed::NotUtf8));
}

#[test]
fn gzip_files_are_read_back() {
    use flate2::write::GzEncoder;
    use std::io::Write;
    let dir = std::env::temp_dir().join(format!("kharbaga-check-gz-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("proof.txt.gz");
    let mut gz = GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(SMALL_WIN.as_bytes()).unwrap();
    std::fs::write(&path, gz.finish().unwrap()).unwrap();
    let v = check_file(&path, &Rules::standard(), None).unwrap();
    assert_eq!((v.lines, v.positions, v.longest), (4, 6, 3));
    // The same bytes without the .gz name are not a proof file.
    let plain = dir.join("proof.txt");
    std::fs::copy(&path, &plain).unwrap();
    assert!(check_file(&plain, &Rules::standard(), None).is_err());
    // A truncated gzip file cannot be read.
    let bytes = std::fs::read(&path).unwrap();
    std::fs::write(&path, &bytes[..bytes.len() - 10]).unwrap();
    let e = check_file(&path, &Rules::standard(), None).unwrap_err();
    assert!(matches!(e, ProofError::Read { path: Some(_), .. }), "{e}");
    let missing = check_file(&dir.join("none.txt"), &Rules::standard(), None).unwrap_err();
    assert!(missing.to_string().contains("none.txt"), "{missing}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A win proof written from the tables: the fastest win where the prover is to move, every
/// reply where the opponent is; a line for every position reached but the game ends.
fn proof_from_tables(tb: &Tablebase, root: Position, rules: &Rules) -> String {
    let prover = root.turn();
    let mut out = String::new();
    let mut seen = HashSet::new();
    let mut stack = vec![root];
    while let Some(p) = stack.pop() {
        if !seen.insert(p) || p.legal_moves(rules).is_empty() {
            continue;
        }
        if p.turn() == prover {
            let (mv, _) = tb.moves(&p).unwrap()[0];
            out.push_str(&format!("{p} {mv}\n"));
            stack.push(p.play(&mv));
        } else {
            out.push_str(&format!("{p} all\n"));
            stack.extend(p.legal_moves(rules).iter().map(|m| p.play(m)));
        }
    }
    out
}

/// The highest no-progress count at a position that is not a game end, over every line of
/// play of a proof without cycles: counts pushed forward until nothing changes.
fn worst_count(text: &str, rules: &Rules) -> u32 {
    let lines: HashMap<Position, &str> = text
        .lines()
        .map(|l| l.split_once(' ').unwrap())
        .map(|(p, m)| (pos(p), m))
        .collect();
    let root = pos(text.split_once(' ').unwrap().0);
    let mut count: HashMap<Position, u32> = HashMap::from([(root, 0)]);
    let mut worst = 0;
    loop {
        let mut changed = false;
        for (p, m) in &lines {
            let Some(&q) = count.get(p) else { continue };
            let moves = match *m {
                "all" => p.legal_moves(rules),
                m => vec![p.parse_move(rules, m).unwrap()],
            };
            for mv in moves {
                let c = p.play(&mv);
                let qc = if p.is_progress(&mv) { 0 } else { q + 1 };
                if c.legal_moves(rules).is_empty() {
                    continue;
                }
                worst = worst.max(qc);
                if count.get(&c).map_or(true, |&old| qc > old) {
                    count.insert(c, qc);
                    changed = true;
                }
            }
        }
        if !changed {
            return worst;
        }
    }
}

#[test]
fn a_proof_from_the_tables_meets_the_limit_exactly() {
    let tb = tables("standard");
    let rules = Rules::standard();
    // The longest win of two Mullahs against one (13 plies; found by probing them all).
    let root = pos("B:BKd2,Ke7:WKi7");
    assert_eq!(tb.probe(&root).unwrap(), Value::Win(13));
    let proof = proof_from_tables(&tb, root, &rules);
    let v = check(&proof, "standard", None).unwrap();
    assert_eq!(v.longest, 13);
    assert_eq!((v.lines, v.unused), (proof.lines().count() as u64, 0));
    assert!(v.lines > 100, "{v}");
    let worst = worst_count(&proof, &rules);
    assert_eq!(worst, 11);
    let under = |l: u32| check(&proof, &format!("standard,no-progress={l}"), None);
    assert!(under(worst + 1).is_ok());
    match failure(under(worst)) {
        Failure::NoProgress { count, limit, .. } => assert_eq!((count, limit), (worst, worst)),
        f => panic!("{f}"),
    }
    assert!(under(worst - 1).is_err());
}
