//! `kharbaga tablebase plan`.

use crate::args::CliError;
use kharbaga_tablebase::build::pair_places;
use kharbaga_tablebase::slice::SliceId;
use std::io::Write;

/// List the slice pairs of up to N pieces in dependency order, with their sizes
///
/// One line per pair: its name (the pair's first slice), the number of places of its tables
/// (both slices), and the pairs it depends on, comma-separated (`-` for none). Every pair
/// comes after those it depends on; pairs of one piece count and men count are independent
/// of each other. `kharbaga tablebase generate --slice NAME` builds one pair.
#[derive(clap::Args, Debug)]
pub struct PlanArgs {
    /// Every slice of at most this many pieces
    #[arg(long, value_name = "N", default_value_t = 4,
          value_parser = clap::value_parser!(u32).range(2..=10))]
    pieces: u32,
}

/// Runs the command.
pub fn run(args: &PlanArgs) -> Result<(), CliError> {
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for pair in SliceId::plan(args.pieces) {
        let deps: Vec<String> = pair.dependencies().iter().map(|d| d.to_string()).collect();
        let deps = if deps.is_empty() {
            "-".to_string()
        } else {
            deps.join(",")
        };
        writeln!(out, "{pair} {} {deps}", pair_places(pair))?;
    }
    out.flush()?;
    Ok(())
}
