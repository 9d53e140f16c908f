//! The engine protocol (docs/protocol.md), modelled on the Hub protocol (version 2) of the
//! Scan draughts engine: the line syntax ([`Line`], [`quote`]) and the command loop
//! ([`Session`]), which reads lines it is given and writes its answers to a writer it is
//! given. `kharbaga engine` runs a session on standard input and output; tests and the
//! fuzzer run one on lines and a buffer.

mod answer;
mod config;
mod limits;
mod line;
mod moves;
mod output;
mod search_thread;
mod session;
mod values;

pub use answer::score_value;
pub use config::{Config, Sandbox};
pub use line::{quote, Line};
pub use moves::{game_after, moves_text};
pub use session::{Flow, Session};
