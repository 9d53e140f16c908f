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
use crate::fen::ParseFenError;
use crate::game::{Game, Outcome, PlayError};
use crate::notation::MoveError;
use crate::position::Position;
use crate::rules::{Rules, RulesError};
use std::collections::HashSet;
use std::fmt;
use std::str::FromStr;

/// The column the movetext is wrapped at (a longer single word gets a line of its own).
const WIDTH: usize = 80;

/// The tags with a fixed place, in the order they are written; any other tag follows them
/// in the order it was given.
const ORDER: [&str; 10] = [
    "Event",
    "Site",
    "Date",
    "Round",
    "Black",
    "White",
    "Result",
    "Rules",
    "FEN",
    "Termination",
];

/// The tags written from the record's result and game rather than stored.
const DERIVED: [&str; 3] = ["Result", "Rules", "FEN"];

/// The result of a game as a record gives it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// Black won: `1-0`.
    BlackWins,
    /// White won: `0-1`.
    WhiteWins,
    /// A draw: `1/2-1/2`.
    Draw,
    /// The game is not finished: `*`.
    Unfinished,
}

impl GameResult {
    /// The result an outcome gives (`Unfinished` for no outcome).
    pub fn of(outcome: Option<Outcome>) -> GameResult {
        match outcome.map(|o| o.winner) {
            None => GameResult::Unfinished,
            Some(None) => GameResult::Draw,
            Some(Some(Color::Black)) => GameResult::BlackWins,
            Some(Some(Color::White)) => GameResult::WhiteWins,
        }
    }

    /// The token a record writes: `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub fn as_str(self) -> &'static str {
        match self {
            GameResult::BlackWins => "1-0",
            GameResult::WhiteWins => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::Unfinished => "*",
        }
    }

    /// Reads a result token; the draughts scores `2-0`, `0-2` and `1-1` are read too.
    fn from_token(token: &str) -> Option<GameResult> {
        match token {
            "1-0" | "2-0" => Some(GameResult::BlackWins),
            "0-1" | "0-2" => Some(GameResult::WhiteWins),
            "1/2-1/2" | "1-1" => Some(GameResult::Draw),
            "*" => Some(GameResult::Unfinished),
            _ => None,
        }
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A comment of the movetext, `{...}`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Comment {
    /// The number of moves played before the comment (0: before the first move).
    pub ply: usize,
    /// The text between the braces, with every run of whitespace made one space and none at
    /// either end.
    pub text: String,
}

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
    /// A second game starts where one was expected ([`Record::parse`]).
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
fn move_number(first: Color, ply: usize) -> usize {
    (ply + usize::from(first == Color::White)) / 2 + 1
}

/// A known tag name in its usual spelling, or the name as given.
fn canonical_name(name: &str) -> String {
    ORDER
        .iter()
        .find(|known| known.eq_ignore_ascii_case(name))
        .map_or(name, |known| *known)
        .to_string()
}

/// Where a tag is written: its place in [`ORDER`], others after those.
fn tag_rank(name: &str) -> usize {
    ORDER
        .iter()
        .position(|known| *known == name)
        .unwrap_or(ORDER.len())
}

/// Checks a tag's name and value, and that it is not a `duplicate` of one given before.
fn check_tag(name: &str, value: &str, duplicate: bool) -> Result<(), TagError> {
    let mut chars = name.chars();
    let good_name = chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_');
    if !good_name {
        return Err(TagError::BadName(name.to_string()));
    }
    if value.chars().any(char::is_control) {
        return Err(TagError::ControlCharacter(name.to_string()));
    }
    if name == "Date" && !is_date(value) {
        return Err(TagError::BadDate(value.to_string()));
    }
    if duplicate {
        return Err(TagError::Duplicate(name.to_string()));
    }
    Ok(())
}

/// Whether `value` is `YYYY.MM.DD`, each part all digits or all `?`, with a month 01-12
/// and a day 01-31.
fn is_date(value: &str) -> bool {
    let parts: Vec<&str> = value.split('.').collect();
    let [year, month, day] = parts[..] else {
        return false;
    };
    let part = |s: &str, len: usize, max: u32| {
        s.len() == len
            && (s.bytes().all(|b| b == b'?')
                || (s.bytes().all(|b| b.is_ascii_digit())
                    && s.parse::<u32>().is_ok_and(|n| (1..=max).contains(&n))))
    };
    part(year, 4, 9999) && part(month, 2, 12) && part(day, 2, 31)
}

/// A tag as read, with where it was.
struct RawTag {
    name: String,
    value: String,
    /// Byte offset of the `[`.
    at: usize,
    /// Byte offset of the name.
    name_at: usize,
    /// Byte offset of the first character of the value (after the `"`).
    value_at: usize,
}

/// Characters that end a movetext token.
fn is_delimiter(c: char) -> bool {
    c.is_whitespace() || matches!(c, '{' | '}' | '[' | ']' | '(' | ')' | '"')
}

/// A cursor over the text of one or more records.
struct Reader<'a> {
    text: &'a str,
    /// Byte offset of the next character.
    pos: usize,
    /// Byte offset of the first character after a byte order mark, if the text has one.
    start: usize,
}

