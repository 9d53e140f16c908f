//! Proofs written from a table carried over from an earlier solve (`kharbaga solve
//! --hash-file`): its entries are true, but their children's entries may be gone, and they
//! may justify each other in a cycle with this solve's entries. Both are built here by hand
//! (proven entries put in the table, as a file would load them), and the proof must still be
//! written and pass the independent checker.

use kharbaga::{Color, Position, Rules};
use kharbaga_solver::check::check_proof;
use kharbaga_solver::dfpn::{Limits, Search};
use kharbaga_solver::extract::{extract, Claim, Cycles};
use kharbaga_solver::proof_file::write_proof;
use kharbaga_solver::solve::{Solution, Solver, Verdict};
use kharbaga_solver::tt::{key, Entry, Tt, INF};

/// White to move. Everything is blocked but the two Mullahs in their corners: White's i9
/// and h8, Black's a1 and b2, and Black has no other move. The cycle i9-h8 a1-b2 h8-i9 b2-a1
/// comes back to it (found by a search of random fillings of the board).
const CYCLE: &str = "W:BKa1,g1,f2,h2,a3,c3,g3,i3,d4,f4,a5,g5,d6,h6,a7,e7,b8,d8,f8,Ka9:\
                     WKi9,Kc1,Ke1,Ki1,d2,e3,b4,h4,c5,e5,i5,b6,f6,c7,g7,i7,c9,e9,g9";

/// A proof of White's win from `pos`, `dist` plies long, as this solve's own or (`carried`)
/// as a table carried over from an earlier solve would hold it.
fn proven(tt: &mut Tt, pos: &Position, dist: u16, carried: bool) {
    let entry = Entry {
        key: key(pos.hash(), Color::White),
        pn: 0,
        dn: INF,
        work: 1,
        dist,
        aux: 0,
    };
    if carried {
        tt.put_carried(entry);
    } else {
        tt.put(entry);
    }
}

/// The positions of the cycle, from `CYCLE` on, each with White's proof entry: every one
/// justified by the next, round the cycle.
fn circular_table(carried: bool) -> (Position, Tt) {
    let rules = Rules::standard();
    let root = Position::from_fen(CYCLE).unwrap();
    let mut tt = Tt::new(64);
    let mut pos = root;
    for (i, mv) in ["i9-h8", "a1-b2", "h8-i9", "b2-a1"].iter().enumerate() {
        proven(&mut tt, &pos, 4 - i as u16, carried);
        let legal = pos.legal_moves(&rules);
        let mv = legal.iter().find(|m| m.to_string() == *mv).unwrap();
        if pos.turn() == Color::Black {
            assert_eq!(legal.len(), 1, "Black's only move in {}", pos.to_fen());
        }
        assert!(!pos.is_progress(mv));
        pos = pos.play(mv);
    }
    assert_eq!(pos, root, "the moves come back to the start");
    (root, tt)
}

/// A solver with proofs, within a million nodes.
fn solver() -> Solver<'static> {
    Solver {
        rules: Rules::standard(),
        tables: None,
        limits: Limits {
            nodes: Some(1_000_000),
            ..Limits::default()
        },
        proofs: true,
    }
}

/// Solves `pos` with `tt` and a proof.
fn solve(pos: &Position, tt: &mut Tt) -> Solution {
    solver().solve(pos, tt, &mut |_| {}).unwrap()
}

/// Whether the checker accepts the solution's proof.
fn checked(s: &Solution) -> Result<(), String> {
    let mut text = Vec::new();
    write_proof(&mut text, &Rules::standard(), &s.proofs[0]).unwrap();
    check_proof(&text[..], &Rules::standard(), None)
        .map(|_| ())
        .map_err(|e| e.to_string())
}

#[test]
fn a_walk_that_comes_back_round_a_cycle_of_proofs_fails_when_told_to() {
    let rules = Rules::standard();
    let (root, mut tt) = circular_table(false);
    let mut search = Search::new(&rules, None, &mut tt, Color::White);
    let err = extract(&mut search, &root, Claim::Win, Cycles::Fail).unwrap_err();
    assert!(err.circular, "{err}");
    assert_eq!(err.position, root.to_fen());
    assert_eq!(
        search.stats().nodes,
        0,
        "found from the stored proofs alone"
    );
}

#[test]
fn a_carried_table_whose_proofs_are_circular_loses_the_cycles_entries_and_nothing_else() {
    let (root, mut tt) = circular_table(true);
    // A carried proof away from the cycle (White's win in one): an emptied table loses it.
    let other = Position::from_fen("W:Bc5:WKe1").unwrap();
    proven(&mut tt, &other, 1, true);
    let other_key = key(other.hash(), Color::White);
    let s = solve(&root, &mut tt);
    assert_eq!(s.cycles, 1, "the walk came round the cycle once");
    assert!(!s.restarted, "not solved again from an empty table");
    assert_eq!(s.verdict.name(), "win");
    assert!(tt.get(other_key).is_some(), "the other entry was kept");
    checked(&s).unwrap();

    // The same table not carried over (as if its entries were this solve's own) is walked
    // round the cycle with rising counts until the count passes the proofs' reach, and the
    // proof cannot be written: such cycles come only from carried entries.
    let (root, mut tt) = circular_table(false);
    let err = solver().solve(&root, &mut tt, &mut |_| {}).unwrap_err();
    assert!(!err.circular, "{err}");
}

#[test]
fn a_carried_proof_without_its_childrens_entries_is_searched_again_as_a_whole() {
    // White wins with g1-a7 in a few plies, but not with every move: searched one move at a
    // time in the order of the moves, the walk spent its whole limit on a move that does not
    // win (a Mullah ending, no tables).
    let pos = Position::from_fen("W:Bf6:WKg1,g9").unwrap();
    let mut tt = Tt::new(1);
    proven(&mut tt, &pos, 5, true);
    let s = solve(&pos, &mut tt);
    assert!(matches!(s.verdict, Verdict::Win(_)), "{:?}", s.verdict);
    assert!(!s.restarted);
    checked(&s).unwrap();
}
