//! `kharbaga verify-proof`: checks a proof file (docs/proof-format.md) with the independent
//! checker of the `kharbaga-solver` crate.

use crate::args::{exit_status, open_tables, CliError, RulesArgs};
use kharbaga_solver::check::{check_file, ProofError};
use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;

/// Check a proof file from its root
///
/// Replays the proof written by `kharbaga solve --proof FILE` (or any file in the format of
/// docs/proof-format.md) with the rules alone: every line of play from the root must end in
/// a win for the prover (`# claim: win`), or never in a loss for it (`# claim: hold`). The
/// endgame tables are used only when given with --tables, for the positions without a line.
///
/// When the proof holds, prints one line naming the rules, the prover, the claim and the root,
/// with the number of lines, the positions checked and the longest line in plies.
///
/// Exit status: 0 when the proof holds; 1 when it does not (the first error found, with its
/// line number, on standard error); 2 when the file cannot be read or is not a proof file, or
/// for bad arguments.
#[derive(clap::Args, Debug)]
#[command(after_help = "\
Examples:
  kharbaga verify-proof proof.txt
  kharbaga verify-proof --rules standard,no-progress=off --tables ~/tables proof.txt.gz")]
pub struct VerifyProofArgs {
    #[command(flatten)]
    rules: RulesArgs,

    /// The endgame tables' directory, for table leaves: positions without a line that the
    /// tables hold (no tables are used without it)
    #[arg(long, value_name = "DIR")]
    tables: Option<PathBuf>,

    /// The proof file (gzip-compressed when its name ends in .gz)
    #[arg(value_name = "FILE")]
    file: PathBuf,
}

/// Runs the command and gives its exit status.
pub fn run(args: &VerifyProofArgs) -> ExitCode {
    let rules = match args.rules.rules() {
        Ok(r) => r,
        Err(e) => return exit_status(Err(e.into())),
    };
    let tables = match &args.tables {
        Some(dir) => match open_tables(dir, &rules) {
            Ok(tb) => Some(tb),
            Err(e) => return exit_status(Err(e)),
        },
        None => None,
    };
    match check_file(&args.file, &rules, tables.as_ref()) {
        Ok(verified) => {
            let mut out = io::stdout().lock();
            let written = writeln!(out, "proof holds: {verified}").and_then(|()| out.flush());
            exit_status(written.map_err(CliError::from))
        }
        Err(e) if e.is_failure() => {
            eprintln!("kharbaga: {}: {e}", args.file.display());
            ExitCode::FAILURE
        }
        // A read error names the file itself.
        Err(e @ ProofError::Read { .. }) => exit_status(Err(CliError::Input(e.to_string()))),
        Err(e) => exit_status(Err(CliError::Input(format!(
            "{}: {e}",
            args.file.display()
        )))),
    }
}
