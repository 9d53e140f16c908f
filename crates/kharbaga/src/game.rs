//! A game: a start position, the moves played, and the outcome.

use crate::color::Color;
use crate::moves::Move;
use crate::notation::MoveError;
use crate::position::Position;
use crate::rules::Rules;
use std::fmt;

/// Why a game ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Reason {
    /// The side to move (the loser) has no legal move: no pieces left, or all blocked.
    NoMoves {
        /// The side that could not move.
        loser: Color,
        /// Whether it had no pieces at all.
        no_pieces: bool,
    },
    /// The same position with the same side to move occurred for the third time.
    Repetition,
    /// The no-progress limit (plies without capture or man move) was reached.
    NoProgress(u32),
    /// A player resigned.
    Resignation(Color),
    /// The players agreed to a draw.
    Agreement,
    /// A player's clock ran out (the player who lost on time).
    Time(Color),
}

/// How a game ended: the winner (none for a draw) and why.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// The winner, or `None` for a draw.
    pub winner: Option<Color>,
    /// Why the game ended.
    pub reason: Reason,
}

impl Outcome {
    /// The result as a record writes it: `1-0` (Black won), `0-1` (White won), `1/2-1/2`.
    pub fn result_str(&self) -> &'static str {
        match self.winner {
            Some(Color::Black) => "1-0",
            Some(Color::White) => "0-1",
            None => "1/2-1/2",
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.winner {
            Some(c) => write!(f, "{c} wins")?,
            None => f.write_str("Draw")?,
        }
        match self.reason {
            Reason::NoMoves {
                loser,
                no_pieces: true,
            } => write!(f, ": {loser} has no pieces left"),
            Reason::NoMoves { loser, .. } => write!(f, ": {loser} has no legal move"),
            Reason::Repetition => f.write_str(": the same position occurred for the third time"),
            Reason::NoProgress(n) => write!(f, ": {n} plies without a capture or a man move"),
            Reason::Resignation(c) => write!(f, ": {c} resigned"),
            Reason::Agreement => f.write_str(" by agreement"),
            Reason::Time(c) => write!(f, ": {c} ran out of time"),
        }
    }
}

