//! Tests of the independent exhaustive solver (`tests/exhaustive/mod.rs`): hand-worked
//! endgames, the known counts of every 2- and 3-piece slice, memoisation, symmetry under
//! every rule set, and (ignored) a measurement on random 4- and 5-piece positions.
//!
//! Geometry used below: doubled coordinates (file a..i = x 0..8, rank 1..9 = y 0..8); a grid
//! point (x, y even) has orthogonal and diagonal lines, a centre (x, y odd) diagonal ones
//! only. Black men move up (y + 1 or + 2), White men down; men capture by the short leap in
//! every line direction; Mullahs fly and capture from a distance.

mod exhaustive;

use exhaustive::{Solved, Solver};
use kharbaga::{Bitboard, Color, Point, Position, Rules, Setup};
use std::collections::HashMap;

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn solve(fen: &str) -> Solved {
    let mut solver = Solver::new(Rules::standard(), 10_000_000);
    solver.solve(&pos(fen)).expect("within budget")
}

// ---------------------------------------------------------------------------------------------
// 1. Hand-worked endgames (standard rules)

#[test]
fn no_pieces_is_a_loss_in_zero() {
    // White to move has no piece, so no legal move: lost, the game is over.
    assert_eq!(solve("W:Bc3:W"), Solved::Loss(0));
    assert_eq!(solve("B:B:WKe5"), Solved::Loss(0));
}

#[test]
fn blocked_man_is_a_loss_in_zero() {
    // The black man on b8 (a centre) can only step diagonally forward, to a9 and c9, both
    // taken by white men. Captures: over a9 or c9 the landing point would be off the board;
    // no white piece is next to b8 along another line. Black has no move.
    assert_eq!(solve("B:Bb8:Wa9,c9"), Solved::Loss(0));
}

#[test]
fn man_capturing_the_last_piece_wins_in_one() {
    // c3xe5 takes the white man on d4 (diagonal, e5 empty): White has no piece left.
    assert_eq!(solve("B:Bc3:Wd4"), Solved::Win(1));
    // Backwards capture: the white man on e5 jumps d4 (the Mullah) and lands on c3.
    assert_eq!(solve("W:BKd4:We5"), Solved::Win(1));
}

#[test]
fn mullah_captures_from_a_distance_and_chains() {
    // The Mullah on e5 sees c3 along the diagonal e5-d4-c3 (d4 empty) and lands on b2 or a1.
    assert_eq!(solve("B:BKe5:Wc3"), Solved::Win(1));
    // Lone Mullah against two men: from a1 over the empty b2 it takes c3; the only landing
    // point is d4 (e5 is taken); from d4 it must go on and take e5, landing f6..i9. Both men
    // gone: White cannot move.
    assert_eq!(solve("B:BKa1:Wc3,e5"), Solved::Win(1));
}

#[test]
fn lone_mullah_against_a_man() {
    // White man on d6 (a centre): its only moves are the forward diagonals to c5 and e5; it
    // has no capture (no black piece next to it). The Mullah on i5 sees the whole of rank 5:
    // after d6-e5 it takes e5 over the empty g5 (landing c5 or a5), after d6-c5 it takes c5
    // over g5, e5 (landing a5). Either way White loses its last piece: White loses in 2.
    assert_eq!(solve("W:BKi5:Wd6"), Solved::Loss(2));
    // Same with the Mullah on a5 (c5 next to it, landing e5; or e5 over c5, landing g5, i5).
    assert_eq!(solve("W:BKa5:Wd6"), Solved::Loss(2));
    // Black to move with the Mullah on a1: d6 is on none of its lines (file a, rank 1, the
    // diagonal a1-i9), so no capture now, and no move of Black leaves White without a move
    // (the man keeps c5 or e5, or captures a Mullah put next to it). a1-a5 (over the empty
    // a3) reaches the position above, lost in 2 for White: Black wins in 3.
    assert_eq!(solve("B:BKa1:Wd6"), Solved::Win(3));
}

