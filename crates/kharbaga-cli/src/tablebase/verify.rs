//! `kharbaga tablebase verify`.

use super::tables_dir;
use crate::args::{CliError, RulesArgs};
use kharbaga_tablebase::slice::SliceId;
use kharbaga_tablebase::verify::{verify_dir, SliceCheck};
use std::io::Write;
use std::path::PathBuf;

/// Re-check every stored value against the values of its successors
///
/// For each slice: every position's moves are generated again and its value derived from
/// the stored values of the positions they lead to (a win has a move to a loss one ply
/// shorter and none shorter, every move from a loss leads to a win and the longest is one ply
/// shorter, a draw has a drawing move and no winning one). One line per slice with its
/// counts of wins, draws and losses (every placement counted); the exit status is 2 if any
/// value is wrong or a file is damaged.
#[derive(clap::Args, Debug)]
pub struct VerifyArgs {
    #[command(flatten)]
    rules: RulesArgs,

    /// The directory of the table files (default: ~/.local/share/kharbaga/tables/RULES)
    #[arg(long, value_name = "DIR")]
    dir: Option<PathBuf>,

    /// Only this slice and its pair (NAME like 2m1k-0m1k; repeatable); by default every
    /// slice in the directory
    #[arg(long, value_name = "NAME")]
    slice: Vec<SliceId>,
}

/// Runs the command.
pub fn run(args: &VerifyArgs) -> Result<(), CliError> {
    let rules = args.rules.rules()?;
    let dir = tables_dir(args.dir.as_ref(), &rules)?;
    let mut out = std::io::stdout().lock();
    let mut wrong = 0u64;
    let mut failure = None;
    let mut each = |c: &SliceCheck| {
        wrong += c.mismatches.0;
        let status = if c.ok() { "ok" } else { "WRONG" };
        let mut line = format!(
            "{} {status}: {} places, {} wins, {} draws, {} losses, longest win {}, longest loss {}",
            c.slice,
            c.checked,
            c.stats.wins,
            c.stats.draws,
            c.stats.losses,
            c.stats.longest_win,
            c.stats.longest_loss
        );
        if !c.ok() {
            line.push_str(&format!(", {} wrong values:", c.mismatches.0));
            for m in &c.mismatches.1 {
                line.push_str(&format!("\n  {m}"));
            }
        }
        if let Err(e) = writeln!(out, "{line}") {
            failure.get_or_insert(e);
        }
    };
    let checks = verify_dir(&dir, &rules, &args.slice, &mut each)
        .map_err(|e| CliError::Input(e.to_string()))?;
    if let Some(e) = failure {
        return Err(e.into());
    }
    if checks.is_empty() {
        return Err(CliError::Input(format!(
            "no table files in {}",
            dir.display()
        )));
    }
    if wrong > 0 {
        return Err(CliError::Input(format!(
            "{wrong} stored values disagree with their successors"
        )));
    }
    writeln!(
        out,
        "{} slices verified, every value agrees with its successors",
        checks.len()
    )?;
    Ok(())
}
