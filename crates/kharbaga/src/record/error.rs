//! Why a record or one of its tags cannot be read or stored, and where.

use super::result::GameResult;
use crate::color::Color;
use crate::fen::ParseFenError;
use crate::game::{Outcome, PlayError};
use crate::rules::RulesError;
use std::fmt;

/// Why a tag cannot be stored in a record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TagError {
    /// The name is not a letter followed by letters, digits and `_`.
    BadName(String),
    /// The value of the named tag holds a control character (a line break, a tab...).
    ControlCharacter(String),
    /// The `Date` value is not `YYYY.MM.DD` (with `?` for unknown digits).
    BadDate(String),
    /// The named tag is given twice.
    Duplicate(String),
    /// The named tag (`Result`, `Rules` or `FEN`) is written from the game and its result.
    Derived(String),
}

impl fmt::Display for TagError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TagError::BadName(n) => write!(
                f,
                "'{n}' is not a tag name (a letter, then letters, digits or '_')"
            ),
            TagError::ControlCharacter(n) => {
                write!(f, "the value of tag {n} holds a control character")
            }
            TagError::BadDate(d) => write!(
                f,
                "date '{d}' is not YYYY.MM.DD (write ?? for an unknown part, like 2024.05.??)"
            ),
            TagError::Duplicate(n) => write!(f, "tag {n} is given twice"),
            TagError::Derived(n) => write!(
                f,
                "tag {n} is written from the game (set the rules, start position or result there)"
            ),
        }
    }
}

impl std::error::Error for TagError {}

/// What is wrong with a record (see [`RecordError`] for where).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordErrorKind {
    /// A tag line is not `[Name "value"]`.
    TagSyntax(&'static str),
    /// A tag value has no closing `"` on its line.
    UnterminatedString,
    /// A comment has no closing `}`.
    UnterminatedComment,
    /// A tag name or value is not allowed.
    Tag(TagError),
    /// The `Rules` tag cannot be read.
    Rules(RulesError),
    /// The `FEN` tag cannot be read.
    Fen(ParseFenError),
    /// The `Result` tag is not a result.
    BadResult(String),
    /// A move cannot be played: not a move, illegal, ambiguous, or the game is already over.
    Move {
        /// The number of the move, counted as the record numbers it.
        number: usize,
        /// The side that was to play it.
        color: Color,
        /// Why it cannot be played.
        error: PlayError,
    },
    /// A move number does not fit the move after it.
    MoveNumber {
        /// The number as written, like `3.`.
        written: String,
        /// The number that belongs there, like `2.` or `2...` (a White move).
        expected: String,
    },
    /// The result token at the end differs from the `Result` tag.
    ResultMismatch {
        /// The result in the tag.
        tag: GameResult,
        /// The result at the end of the moves.
        token: GameResult,
    },
    /// The declared result contradicts the final position, where the game is over.
    WrongResult {
        /// The result written.
        written: GameResult,
        /// How the game ended on the board.
        outcome: Outcome,
    },
    /// Text that has no place here.
    Unexpected(String),
    /// There is no game in the text.
    NoGame,
    /// A second game starts where one was expected ([`Record::parse`](super::Record::parse)).
    SecondGame,
}

impl fmt::Display for RecordErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordErrorKind::TagSyntax(m) => write!(f, "bad tag: {m}"),
            RecordErrorKind::UnterminatedString => {
                f.write_str("unterminated string: no closing '\"' on this line")
            }
            RecordErrorKind::UnterminatedComment => {
                f.write_str("unterminated comment: no closing '}'")
            }
            RecordErrorKind::Tag(e) => write!(f, "{e}"),
            RecordErrorKind::Rules(e) => write!(f, "bad Rules tag: {e}"),
            RecordErrorKind::Fen(e) => write!(f, "bad FEN tag: {e}"),
            RecordErrorKind::BadResult(s) => {
                write!(f, "bad Result tag '{s}' (expected 1-0, 0-1, 1/2-1/2 or *)")
            }
            RecordErrorKind::Move {
                number,
                color,
                error,
            } => write!(f, "move {number} ({color}): {error}"),
            RecordErrorKind::MoveNumber { written, expected } => {
                write!(
                    f,
                    "move number '{written}' is wrong here: expected '{expected}'"
                )
            }
            RecordErrorKind::ResultMismatch { tag, token } => {
                write!(f, "the result {token} contradicts the Result tag {tag}")
            }
            RecordErrorKind::WrongResult { written, outcome } => write!(
                f,
                "the result {written} contradicts the final position: {outcome}"
            ),
            RecordErrorKind::Unexpected(m) => f.write_str(m),
            RecordErrorKind::NoGame => {
                f.write_str("no game found (expected tags like [Event \"...\"] or moves)")
            }
            RecordErrorKind::SecondGame => f.write_str(
                "a second game starts here (Record::parse reads one game; use parse_many)",
            ),
        }
    }
}

/// A record that cannot be read: where (1-based line and column, in characters) and what is
/// wrong. Displayed as `line L, column C: message`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordError {
    /// The line of the problem, from 1.
    pub line: usize,
    /// The column of the problem, from 1, counted in characters.
    pub column: usize,
    /// What is wrong.
    pub kind: RecordErrorKind,
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "line {}, column {}: {}",
            self.line, self.column, self.kind
        )
    }
}

impl std::error::Error for RecordError {}
