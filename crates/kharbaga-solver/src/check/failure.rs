//! Why a proof does not hold: the place where a line of play is not covered, and what is
//! wrong there.

use super::Claim;
use kharbaga::{Color, MoveError, Position};
use kharbaga_tablebase::value::Value;
use std::fmt;

/// A move of the proof: played from a position that has a line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// The position it is played from.
    pub from: Position,
    /// That position's line.
    pub line: u64,
    /// The move, in full notation.
    pub mv: String,
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "line {}: after {} from {}",
            self.line, self.mv, self.from
        )
    }
}

/// Why a proof does not hold: the first uncovered place the check found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// The move of a line cannot be played in its position (illegal, or a short form naming
    /// several moves).
    IllegalMove {
        /// The position.
        position: Position,
        /// Its line.
        line: u64,
        /// The move as written.
        text: String,
        /// Why it cannot be played.
        error: MoveError,
    },
    /// The prover is to move and has no legal move (it loses), after `step` or at the root.
    ProverBlocked {
        /// The move that led there (none at the root).
        step: Option<Step>,
        /// The position.
        position: Position,
        /// The prover.
        prover: Color,
    },
    /// The position reached has no line and no table holds it (or it is not a leaf).
    NotCovered {
        /// The move that led there.
        step: Step,
        /// The position reached.
        position: Position,
    },
    /// In a win proof, the position reached is already on the line of play.
    Cycle {
        /// The move that led there.
        step: Step,
        /// The position reached.
        position: Position,
        /// Its line.
        line: u64,
    },
    /// In a win proof, the position reached with the no-progress count at the limit: the
    /// game is drawn there.
    NoProgress {
        /// The move that led there.
        step: Step,
        /// The position reached.
        position: Position,
        /// The no-progress count there on the worst line reaching it.
        count: u32,
        /// The rules' limit.
        limit: u32,
    },
    /// The tables' value of the position reached is not one the claim accepts.
    TableValue {
        /// The move that led there.
        step: Step,
        /// The position reached.
        position: Position,
        /// Its value for the side to move there.
        value: Value,
        /// The prover.
        prover: Color,
        /// The claim.
        claim: Claim,
    },
    /// In a win proof, the tables' win of the position reached is too long for the plies
    /// left before a no-progress draw (count + plies > limit).
    TableTooLong {
        /// The move that led there.
        step: Step,
        /// The position reached.
        position: Position,
        /// The plies of the prover's win there.
        plies: u32,
        /// The no-progress count there on the worst line reaching it.
        count: u32,
        /// The rules' limit.
        limit: u32,
    },
    /// The line of the position reached is of the wrong kind: a move where the opponent is
    /// to move, or `all` where the prover is.
    KindMismatch {
        /// The move that led there.
        step: Option<Step>,
        /// The position reached.
        position: Position,
        /// Its line.
        line: u64,
        /// The prover.
        prover: Color,
    },
}

impl Failure {
    /// The line of the file the failure is reported at: the line of the position the move
    /// was played from, or the line at fault itself.
    pub fn line(&self) -> Option<u64> {
        match self {
            Failure::IllegalMove { line, .. } | Failure::KindMismatch { line, .. } => Some(*line),
            Failure::ProverBlocked { step, .. } => step.as_ref().map(|s| s.line),
            Failure::NotCovered { step, .. }
            | Failure::Cycle { step, .. }
            | Failure::NoProgress { step, .. }
            | Failure::TableValue { step, .. }
            | Failure::TableTooLong { step, .. } => Some(step.line),
        }
    }
}

/// A value for the side to move in `pos`, in words.
fn value_words(pos: &Position, value: Value) -> String {
    match value {
        Value::Win(d) => format!("{} wins in {d} plies", pos.turn()),
        Value::Loss(d) => format!("{} wins in {d} plies", !pos.turn()),
        Value::Draw => "a draw".to_string(),
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::IllegalMove {
                position,
                line,
                text,
                error,
            } => write!(
                f,
                "line {line}: {text} cannot be played in {position}: {error}"
            ),
            Failure::ProverBlocked {
                step,
                position,
                prover,
            } => {
                match step {
                    Some(s) => write!(f, "{s}, ")?,
                    None => f.write_str("at the root, ")?,
                }
                write!(
                    f,
                    "{prover} (the prover) has no legal move in {position} and loses"
                )
            }
            Failure::NotCovered { step, position } => write!(
                f,
                "{step}, {position} is not covered: it has no line and no table holds it"
            ),
            Failure::Cycle {
                step,
                position,
                line,
            } => write!(
                f,
                "{step}, {position} (line {line}) is already on the line of play: \
                 a cycle, which a win proof must not have"
            ),
            Failure::NoProgress {
                step,
                position,
                count,
                limit,
            } => write!(
                f,
                "{step}, {position} is reached with {count} plies without a capture or a man \
                 move (the limit is {limit}): the game is drawn there"
            ),
            Failure::TableValue {
                step,
                position,
                value,
                prover,
                claim,
            } => {
                let needs = match claim {
                    Claim::Win => format!("a {prover} win"),
                    Claim::Hold => format!("a draw or a {prover} win"),
                };
                write!(
                    f,
                    "{step}, the tables hold {position}: {} (a {claim} proof needs {needs} there)",
                    value_words(position, *value)
                )
            }
            Failure::TableTooLong {
                step,
                position,
                plies,
                count,
                limit,
            } => write!(
                f,
                "{step}, the tables' win in {plies} plies from {position} is too long: \
                 {count} plies without progress already, and {count} + {plies} is over the \
                 no-progress limit {limit}"
            ),
            Failure::KindMismatch {
                step,
                position,
                line,
                prover,
            } => {
                if let Some(s) = step {
                    write!(f, "{s}, ")?;
                }
                let (side, kind) = if position.turn() == *prover {
                    (format!("{prover}, the prover,"), "a move, not 'all'")
                } else {
                    (
                        format!("{}, the opponent,", position.turn()),
                        "'all', not a move",
                    )
                };
                write!(
                    f,
                    "{position} has {side} to move, so its line (line {line}) must have {kind}"
                )
            }
        }
    }
}
