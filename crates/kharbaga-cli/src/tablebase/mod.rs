//! `kharbaga tablebase`: build, probe, verify and plan the endgame tables.

mod bench;
mod generate;
mod plan;
mod probe;
mod verify;

use crate::args::{CliError, RulesArgs, TablesDir};
use kharbaga::Rules;
use kharbaga_tablebase::files::default_dir;
use std::path::PathBuf;

/// Endgame tables: generate, probe, verify, plan, bench
///
/// The tables hold the exact value of every position of up to N pieces (win or loss with the
/// distance to the end in plies, or draw). They live in one directory per rule set, by
/// default ~/.local/share/kharbaga/tables/RULES.
#[derive(clap::Args, Debug)]
pub struct TablebaseArgs {
    #[command(subcommand)]
    command: TablebaseCommand,
}

#[derive(clap::Subcommand, Debug)]
enum TablebaseCommand {
    Generate(generate::GenerateArgs),
    Probe(probe::ProbeArgs),
    Verify(verify::VerifyArgs),
    Plan(plan::PlanArgs),
    Bench(bench::BenchArgs),
}

/// Runs the command.
pub fn run(args: &TablebaseArgs) -> Result<(), CliError> {
    match &args.command {
        TablebaseCommand::Generate(a) => generate::run(a),
        TablebaseCommand::Probe(a) => probe::run(a),
        TablebaseCommand::Verify(a) => verify::run(a),
        TablebaseCommand::Plan(a) => plan::run(a),
        TablebaseCommand::Bench(a) => bench::run(a),
    }
}

/// The directory of the tables of `rules`: `dir` if given, else the default one.
pub fn tables_dir(dir: Option<&PathBuf>, rules: &Rules) -> Result<PathBuf, CliError> {
    match dir {
        Some(d) => Ok(d.clone()),
        None => default_dir(rules).ok_or_else(|| {
            CliError::Input(
                "no table directory: HOME is not set; give one with --dir or --tables".to_string(),
            )
        }),
    }
}

/// Options of the commands that read tables.
#[derive(clap::Args, Clone, Debug)]
pub struct TablesArgs {
    #[command(flatten)]
    pub rules: RulesArgs,

    #[command(flatten)]
    pub dir: TablesDir,
}
