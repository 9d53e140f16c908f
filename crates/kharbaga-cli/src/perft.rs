//! `kharbaga perft`: counts the move tree to a depth and times it, to check and measure move
//! generation.

use crate::args::{CliError, RulesArgs};
use kharbaga::{divide, perft, Count, Position};
use std::io::{self, Write};
use std::time::{Duration, Instant};

/// The deepest perft accepted (far beyond what finishes, but bounded).
const MAX_DEPTH: u32 = 64;

/// Count the move tree to a depth (perft) and time it
///
/// Prints one line per depth from 1 to D: the depth, the number of leaf nodes, the time
/// taken in seconds and the speed in nodes per second, separated by single spaces, e.g.
///
///   6 91 0.000s 3.9 Mn/s
///
/// The speed unit is n/s, kn/s, Mn/s or Gn/s. With --divide it prints instead, for depth D,
/// each first move and the leaf count below it (sorted by the move's notation), then
/// `total N`.
#[derive(clap::Args, Debug)]
#[command(after_help = "\
Examples:
  kharbaga perft --depth 6                      3 5 7 10 26 91 for depths 1 to 6
  kharbaga perft --depth 6 --paths              ... 92: every capture path counted
  kharbaga perft --rules ludii --depth 4 --divide")]
pub struct PerftArgs {
    #[command(flatten)]
    rules: RulesArgs,

    /// The position to count from: a position string or `start`
    #[arg(long, value_name = "POSITION", default_value = "start")]
    position: Position,

    /// Count to this many plies (1 to 64)
    #[arg(long, short, value_name = "D", value_parser = clap::value_parser!(u32).range(1..=i64::from(MAX_DEPTH)))]
    depth: u32,

    /// Count every capture path (otherwise sequences with the same start, end and captured
    /// pieces count once)
    #[arg(long)]
    paths: bool,

    /// For depth D, print each first move with its count, then the total
    #[arg(long)]
    divide: bool,
}

/// Runs the command.
pub fn run(args: &PerftArgs) -> Result<(), CliError> {
    let rules = args.rules.rules()?;
    let count = if args.paths {
        Count::Paths
    } else {
        Count::Moves
    };
    let pos = &args.position;
    let mut out = io::stdout().lock();
    if args.divide {
        let mut rows: Vec<(String, u64)> = divide(pos, &rules, args.depth, count)
            .into_iter()
            .map(|(mv, n)| (mv.to_string(), n))
            .collect();
        rows.sort_unstable();
        for (mv, n) in &rows {
            writeln!(out, "{mv} {n}")?;
        }
        writeln!(out, "total {}", rows.iter().map(|(_, n)| n).sum::<u64>())?;
        return Ok(());
    }
    for depth in 1..=args.depth {
        let started = Instant::now();
        let nodes = perft(pos, &rules, depth, count);
        let elapsed = started.elapsed();
        writeln!(
            out,
            "{depth} {nodes} {:.3}s {}",
            elapsed.as_secs_f64(),
            speed(nodes, elapsed)
        )?;
    }
    Ok(())
}

/// Nodes per second with a unit that keeps the figure short: `950 n/s`, `12.3 kn/s`,
/// `3.9 Mn/s`, `1.20 Gn/s`.
fn speed(nodes: u64, elapsed: Duration) -> String {
    // A floor of a nanosecond keeps the figure finite for counts too quick to time.
    let per_second = nodes as f64 / elapsed.as_secs_f64().max(1e-9);
    if per_second < 1e3 {
        format!("{per_second:.0} n/s")
    } else if per_second < 1e6 {
        format!("{:.1} kn/s", per_second / 1e3)
    } else if per_second < 1e9 {
        format!("{:.1} Mn/s", per_second / 1e6)
    } else {
        format!("{:.2} Gn/s", per_second / 1e9)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn speed_picks_a_unit() {
        assert_eq!(speed(950, Duration::from_secs(1)), "950 n/s");
        assert_eq!(speed(12_345, Duration::from_secs(1)), "12.3 kn/s");
        assert_eq!(speed(91, Duration::from_micros(23)), "4.0 Mn/s");
        assert_eq!(speed(6_000_000_000, Duration::from_secs(5)), "1.20 Gn/s");
        assert_eq!(speed(0, Duration::ZERO), "0 n/s");
    }
}
