//! The reader of the PDN text: tags, movetext tokens and comments, with their places.

use super::tags::{canonical_name, check_tag};
use super::{move_number, Comment, GameResult, Record, RecordError, RecordErrorKind, TagError};
use crate::color::Color;
use crate::fen::ParseFenError;
use crate::game::{Game, PlayError};
use crate::notation::MoveError;
use crate::position::Position;
use crate::rules::Rules;
use std::collections::HashSet;

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
pub(super) struct Reader<'a> {
    text: &'a str,
    /// Byte offset of the next character.
    pub(super) pos: usize,
    /// Byte offset of the first character after a byte order mark, if the text has one.
    start: usize,
}

impl<'a> Reader<'a> {
    pub(super) fn new(text: &'a str) -> Reader<'a> {
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
    pub(super) fn skip_space(&mut self, lines: bool) {
        while let Some(c) = self.peek() {
            if !c.is_whitespace() || (c == '\n' && !lines) {
                break;
            }
            self.bump();
        }
    }

    /// An error at byte offset `at`.
    pub(super) fn error(&self, at: usize, kind: RecordErrorKind) -> RecordError {
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
    pub(super) fn next_record(&mut self) -> Result<Option<Record>, RecordError> {
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
