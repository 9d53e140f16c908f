//! What several commands share: the rules options (`--rules`, `--rule`), the engine's
//! resources (`--hash`, `--threads`) and the error type that decides the exit status.

use kharbaga::{Game, Position, Rules, RulesError};
use kharbaga_engine::book::Book;
use kharbaga_engine::Options;
use kharbaga_tablebase::files::{default_dir, rules_key};
use kharbaga_tablebase::tablebase::Tablebase;
use std::fmt;
use std::io;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

/// The rules options: a rules string, then single-option overrides applied in order.
#[derive(clap::Args, Clone, Debug)]
pub struct RulesArgs {
    /// The rules: a rule set (standard, sideways, ludii, dagaz), optionally followed by
    /// ,OPTION=VALUE overrides, e.g. standard,removal=immediate
    #[arg(long, value_name = "RULES", default_value = "standard")]
    rules: Rules,

    /// Override one rule option (repeatable), applied after --rules
    ///
    /// OPTION=VALUE is one of: sideways=yes|no, backwards=yes|no, compulsory=yes|no,
    /// chains=yes|no, majority=yes|no, removal=delayed|immediate, back-rank=continue|promote,
    /// turn-back=yes|no, repetition=yes|no, no-progress=N|off. See docs/rules.md.
    #[arg(long = "rule", value_name = "OPTION=VALUE", value_parser = parse_rule_setting)]
    rule: Vec<RuleSetting>,
}

/// One `OPTION=VALUE` override, checked when it was read.
#[derive(Clone, Debug)]
pub struct RuleSetting(String);

/// Reads a `--rule` value, rejecting unknown options and values at once so that the error
/// names the argument.
fn parse_rule_setting(text: &str) -> Result<RuleSetting, RulesError> {
    // Whether an option and value are valid does not depend on the other options.
    Rules::standard().set_option_str(text)?;
    Ok(RuleSetting(text.to_string()))
}

impl RulesArgs {
    /// The rules these options select.
    pub fn rules(&self) -> Result<Rules, RulesError> {
        let mut rules = self.rules;
        for setting in &self.rule {
            rules.set_option_str(&setting.0)?;
        }
        Ok(rules)
    }
}

/// The position a command works on: a start position and moves played from it.
#[derive(clap::Args, Clone, Debug)]
pub struct PositionArgs {
    /// The position: a position string or `start`
    #[arg(long, value_name = "POSITION", default_value = "start")]
    position: Position,

    /// Moves played from the position first, separated by spaces (e.g. "d4-e5 f6xd4")
    #[arg(long, value_name = "MOVES", default_value = "")]
    moves: String,
}

impl PositionArgs {
    /// The game after playing the moves from the position under `rules`; an error names
    /// the move that cannot be played.
    pub fn game(&self, rules: Rules) -> Result<Game, CliError> {
        crate::analyze::game_after(rules, self.position, &self.moves).map_err(CliError::Input)
    }
}

/// The engine's resources, for the commands that search.
#[derive(clap::Args, Clone, Debug)]
pub struct EngineArgs {
    /// Transposition table size in MiB
    #[arg(long, value_name = "MIB", default_value_t = 64,
          value_parser = clap::value_parser!(u32).range(1..=65_536))]
    hash: u32,

    /// Search threads
    #[arg(long, value_name = "T", default_value_t = 1,
          value_parser = clap::value_parser!(u32).range(1..=256))]
    threads: u32,
}

impl EngineArgs {
    /// The engine settings for these resources at `level` (1 to 10).
    pub fn options(&self, level: u8) -> Options {
        Options {
            hash_mib: self.hash as usize,
            threads: self.threads as usize,
            level,
            tables: None,
            book: None,
        }
    }
}

/// The opening book switch of the commands where the engine plays or analyses.
#[derive(clap::Args, Debug)]
pub struct BookSwitch {
    /// Do not play from the opening book (the engine searches every move)
    #[arg(long)]
    no_book: bool,
}

impl BookSwitch {
    /// The built-in book, unless it is turned off.
    pub fn book(&self) -> Option<Arc<Book>> {
        (!self.no_book).then(|| Arc::new(Book::standard()))
    }
}

/// The endgame tables option of the commands that play or analyse.
#[derive(clap::Args, Clone, Debug)]
pub struct TablesDir {
    /// The endgame tables' directory (default: ~/.local/share/kharbaga/tables/RULES, when
    /// it exists); the engine plays perfectly in the positions they hold, at level 10
    #[arg(long, value_name = "DIR")]
    pub tables: Option<PathBuf>,
}

