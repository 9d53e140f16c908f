//! `kharbaga moves`: the legal moves of a position, or of each position read from standard
//! input (a batch mode for tools).

use crate::args::{CliError, RulesArgs};
use crate::batch::answer_lines;
use kharbaga::{Position, Rules};
use std::io::{self, Write};

/// List the legal moves of a position
///
/// With POSITION, prints its legal moves one per line, sorted by their notation (plain byte
/// order).
///
/// Without POSITION, reads positions from standard input, one per line, and prints one line
/// per input line: that position's moves separated by single spaces, or an empty line when
/// it has none. A line that is not a position is reported on standard error with its line
/// number and gets an empty output line too, so that output line N always answers input line
/// N; the other lines are still answered and the exit status is 2 at the end.
#[derive(clap::Args, Debug)]
#[command(after_help = "\
Examples:
  kharbaga moves start                          d4-e5, e3-e5, f4-e5
  kharbaga moves --rules sideways start         also g5-e5
  kharbaga moves 'B:Bc3:Wd4,f6'                 c3xe5xg7
  printf 'start\\nW:Bc3:Wd4\\n' | kharbaga moves  one line per position")]
pub struct MovesArgs {
    #[command(flatten)]
    rules: RulesArgs,

    /// List every capture path: sequences with the same start, end and captured pieces are
    /// otherwise one move
    #[arg(long)]
    paths: bool,

    /// A position string like B:Bc3:Wd4,f6 (side to move, Black's points, White's points; K
    /// marks a Mullah) or `start`; without it, positions are read from standard input
    #[arg(value_name = "POSITION")]
    position: Option<Position>,
}

/// Runs the command.
pub fn run(args: &MovesArgs) -> Result<(), CliError> {
    let rules = args.rules.rules()?;
    let mut out = io::BufWriter::new(io::stdout().lock());
    match &args.position {
        Some(pos) => {
            for mv in move_list(pos, &rules, args.paths) {
                writeln!(out, "{mv}")?;
            }
            out.flush()?;
            Ok(())
        }
        None => batch(&rules, args.paths, io::stdin().lock(), &mut out),
    }
}

/// The legal moves in notation, sorted by byte order.
fn move_list(pos: &Position, rules: &Rules, paths: bool) -> Vec<String> {
    let moves = if paths {
        pos.legal_moves_all_paths(rules)
    } else {
        pos.legal_moves(rules)
    };
    let mut names: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
    names.sort_unstable();
    names
}

/// Answers each input line with one output line; reports bad lines on standard error.
fn batch(
    rules: &Rules,
    paths: bool,
    input: impl io::Read,
    out: &mut impl Write,
) -> Result<(), CliError> {
    answer_lines(
        input,
        out,
        |text| {
            let pos = text.parse::<Position>().map_err(|e| e.to_string())?;
            Ok(move_list(&pos, rules, paths).join(" "))
        },
        |number, e, out| {
            eprintln!("kharbaga: line {number}: {e}");
            writeln!(out)
        },
    )
}
