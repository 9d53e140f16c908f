//! Game records in the style of PDN (the draughts version of PGN): tag pairs, then the
//! numbered moves in our notation, then the result.
//!
//! ```text
//! [Event "Club evening"]
//! [Date "2024.05.??"]
//! [Black "Amina"]
//! [White "Sidi"]
//! [Result "*"]
//! [Rules "standard"]
//!
//! 1. d4-e5 f6xd4 2. c3xe5 a5xc3 {every capture so far was forced} *
//! ```
//!
//! Reading replays every move and checks it; a record that is wrong anywhere gets a
//! [`RecordError`] with the line and column of the problem.

use crate::color::Color;
use crate::game::{Game, Outcome};
use crate::position::Position;
use std::fmt;
use std::str::FromStr;

mod error;
mod reader;
mod result;
mod tags;

pub use error::{RecordError, RecordErrorKind, TagError};
use reader::Reader;
pub use result::{Comment, GameResult};
use tags::{canonical_name, check_tag, tag_rank, DERIVED};

/// The column the movetext is wrapped at (a longer single word gets a line of its own).
const WIDTH: usize = 80;

/// A game record: its tags, the game (rules, start position, moves) and the declared result.
///
/// The `Result`, `Rules` and `FEN` tags are not stored with the others: they are written
/// from [`Record::result`] and [`Record::game`] (`FEN` only when the game does not start
/// from the start position). A finished game gets a `Termination` tag saying how it ended,
/// unless one is given.
///
/// ```
/// use kharbaga::{Game, GameResult, Record, Rules};
/// let mut game = Game::new(Rules::standard());
/// game.play_str("d4-e5").unwrap();
/// game.play_str("f6xd4").unwrap();
/// let record = Record::from_game(&game, &[("Event", "Demo")]).unwrap();
/// let text = record.to_pdn();
/// assert_eq!(
///     text,
///     "[Event \"Demo\"]\n[Result \"*\"]\n[Rules \"standard\"]\n\n1. d4-e5 f6xd4 *\n"
/// );
///
/// // Reading replays and checks every move; the short form of a capture is accepted.
/// let read = Record::parse("[Rules \"standard\"]\n1. d4-e5 f6xd4 2. c3xe5 a5xc3 *").unwrap();
/// assert_eq!(read.game().moves().len(), 4);
/// assert_eq!(read.result(), GameResult::Unfinished);
/// let err = Record::parse("1. d4-e5 f6-e5 *").unwrap_err();
/// assert_eq!((err.line, err.column), (1, 10));
/// assert!(err.to_string().starts_with("line 1, column 10: move 1 (White): f6-e5 is not legal"));
/// ```
#[derive(Clone, Debug)]
pub struct Record {
    /// The tags other than the derived ones, in writing order.
    tags: Vec<(String, String)>,
    /// The game as played on the board (no declared result).
    game: Game,
    result: GameResult,
    comments: Vec<Comment>,
}

impl PartialEq for Record {
    /// Records are equal when their tags, rules, start position, moves, result and comments
    /// are.
    fn eq(&self, other: &Record) -> bool {
        self.tags == other.tags
            && self.result == other.result
            && self.comments == other.comments
            && self.game.rules() == other.game.rules()
            && self.game.start() == other.game.start()
            && self.game.moves() == other.game.moves()
    }
}

impl Eq for Record {}

impl Record {
    /// A record of `game` with the given tags (`Event`, `Date`, `Black`, ... or any other
    /// name). The result is the game's outcome: the position's if the game is over on the
    /// board, else a resignation or agreed draw declared in the game, else unfinished.
    ///
    /// Fails if a tag name is malformed or given twice, a value holds a control character,
    /// `Date` is not `YYYY.MM.DD`, or a tag is one written from the game (`Result`, `Rules`,
    /// `FEN`).
    pub fn from_game(game: &Game, tags: &[(&str, &str)]) -> Result<Record, TagError> {
        let mut board = game.clone();
        // Taking back the last move forgets a declared result; playing it again gives the
        // board's own outcome.
        if let Some(last) = board.undo() {
            board
                .play(&last)
                .expect("a move of a game replays in the position it was played in");
        }
        let mut stored: Vec<(String, String)> = Vec::new();
        for &(name, value) in tags {
            let name = canonical_name(name);
            if DERIVED.contains(&name.as_str()) {
                return Err(TagError::Derived(name));
            }
            let duplicate = stored.iter().any(|(n, _)| *n == name);
            check_tag(&name, value, duplicate)?;
            stored.push((name, value.to_string()));
        }
        let outcome = board.outcome().or(game.outcome());
        Ok(Record::assemble(
            stored,
            board,
            GameResult::of(outcome),
            outcome,
            Vec::new(),
        ))
    }