impl<'a> Reader<'a> {
    fn new(text: &'a str) -> Reader<'a> {
        let start = if text.starts_with('\u{feff}') { 3 } else { 0 };
        Reader {
            text,
            pos: start,
            start,
        }
    }

    fn peek(&self) -> Option<char> {
        self.text[self.pos..].chars().next()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.pos += c.len_utf8();
        Some(c)
    }

    /// Skips whitespace, line breaks too unless `lines` is false.
    fn skip_space(&mut self, lines: bool) {
        while let Some(c) = self.peek() {
            if !c.is_whitespace() || (c == '\n' && !lines) {
                break;
            }
            self.bump();
        }
    }

    /// An error at byte offset `at`.
    fn error(&self, at: usize, kind: RecordErrorKind) -> RecordError {
        let before = &self.text[..at];
        let line_start = before.rfind('\n').map_or(self.start.min(at), |i| i + 1);
        RecordError {
            line: before.matches('\n').count() + 1,
            column: before[line_start..].chars().count() + 1,
            kind,
        }
    }

    /// A tag syntax error at byte offset `at`.
    fn syntax(&self, at: usize, message: &'static str) -> RecordError {
        self.error(at, RecordErrorKind::TagSyntax(message))
    }

    /// The byte offset `chars` characters into the tag value that starts at `at`, where an
    /// escape `\x` counts as one character.
    fn advance(&self, at: usize, chars: usize) -> usize {
        let mut rest = self.text[at..].char_indices().peekable();
        for _ in 0..chars {
            match rest.next() {
                Some((_, '\\')) => {
                    rest.next();
                }
                Some(_) => {}
                None => break,
            }
        }
        rest.peek().map_or(self.text.len(), |&(i, _)| at + i)
    }

    /// The next record, or `None` at the end of the text (or before text that holds only
    /// comments).
    fn next_record(&mut self) -> Result<Option<Record>, RecordError> {
        let mut raw: Vec<RawTag> = Vec::new();
        let mut names = HashSet::new();
        let mut comments = Vec::new();
        loop {
            self.skip_space(true);
            match self.peek() {
                Some('[') => {
                    let tag = self.tag()?;
                    let duplicate = !names.insert(tag.name.clone());
                    check_tag(&tag.name, &tag.value, duplicate).map_err(|e| {
                        let at = match e {
                            TagError::BadName(_) => tag.name_at,
                            TagError::Duplicate(_) => tag.at,
                            _ => tag.value_at,
                        };
                        self.error(at, RecordErrorKind::Tag(e))
                    })?;
                    raw.push(tag);
                }
                Some('{') => comments.push(Comment {
                    ply: 0,
                    text: self.comment()?,
                }),
                _ => break,
            }
        }
        if raw.is_empty() && self.peek().is_none() {
            return Ok(None); // nothing but comments (or nothing) left
        }
        let mut rules = Rules::standard();
        let mut start = Position::start();
        let mut tag_result = None;
        let mut tags = Vec::new();
        for tag in &raw {
            match tag.name.as_str() {
                "Rules" => {
                    rules = tag
                        .value
                        .parse()
                        .map_err(|e| self.error(tag.value_at, RecordErrorKind::Rules(e)))?;
                }
                "FEN" => {
                    start = Position::from_fen(&tag.value).map_err(|e: ParseFenError| {
                        let at = self.advance(tag.value_at, e.column.saturating_sub(1));
                        self.error(at, RecordErrorKind::Fen(e))
                    })?;
                }
                "Result" => {
                    let result = GameResult::from_token(&tag.value).ok_or_else(|| {
                        self.error(tag.value_at, RecordErrorKind::BadResult(tag.value.clone()))
                    })?;
                    tag_result = Some((result, tag.value_at));
                }
                _ => tags.push((tag.name.clone(), tag.value.clone())),
            }
        }
        let mut game = Game::from_position(rules, start);
        let token_result = self.movetext(&mut game, &mut comments)?;
        let declared = match (tag_result, token_result) {
            (Some((tag, _)), Some((token, at))) if tag != token => {
                return Err(self.error(at, RecordErrorKind::ResultMismatch { tag, token }))
            }
            (_, Some(declared)) | (Some(declared), None) => Some(declared),
            (None, None) => None,
        };
        let board = game.outcome();
        if let (Some(outcome), Some((written, at))) = (board, declared) {
            if GameResult::of(board) != written {
                return Err(self.error(at, RecordErrorKind::WrongResult { written, outcome }));
            }
        }
        let result = declared.map_or(GameResult::of(board), |(r, _)| r);
        Ok(Some(Record::assemble(tags, game, result, board, comments)))
    }

    /// Reads a tag line at `[`.
    fn tag(&mut self) -> Result<RawTag, RecordError> {
        let at = self.pos;
        self.bump();
        self.skip_space(false);
        let name_at = self.pos;
        while self.peek().is_some_and(|c| !is_delimiter(c)) {
            self.bump();
        }
        if self.pos == name_at {
            return Err(self.syntax(name_at, "expected a tag name after '['"));
        }
        let name = canonical_name(&self.text[name_at..self.pos]);
        self.skip_space(false);
        if self.peek() != Some('"') {
            return Err(self.syntax(self.pos, "expected a value in quotes after the tag name"));
        }
        let quote = self.pos;
        self.bump();
        let value_at = self.pos;
        let mut value = String::new();
        loop {
            let c_at = self.pos;
            match self.bump() {
                None | Some('\n') => {
                    return Err(self.error(quote, RecordErrorKind::UnterminatedString))
                }
                Some('"') => break,
                Some('\\') => match self.bump() {
                    Some(c @ ('"' | '\\')) => value.push(c),
                    _ => {
                        return Err(self.syntax(
                            c_at,
                            "a backslash in a value must be followed by '\"' or '\\'",
                        ))
                    }
                },
                Some(c) => value.push(c),
            }
        }
        self.skip_space(false);
        if self.peek() != Some(']') {
            return Err(self.syntax(self.pos, "expected ']' after the tag value"));
        }
        self.bump();
        self.skip_space(false);
        if self.peek().is_some_and(|c| c != '\n') {
            return Err(self.syntax(self.pos, "text after ']' (one tag per line)"));
        }
        Ok(RawTag {
            name,
            value,
            at,
            name_at,
            value_at,
        })
    }

    /// Reads a comment at `{`; returns its text with whitespace made single spaces.
    fn comment(&mut self) -> Result<String, RecordError> {
        let at = self.pos;
        let body = at + 1;
        let Some(len) = self.text[body..].find('}') else {
            return Err(self.error(at, RecordErrorKind::UnterminatedComment));
        };
        self.pos = body + len + 1;
        Ok(self.text[body..body + len]
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" "))
    }

