//! The tables agree, value and distance, with a plain exhaustive solver that shares no code
//! with the generator (`exhaustive/`: forward move generation into an explicit game graph,
//! solved by the textbook method).
//!
//! The quick test builds the tables of up to 3 pieces and compares random positions (their
//! exact values, and their win/draw/loss with its distance bound) and every position the
//! solver solved on the way. The long one (`--ignored`, release) takes a
//! table directory from `KHARBAGA_TABLES` and `N` from `KHARBAGA_MAX_PIECES` (default: the
//! directory's most pieces), and compares `KHARBAGA_SAMPLES` random positions (default
//! 10,000) of fewer than `N` pieces, then as many of `N` pieces, skipping those whose game
//! graph exceeds `KHARBAGA_BUDGET` positions (default 5 million), then every position the
//! solver solved on the way. `KHARBAGA_SECONDS` ends the `N`-piece sample after that many
//! seconds from the start, fewer than `KHARBAGA_SAMPLES` if need be (the positions the solver
//! solved are compared all the same). `KHARBAGA_SEED` (default 13) seeds that sample, so that
//! runs in parallel draw different positions.

mod exhaustive;

use exhaustive::{Solved, Solver};
use kharbaga::{Position, Rules};
use kharbaga_tablebase::bench::{random_positions, Rng};
use kharbaga_tablebase::build::{build, BuildOptions};
use kharbaga_tablebase::files::table_path;
use kharbaga_tablebase::format::TableFile;
use kharbaga_tablebase::memory::MemoryTables;
use kharbaga_tablebase::tablebase::Tablebase;
use kharbaga_tablebase::value::Value;
use std::path::PathBuf;
use std::time::{Duration, Instant};

fn as_value(s: Solved) -> Value {
    match s {
        Solved::Win(d) => Value::Win(d as u16),
        Solved::Loss(d) => Value::Loss(d as u16),
        Solved::Draw => Value::Draw,
    }
}

/// Every table of the directory, decoded into memory (for fast exact lookups).
fn load(tb: &Tablebase) -> MemoryTables {
    let mut memory = MemoryTables::new();
    for slice in tb.slices() {
        let file = TableFile::open(&table_path(tb.dir(), slice)).unwrap();
        memory.insert(slice, file.decode_all().unwrap());
    }
    memory
}

/// Compares every position the solver has solved with the tables; returns how many.
fn compare_memo(tb: &Tablebase, solver: &Solver) -> u64 {
    let memory = load(tb);
    let mut n = 0;
    let mut wrong = Vec::new();
    solver.for_each_solved(|pos, solved| {
        if !tb.covers(&pos) {
            return;
        }
        n += 1;
        let table = memory.value(&pos).unwrap();
        if table != as_value(solved) && wrong.len() < 10 {
            wrong.push(format!(
                "{}: tables {table}, solver {solved:?}",
                pos.to_fen()
            ));
        }
    });
    assert!(wrong.is_empty(), "disagreements:\n{}", wrong.join("\n"));
    n
}

/// Solves `samples` random positions of the tables' slices of `min_pieces` to `max_pieces`
/// pieces (fewer if `deadline` passes first) and compares them; returns (solved, skipped).
fn compare_random(
    tb: &Tablebase,
    solver: &mut Solver,
    samples: usize,
    (min_pieces, max_pieces): (u32, u32),
    seed: u64,
    deadline: Option<Instant>,
) -> (usize, usize) {
    let slices: Vec<_> = tb
        .slices()
        .into_iter()
        .filter(|s| (min_pieces..=max_pieces).contains(&s.pieces()))
        .collect();
    let mut rng = Rng::new(seed);
    let (mut solved, mut skipped) = (0, 0);
    let out_of_time = || deadline.is_some_and(|d| Instant::now() >= d);
    while solved < samples && !out_of_time() {
        for pos in random_positions(&slices, 1000, &mut rng) {
            let Some(s) = solver.solve(&pos) else {
                skipped += 1;
                continue;
            };
            let value = as_value(s);
            assert_eq!(tb.probe(&pos).unwrap(), value, "{}", pos.to_fen());
            let (wdl, bound) = tb.probe_wdl_bounded(&pos).unwrap();
            assert_eq!(wdl, value.wdl(), "{}", pos.to_fen());
            assert!(
                value.plies().map_or(true, |d| u32::from(d) <= bound),
                "{}: {value} beyond the bound {bound}",
                pos.to_fen()
            );
            solved += 1;
            if solved % 1000 == 0 {
                eprintln!("{solved} agree so far ({skipped} skipped)");
            }
            if solved == samples || out_of_time() {
                break;
            }
        }
        assert!(
            skipped < 20 * samples.max(100),
            "almost every position is over the budget"
        );
    }
    (solved, skipped)
}

