//! A person at the terminal, typing moves and commands.

use super::console::{describe, Console};
use super::engine_seat::Adviser;
use super::player::{Choice, Player};
use kharbaga::Game;
use std::cell::RefCell;
use std::rc::Rc;
use std::time::Duration;

/// A person at the terminal, typing moves and commands.
pub(super) struct Human {
    pub(super) console: Rc<RefCell<Console>>,
    /// The engine that answers `hint` (shared by both people).
    pub(super) adviser: Rc<RefCell<Adviser>>,
}

/// The in-game help.
const HELP: &str = "\
Type a move in notation:
  e3-e5       a step of a man, or a slide of a Mullah
  c3xe5xg7    a capture: the start point, then every landing point
  c3xg7       a capture shortened to its start and end, when that names one move
Commands:
  moves    list the legal moves
  board    show the board again
  undo     take back the last move
  draw     offer a draw (the other player confirms)
  resign   give up the game
  hint     ask the engine for a move (it thinks about a second)
  quit     leave the game without a result
  help     this text";

impl Player for Human {
    fn name(&self) -> String {
        "human".to_string()
    }

    fn choose(&mut self, game: &Game, _time_left: Option<Duration>) -> Choice {
        let side = game.position().turn();
        let mut console = self.console.borrow_mut();
        loop {
            let Some(line) = console.ask(&format!("{side} > ")) else {
                return Choice::Quit;
            };
            match line.to_ascii_lowercase().as_str() {
                "" => {}
                "help" | "?" => {
                    console.say(HELP);
                    let legend = console.view.legend();
                    console.say(&format!("Board: {legend}"));
                }
                "moves" => {
                    let mut moves: Vec<String> =
                        game.legal_moves().iter().map(|m| m.to_string()).collect();
                    moves.sort_unstable();
                    console.say(&format!("Legal moves: {}", moves.join(" ")));
                }
                "board" => {
                    let text = describe(game, &console.view);
                    console.say(&text);
                }
                "hint" => {
                    let advice = self.adviser.borrow_mut().advise(game);
                    console.say(&advice);
                }
                "undo" => return Choice::Undo,
                "draw" => return Choice::OfferDraw,
                "resign" => return Choice::Resign,
                "quit" | "exit" => return Choice::Quit,
                _ => match game.position().parse_move(game.rules(), &line) {
                    Ok(mv) => return Choice::Play(mv),
                    Err(e) => console.say(&format!(
                        "{e}\n(type 'moves' for the legal moves, 'help' for help)"
                    )),
                },
            }
        }
    }

    fn accept_draw(&mut self, game: &Game) -> bool {
        let offering = game.position().turn();
        let prompt = format!(
            "{offering} offers a draw. {}, do you accept? (yes/no) > ",
            !offering
        );
        let answer = self.console.borrow_mut().ask(&prompt);
        matches!(
            answer.map(|a| a.to_ascii_lowercase()).as_deref(),
            Some("y" | "yes")
        )
    }
}
