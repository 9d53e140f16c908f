//! The solver's proofs, checked by the independent checker (`kharbaga_solver::check`, which
//! shares no code with the search): wins, losses and draws from engine games, and the same
//! proofs broken on purpose (a reply dropped, a move changed), which the checker rejects.

use kharbaga::{Color, Position, Rules};
use kharbaga_solver::check::{check_proof, Claim as CheckedClaim, ProofError};
use kharbaga_solver::dfpn::Limits;
use kharbaga_solver::extract::Claim;
use kharbaga_solver::proof_file::write_proof;
use kharbaga_solver::solve::{Proof, Solution, Solver, Verdict};
use kharbaga_solver::tt::Tt;
use kharbaga_tablebase::build::{build, BuildOptions};
use kharbaga_tablebase::tablebase::Tablebase;
use std::path::PathBuf;
use std::sync::OnceLock;

/// The standard tables of up to 3 pieces, built once in a temporary directory.
fn tables() -> &'static Tablebase {
    static TB: OnceLock<Tablebase> = OnceLock::new();
    TB.get_or_init(|| {
        let dir: PathBuf =
            std::env::temp_dir().join(format!("kharbaga-proof-tables-{}", std::process::id()));
        build(
            &BuildOptions::new(Rules::standard(), 3, dir.clone()),
            &|_| {},
            &mut |_| {},
        )
        .unwrap();
        Tablebase::open(&dir, Rules::standard()).unwrap()
    })
}

fn solve(fen: &str) -> (Position, Solution) {
    solve_with(fen, None)
}

fn solve_with(fen: &str, tables: Option<&Tablebase>) -> (Position, Solution) {
    let pos = Position::from_fen(fen).unwrap();
    let solver = Solver {
        rules: Rules::standard(),
        tables,
        limits: Limits {
            nodes: Some(3_000_000),
            ..Limits::default()
        },
        proofs: true,
    };
    let s = solver.solve(&pos, &mut Tt::new(64), &mut |_| {}).unwrap();
    (pos, s)
}

fn text(proof: &Proof) -> String {
    let mut out = Vec::new();
    write_proof(&mut out, &Rules::standard(), proof).unwrap();
    String::from_utf8(out).unwrap()
}

fn check(text: &str) -> Result<kharbaga_solver::check::Verified, ProofError> {
    check_with(text, None)
}

fn check_with(
    text: &str,
    tables: Option<&Tablebase>,
) -> Result<kharbaga_solver::check::Verified, ProofError> {
    check_proof(text.as_bytes(), &Rules::standard(), tables)
}

/// From engine games (`examples/game_positions.rs`): White to move wins.
const WIN: &str = "W:Ba1,g1,d2:Wb4,c7,b8,d8,h8,e9,g9";
/// Black to move loses.
const LOSS: &str = "B:Bh2,a3:Wb4,c5,e5,b8,h8,g9";

#[test]
fn a_win_and_a_loss_are_proven_and_their_proofs_hold() {
    let (pos, s) = solve(WIN);
    assert!(matches!(s.verdict, Verdict::Win(_)), "{:?}", s.verdict);
    assert_eq!(s.proofs.len(), 1);
    let verified = check(&text(&s.proofs[0])).unwrap();
    assert_eq!(verified.root, pos);
    assert_eq!(verified.prover, Color::White);
    assert_eq!(verified.claim, CheckedClaim::Win);
    let Verdict::Win(mv) = s.verdict else {
        unreachable!()
    };
    assert_eq!(
        s.proofs[0].lines[0].1,
        Some(mv),
        "the root line plays the winning move"
    );

    let (pos, s) = solve(LOSS);
    assert_eq!(s.verdict, Verdict::Loss);
    let proof = &s.proofs[0];
    assert_eq!(proof.prover, Color::White);
    assert_eq!(
        proof.lines[0],
        (pos, None),
        "a loss is the opponent's win: `all` at the root"
    );
    assert_eq!(check(&text(proof)).unwrap().prover, Color::White);
}

#[test]
fn broken_proofs_are_rejected() {
    let (_, s) = solve(WIN);
    let good = text(&s.proofs[0]);
    let lines: Vec<&str> = good.lines().collect();

    // Drop a reply: the first `all` line after the root.
    let all = lines.iter().position(|l| l.ends_with(" all")).unwrap();
    let dropped: String = lines
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != all)
        .map(|(_, l)| format!("{l}\n"))
        .collect();
    assert!(matches!(check(&dropped), Err(ProofError::Fails(_))));

    // Change the root's move to another legal move of the root.
    let root_line = lines.iter().position(|l| !l.starts_with('#')).unwrap();
    let root = Position::from_fen(lines[root_line].split(' ').next().unwrap()).unwrap();
    let played = lines[root_line].split(' ').nth(1).unwrap();
    for mv in root.legal_moves(&Rules::standard()) {
        let other = mv.to_string();
        if other == played {
            continue;
        }
        let mut changed: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
        changed[root_line] = format!("{} {other}", root.to_fen());
        let changed = changed.join("\n");
        assert!(
            check(&changed).is_err(),
            "{other} instead of {played} must not hold"
        );
    }
}

#[test]
#[ignore = "half a million nodes: run in release by scripts/test.sh"]
fn a_draw_comes_with_two_strategies_that_hold() {
    // Two men each in the corners: the 4-piece tables (not used here) say it is a draw.
    // Without tables the Mullah endings after promotion take long to disprove; the tables
    // of up to 3 pieces end the lines at the first capture.
    let tb = tables();
    let (pos, s) = solve_with("B:Bi1,i3:Wa7,a9", Some(tb));
    assert_eq!(s.verdict, Verdict::Draw);
    assert_eq!(s.proofs.len(), 2);
    for proof in &s.proofs {
        assert_eq!(proof.claim, Claim::Hold);
        let v = check_with(&text(proof), Some(tb)).unwrap();
        assert_eq!(
            (v.root, v.prover, v.claim),
            (pos, proof.prover, CheckedClaim::Hold)
        );
    }
    let holders: Vec<Color> = s.proofs.iter().map(|p| p.prover).collect();
    assert_eq!(holders, [Color::Black, Color::White]);
    // A hold strategy is not a win proof: with the claim changed it fails.
    let as_win = text(&s.proofs[0]).replace("# claim: hold", "# claim: win");
    assert!(check_with(&as_win, Some(tb)).is_err());
}

#[test]
fn a_mullah_against_a_mullah_is_a_draw_without_tables() {
    // Neither lone Mullah can force the other into a capture; every line repeats or reaches
    // the no-progress limit. The draw is found by the fast searches (repetition disproofs
    // stored whatever the path) and kept because both strategies pass the checker.
    let (pos, s) = solve("B:BKa1:WKi9");
    assert_eq!(s.verdict, Verdict::Draw);
    for proof in &s.proofs {
        let v = check(&text(proof)).unwrap();
        assert_eq!((v.root, v.claim), (pos, CheckedClaim::Hold));
    }
}
