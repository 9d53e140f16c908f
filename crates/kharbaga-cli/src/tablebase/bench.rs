//! `kharbaga tablebase bench`.

use super::{tables_dir, TablesArgs};
use crate::args::{open_tables, CliError};
use kharbaga_tablebase::bench::{random_positions, time_probes, Rng};
use std::io::Write;

/// Measure random probes per second
///
/// Draws random positions uniformly from the places of the slices in the directory (or of
/// those with exactly --pieces pieces), probes each once to bring the files into the page
/// cache, then times a second pass: win/draw/loss probes (what the engine's search uses) and
/// exact-value probes (the root, analysis and `probe`), on one thread.
#[derive(clap::Args, Debug)]
pub struct BenchArgs {
    #[command(flatten)]
    tables: TablesArgs,

    /// Random positions for the win/draw/loss probes (a tenth as many exact ones)
    #[arg(long, value_name = "N", default_value_t = 1_000_000)]
    probes: usize,

    /// Only slices of this many pieces
    #[arg(long, value_name = "K")]
    pieces: Option<u32>,

    /// The seed of the random positions
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

/// Runs the command.
pub fn run(args: &BenchArgs) -> Result<(), CliError> {
    let rules = args.tables.rules.rules()?;
    let dir = tables_dir(args.tables.dir.tables.as_ref(), &rules)?;
    let tb = open_tables(&dir, &rules)?;
    let slices: Vec<_> = tb
        .slices()
        .into_iter()
        .filter(|s| args.pieces.map_or(true, |k| s.pieces() == k))
        .collect();
    if slices.is_empty() {
        return Err(CliError::Input(format!(
            "no table files to probe in {}",
            dir.display()
        )));
    }
    let mut rng = Rng::new(args.seed);
    let positions = random_positions(&slices, args.probes, &mut rng);
    let fail = |e: kharbaga_tablebase::tablebase::ProbeError| CliError::Input(e.to_string());
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "{} slices, {} random positions",
        slices.len(),
        positions.len()
    )?;
    for (exact, count) in [(false, positions.len()), (true, positions.len() / 10)] {
        let sample = &positions[..count.max(1).min(positions.len())];
        time_probes(&tb, sample, exact).map_err(fail)?;
        let t = time_probes(&tb, sample, exact).map_err(fail)?;
        writeln!(
            out,
            "{}: {} probes in {:.3} s, {:.0} probes/s ({} wins, {} draws, {} losses)",
            if exact {
                "exact value"
            } else {
                "win/draw/loss"
            },
            t.probes,
            t.elapsed.as_secs_f64(),
            t.per_second(),
            t.wdl[0],
            t.wdl[1],
            t.wdl[2]
        )?;
    }
    Ok(())
}