#[test]
fn two_mullahs_against_one() {
    // White's Mullah on a1 must capture (compulsory): the only black piece on its lines with
    // an empty point beyond is b2 (the diagonal; i9 is behind b2). It lands on c3, d4, e5, f6,
    // g7 or h8 and cannot go on (i9 is a corner: nothing beyond it). Wherever it lands, the
    // black Mullah on i9 takes it along the same diagonal (the point beyond towards a1 is
    // empty, b2 having been removed). White loses in 2.
    assert_eq!(solve("W:BKb2,Ki9:WKa1"), Solved::Loss(2));
    // Black to move, Mullahs on a1 and i9, White's on e5 between them on the diagonal
    // a1-i9: a1 takes e5 over the empty b2, c3, d4 and lands on f6, g7 or h8 (i9 is its
    // own). White has nothing left: Black wins in 1.
    assert_eq!(solve("B:BKa1,Ki9:WKe5"), Solved::Win(1));
}

#[test]
fn man_against_a_man() {
    // Black man on d4 (a centre), white man on d6 (a centre): no capture (centres have no
    // file line, and they are not neighbours). Black's only moves are d4-c5 and d4-e5, each
    // next to d6 diagonally with the point beyond (b4, resp. f4) empty: White takes the last
    // black piece. Black loses in 2; by symmetry White to move loses in 2 as well.
    assert_eq!(solve("B:Bd4:Wd6"), Solved::Loss(2));
    assert_eq!(solve("W:Bd4:Wd6"), Solved::Loss(2));
}

// ---------------------------------------------------------------------------------------------
// 2. Known counts (/work/shared/tables-known-counts.md, an independent implementation)

/// (black to move, black men, black Mullahs, white men, white Mullahs) -> (wins, draws, losses,
/// longest win).
type Counts = HashMap<(bool, u32, u32, u32, u32), (u64, u64, u64, u32)>;

/// One row of the known counts: black to move, black men, black Mullahs, white men, white
/// Mullahs, wins, draws, losses, longest win.
type KnownRow = (bool, u32, u32, u32, u32, u64, u64, u64, u32);

/// The rows of `data/standard-counts.txt`, transcribed from the independent implementation's
/// table (shared with the generator's own count test).
fn known() -> Vec<KnownRow> {
    include_str!("data/standard-counts.txt")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            let n = |i: usize| f[i].parse::<u64>().unwrap();
            (
                f[0] == "Black",
                n(1) as u32,
                n(2) as u32,
                n(3) as u32,
                n(4) as u32,
                n(5),
                n(6),
                n(7),
                n(8) as u32,
            )
        })
        .collect()
}

#[test]
fn known_table_transcribed_correctly() {
    // The file's last line: "All 858450 positions: 478122 wins, 114178 draws, 266150 losses."
    let known = known();
    assert_eq!(known.len(), 32);
    let sum = known
        .iter()
        .fold((0, 0, 0), |a, r| (a.0 + r.5, a.1 + r.6, a.2 + r.7));
    assert_eq!(sum, (478122, 114178, 266150));
    // Every row with its colour-swapped row (the game is symmetric).
    for r in &known {
        assert!(known.contains(&(!r.0, r.3, r.4, r.1, r.2, r.5, r.6, r.7, r.8)));
    }
}

/// Calls `f` on every legal position of `n` pieces (each side at least one, men never on
/// their promotion rank), both sides to move; each placement once.
fn for_each_position(n: usize, mut f: impl FnMut(Position)) {
    fn rec(start: usize, left: usize, setup: Setup, f: &mut dyn FnMut(Position)) {
        if left == 0 {
            if setup.black.any() && setup.white.any() {
                for turn in Color::ALL {
                    if let Ok(p) = Position::from_setup(Setup { turn, ..setup }) {
                        f(p);
                    }
                }
            }
            return;
        }
        for i in start..41 {
            let p = Point::new(i as u8).unwrap();
            for kind in 0..4 {
                let mut s = setup;
                if kind < 2 {
                    s.black = s.black.with(p);
                } else {
                    s.white = s.white.with(p);
                }
                if kind % 2 == 1 {
                    s.mullahs = s.mullahs.with(p);
                }
                rec(i + 1, left - 1, s, f);
            }
        }
    }
    rec(0, n, Setup::default(), &mut f);
}

