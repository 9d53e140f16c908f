//! `kharbaga bench`: the engine's benchmark, a fixed set of positions searched to a fixed
//! depth.

use crate::args::{CliError, EngineArgs};
use kharbaga_engine::bench::{self, DEFAULT_DEPTH};
use std::io::{self, Write};

/// Run the engine's benchmark
///
/// Searches a fixed set of positions (standard rules) to a fixed depth with a fresh
/// transposition table for each, and prints the total node count and the speed. On one
/// thread the node count is a signature of the search: it changes only when the search or
/// the evaluation does (or the depth), never from one run or machine to the next. With
/// more threads they race, and the count varies.
#[derive(clap::Args, Debug)]
pub struct BenchArgs {
    /// Search every position this many plies deep
    #[arg(long, value_name = "D", default_value_t = DEFAULT_DEPTH,
          value_parser = clap::value_parser!(u32).range(1..=127))]
    depth: u32,

    #[command(flatten)]
    engine: EngineArgs,
}

/// Runs the command.
pub fn run(args: &BenchArgs) -> Result<(), CliError> {
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
