//! What can go wrong: a file that cannot be read, a file that is not a proof file, a table
//! that cannot be probed, and a proof that does not hold ([`Failure`]).

use super::failure::Failure;
use kharbaga::{MoveError, ParseFenError, Position, Rules, RulesError};
use kharbaga_tablebase::tablebase::ProbeError;
use std::fmt;
use std::io;
use std::path::PathBuf;

/// Why a proof was not verified.
#[derive(Debug)]
pub enum ProofError {
    /// The file could not be read (it cannot be opened, a read failed, broken gzip).
    Read {
        /// The file, when reading a file.
        path: Option<PathBuf>,
        /// The line being read when it failed, if reading had started.
        line: Option<u64>,
        /// What failed.
        error: io::Error,
    },
    /// The file is not a well-formed proof file.
    Malformed {
        /// The line at fault (0 when the problem is the whole file).
        line: u64,
        /// What is wrong.
        problem: Malformed,
    },
    /// A table the check needed could not be probed.
    Table {
        /// The position probed.
        position: Position,
        /// Why it failed.
        error: ProbeError,
    },
    /// The file is a proof file but the proof does not hold.
    Fails(Box<Failure>),
}

impl ProofError {
    /// Whether the proof was read and does not hold (rather than the file or the tables
    /// being unusable).
    pub fn is_failure(&self) -> bool {
        matches!(self, ProofError::Fails(_))
    }

    pub(super) fn malformed(line: u64, problem: Malformed) -> ProofError {
        ProofError::Malformed { line, problem }
    }
}

impl From<Failure> for ProofError {
    fn from(f: Failure) -> ProofError {
        ProofError::Fails(Box::new(f))
    }
}

impl fmt::Display for ProofError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProofError::Read { path, line, error } => {
                f.write_str("cannot read ")?;
                match path {
                    Some(p) => write!(f, "{}", p.display())?,
                    None => f.write_str("the proof")?,
                }
                if let Some(n) = line {
                    write!(f, " (line {n})")?;
                }
                write!(f, ": {error}")
            }
            ProofError::Malformed { line: 0, problem } => write!(f, "not a proof file: {problem}"),
            ProofError::Malformed { line, problem } => write!(f, "line {line}: {problem}"),
            ProofError::Table { position, error } => {
                write!(f, "cannot probe the tables for {position}: {error}")
            }
            ProofError::Fails(failure) => write!(f, "the proof does not hold: {failure}"),
        }
    }
}

impl std::error::Error for ProofError {}

/// What is wrong with a malformed proof file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Malformed {
    /// The line is not UTF-8 text.
    NotUtf8,
    /// The first field is not a position string.
    BadPosition {
        /// The field.
        text: String,
        /// Why it is not a position.
        error: ParseFenError,
    },
    /// The second field is neither `all` nor a move in notation.
    BadMove {
        /// The field.
        text: String,
        /// Why it is not a move.
        error: MoveError,
    },
    /// The line has a position but no move (nor `all`).
    MissingMove,
    /// The line has more than two fields.
    ExtraField {
        /// The first field too many.
        text: String,
    },
    /// The `# claim:` comment is neither `win` nor `hold`.
    BadClaim {
        /// The claim as written.
        text: String,
    },
    /// The `# rules:` comment is not a rules string.
    BadRules {
        /// The rules as written.
        text: String,
        /// Why they cannot be read.
        error: RulesError,
    },
    /// The `# rules:` comment names other rules than those the proof is checked under.
    RulesMismatch {
        /// The rules of the file.
        file: Rules,
        /// The rules of the check.
        given: Rules,
    },
    /// A second `# rules:` or `# claim:` comment.
    RepeatedComment {
        /// `rules` or `claim`.
        key: &'static str,
        /// The line of the first one.
        first_line: u64,
    },
    /// A second line for a position.
    Duplicate {
        /// The position.
        position: Position,
        /// The line of the first one.
        first_line: u64,
    },
    /// The file has no position line, so no root.
    NoRoot,
    /// The file has more lines (or move text) than the checker can index.
    TooLarge,
}

impl fmt::Display for Malformed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Malformed::NotUtf8 => f.write_str("not UTF-8 text"),
            Malformed::BadPosition { text, error } => {
                write!(f, "'{text}' is not a position: {error}")
            }
            Malformed::BadMove { text, error } => {
                write!(f, "'{text}' is neither 'all' nor a move: {error}")
            }
            Malformed::MissingMove => {
                f.write_str("a position line needs a move or 'all' after the position")
            }
            Malformed::ExtraField { text } => write!(
                f,
                "unexpected '{text}' after the move: a line is POSITION MOVE or POSITION all"
            ),
            Malformed::BadClaim { text } => {
                write!(f, "bad claim comment '{text}' (expected win or hold)")
            }
            Malformed::BadRules { text, error } => {
                write!(f, "bad rules comment '{text}': {error}")
            }
            Malformed::RulesMismatch { file, given } => write!(
                f,
                "the proof is for the rules {file}, but the check is under {given}"
            ),
            Malformed::RepeatedComment { key, first_line } => {
                write!(
                    f,
                    "a second '# {key}:' comment (the first is on line {first_line})"
                )
            }
            Malformed::Duplicate {
                position,
                first_line,
            } => write!(
                f,
                "a second line for {position} (the first is on line {first_line})"
            ),
            Malformed::NoRoot => f.write_str("no position line (the first one is the root)"),
            Malformed::TooLarge => f.write_str("too many lines for the checker"),
        }
    }
}