fn slice_key(p: &Position) -> (bool, u32, u32, u32, u32) {
    (
        p.turn() == Color::Black,
        p.men(Color::Black).count(),
        p.mullahs(Color::Black).count(),
        p.men(Color::White).count(),
        p.mullahs(Color::White).count(),
    )
}

fn count_slices(solver: &mut Solver, n: usize) -> Counts {
    let mut counts = Counts::new();
    for_each_position(n, |p| {
        let v = solver.solve(&p).expect("within budget");
        let e = counts.entry(slice_key(&p)).or_default();
        match v {
            Solved::Win(d) => {
                e.0 += 1;
                e.3 = e.3.max(d);
            }
            Solved::Draw => e.1 += 1,
            Solved::Loss(_) => e.2 += 1,
        }
    });
    counts
}

fn check_counts(counts: &Counts, pieces: u32) {
    let mut rows = 0;
    for &(b, bm, bk, wm, wk, wins, draws, losses, longest) in &known() {
        if bm + bk + wm + wk != pieces {
            continue;
        }
        rows += 1;
        let got = counts
            .get(&(b, bm, bk, wm, wk))
            .copied()
            .unwrap_or_default();
        assert_eq!(
            got,
            (wins, draws, losses, longest),
            "slice {} to move, black {bm} men {bk} Mullahs, white {wm} men {wk} Mullahs",
            if b { "Black" } else { "White" }
        );
    }
    assert_eq!(counts.len(), rows, "slices found: {:?}", counts.keys());
}

#[test]
fn two_piece_counts_match_the_known_table() {
    let mut solver = Solver::new(Rules::standard(), 10_000_000);
    let counts = count_slices(&mut solver, 2);
    check_counts(&counts, 2);
}

#[test]
fn three_piece_counts_match_the_known_table() {
    let mut solver = Solver::new(Rules::standard(), 10_000_000);
    let counts = count_slices(&mut solver, 3);
    check_counts(&counts, 3);
}

// ---------------------------------------------------------------------------------------------
// 3. Memoisation

#[test]
fn memo_makes_a_second_solve_free_and_consistent() {
    let mut solver = Solver::new(Rules::standard(), 10_000_000);
    let p = pos("B:Bc3,Ke5:Wd6,Kh8");
    let first = solver.solve(&p).unwrap();
    let explored = solver.stats().explored;
    assert!(
        explored > 1000,
        "a 4-piece region explores many nodes: {explored}"
    );
    assert_eq!(solver.solve(&p), Some(first));
    assert_eq!(
        solver.stats().explored,
        explored,
        "second solve explored nothing"
    );
    // Every child of the root is known now; solving them costs nothing either and agrees
    // with the root's value.
    let rules = Rules::standard();
    let children: Vec<Solved> = p
        .legal_moves(&rules)
        .iter()
        .map(|m| solver.solve(&p.play(m)).unwrap())
        .collect();
    assert_eq!(solver.stats().explored, explored);
    assert_eq!(best(&children), first);
    // A fresh solver gives the same value.
    let mut fresh = Solver::new(Rules::standard(), 10_000_000);
    assert_eq!(fresh.solve(&p), Some(first));
}

/// The value of a position from the values of its children (negamax on distances).
fn best(children: &[Solved]) -> Solved {
    if children.is_empty() {
        return Solved::Loss(0);
    }
    let mut win: Option<u32> = None;
    let mut draw = false;
    let mut loss = 0;
    for &c in children {
        match c {
            Solved::Loss(d) => win = Some(win.map_or(d + 1, |w| w.min(d + 1))),
            Solved::Draw => draw = true,
            Solved::Win(d) => loss = loss.max(d + 1),
        }
    }
    match (win, draw) {
        (Some(w), _) => Solved::Win(w),
        (None, true) => Solved::Draw,
        (None, false) => Solved::Loss(loss),
    }
}