    /// Reads the movetext, playing the moves into `game`, up to and including the result
    /// token (returned with its offset), or up to the next game's tags or the end.
    fn movetext(
        &mut self,
        game: &mut Game,
        comments: &mut Vec<Comment>,
    ) -> Result<Option<(GameResult, usize)>, RecordError> {
        loop {
            self.skip_space(true);
            let at = self.pos;
            match self.peek() {
                None | Some('[') => return Ok(None),
                Some('{') => comments.push(Comment {
                    ply: game.moves().len(),
                    text: self.comment()?,
                }),
                Some('(') => {
                    return Err(self.error(
                        at,
                        RecordErrorKind::Unexpected(
                            "variations in parentheses are not supported".to_string(),
                        ),
                    ))
                }
                Some(c) if is_delimiter(c) => {
                    return Err(self.error(
                        at,
                        RecordErrorKind::Unexpected(format!("unexpected '{c}' in the moves")),
                    ))
                }
                Some(_) => {
                    while self.peek().is_some_and(|c| !is_delimiter(c)) {
                        self.bump();
                    }
                    let token = &self.text[at..self.pos];
                    if let Some(result) = GameResult::from_token(token) {
                        return Ok(Some((result, at)));
                    }
                    let digits = token.bytes().take_while(u8::is_ascii_digit).count();
                    let mv = if digits == 0 {
                        token
                    } else {
                        let dots = token[digits..].bytes().take_while(|&b| b == b'.').count();
                        if dots == 0 {
                            return Err(self.error(
                                at,
                                RecordErrorKind::Unexpected(format!(
                                    "'{token}' is neither a move number nor a result"
                                )),
                            ));
                        }
                        self.check_number(game, &token[..digits + dots], at)?;
                        &token[digits + dots..]
                    };
                    if !mv.is_empty() {
                        let mv_at = at + token.len() - mv.len();
                        self.play(game, mv, mv_at)?;
                    }
                }
            }
        }
    }

