//! The opening book: for every position of the opening tree up to a fixed ply, every legal
//! move with the score of a deep search of the position it leads to.
//!
//! The book is a text file, one line per book move:
//!
//! ```text
//! # comments and blank lines are ignored
//! rules standard
//! POSITION<TAB>MOVE<TAB>SCORE<TAB>DEPTH
//! ```
//!
//! POSITION is a position string, MOVE a legal move of it in full notation, SCORE the
//! move's value for the side to move at POSITION (`+0.35` in men, `win N` / `loss N` in
//! plies from POSITION), DEPTH the depth of the search behind it. The book of the
//! `standard` rules is built into the program (`data/book-standard.txt`); `kharbaga book
//! build` rebuilds it.

use crate::level::Level;
use crate::rng::Rng;
use crate::{Engine, Limits, Options, Score};
use kharbaga::{Game, Move, Position, Rules};
use std::collections::HashMap;
use std::fmt::{self, Write as _};
use std::sync::atomic::AtomicBool;

/// One move of a book position.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct BookMove {
    /// The move.
    pub mv: Move,
    /// Its value for the side that plays it.
    pub score: Score,
    /// The depth of the search of the position it leads to, plus one.
    pub depth: u32,
}

/// An opening book for one set of rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Book {
    rules: Rules,
    /// Each position's moves, best first.
    entries: HashMap<Position, Vec<BookMove>>,
}

/// Why a book file could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookError {
    /// The 1-based line number.
    pub line: usize,
    /// What is wrong with it.
    pub message: String,
}

impl fmt::Display for BookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "book line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for BookError {}

/// The text of the built-in book of the `standard` rules.
const STANDARD: &str = include_str!("../data/book-standard.txt");

impl Book {
    /// The book built into the program (`standard` rules).
    pub fn standard() -> Book {
        Book::parse(STANDARD).expect("the built-in book is valid (a test reads it)")
    }

    /// The rules the book was built for.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The number of positions.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the book has no position.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The moves of `pos` under `rules`, best first, if the book has the position (and was
    /// built for these rules).
    pub fn moves(&self, rules: &Rules, pos: &Position) -> Option<&[BookMove]> {
        if *rules != self.rules {
            return None;
        }
        self.entries.get(pos).map(Vec::as_slice)
    }

    /// Reads a book file.
    pub fn parse(text: &str) -> Result<Book, BookError> {
        let mut rules = None;
        let mut entries: HashMap<Position, Vec<BookMove>> = HashMap::new();
        for (i, raw) in text.lines().enumerate() {
            let line = raw.trim();
            let error = |message: String| BookError {
                line: i + 1,
                message,
            };
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            if let Some(name) = line.strip_prefix("rules ") {
                if rules.is_some() {
                    return Err(error("a second rules line".to_string()));
                }
                rules = Some(
                    name.trim()
                        .parse::<Rules>()
                        .map_err(|e| error(e.to_string()))?,
                );
                continue;
            }
            let Some(rules) = rules else {
                return Err(error("a book move before the rules line".to_string()));
            };
            let fields: Vec<&str> = line.split('\t').collect();
            let [fen, mv, score, depth] = fields[..] else {
                return Err(error(format!(
                    "expected 4 tab-separated fields (position, move, score, depth), found {}",
                    fields.len()
                )));
            };
            let pos = Position::from_fen(fen).map_err(|e| error(format!("position: {e}")))?;
            let mv = pos
                .parse_move(&rules, mv)
                .map_err(|e| error(format!("move: {e}")))?;
            let score = parse_score(score).ok_or_else(|| {
                error(format!(
                    "score {score:?}: expected +0.35, -1.20, win N or loss N"
                ))
            })?;
            let depth = depth
                .parse()
                .map_err(|_| error(format!("depth {depth:?} is not a number")))?;
            let moves = entries.entry(pos).or_default();
            if moves.iter().any(|m| m.mv.same_effect(&mv)) {
                return Err(error(format!(
                    "{mv} is in the book twice for this position"
                )));
            }
            moves.push(BookMove { mv, score, depth });
        }
        let rules = rules.ok_or(BookError {
            line: text.lines().count(),
            message: "no rules line".to_string(),
        })?;
        for moves in entries.values_mut() {
            moves.sort_by_key(|m| std::cmp::Reverse(m.score.ordinal()));
        }
        Ok(Book { rules, entries })
    }

