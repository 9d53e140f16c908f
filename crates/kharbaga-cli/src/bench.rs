//! `kharbaga bench`: the engine's benchmark, a fixed set of positions searched to a fixed
//! depth.

use crate::args::CliError;
use kharbaga_engine::bench;
use std::io::{self, Write};

/// The default benchmark depth (the one the engine's documentation quotes): some seconds.
const DEFAULT_DEPTH: u32 = 14;

/// Run the engine's benchmark
///
/// Searches a fixed set of positions (standard rules) to a fixed depth on one thread with a
/// fresh 16 MiB transposition table, and prints the total node count and the speed. The
/// node count is a signature of the search: it changes only when the search or the
/// evaluation does (or the depth), never from one run or machine to the next.
#[derive(clap::Args, Debug)]
pub struct BenchArgs {
    /// Search every position this many plies deep
    #[arg(long, value_name = "D", default_value_t = DEFAULT_DEPTH,
          value_parser = clap::value_parser!(u32).range(1..=127))]
    depth: u32,
}

/// Runs the command.
pub fn run(args: &BenchArgs) -> Result<(), CliError> {
    let result = bench::bench(args.depth);
    let mut out = io::stdout().lock();
    writeln!(out, "positions {}", result.positions)?;
    writeln!(out, "depth {}", args.depth)?;
    writeln!(out, "nodes {}", result.nodes)?;
    writeln!(out, "time {:.3}", result.time.as_secs_f64())?;
    writeln!(out, "nps {}", result.nps())?;
    Ok(())
}
