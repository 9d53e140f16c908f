//! Reading moves written in notation (`e3-e5`, `c5xe3xg5xc5`, or the short `c5xc5`) against
//! the legal moves of a position.

use crate::moves::Move;
use crate::point::Point;
use crate::position::Position;
use crate::rules::Rules;
use std::fmt;

/// Why a move could not be read or played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// The text is not a move in notation.
    Syntax {
        /// The text as given.
        text: String,
        /// The 1-based character column where the problem is.
        column: usize,
        /// What is wrong there.
        message: String,
    },
    /// The move is well-formed but not legal here.
    Illegal {
        /// The text as given.
        text: String,
        /// Why, in words.
        reason: String,
        /// Legal moves the player may have meant (from the same point, or else all).
        candidates: Vec<String>,
    },
    /// The short form names more than one legal move.
    Ambiguous {
        /// The text as given.
        text: String,
        /// The legal moves it could mean, in full notation.
        candidates: Vec<String>,
    },
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Syntax {
                text,
                column,
                message,
            } => write!(f, "'{text}' is not a move: {message} (column {column})"),
            MoveError::Illegal {
                text,
                reason,
                candidates,
            } => {
                write!(f, "{text} is not legal here: {reason}")?;
                if !candidates.is_empty() {
                    write!(f, "; legal: {}", candidates.join(" "))?;
                }
                Ok(())
            }
            MoveError::Ambiguous { text, candidates } => write!(
                f,
                "{text} is ambiguous; write the whole path: {}",
                candidates.join(" or ")
            ),
        }
    }
}

impl std::error::Error for MoveError {}

/// A move as written: its points and whether it was written as a capture.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveText {
    /// The start and the landing points as written.
    pub points: Vec<Point>,
    /// Written with `x` (a capture) rather than `-`.
    pub capture: bool,
}

impl MoveText {
    /// Reads the syntax of a move without looking at a position: points separated all by `-`
    /// or all by `x`.
    pub fn parse(text: &str) -> Result<MoveText, MoveError> {
        let syntax = |column: usize, message: String| MoveError::Syntax {
            text: text.to_string(),
            column,
            message,
        };
        let trimmed = text.trim();
        let lead = text.chars().count() - text.trim_start().chars().count();
        if trimmed.is_empty() {
            return Err(syntax(1, "empty".to_string()));
        }
        let mut points = Vec::new();
        let mut separator: Option<char> = None;
        let mut start = 0; // char index of the current point name in `trimmed`
        let chars: Vec<char> = trimmed.chars().collect();
        let mut i = 0;
        while i <= chars.len() {
            let c = chars.get(i).copied();
            let is_sep = matches!(c, Some('-' | 'x' | 'X' | ':'));
            if c.is_none() || is_sep {
                let name: String = chars[start..i].iter().collect();
                let p: Point = name.parse().map_err(|e: crate::point::ParsePointError| {
                    let what = if name.is_empty() {
                        "a point name is missing".to_string()
                    } else {
                        e.to_string()
                    };
                    syntax(lead + start + 1, what)
                })?;
                points.push(p);
                if let Some(c) = c {
                    let c = if c == '-' { '-' } else { 'x' };
                    match separator {
                        Some(s) if s != c => {
                            return Err(syntax(
                                lead + i + 1,
                                "'-' (a step) and 'x' (a capture) are mixed".to_string(),
                            ))
                        }
                        _ => separator = Some(c),
                    }
                }
                start = i + 1;
            }
            i += 1;
        }
        if points.len() < 2 {
            return Err(syntax(
                lead + 1,
                "expected at least two points, like e3-e5 or c5xe3".to_string(),
            ));
        }
        if points.len() - 1 > crate::moves::MAX_PATH {
            return Err(syntax(lead + 1, "too many landing points".to_string()));
        }
        let capture = separator == Some('x');
        if !capture && points.len() > 2 {
            return Err(syntax(
                lead + 1,
                "a step or slide has two points; captures are written with x".to_string(),
            ));
        }
        Ok(MoveText { points, capture })
    }
}

impl Position {
    /// Reads a move written in notation and finds the legal move it names.
    ///
    /// A capture may be written with its whole path (any of the paths of a move with several)
    /// or as `start x end` when that names one move.
    ///
    /// ```
    /// use kharbaga::{Position, Rules};
    /// let pos = Position::start();
    /// let mv = pos.parse_move(&Rules::standard(), "e3-e5").unwrap();
    /// assert_eq!(mv.to_string(), "e3-e5");
    /// assert!(pos.parse_move(&Rules::standard(), "e3-e7").is_err());
    /// ```
    pub fn parse_move(&self, rules: &Rules, text: &str) -> Result<Move, MoveError> {
        let written = MoveText::parse(text)?;
        let from = written.points[0];
        let rest = &written.points[1..];
        let legal = self.legal_moves(rules);
        let names = |moves: &mut dyn Iterator<Item = &Move>| -> Vec<String> {
            let mut v: Vec<String> = moves.map(|m| m.to_string()).collect();
            v.sort();
            v
        };
        let mut found: Vec<Move> = Vec::new();
        if written.capture {
            let sequences: Vec<Move> = self
                .legal_moves_all_paths(rules)
                .into_iter()
                .filter(|m| m.is_capture() && m.from() == from)
                .collect();
            // A whole path names its move even when it is also a short form of others.
            let exact = sequences.iter().any(|m| m.path() == rest);
            for m in sequences {
                let fits = if exact {
                    m.path() == rest
                } else {
                    rest.len() == 1 && m.to() == rest[0]
                };
                if fits {
                    let canonical = legal
                        .iter()
                        .find(|c| c.same_effect(&m))
                        .copied()
                        .unwrap_or(m);
                    if !found.contains(&canonical) {
                        found.push(canonical);
                    }
                }
            }
        } else {
            found.extend(
                legal
                    .iter()
                    .filter(|m| !m.is_capture() && m.from() == from && m.to() == rest[0]),
            );
        }
        match found.len() {
            1 => Ok(found[0]),
            0 => {
                let from_here: Vec<&Move> = legal.iter().filter(|m| m.from() == from).collect();
                let reason = match self.piece_at(from) {
                    None => format!("there is no piece on {from}"),
                    Some(p) if p.color != self.turn() => {
                        format!(
                            "the piece on {from} is {}'s, and {} is to move",
                            p.color,
                            self.turn()
                        )
                    }
                    Some(_)
                        if from_here.is_empty()
                            && legal.iter().any(|m| m.is_capture())
                            && rules.capture_compulsory =>
                    {
                        "a capture is compulsory and this piece cannot make one".to_string()
                    }
                    Some(_) if from_here.is_empty() => format!("the piece on {from} cannot move"),
                    Some(_) => format!("the piece on {from} has no such move"),
                };
                let candidates = if from_here.is_empty() {
                    names(&mut legal.iter())
                } else {
                    names(&mut from_here.into_iter())
                };
                Err(MoveError::Illegal {
                    text: text.trim().to_string(),
                    reason,
                    candidates,
                })
            }
            _ => Err(MoveError::Ambiguous {
                text: text.trim().to_string(),
                candidates: names(&mut found.iter()),
            }),
        }
    }
}