    /// The book as a file (positions in the order of their position strings, each
    /// position's moves best first).
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        out.push_str("# kharbaga opening book: POSITION<TAB>MOVE<TAB>SCORE<TAB>DEPTH\n");
        out.push_str("# rebuild: kharbaga book build (see docs/strength.md)\n");
        let _ = writeln!(out, "rules {}", self.rules);
        let mut positions: Vec<(String, &Vec<BookMove>)> = self
            .entries
            .iter()
            .map(|(pos, moves)| (pos.to_fen(), moves))
            .collect();
        positions.sort_by(|a, b| a.0.cmp(&b.0));
        for (fen, moves) in positions {
            for m in moves {
                let _ = writeln!(out, "{fen}\t{}\t{}\t{}", m.mv, m.score, m.depth);
            }
        }
        out
    }

    /// The move the engine plays from the book in `game` at `level`, if the position is in
    /// it: the best at level 10; lower levels choose among the moves close to the best (the
    /// closer, the likelier), for variety.
    pub fn choose(&self, game: &Game, level: u8, rng: &mut Rng) -> Option<BookMove> {
        if game.outcome().is_some() {
            return None;
        }
        let moves = self.moves(game.rules(), game.position())?;
        let best = moves.first()?;
        let level = Level::new(level);
        if !level.randomized() {
            return Some(*best);
        }
        // Moves within a man of the best, never a move the book knows loses when the best
        // does not.
        let good: Vec<i32> = moves
            .iter()
            .take_while(|m| {
                matches!((best.score, m.score), (Score::Centi(b), Score::Centi(s)) if b - s <= 100)
                    || m.score == best.score
            })
            .map(|m| clamp_ordinal(m.score))
            .collect();
        Some(moves[level.pick(&good, rng)])
    }
}

fn clamp_ordinal(score: Score) -> i32 {
    score.ordinal().clamp(i32::MIN as i64, i32::MAX as i64) as i32
}

fn parse_score(text: &str) -> Option<Score> {
    let plies = |n: &str| n.parse::<u32>().ok();
    if let Some(n) = text.strip_prefix("win ") {
        return plies(n).map(Score::WinIn);
    }
    if let Some(n) = text.strip_prefix("loss ") {
        return plies(n).map(Score::LossIn);
    }
    let (sign, digits) = match text.as_bytes().first()? {
        b'+' => (1, &text[1..]),
        b'-' => (-1, &text[1..]),
        _ => return None,
    };
    let (whole, frac) = digits.split_once('.')?;
    if frac.len() != 2 || !frac.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let whole: i32 = whole.parse().ok()?;
    let frac: i32 = frac.parse().ok()?;
    Some(Score::Centi(sign * (whole * 100 + frac)))
}

/// The positions a book of `plies` plies holds: those reached from the start with fewer
/// than `plies` choices (a ply with a single legal move is not a choice, so forced lines
/// go deeper), at most `plies + 2` plies deep, in the order they are first reached.
pub fn book_positions(rules: Rules, plies: u32) -> Vec<Game> {
    let mut positions = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut frontier = vec![(Game::new(rules), 0)];
    for _ in 0..plies + 2 {
        let mut next = Vec::new();
        for (game, choices) in frontier {
            let legal = game.legal_moves();
            if choices >= plies || legal.is_empty() || !seen.insert(*game.position()) {
                continue;
            }
            let choices = choices + u32::from(legal.len() > 1);
            for mv in &legal {
                let mut child = game.clone();
                child.play(mv).expect("a legal move");
                next.push((child, choices));
            }
            positions.push(game);
        }
        frontier = next;
    }
    positions
}