#[test]
fn every_memoised_value_satisfies_the_bellman_equation() {
    // The memo is closed under moves (every child of a memoised position is memoised), so each
    // stored value can be checked against its children's stored values.
    for rules in [Rules::standard(), Rules::dagaz()] {
        let mut solver = Solver::new(rules, 10_000_000);
        solver.solve(&pos("W:Bc3,Ke5:Wd6")).unwrap();
        solver.solve(&pos("B:Bb4,f4:Wd8")).unwrap();
        let mut checked = 0;
        solver.for_each_solved(|p, v| {
            let children: Vec<Solved> = p
                .legal_moves(&rules)
                .iter()
                .map(|m| solver.lookup(&p.play(m)).expect("child memoised"))
                .collect();
            assert_eq!(best(&children), v, "{} under {rules}", p.to_fen());
            checked += 1;
        });
        assert_eq!(checked, solver.memo_len());
        assert!(checked > 10_000, "{checked}");
    }
}

#[test]
fn memo_limit_forgets_the_largest_positions_only() {
    let mut solver = Solver::new(Rules::standard(), 10_000_000);
    let three = pos("W:Bc3,Ke5:Wd6");
    let v = solver.solve(&three).unwrap();
    let with_three = solver.memo_len();
    solver.set_memo_limit(10);
    // The next call starts by forgetting the 3-piece positions (the 2-piece ones remain).
    assert_eq!(solver.solve(&pos("B:Bc3:Wd4")), Some(Solved::Win(1)));
    assert!(solver.lookup(&three).is_none());
    assert!(solver.memo_len() < with_three);
    let explored = solver.stats().explored;
    solver.set_memo_limit(usize::MAX);
    assert_eq!(solver.solve(&three), Some(v));
    assert!(solver.stats().explored > explored);
}

#[test]
fn remembered_failures_fail_at_once() {
    let mut solver = Solver::new(Rules::standard(), 1000);
    solver.remember_failures(1_000_000);
    let p = pos("B:Bc3,Ke5:Wd6,Kh8");
    assert_eq!(solver.solve(&p), None);
    let explored = solver.stats().explored;
    assert_eq!(solver.solve(&p), None);
    assert_eq!(solver.stats().explored, explored);
    assert_eq!(solver.stats().over_budget, 2);
}

#[test]
fn budget_is_respected() {
    let mut solver = Solver::new(Rules::standard(), 1000);
    assert_eq!(solver.solve(&pos("B:Bc3,Ke5:Wd6,Kh8")), None);
    assert_eq!(solver.stats().over_budget, 1);
}

// ---------------------------------------------------------------------------------------------
// Consistency under every rule set: the value agrees with the children's values (the
// Bellman equation) and with the colour-swapping half turn of the board.

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// A uniformly random legal position of `n` pieces (each side at least one), either side to
/// move.
fn random_position(rng: &mut Rng, n: u32) -> Position {
    loop {
        let mut s = Setup {
            turn: if rng.below(2) == 0 {
                Color::Black
            } else {
                Color::White
            },
            ..Setup::default()
        };
        let mut placed = 0;
        while placed < n {
            let p = Point::new(rng.below(41) as u8).unwrap();
            if (s.black | s.white).contains(p) {
                continue;
            }
            let kind = rng.below(4);
            if kind < 2 {
                s.black = s.black.with(p);
            } else {
                s.white = s.white.with(p);
            }
            if kind % 2 == 1 {
                s.mullahs = s.mullahs.with(p);
            }
            placed += 1;
        }
        if s.black.any() && s.white.any() {
            if let Ok(p) = Position::from_setup(s) {
                return p;
            }
        }
    }
}

/// The half turn of the board with colours swapped: point index i goes to 40 - i.
fn flip(p: &Position) -> Position {
    let turn180 = |b: Bitboard| Bitboard(b.0.reverse_bits() >> (64 - 41));
    let s = p.to_setup();
    Position::from_setup(Setup {
        black: turn180(s.white),
        white: turn180(s.black),
        mullahs: turn180(s.mullahs),
        turn: !s.turn,
    })
    .unwrap()
}