    /// Adds a `Termination` tag for a finished game if there is none, and puts the tags in
    /// writing order.
    fn assemble(
        mut tags: Vec<(String, String)>,
        game: Game,
        result: GameResult,
        outcome: Option<Outcome>,
        comments: Vec<Comment>,
    ) -> Record {
        if let Some(o) = outcome {
            if !tags.iter().any(|(n, _)| n == "Termination") {
                tags.push(("Termination".to_string(), o.to_string()));
            }
        }
        tags.sort_by_key(|(n, _)| tag_rank(n));
        Record {
            tags,
            game,
            result,
            comments,
        }
    }

    /// Reads one record. Every move is replayed and checked; see [`RecordError`] for what
    /// can be wrong. Text after the result that starts another game is an error (read
    /// several games with [`parse_many`]).
    pub fn parse(text: &str) -> Result<Record, RecordError> {
        let mut reader = Reader::new(text);
        let Some(record) = reader.next_record()? else {
            return Err(reader.error(text.len(), RecordErrorKind::NoGame));
        };
        reader.skip_space(true);
        let second = reader.pos;
        match reader.next_record()? {
            Some(_) => Err(reader.error(second, RecordErrorKind::SecondGame)),
            None => Ok(record),
        }
    }

    /// The record as text: the tags one per line, a blank line, then the numbered moves
    /// wrapped at about 80 columns and the result.
    pub fn to_pdn(&self) -> String {
        self.to_string()
    }

    /// The stored tags in writing order (without `Result`, `Rules` and `FEN`, which come
    /// from [`Record::result`] and [`Record::game`]).
    pub fn tags(&self) -> &[(String, String)] {
        &self.tags
    }

    /// The value of a stored tag (the known names are matched in any case).
    pub fn tag(&self, name: &str) -> Option<&str> {
        let name = canonical_name(name);
        self.tags
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The game: rules, start position and moves. It holds only what happened on the board:
    /// a resignation or agreement is in [`Record::result`].
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The declared result.
    pub fn result(&self) -> GameResult {
        self.result
    }

    /// The comments of the movetext, in order.
    pub fn comments(&self) -> &[Comment] {
        &self.comments
    }

    /// The units the movetext is wrapped in: moves (with their numbers), the words of the
    /// comments, the result.
    fn movetext_words(&self) -> Vec<String> {
        let moves = self.game.moves();
        let first = self.game.start().turn();
        let mut words = Vec::new();
        let mut comments = self.comments.iter().peekable();
        for ply in 0..=moves.len() {
            let mut commented = false;
            while let Some(c) = comments.next_if(|c| c.ply <= ply) {
                commented = true;
                let text = format!("{{{}}}", c.text);
                words.extend(text.split(' ').map(str::to_string));
            }
            let Some(mv) = moves.get(ply) else { break };
            // A move number stays on the line of its move.
            let number = move_number(first, ply);
            words.push(if self.game.positions()[ply].turn() == Color::Black {
                format!("{number}. {mv}")
            } else if ply == 0 || commented {
                format!("{number}... {mv}")
            } else {
                mv.to_string()
            });
        }
        words.push(self.result.as_str().to_string());
        words
    }
}

impl fmt::Display for Record {
    /// The record as text (see [`Record::to_pdn`]).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut tags: Vec<(&str, String)> = self
            .tags
            .iter()
            .map(|(n, v)| (n.as_str(), v.clone()))
            .collect();
        tags.push(("Result", self.result.as_str().to_string()));
        tags.push(("Rules", self.game.rules().to_string()));
        if *self.game.start() != Position::start() {
            tags.push(("FEN", self.game.start().to_fen()));
        }
        tags.sort_by_key(|(n, _)| tag_rank(n));
        for (name, value) in tags {
            let escaped = value.replace('\\', "\\\\").replace('"', "\\\"");
            writeln!(f, "[{name} \"{escaped}\"]")?;
        }
        writeln!(f)?;
        let mut column = 0;
        for word in self.movetext_words() {
            let width = word.chars().count();
            if column > 0 && column + 1 + width > WIDTH {
                writeln!(f)?;
                column = 0;
            } else if column > 0 {
                f.write_str(" ")?;
                column += 1;
            }
            f.write_str(&word)?;
            column += width;
        }
        writeln!(f)
    }
}

impl FromStr for Record {
    type Err = RecordError;

    /// Reads one record (see [`Record::parse`]).
    fn from_str(text: &str) -> Result<Record, RecordError> {
        Record::parse(text)
    }
}

/// Reads every record of a text holding several games one after the other (each ends with
/// its result; blank lines between them are usual). An empty text gives no records.
pub fn parse_many(text: &str) -> Result<Vec<Record>, RecordError> {
    let mut reader = Reader::new(text);
    let mut records = Vec::new();
    while let Some(record) = reader.next_record()? {
        records.push(record);
    }
    Ok(records)
}

/// The number of the move at `ply` (from 0) of a game whose first move is `first`'s: full
/// moves counted from 1, a Black move and then a White move to each number, so a game that
/// White begins starts with `1...`.
pub(super) fn move_number(first: Color, ply: usize) -> usize {
    (ply + usize::from(first == Color::White)) / 2 + 1
}