#[test]
fn tables_of_up_to_three_pieces_agree_with_the_exhaustive_solver() {
    let dir: PathBuf =
        std::env::temp_dir().join(format!("kharbaga-exhaustive-{}", std::process::id()));
    build(
        &BuildOptions::new(Rules::standard(), 3, dir.clone()),
        &|_| {},
        &mut |_| {},
    )
    .unwrap();
    let tb = Tablebase::open(&dir, Rules::standard()).unwrap();
    let mut solver = Solver::new(Rules::standard(), 5_000_000);
    let (solved, _) = compare_random(&tb, &mut solver, 2000, (2, 3), 7, None);
    assert_eq!(solved, 2000);
    let memo = compare_memo(&tb, &solver);
    assert!(memo > 10_000, "only {memo} positions compared");
    // A hand-worked value: the Mullah on e5 takes the man on c3 at once.
    let pos = Position::from_fen("B:BKe5:Wc3").unwrap();
    assert_eq!(tb.probe(&pos).unwrap(), Value::Win(1));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
#[ignore]
fn random_positions_agree_with_the_exhaustive_solver() {
    let env = |k: &str| std::env::var(k).ok();
    let dir = PathBuf::from(env("KHARBAGA_TABLES").expect("KHARBAGA_TABLES: a table directory"));
    let tb = Tablebase::open(&dir, Rules::standard()).unwrap();
    let samples: usize = env("KHARBAGA_SAMPLES").map_or(10_000, |s| s.parse().unwrap());
    let max_pieces: u32 =
        env("KHARBAGA_MAX_PIECES").map_or(tb.max_pieces(), |s| s.parse().unwrap());
    let budget: usize = env("KHARBAGA_BUDGET").map_or(5_000_000, |s| s.parse().unwrap());
    // The smaller slices first, with a budget that fits every graph of up to 4 pieces: the
    // larger positions' captures lead into them, and a memo already holding them keeps the
    // larger graphs small.
    let mut solver = Solver::new(Rules::standard(), budget.max(5_000_000));
    solver.remember_failures(1 << 22);
    let start = Instant::now();
    let deadline = env("KHARBAGA_SECONDS").map(|s| start + Duration::from_secs(s.parse().unwrap()));
    let (warm, _) = compare_random(&tb, &mut solver, samples, (2, max_pieces - 1), 11, None);
    solver.set_max_nodes(budget);
    let pieces = (max_pieces, max_pieces);
    let seed: u64 = env("KHARBAGA_SEED").map_or(13, |s| s.parse().unwrap());
    let (solved, skipped) = compare_random(&tb, &mut solver, samples, pieces, seed, deadline);
    let memo = compare_memo(&tb, &solver);
    println!(
        "{warm} random positions of up to {} pieces and {solved} of {max_pieces} pieces agree with the tables ({skipped} of {max_pieces} pieces skipped over a budget of {budget} positions), and {memo} positions the solver solved on the way, in {:.0} s",
        max_pieces - 1,
        start.elapsed().as_secs_f64()
    );
}
