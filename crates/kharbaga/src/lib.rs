//! The rules of Kharbaga, the North-African game of the Zamma family: board geometry, rule
//! options and the named rule sets, positions and position strings, moves and their
//! notation, legal move generation, games with their outcome, game records, and perft.
//!
//! No I/O, no threads, no dependencies. The specification is `docs/rules.md`.
//!
//! Generate the legal moves of a position:
//!
//! ```
//! use kharbaga::{Position, Rules};
//! let pos = Position::from_fen("B:Bc3:Wd4,f6").unwrap();
//! let moves: Vec<String> = pos.legal_moves(&Rules::standard()).iter().map(|m| m.to_string()).collect();
//! assert_eq!(moves, ["c3xe5xg7"]); // the capture is compulsory and chains
//! ```
//!
//! Play a move:
//!
//! ```
//! use kharbaga::{Position, Rules};
//! let rules = Rules::standard();
//! let pos = Position::start();
//! let mv = pos.parse_move(&rules, "d4-e5").unwrap();
//! let next = pos.play(&mv);
//! let replies: Vec<String> = next.legal_moves(&rules).iter().map(|m| m.to_string()).collect();
//! assert_eq!(replies, ["f6xd4"]); // White must capture the man on e5
//! ```
//!
//! Detect the end of a game:
//!
//! ```
//! use kharbaga::{Color, Game, Position, Rules};
//! let pos = Position::from_fen("B:Bc3:Wd4").unwrap();
//! let mut game = Game::from_position(Rules::standard(), pos);
//! game.play_str("c3xe5").unwrap();
//! let outcome = game.outcome().unwrap();
//! assert_eq!(outcome.winner, Some(Color::Black));
//! assert_eq!(outcome.to_string(), "Black wins: White has no pieces left");
//! ```

#![warn(missing_docs)]

mod bitboard;
pub mod board;
mod capture;
mod color;
mod fen;
mod game;
mod movegen;
mod moves;
mod notation;
mod perft;
mod pick;
mod point;
mod position;
mod position_map;
mod reach;
mod record;
mod rules;
mod time_control;
mod zobrist;

pub use bitboard::{Bitboard, BitboardIter};
pub use color::Color;
pub use fen::{FenErrorKind, ParseFenError, START_FEN};
pub use game::{Game, Outcome, PlayError, Reason};
pub use moves::{Move, MAX_PATH};
pub use notation::{MoveError, MoveText};
pub use perft::{divide, perft, Count};
pub use point::{ParsePointError, Point, NUM_POINTS};
pub use position::{Piece, Position, PositionError, Setup, MAX_PIECES};
pub use position_map::{PositionKey, PositionMap, ZobristHasher};
pub use record::{parse_many, Comment, GameResult, Record, RecordError, RecordErrorKind, TagError};
pub use rules::{BackRank, Removal, Rules, RulesError, OPTION_KEYS, RULE_SET_NAMES};
pub use time_control::{clock_text, TimeControl};