/// Builds a book under `rules` of the positions of [`book_positions`]: each gets every
/// legal move, scored by a search of the position it leads to `depth` plies deep.
/// `progress` is called after each search with the number done and the number to do. One
/// thread, one transposition table for the whole build, positions in a fixed order: the
/// same arguments build the same book.
pub fn build(rules: Rules, plies: u32, depth: u32, progress: &mut dyn FnMut(usize, usize)) -> Book {
    let positions = book_positions(rules, plies);
    let total: usize = positions.iter().map(|g| g.legal_moves().len()).sum();
    let mut engine = Engine::new(Options {
        hash_mib: 256,
        ..Options::default()
    });
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let stop = AtomicBool::new(false);
    let mut entries = HashMap::new();
    let mut done = 0;
    for game in positions {
        let mut moves = Vec::new();
        for mv in game.legal_moves() {
            let mut child = game.clone();
            child.play(&mv).expect("a legal move");
            let report = engine.search(&child, &limits, &stop, &mut |_| {});
            moves.push(BookMove {
                mv,
                score: parent_score(report.score),
                depth: report.depth + 1,
            });
            done += 1;
            progress(done, total);
        }
        moves.sort_by_key(|m| std::cmp::Reverse(m.score.ordinal()));
        entries.insert(*game.position(), moves);
    }
    Book { rules, entries }
}

/// A child's score from its side to move, as the score of the move into it.
fn parent_score(child: Score) -> Score {
    match child {
        Score::Centi(c) => Score::Centi(-c),
        Score::WinIn(n) | Score::TableWin(Some(n)) => Score::LossIn(n + 1),
        Score::LossIn(n) | Score::TableLoss(Some(n)) => Score::WinIn(n + 1),
        Score::TableWin(None) => Score::LossIn(score_unknown_distance()),
        Score::TableLoss(None) => Score::WinIn(score_unknown_distance()),
        Score::TableDraw => Score::Centi(0),
    }
}