impl TablesDir {
    /// The tables for `rules`: those of `--tables` (an unreadable directory is an error, one
    /// without tables gets a warning, see [`open_tables`]), else the default directory's
    /// when it exists.
    pub fn open(&self, rules: &Rules) -> Result<Option<Arc<Tablebase>>, CliError> {
        let found = match &self.tables {
            Some(d) => Some(open_tables(d, rules)?),
            None => default_dir(rules)
                .filter(|d| d.is_dir())
                .and_then(|d| Tablebase::open(&d, *rules).ok()),
        };
        Ok(found.map(Arc::new))
    }
}

/// Opens the tables the user named, `dir`, for `rules`. A directory that cannot be read is
/// an error. One that holds no tables is most likely a mistake, so it gets a warning on
/// standard error, which names the subdirectory for these rules when there is one (the
/// default directory keeps the tables of each rule set in a subdirectory).
pub fn open_tables(dir: &Path, rules: &Rules) -> Result<Tablebase, CliError> {
    let tb = Tablebase::open(dir, *rules).map_err(|e| CliError::Input(e.to_string()))?;
    if tb.max_pieces() == 0 {
        let sub = dir.join(rules_key(rules));
        let hint = if sub.is_dir() {
            format!("; did you mean {}?", sub.display())
        } else {
            String::new()
        };
        eprintln!(
            "kharbaga: warning: {} holds no endgame tables{hint}",
            dir.display()
        );
    }
    Ok(tb)
}

/// Why a command failed.
#[derive(Debug)]
pub enum CliError {
    /// Bad input, not yet reported: the message goes to standard error, the exit status is 2.
    Input(String),
    /// Bad input already reported on standard error (batch mode); the exit status is 2.
    Reported,
    /// Reading or writing failed.
    Io(io::Error),
}

impl From<io::Error> for CliError {
    fn from(e: io::Error) -> CliError {
        CliError::Io(e)
    }
}

impl From<RulesError> for CliError {
    fn from(e: RulesError) -> CliError {
        CliError::Input(e.to_string())
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::Input(message) => f.write_str(message),
            CliError::Reported => f.write_str("bad input (see the messages above)"),
            CliError::Io(e) => write!(f, "{e}"),
        }
    }
}

/// The exit status of a command's result, after reporting its error: 0 on success (and when
/// the reader of standard output went away), 2 for bad input, 1 when reading or writing
/// failed.
pub fn exit_status(result: Result<(), CliError>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(CliError::Io(e)) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(CliError::Reported) => ExitCode::from(2),
        Err(e @ CliError::Input(_)) => {
            eprintln!("kharbaga: {e}");
            ExitCode::from(2)
        }
        Err(e @ CliError::Io(_)) => {
            eprintln!("kharbaga: {e}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::{CommandFactory, Parser};
    use kharbaga::{Removal, OPTION_KEYS};

    #[derive(Parser)]
    struct Probe {
        #[command(flatten)]
        rules: RulesArgs,
    }

    fn rules_of(args: &[&str]) -> Result<Rules, String> {
        let probe = Probe::try_parse_from(std::iter::once("probe").chain(args.iter().copied()))
            .map_err(|e| e.to_string())?;
        probe.rules.rules().map_err(|e| e.to_string())
    }

    #[test]
    fn overrides_apply_in_order_after_the_rules_string() {
        assert_eq!(rules_of(&[]).unwrap(), Rules::standard());
        let r = rules_of(&[
            "--rules",
            "ludii,removal=immediate",
            "--rule",
            "majority=yes",
        ])
        .unwrap();
        assert_eq!(r.removal, Removal::Immediate);
        assert!(r.majority && !r.capture_chains);
        let r = rules_of(&["--rule", "sideways=yes", "--rule", "sideways=no"]).unwrap();
        assert!(!r.men_step_sideways);
    }

    #[test]
    fn bad_rules_are_rejected_with_the_reason() {
        let e = rules_of(&["--rules", "standrd"]).unwrap_err();
        assert!(e.contains("unknown rule set 'standrd'"), "{e}");
        let e = rules_of(&["--rule", "colour=red"]).unwrap_err();
        assert!(e.contains("unknown rule option 'colour'"), "{e}");
        let e = rules_of(&["--rule", "majority"]).unwrap_err();
        assert!(e.contains("OPTION=VALUE"), "{e}");
    }

    #[test]
    fn help_names_every_option() {
        let help = Probe::command().render_long_help().to_string();
        for (key, values) in OPTION_KEYS {
            assert!(
                help.contains(&format!("{key}={values}")),
                "{key} missing from:\n{help}"
            );
        }
    }
}