/// Why a move could not be played in a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayError {
    /// The game is over.
    GameOver(Outcome),
    /// The move is not legal or not readable.
    Move(MoveError),
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayError::GameOver(o) => write!(f, "the game is over ({o})"),
            PlayError::Move(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for PlayError {}

impl From<MoveError> for PlayError {
    fn from(e: MoveError) -> PlayError {
        PlayError::Move(e)
    }
}

/// A game: rules, start position, the moves played and the positions they led to.
///
/// ```
/// use kharbaga::{Game, Rules};
/// let mut game = Game::new(Rules::standard());
/// game.play_str("e3-e5").unwrap();
/// assert_eq!(game.moves().len(), 1);
/// assert!(game.outcome().is_none());
/// game.undo();
/// assert_eq!(game.moves().len(), 0);
/// ```
#[derive(Clone, Debug)]
pub struct Game {
    rules: Rules,
    positions: Vec<Position>,
    moves: Vec<Move>,
    /// For each position, the plies since the last capture or man move.
    quiet: Vec<u32>,
    /// A result not given by the board (resignation, agreement).
    declared: Option<Outcome>,
}

impl Game {
    /// A game from the start position.
    pub fn new(rules: Rules) -> Game {
        Game::from_position(rules, Position::start())
    }

    /// A game from a given position.
    pub fn from_position(rules: Rules, start: Position) -> Game {
        Game {
            rules,
            positions: vec![start],
            moves: Vec::new(),
            quiet: vec![0],
            declared: None,
        }
    }

    /// The rules of the game.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The position the game started from.
    pub fn start(&self) -> &Position {
        &self.positions[0]
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        self.positions.last().expect("never empty")
    }

    /// The positions from the start to the current one (one more than the moves).
    pub fn positions(&self) -> &[Position] {
        &self.positions
    }

    /// The moves played, in order.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Plies since the last capture or man move.
    pub fn quiet_plies(&self) -> u32 {
        *self.quiet.last().expect("never empty")
    }

    /// The legal moves in the current position (none once the game is over).
    pub fn legal_moves(&self) -> Vec<Move> {
        if self.outcome().is_some() {
            Vec::new()
        } else {
            self.position().legal_moves(&self.rules)
        }
    }

    /// How often the current position (with the same side to move) has occurred, this
    /// time included.
    pub fn repetitions(&self) -> usize {
        let current = self.position();
        // Only positions since the last capture or man move can repeat.
        let window = self.quiet_plies() as usize + 1;
        self.positions
            .iter()
            .rev()
            .take(window)
            .filter(|p| *p == current)
            .count()
    }

    /// The outcome, if the game is over.
    pub fn outcome(&self) -> Option<Outcome> {
        if self.declared.is_some() {
            return self.declared;
        }
        let pos = self.position();
        if pos.is_blocked(&self.rules) {
            let loser = pos.turn();
            return Some(Outcome {
                winner: Some(!loser),
                reason: Reason::NoMoves {
                    loser,
                    no_pieces: pos.pieces(loser).is_empty(),
                },
            });
        }
        if self.rules.threefold_repetition && self.repetitions() >= 3 {
            return Some(Outcome {
                winner: None,
                reason: Reason::Repetition,
            });
        }
        match self.rules.no_progress_limit {
            Some(limit) if self.quiet_plies() >= limit => Some(Outcome {
                winner: None,
                reason: Reason::NoProgress(limit),
            }),
            _ => None,
        }
    }

    /// Plays a legal move.
    pub fn play(&mut self, mv: &Move) -> Result<(), PlayError> {
        if let Some(o) = self.outcome() {
            return Err(PlayError::GameOver(o));
        }
        let pos = *self.position();
        let Some(legal) = pos
            .legal_moves(&self.rules)
            .into_iter()
            .find(|m| m.same_effect(mv))
        else {
            return Err(PlayError::Move(MoveError::Illegal {
                text: mv.to_string(),
                reason: "not a legal move in this position".to_string(),
                candidates: Vec::new(),
            }));
        };
        self.push(pos, legal);
        Ok(())
    }

    /// Reads a move in notation and plays it; returns the move as played (full path).
    pub fn play_str(&mut self, text: &str) -> Result<Move, PlayError> {
        if let Some(o) = self.outcome() {
            return Err(PlayError::GameOver(o));
        }
        let pos = *self.position();
        let mv = pos.parse_move(&self.rules, text)?;
        self.push(pos, mv);
        Ok(mv)
    }

    fn push(&mut self, pos: Position, mv: Move) {
        let quiet = if pos.is_progress(&mv) {
            0
        } else {
            self.quiet_plies() + 1
        };
        self.positions.push(pos.play(&mv));
        self.moves.push(mv);
        self.quiet.push(quiet);
    }

    /// Takes back the last move (and any declared result); returns it.
    pub fn undo(&mut self) -> Option<Move> {
        self.declared = None;
        let mv = self.moves.pop()?;
        self.positions.pop();
        self.quiet.pop();
        Some(mv)
    }

    /// Ends the game by resignation of `color`.
    pub fn resign(&mut self, color: Color) {
        self.declared = Some(Outcome {
            winner: Some(!color),
            reason: Reason::Resignation(color),
        });
    }

    /// Ends the game by the flag of `color`: its clock ran out.
    pub fn flag(&mut self, color: Color) {
        self.declared = Some(Outcome {
            winner: Some(!color),
            reason: Reason::Time(color),
        });
    }

    /// Ends the game as a draw by agreement.
    pub fn agree_draw(&mut self) {
        self.declared = Some(Outcome {
            winner: None,
            reason: Reason::Agreement,
        });
    }
}
