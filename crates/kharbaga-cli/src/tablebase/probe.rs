//! `kharbaga tablebase probe`.

use super::{tables_dir, TablesArgs};
use crate::args::{open_tables, CliError};
use crate::batch::answer_lines;
use kharbaga::Position;
use kharbaga_tablebase::tablebase::{ProbeError, Tablebase};
use std::io::{self, Write};

/// The exact value of a position from the endgame tables
///
/// With POSITION: the first line is the value for the side to move, `win N`, `loss N` or
/// `draw` (N in plies to the end of the game under perfect play), then one line per legal
/// move, `MOVE win N`, `MOVE draw` or `MOVE loss N` for the side that plays it, best first.
/// A position outside the tables is an error naming the missing slice (exit status 2).
///
/// Without POSITION: reads positions from standard input, one per line, and prints one
/// value line for each; a line that cannot be answered gets `error: REASON` and the batch
/// goes on (exit status 2 at the end).
#[derive(clap::Args, Debug)]
#[command(after_help = "\
Examples:
  kharbaga tablebase probe 'B:BKe5:Wc3'        win 1, then e5xb2 win 1, ...
  printf 'B:BKe5:Wc3\\nW:Wc3:Bd4\\n' | kharbaga tablebase probe --tables DIR")]
pub struct ProbeArgs {
    #[command(flatten)]
    tables: TablesArgs,

    /// A position string like B:BKe5:Wc3 (K marks a Mullah); without it, positions are read
    /// from standard input
    #[arg(value_name = "POSITION")]
    position: Option<Position>,
}

/// Runs the command.
pub fn run(args: &ProbeArgs) -> Result<(), CliError> {
    let rules = args.tables.rules.rules()?;
    let dir = tables_dir(args.tables.dir.tables.as_ref(), &rules)?;
    let tb = open_tables(&dir, &rules)?;
    let mut out = io::BufWriter::new(io::stdout().lock());
    match &args.position {
        Some(pos) => {
            let input = |e: ProbeError| CliError::Input(e.to_string());
            let value = tb.probe(pos).map_err(input)?;
            let moves = tb.moves(pos).map_err(input)?;
            writeln!(out, "{value}")?;
            for (mv, v) in moves {
                writeln!(out, "{mv} {v}")?;
            }
            out.flush()?;
            Ok(())
        }
        None => batch(&tb, io::stdin().lock(), &mut out),
    }
}

fn batch(tb: &Tablebase, input: impl io::Read, out: &mut impl Write) -> Result<(), CliError> {
    answer_lines(
        input,
        out,
        |text| {
            let pos = text.parse::<Position>().map_err(|e| e.to_string())?;
            tb.probe(&pos)
                .map(|v| v.to_string())
                .map_err(|e| e.to_string())
        },
        |number, e, out| writeln!(out, "error: line {number}: {e}"),
    )
}
