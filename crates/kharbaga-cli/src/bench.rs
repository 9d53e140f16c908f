//! `kharbaga bench`: the engine's benchmark, a fixed set of positions searched to a fixed
//! depth; or, with `--playouts N`, random games from the start.

use crate::args::{CliError, EngineArgs, RulesArgs};
use kharbaga::{Position, Rules};
use kharbaga_engine::bench::{self, DEFAULT_DEPTH};
use kharbaga_engine::playout::{self, Run, LENGTH_BUCKETS};
use std::io::{self, Write};

/// Run the engine's benchmark, or random playouts
///
/// Searches a fixed set of positions (standard rules) to a fixed depth with a fresh
/// transposition table for each, and prints the total node count and the speed. On one
/// thread the node count is a signature of the search: it changes only when the search or
/// the evaluation does (or the depth), never from one run or machine to the next. With
/// more threads they race, and the count varies.
///
/// With --playouts N it plays N random games from the start instead (every move drawn
/// uniformly from the legal moves, to the rules' end), first on one core and then on all,
/// and prints games and plies a second and how the games ended.
#[derive(clap::Args, Debug)]
pub struct BenchArgs {
    /// Search every position this many plies deep
    #[arg(long, value_name = "D", default_value_t = DEFAULT_DEPTH,
          value_parser = clap::value_parser!(u32).range(1..=127))]
    depth: u32,

    #[command(flatten)]
    engine: EngineArgs,

    /// Play N random games from the start instead of the search benchmark
    #[arg(long, value_name = "N",
          value_parser = clap::value_parser!(u64).range(1..))]
    playouts: Option<u64>,

    /// The random seed of --playouts (a run repeats exactly for a seed)
    #[arg(long, value_name = "S", default_value_t = 1, requires = "playouts")]
    seed: u64,

    /// The rules of --playouts (the search benchmark is standard rules only)
    #[command(flatten)]
    rules: RulesArgs,
}

/// Runs the command.
pub fn run(args: &BenchArgs) -> Result<(), CliError> {
    let rules = args.rules.rules()?;
    match args.playouts {
        Some(games) => playouts(&rules, games, args.seed),
        None if rules != Rules::standard() => Err(CliError::Input(
            "--rules applies to --playouts only: the search benchmark is standard rules"
                .to_string(),
        )),
        None => search(args),
    }
}

fn search(args: &BenchArgs) -> Result<(), CliError> {
    let options = args.engine.options(10);
    let result = bench::bench(args.depth, &options);
    let mut out = io::stdout().lock();
    writeln!(out, "positions {}", result.positions)?;
    writeln!(out, "depth {}", args.depth)?;
    writeln!(out, "hash {} MiB", options.hash_mib)?;
    writeln!(out, "threads {}", options.threads)?;
    writeln!(out, "nodes {}", result.nodes)?;
    writeln!(out, "time {:.3}", result.time.as_secs_f64())?;
    writeln!(out, "nps {}", result.nps())?;
    Ok(())
}

fn playouts(rules: &Rules, games: u64, seed: u64) -> Result<(), CliError> {
    let start = Position::start();
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut out = io::stdout().lock();
    writeln!(out, "playouts {games}")?;
    writeln!(out, "rules {rules}")?;
    writeln!(out, "seed {seed}")?;
    let one = playout::run(rules, &start, games, 1, seed);
    speed_line(&mut out, &one)?;
    if cores > 1 {
        speed_line(&mut out, &playout::run(rules, &start, games, cores, seed))?;
    }
    let t = &one.tally;
    let share = |n: u64| 100.0 * n as f64 / t.games as f64;
    writeln!(
        out,
        "results black {:.2}% white {:.2}% repetition {:.2}% no-progress {:.2}% cut {:.2}% (at {} plies)",
        share(t.black),
        share(t.white),
        share(t.repetition),
        share(t.no_progress),
        share(t.capped),
        playout::PLY_CAP
    )?;
    writeln!(
        out,
        "plies mean {:.1} shortest {} longest {}",
        t.plies as f64 / t.games as f64,
        t.shortest,
        t.longest
    )?;
    write!(out, "lengths")?;
    for (i, n) in t.lengths.iter().enumerate() {
        let low = i * 50;
        if i + 1 == LENGTH_BUCKETS {
            write!(out, " {low}+:{:.2}%", share(*n))?;
        } else {
            write!(out, " {low}-{}:{:.2}%", low + 49, share(*n))?;
        }
    }
    writeln!(out)?;
    Ok(())
}

fn speed_line(out: &mut impl Write, run: &Run) -> io::Result<()> {
    writeln!(
        out,
        "threads {} games/s {:.0} plies/s {:.0} time {:.3}",
        run.threads,
        run.games_per_second(),
        run.plies_per_second(),
        run.time.as_secs_f64()
    )
}
