//! Position strings, in the style of PDN's FEN for draughts:
//! `B:Ba1,c1,Ke5:Wa9` (side to move, then each colour's list; `K` marks a Mullah).

use crate::bitboard::Bitboard;
use crate::color::Color;
use crate::point::{ParsePointError, Point};
use crate::position::{Position, PositionError, Setup};
use std::fmt;

/// The start position's string.
pub const START_FEN: &str = "B:Ba1,c1,e1,g1,i1,b2,d2,f2,h2,a3,c3,e3,g3,i3,b4,d4,f4,h4,g5,i5:Wa5,c5,b6,d6,f6,h6,a7,c7,e7,g7,i7,b8,d8,f8,h8,a9,c9,e9,g9,i9";

/// What is wrong with a position string.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenErrorKind {
    /// The string is empty.
    Empty,
    /// The side to move is not `B` or `W`.
    BadTurn(String),
    /// A list does not start with `B` or `W`.
    BadList(String),
    /// The same colour has two lists.
    DuplicateList(Color),
    /// More than three `:`-separated fields.
    TooManyFields,
    /// A point name is wrong.
    BadPoint(ParsePointError),
    /// A point is listed twice.
    DuplicatePoint(Point),
    /// The placement is readable but not a legal position.
    Illegal(PositionError),
}

/// A position string that could not be read: what is wrong and where (1-based column, in
/// characters).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseFenError {
    /// The column (1-based, in characters) where the problem starts.
    pub column: usize,
    /// What is wrong.
    pub kind: FenErrorKind,
}

impl fmt::Display for ParseFenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "position string, column {}: ", self.column)?;
        match &self.kind {
            FenErrorKind::Empty => {
                f.write_str("empty (expected 'start' or a string like B:Ba1,c1:Wa9)")
            }
            FenErrorKind::BadTurn(s) => write!(f, "side to move '{s}' is not B or W"),
            FenErrorKind::BadList(s) => {
                write!(f, "piece list '{s}' does not start with B or W")
            }
            FenErrorKind::DuplicateList(c) => write!(f, "a second list for {c}"),
            FenErrorKind::TooManyFields => {
                f.write_str("too many ':'-separated fields (expected turn:list:list)")
            }
            FenErrorKind::BadPoint(e) => write!(f, "{e}"),
            FenErrorKind::DuplicatePoint(p) => write!(f, "point {p} is listed twice"),
            FenErrorKind::Illegal(e) => write!(f, "illegal position: {e}"),
        }
    }
}

impl std::error::Error for ParseFenError {}

impl Setup {
    /// Reads a position string (or the word `start`) without checking legality beyond what
    /// the syntax needs (no point twice).
    pub fn from_fen(text: &str) -> Result<Setup, ParseFenError> {
        let err = |column: usize, kind| ParseFenError { column, kind };
        let lead = text.len() - text.trim_start().len();
        let trimmed = text.trim();
        if trimmed.is_empty() {
            return Err(err(1, FenErrorKind::Empty));
        }
        if trimmed.eq_ignore_ascii_case("start") {
            return Ok(Setup::start());
        }
        // Column of a byte offset within `trimmed`, in characters of the original text.
        let col = |byte: usize| text[..lead + byte].chars().count() + 1;
        let mut fields = Vec::new();
        let mut offset = 0;
        for field in trimmed.split(':') {
            fields.push((offset, field));
            offset += field.len() + 1;
        }
        if fields.len() > 3 {
            return Err(err(col(fields[3].0), FenErrorKind::TooManyFields));
        }
        let (turn_off, turn_text) = fields[0];
        let turn = match turn_text.trim() {
            t if t.chars().count() == 1 => Color::from_letter(t.chars().next().unwrap_or(' ')),
            _ => None,
        }
        .ok_or_else(|| err(col(turn_off), FenErrorKind::BadTurn(turn_text.to_string())))?;
        let mut setup = Setup {
            turn,
            ..Setup::default()
        };
        let mut seen = [false; 2];
        for &(off, field) in &fields[1..] {
            let inner = field.trim_start();
            let off = off + field.len() - inner.len();
            let mut chars = inner.chars();
            let color = chars
                .next()
                .and_then(Color::from_letter)
                .ok_or_else(|| err(col(off), FenErrorKind::BadList(field.to_string())))?;
            if std::mem::replace(&mut seen[color.index()], true) {
                return Err(err(col(off), FenErrorKind::DuplicateList(color)));
            }
            let mut pieces = Bitboard::EMPTY;
            let mut item_off = off + 1;
            let items = chars.as_str();
            let items = if items.trim().is_empty() { "" } else { items };
            for item in items.split(',').filter(|_| !items.is_empty()) {
                let body = item.trim();
                let body_off = item_off + item.len() - item.trim_start().len();
                item_off += item.len() + 1;
                let (mullah, name) = match body.strip_prefix(['K', 'k']) {
                    Some(rest) => (true, rest),
                    None => (false, body),
                };
                let p: Point = name
                    .parse()
                    .map_err(|e| err(col(body_off), FenErrorKind::BadPoint(e)))?;
                if (setup.black | setup.white | pieces).contains(p) {
                    return Err(err(col(body_off), FenErrorKind::DuplicatePoint(p)));
                }
                pieces = pieces.with(p);
                if mullah {
                    setup.mullahs = setup.mullahs.with(p);
                }
            }
            match color {
                Color::Black => setup.black = pieces,
                Color::White => setup.white = pieces,
            }
        }
        Ok(setup)
    }