/// The distance written for a table result whose distance the search did not report (it
/// does not happen in the opening, far from the tables).
fn score_unknown_distance() -> u32 {
    crate::score::MAX_PLY as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_built_in_book_covers_the_start_and_every_reply() {
        let book = Book::standard();
        let rules = Rules::standard();
        let start = Position::start();
        let moves = book
            .moves(&rules, &start)
            .expect("the start is in the book");
        // Every legal move of every book position is in the book, and nothing else.
        for (pos, moves) in &book.entries {
            let legal = pos.legal_moves(&rules);
            assert_eq!(moves.len(), legal.len(), "{}", pos.to_fen());
            for m in moves {
                assert!(legal.iter().any(|l| l.same_effect(&m.mv)));
            }
        }
        // The start's three replies are all book positions.
        for m in moves {
            assert!(book.moves(&rules, &start.play(&m.mv)).is_some(), "{}", m.mv);
        }
        assert!(book.moves(&Rules::ludii(), &start).is_none());
    }

    #[test]
    fn a_book_reads_back_what_it_writes() {
        let book = Book::standard();
        assert_eq!(Book::parse(&book.to_text()).unwrap(), book);
    }

    #[test]
    fn scores_read_and_write() {
        for (text, score) in [
            ("+0.35", Score::Centi(35)),
            ("-1.20", Score::Centi(-120)),
            ("+0.00", Score::Centi(0)),
            ("-0.05", Score::Centi(-5)),
            ("win 7", Score::WinIn(7)),
            ("loss 12", Score::LossIn(12)),
        ] {
            assert_eq!(parse_score(text), Some(score), "{text}");
            // The book writes scores as `Score` displays them.
            assert_eq!(score.to_string(), text);
        }
        for bad in ["0.35", "+1.2", "+1.234", "win", "win -3", "+a.00", ""] {
            assert_eq!(parse_score(bad), None, "{bad}");
        }
    }

    #[test]
    fn bad_books_are_refused_with_the_line() {
        let fen = Position::start().to_fen();
        let cases = [
            (
                format!("{fen}\te3-e5\t+0.10\t5\n"),
                1,
                "before the rules line",
            ),
            (
                "rules standard\nrules standard\n".to_string(),
                2,
                "second rules",
            ),
            ("rules nonsense\n".to_string(), 1, ""),
            (
                format!("rules standard\n{fen}\te3-e5\t+0.10\n"),
                2,
                "4 tab-separated",
            ),
            (
                format!("rules standard\n{fen}\te3-e4\t+0.10\t5\n"),
                2,
                "move",
            ),
            (
                "rules standard\nW:nonsense\te3-e5\t+0.10\t5\n".to_string(),
                2,
                "position",
            ),
            (
                format!("rules standard\n{fen}\te3-e5\tgood\t5\n"),
                2,
                "score",
            ),
            (
                format!("rules standard\n{fen}\te3-e5\t+0.10\tdeep\n"),
                2,
                "depth",
            ),
            (
                format!("rules standard\n{fen}\te3-e5\t+0.10\t5\n{fen}\te3-e5\t+0.20\t5\n"),
                3,
                "twice",
            ),
            ("# nothing\n".to_string(), 1, "no rules line"),
        ];
        for (text, line, needle) in cases {
            let e = Book::parse(&text).unwrap_err();
            assert_eq!(e.line, line, "{text}: {e}");
            assert!(e.message.contains(needle), "{text}: {e}");
        }
    }

    #[test]
    fn a_small_build_scores_every_move_and_orders_them() {
        // Two choices: the start (a choice of three), its three replies, and on along
        // forced moves (a single legal move is no choice), at most 4 plies deep; counted
        // here depth first.
        fn count(
            pos: Position,
            ply: u32,
            choices: u32,
            seen: &mut std::collections::HashSet<Position>,
        ) -> usize {
            let legal = pos.legal_moves(&Rules::standard());
            if choices >= 2 || ply >= 4 || legal.is_empty() || !seen.insert(pos) {
                return 0;
            }
            let choices = choices + u32::from(legal.len() > 1);
            1 + legal
                .iter()
                .map(|mv| count(pos.play(mv), ply + 1, choices, seen))
                .sum::<usize>()
        }
        let rules = Rules::standard();
        let expected = count(Position::start(), 0, 0, &mut Default::default());
        assert!(expected > 4, "some reply is forced");
        assert_eq!(book_positions(rules, 2).len(), expected);
        let book = build(rules, 2, 3, &mut |_, _| {});
        assert_eq!(book.len(), expected);
        for moves in book.entries.values() {
            assert!(moves
                .windows(2)
                .all(|w| w[0].score.ordinal() >= w[1].score.ordinal()));
            assert!(moves.iter().all(|m| m.depth >= 2));
        }
    }

    #[test]
    fn level_ten_plays_the_best_book_move_and_lower_levels_vary() {
        let book = Book::standard();
        let game = Game::new(Rules::standard());
        let best = book.moves(game.rules(), game.position()).unwrap()[0];
        let mut rng = Rng::new(5);
        for _ in 0..20 {
            assert_eq!(book.choose(&game, 10, &mut rng), Some(best));
        }
        // A position whose two best moves are within a man of each other: level 1 plays
        // both, and never a move more than a man worse.
        let (pos, moves) = book
            .entries
            .iter()
            .find(|(_, m)| {
                m.len() > 2
                    && matches!((m[0].score, m[1].score), (Score::Centi(a), Score::Centi(b)) if a - b <= 50)
            })
            .expect("a book position with two close moves");
        let close = Game::from_position(Rules::standard(), *pos);
        let mut seen = std::collections::HashSet::new();
        for _ in 0..200 {
            let m = book.choose(&close, 1, &mut rng).unwrap();
            assert!(m.score.ordinal() >= moves[0].score.ordinal() - 100, "{m:?}");
            seen.insert(m.mv);
        }
        assert!(seen.len() > 1, "level 1 always played {seen:?}");
        // Out of the book: nothing.
        let mut late = Game::new(Rules::ludii());
        late.play_str("e3-e5").unwrap();
        assert_eq!(book.choose(&late, 10, &mut rng), None);
    }
}
