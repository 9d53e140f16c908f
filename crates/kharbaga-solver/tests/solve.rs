//! The solver against the endgame tables: positions of up to 3 pieces solved without tables
//! must get the tables' value (the tables are built by an independent method, retrograde
//! analysis, and checked against known counts), and with tables as leaves too; hand-worked
//! positions; a limit gives `unknown`; the winner's search runs first in the pinned suite.

use kharbaga::{Position, Rules};
use kharbaga_engine::eval::{evaluate, Weights};
use kharbaga_solver::dfpn::Limits;
use kharbaga_solver::solve::{Solution, Solver, Verdict};
use kharbaga_solver::tt::Tt;
use kharbaga_tablebase::bench::{random_positions, Rng};
use kharbaga_tablebase::build::{build, BuildOptions};
use kharbaga_tablebase::slice::SliceId;
use kharbaga_tablebase::tablebase::Tablebase;
use kharbaga_tablebase::value::Wdl;
use std::path::PathBuf;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// The standard tables of up to 3 pieces, built once in a temporary directory.
fn tables() -> &'static Tablebase {
    static TB: OnceLock<Tablebase> = OnceLock::new();
    TB.get_or_init(|| {
        let dir: PathBuf =
            std::env::temp_dir().join(format!("kharbaga-solver-tables-{}", std::process::id()));
        let opts = BuildOptions::new(Rules::standard(), 3, dir.clone());
        build(&opts, &|_| {}, &mut |_| {}).unwrap();
        Tablebase::open(&dir, Rules::standard()).unwrap()
    })
}

fn solve(pos: &Position, tables: Option<&Tablebase>, nodes: u64) -> Solution {
    let solver = Solver {
        rules: Rules::standard(),
        tables,
        limits: Limits {
            nodes: Some(nodes),
            ..Limits::default()
        },
        proofs: false,
    };
    solver.solve(pos, &mut Tt::new(16), &mut |_| {}).unwrap()
}

fn wdl(verdict: &Verdict) -> Option<Wdl> {
    match verdict {
        Verdict::Win(_) => Some(Wdl::Win),
        Verdict::Draw => Some(Wdl::Draw),
        Verdict::Loss => Some(Wdl::Loss),
        Verdict::Unknown => None,
    }
}

#[test]
fn men_endings_solved_without_tables_get_the_tables_values() {
    let tb = tables();
    let slices: Vec<SliceId> = ["1m0k-1m0k", "2m0k-1m0k", "1m0k-2m0k"]
        .iter()
        .map(|s| s.parse().unwrap())
        .collect();
    let mut rng = Rng::new(7);
    let positions = random_positions(&slices, 300, &mut rng);
    let mut solved = 0;
    for pos in &positions {
        let s = solve(pos, None, 20_000);
        let Some(got) = wdl(&s.verdict) else { continue };
        solved += 1;
        let want = tb.probe_wdl(pos).unwrap();
        assert_eq!(got, want, "{pos}: solver {got}, tables {want}");
        if let Verdict::Win(mv) = &s.verdict {
            let child = pos.play(mv);
            assert_eq!(
                tb.probe_wdl(&child).unwrap(),
                Wdl::Loss,
                "{pos}: {mv} must win"
            );
        }
    }
    // Most of them end within the node limit (promotions lead to Mullah endings, which can
    // take long to disprove without tables).
    assert!(solved >= 150, "only {solved} of 300 solved");
}

#[test]
fn with_tables_every_position_of_the_tables_is_solved_at_once() {
    let tb = tables();
    let slices: Vec<SliceId> = ["0m1k-1m1k", "1m1k-1m0k", "0m2k-0m1k"]
        .iter()
        .map(|s| s.parse().unwrap())
        .collect();
    let mut rng = Rng::new(11);
    for pos in random_positions(&slices, 100, &mut rng) {
        let s = solve(&pos, Some(tb), 1000);
        assert_eq!(wdl(&s.verdict), Some(tb.probe_wdl(&pos).unwrap()), "{pos}");
        assert_eq!(s.nodes(), 0, "{pos}: a table position needs no search");
    }
}

#[test]
fn four_pieces_with_three_piece_tables_as_leaves() {
    // Captures lead from 4 pieces into the 3-piece tables. The first position: Black's man
    // on c3 takes d4 and e5 is free; White keeps one man and Black wins the race (the
    // tables of the 3-piece position after the capture say so).
    let tb = tables();
    for fen in ["B:Bc3,e3:Wd4,c7", "W:Bc3,e3:Wd4,c7", "B:Ba3,i3:Wa7,i7"] {
        let pos = Position::from_fen(fen).unwrap();
        let with = solve(&pos, Some(tb), 200_000);
        let without = solve(&pos, None, 2_000_000);
        assert_ne!(with.verdict, Verdict::Unknown, "{fen} with tables");
        if without.verdict != Verdict::Unknown {
            assert_eq!(wdl(&with.verdict), wdl(&without.verdict), "{fen}");
        }
    }
}

#[test]
fn a_capture_that_ends_the_game_is_the_winning_move() {
    let pos = Position::from_fen("B:Bc3:Wd4").unwrap();
    let s = solve(&pos, None, 10);
    assert_eq!(
        s.verdict,
        Verdict::Win(pos.parse_move(&Rules::standard(), "c3xe5").unwrap())
    );
    let lost = Position::from_fen("W:Bc3:Wd4").unwrap();
    // White to move: its man on d4 must step on, and Black's man captures it or follows.
    let s = solve(&lost, Some(tables()), 1000);
    assert_eq!(wdl(&s.verdict), Some(tables().probe_wdl(&lost).unwrap()));
}