    /// The canonical position string: side to move, Black's list, White's list, points rank
    /// by rank from a to i, Mullahs prefixed with `K`.
    pub fn to_fen(&self) -> String {
        let list = |color: Color| {
            let items: Vec<String> = self
                .pieces(color)
                .iter()
                .map(|p| {
                    if self.mullahs.contains(p) {
                        format!("K{p}")
                    } else {
                        p.to_string()
                    }
                })
                .collect();
            format!("{}{}", color.letter(), items.join(","))
        };
        format!(
            "{}:{}:{}",
            self.turn.letter(),
            list(Color::Black),
            list(Color::White)
        )
    }
}

impl Position {
    /// Reads and checks a position string (or the word `start`).
    ///
    /// ```
    /// use kharbaga::Position;
    /// let pos = Position::from_fen("W:Bc3,Ke5:Wd4").unwrap();
    /// assert_eq!(pos.to_fen(), "W:Bc3,Ke5:Wd4");
    /// assert!(Position::from_fen("B:Ba9:W").is_err()); // a black man on rank 9
    /// ```
    pub fn from_fen(text: &str) -> Result<Position, ParseFenError> {
        let setup = Setup::from_fen(text)?;
        Position::from_setup(setup).map_err(|e| ParseFenError {
            column: 1,
            kind: FenErrorKind::Illegal(e),
        })
    }

    /// The canonical position string.
    pub fn to_fen(&self) -> String {
        self.to_setup().to_fen()
    }
}

impl fmt::Display for Position {
    /// The canonical position string.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_fen())
    }
}

impl std::str::FromStr for Position {
    type Err = ParseFenError;
    fn from_str(s: &str) -> Result<Position, ParseFenError> {
        Position::from_fen(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_round_trips() {
        let pos = Position::start();
        assert_eq!(pos.to_fen(), START_FEN);
        assert_eq!(Position::from_fen(START_FEN).unwrap(), pos);
        assert_eq!(Position::from_fen("start").unwrap(), pos);
        assert_eq!(pos.occupied().count(), 40);
        assert!(pos.empty().contains(Point::E5));
    }

    #[test]
    fn lists_in_either_order_and_empty() {
        let a = Position::from_fen("W:Wc7,Ke5:Bb4").unwrap();
        assert_eq!(a.to_fen(), "W:Bb4:WKe5,c7");
        let b = Position::from_fen("B:B:Wc7").unwrap();
        assert_eq!(b.to_fen(), "B:B:Wc7");
        assert_eq!(Position::from_fen("B:Bb4").unwrap().to_fen(), "B:Bb4:W");
    }

    #[test]
    fn errors_say_what_and_where() {
        let e = Position::from_fen("X:Ba1:Wa9").unwrap_err();
        assert_eq!(e.column, 1);
        assert!(matches!(e.kind, FenErrorKind::BadTurn(_)));
        let e = Position::from_fen("B:Ba1,a2:Wa9").unwrap_err();
        assert_eq!(e.column, 7);
        assert!(matches!(
            e.kind,
            FenErrorKind::BadPoint(ParsePointError::NoSuchPoint(_))
        ));
        let e = Position::from_fen("B:Ba1,c1:Wc1").unwrap_err();
        assert_eq!(e.column, 11);
        assert!(matches!(e.kind, FenErrorKind::DuplicatePoint(_)));
        let e = Position::from_fen("B:Ba1:Ba3").unwrap_err();
        assert!(matches!(e.kind, FenErrorKind::DuplicateList(Color::Black)));
        let e = Position::from_fen("B:Ba1:Wa9:x").unwrap_err();
        assert!(matches!(e.kind, FenErrorKind::TooManyFields));
        let e = Position::from_fen("B:Bi9:W").unwrap_err();
        assert!(matches!(
            e.kind,
            FenErrorKind::Illegal(PositionError::ManOnPromotionRank(..))
        ));
        let e = Position::from_fen("").unwrap_err();
        assert!(matches!(e.kind, FenErrorKind::Empty));
        let e = Position::from_fen("B:Ba1,,c1:W").unwrap_err();
        assert!(matches!(e.kind, FenErrorKind::BadPoint(_)));
    }
}