fn check_rules(rules: Rules, seed: u64, samples: usize) {
    let mut solver = Solver::new(rules, 5_000_000);
    let mut rng = Rng(seed);
    let mut seen = [0usize; 3];
    for _ in 0..samples {
        let n = 2 + rng.below(2) as u32;
        let p = random_position(&mut rng, n);
        let v = solver.solve(&p).expect("within budget");
        seen[match v {
            Solved::Win(_) => 0,
            Solved::Draw => 1,
            Solved::Loss(_) => 2,
        }] += 1;
        assert_eq!(
            solver.solve(&flip(&p)),
            Some(v),
            "{} under {rules}",
            p.to_fen()
        );
        let children: Vec<Solved> = p
            .legal_moves(&rules)
            .iter()
            .map(|m| solver.solve(&p.play(m)).unwrap())
            .collect();
        assert_eq!(best(&children), v, "{} under {rules}", p.to_fen());
    }
    assert!(seen[0] > 0 && seen[2] > 0, "{seen:?} under {rules}");
}

#[test]
fn consistent_under_every_rule_set() {
    let samples = if cfg!(debug_assertions) { 30 } else { 300 };
    check_rules(Rules::standard(), 1, samples);
    check_rules(Rules::sideways(), 2, samples);
    check_rules(Rules::ludii(), 3, samples);
    check_rules(Rules::dagaz(), 4, samples);
}

// ---------------------------------------------------------------------------------------------
// Measurement (run with --release --ignored --nocapture)

fn peak_rss_mib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse::<u64>().ok())
        })
        .map_or(0, |kib| kib / 1024)
}

#[test]
#[ignore = "measurement: minutes in release mode"]
fn measure_random_four_and_five_pieces() {
    let budget: usize = std::env::var("EXH_BUDGET")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(5_000_000);
    let samples: usize = std::env::var("EXH_SAMPLES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1000);
    let pieces: Vec<u32> = std::env::var("EXH_PIECES")
        .unwrap_or_else(|_| "4,5".into())
        .split(',')
        .map(|s| s.parse().unwrap())
        .collect();
    let verbose = std::env::var("EXH_VERBOSE").is_ok();
    let mut solver = Solver::new(Rules::standard(), budget);
    solver.remember_failures(50_000_000);
    if let Some(limit) = std::env::var("EXH_MEMO_LIMIT")
        .ok()
        .and_then(|s| s.parse().ok())
    {
        solver.set_memo_limit(limit);
    }
    let mut rng = Rng(0x5eed_1234_abcd);
    for n in pieces {
        if let Some(b) = std::env::var(format!("EXH_BUDGET{n}"))
            .ok()
            .and_then(|s| s.parse().ok())
        {
            solver.set_max_nodes(b);
        }
        let budget = solver.max_nodes();
        let t = std::time::Instant::now();
        let before = solver.stats();
        let mut results = [0usize; 4];
        for k in 0..samples {
            let p = random_position(&mut rng, n);
            let (t0, e0) = (std::time::Instant::now(), solver.stats().explored);
            let v = solver.solve(&p);
            if verbose {
                eprintln!(
                    "{} {:?} {:.2} s explored {} memo {} rss {} MiB",
                    p.to_fen(),
                    v,
                    t0.elapsed().as_secs_f64(),
                    solver.stats().explored - e0,
                    solver.memo_len(),
                    peak_rss_mib()
                );
            }
            let i = match v {
                Some(Solved::Win(_)) => 0,
                Some(Solved::Draw) => 1,
                Some(Solved::Loss(_)) => 2,
                None => 3,
            };
            results[i] += 1;
            if (k + 1) % 100 == 0 {
                eprintln!(
                    "  {n} pieces: {} done, {:.1} s, memo {} positions, peak RSS {} MiB",
                    k + 1,
                    t.elapsed().as_secs_f64(),
                    solver.memo_len(),
                    peak_rss_mib()
                );
            }
        }
        let s = solver.stats();
        eprintln!(
            "{n} pieces, {samples} samples, budget {budget}: {:.1} s; wins {} draws {} losses {} over budget {}; explored {} nodes in {} regions (largest {}); memo {} positions, {} MiB; peak RSS {} MiB",
            t.elapsed().as_secs_f64(),
            results[0],
            results[1],
            results[2],
            results[3],
            s.explored - before.explored,
            s.regions - before.regions,
            s.largest_region,
            solver.memo_len(),
            solver.memo_bytes() >> 20,
            peak_rss_mib()
        );
    }
}