    /// The number and side of the next move of `game`.
    fn next_number(game: &Game) -> (usize, Color) {
        let ply = game.moves().len();
        (
            move_number(game.start().turn(), ply),
            game.position().turn(),
        )
    }

    /// Checks a move number (`3.`, or `3...` for a White move) against the next move.
    fn check_number(&self, game: &Game, written: &str, at: usize) -> Result<(), RecordError> {
        let (number, color) = Reader::next_number(game);
        let digits = written.trim_end_matches('.');
        let white_form = written.len() - digits.len() > 1;
        let expected = match color {
            Color::Black => format!("{number}."),
            Color::White => format!("{number}..."),
        };
        if digits.parse::<usize>() == Ok(number) && (color == Color::White || !white_form) {
            Ok(())
        } else {
            Err(self.error(
                at,
                RecordErrorKind::MoveNumber {
                    written: written.to_string(),
                    expected,
                },
            ))
        }
    }

    /// Plays the move written at `at`.
    fn play(&self, game: &mut Game, text: &str, at: usize) -> Result<(), RecordError> {
        let (number, color) = Reader::next_number(game);
        game.play_str(text).map(drop).map_err(|error| {
            let at = match &error {
                PlayError::Move(MoveError::Syntax { column, .. }) => text
                    .char_indices()
                    .nth(column.saturating_sub(1))
                    .map_or(at + text.len(), |(i, _)| at + i),
                _ => at,
            };
            self.error(
                at,
                RecordErrorKind::Move {
                    number,
                    color,
                    error,
                },
            )
        })
    }
}
