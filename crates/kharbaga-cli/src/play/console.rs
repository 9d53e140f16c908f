//! The terminal, and what it shows of a game.

use crate::board_view::{BoardView, Marks};
use kharbaga::{Game, Move};
use std::io::{self, BufRead, IsTerminal, Write};

/// The terminal: standard input read line by line, standard output, and how boards look.
///
/// Once input has ended or output has failed, it is closed: every question gets no answer.
pub(super) struct Console {
    pub(super) input: Box<dyn BufRead>,
    /// Repeat each input line after its prompt (when input is not a terminal, so that the
    /// output reads as a transcript).
    echo: bool,
    pub(super) view: BoardView,
    pub(super) closed: bool,
}

impl Console {
    /// The process's terminal, drawing boards with or without colour.
    pub(super) fn stdio(color: bool) -> Console {
        let stdin = io::stdin();
        Console {
            echo: !stdin.is_terminal(),
            input: Box::new(stdin.lock()),
            view: BoardView { color },
            closed: false,
        }
    }

    /// Writes text and a newline.
    pub(super) fn say(&mut self, text: &str) {
        if writeln!(io::stdout(), "{text}").is_err() {
            self.closed = true;
        }
    }

    /// Shows a prompt and reads a line, trimmed; `None` when input has ended.
    pub(super) fn ask(&mut self, prompt: &str) -> Option<String> {
        if self.closed {
            return None;
        }
        let mut out = io::stdout().lock();
        if write!(out, "{prompt}").and_then(|()| out.flush()).is_err() {
            self.closed = true;
            return None;
        }
        let mut bytes = Vec::new();
        let answer = match self.input.read_until(b'\n', &mut bytes) {
            Ok(0) | Err(_) => None,
            // Text that is not UTF-8 becomes replacement characters, which no move or
            // command contains, so it is answered as unreadable like any other typo.
            Ok(_) => Some(String::from_utf8_lossy(&bytes).trim().to_string()),
        };
        let shown = match &answer {
            Some(line) if self.echo => writeln!(out, "{line}"),
            Some(_) => Ok(()),
            None => writeln!(out),
        };
        if answer.is_none() || shown.is_err() {
            self.closed = true;
        }
        answer
    }
}

/// The board with the last move marked, then the last move and the side to move, and
/// whether it must capture.
pub(super) fn describe(game: &Game, view: &BoardView) -> String {
    let pos = game.position();
    let marks = game.moves().last().map(Marks::of_move).unwrap_or_default();
    let mut text = view.render(pos, &marks);
    if let Some(last) = game.moves().last() {
        text.push_str(&format!("Last move: {last} ({})\n", !pos.turn()));
    }
    if game.outcome().is_none() {
        let side = pos.turn();
        text.push_str(&format!("{side} to move."));
        let legal = game.legal_moves();
        if game.rules().capture_compulsory && legal.iter().all(Move::is_capture) {
            // Legal moves are all captures only because one is compulsory; with the majority
            // rule they all take the same number of pieces.
            let most = legal
                .iter()
                .map(|m| m.captured().count())
                .max()
                .unwrap_or(0);
            let pieces = if most == 1 { "piece" } else { "pieces" };
            if game.rules().majority {
                text.push_str(&format!(" {side} must capture ({most} {pieces})."));
            } else {
                text.push_str(&format!(" {side} must capture."));
            }
        }
    }
    text.truncate(text.trim_end().len());
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use kharbaga::Position;

    #[test]
    fn the_status_says_when_a_capture_is_compulsory() {
        let view = BoardView { color: false };
        let pos = Position::from_fen("B:Be3:Wd4,b6,Kf4").unwrap();
        let game = Game::from_position(kharbaga::Rules::standard(), pos);
        // e3xc5xa7 takes two men; the majority rule makes it the only move.
        assert!(describe(&game, &view).ends_with("Black to move. Black must capture (2 pieces)."));
        let quiet = Game::new(kharbaga::Rules::standard());
        assert!(describe(&quiet, &view).ends_with("Black to move."));
    }
}