#[test]
fn a_node_limit_gives_unknown() {
    let pos = Position::start();
    let s = solve(&pos, None, 500);
    assert_eq!(s.verdict, Verdict::Unknown);
    assert!(
        s.nodes() <= 500 + 1024,
        "stops near the limit: {}",
        s.nodes()
    );
}

#[test]
fn the_winners_search_runs_first_in_every_decisive_pinned_position() {
    // The suite's values are proven (each proof checked by two checkers), so the side whose
    // win is searched for first can be checked against them. The static evaluation alone
    // gets some wrong (a capture due, a side a man down that wins).
    let suite = include_str!("data/suite.txt");
    let rules = Rules::standard();
    let mut decisive = 0;
    let mut misjudged = Vec::new();
    for line in suite
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let mover_wins = match fields[0] {
            "win" => true,
            "loss" => false,
            _ => continue,
        };
        decisive += 1;
        let pos = Position::from_fen(fields[2]).unwrap();
        let s = solve(&pos, None, 1);
        let first = s.searches[0].prover;
        let winner = if mover_wins { pos.turn() } else { !pos.turn() };
        assert_eq!(first, winner, "{line}: the loser's search ran first");
        if (evaluate(&pos, &rules, Weights::for_rules(&rules)) >= 0) != mover_wins {
            misjudged.push(line);
        }
    }
    assert!(
        decisive >= 40,
        "the suite has {decisive} decisive positions"
    );
    assert!(
        !misjudged.is_empty(),
        "some position the static evaluation misjudges makes the test worth having"
    );
}

/// A solver of `standard` positions without tables, within `limits`.
fn solver(limits: Limits, proofs: bool) -> Solver<'static> {
    Solver {
        rules: Rules::standard(),
        tables: None,
        limits,
        proofs,
    }
}

fn nodes(n: u64) -> Limits {
    Limits {
        nodes: Some(n),
        ..Limits::default()
    }
}

/// Black to move loses (from an engine game); its searches take some 26 thousand nodes.
const LOSS: &str = "B:Bh2,a3:Wb4,c5,e5,b8,h8,g9";

#[test]
fn the_limits_bound_the_searches_that_write_a_proof() {
    // A table of one bucket loses the searches' results, so writing the proof must search
    // again, and again: without limits it does not end.
    let pos = Position::from_fen(LOSS).unwrap();
    let limit = 200_000;
    let s = solver(nodes(limit), true)
        .solve(&pos, &mut Tt::new(0), &mut |_| {})
        .unwrap();
    assert!(
        s.searches.iter().any(|r| r.root.proven()),
        "the searches themselves settle the loss: {:?}",
        s.searches
    );
    assert_eq!(s.verdict, Verdict::Unknown);
    assert!(s.cut, "the limit stopped the proof, not the searches");
    assert!(s.proofs.is_empty());
    assert!(s.proof_nodes > 0);
    assert!(
        s.nodes() <= limit + 1024,
        "stops near the limit: {}",
        s.nodes()
    );

    // No proof asked for: nothing to write, the loss stands.
    let started = Instant::now();
    let s = solver(nodes(limit), false)
        .solve(&pos, &mut Tt::new(0), &mut |_| {})
        .unwrap();
    let searches = started.elapsed();
    assert_eq!((s.verdict, s.cut, s.proof_nodes), (Verdict::Loss, false, 0));

    // The same, bounded by the clock. The deadline leaves the searches four times the time
    // they just took (a slower run must not cut them instead), and then the writing, which
    // does not end, must stop at it.
    let clock = Limits {
        deadline: Some(Instant::now() + 4 * searches + Duration::from_millis(200)),
        ..Limits::default()
    };
    let s = solver(clock, true)
        .solve(&pos, &mut Tt::new(0), &mut |_| {})
        .unwrap();
    assert!(
        s.searches.iter().any(|r| r.root.proven()),
        "the searches finish before the deadline: {:?}",
        s.searches
    );
    assert_eq!((s.verdict, s.cut), (Verdict::Unknown, true));
}

#[test]
fn the_limits_bound_the_walk_that_writes_a_proof() {
    // With a large table the proof of this win is written from stored results alone, in
    // some 800 lines: a limit of exactly the search's nodes leaves nothing for the walk,
    // one node more lets it finish (the walk itself counts no nodes).
    let pos = Position::from_fen("W:Ba1,g1,d2:Wb4,c7,b8,d8,h8,e9,g9").unwrap();
    let free = solver(Limits::default(), true)
        .solve(&pos, &mut Tt::new(64), &mut |_| {})
        .unwrap();
    assert!(matches!(free.verdict, Verdict::Win(_)));
    assert_eq!(free.proof_nodes, 0, "the walk searches nothing");
    assert!(
        free.proofs[0].lines.len() > 256,
        "a walk long enough to be looked at"
    );
    let used = free.nodes();
    let s = solver(nodes(used), true)
        .solve(&pos, &mut Tt::new(64), &mut |_| {})
        .unwrap();
    assert_eq!(s.nodes(), used, "the search itself finishes");
    assert_eq!((s.verdict, s.cut), (Verdict::Unknown, true));
    let s = solver(nodes(used + 1), true)
        .solve(&pos, &mut Tt::new(64), &mut |_| {})
        .unwrap();
    assert_eq!((s.verdict, s.cut), (free.verdict, false));
    assert_eq!(s.proofs[0].lines, free.proofs[0].lines);
}
