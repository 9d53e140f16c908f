//! `kharbaga play`: a game at the terminal.
//!
//! The game loop asks the [`Player`] in the seat of the side to move for a [`Choice`] and
//! applies it. A [`Human`] seat reads lines from standard input (so a script can drive a
//! game); other kinds of seat (an engine) implement the same trait.

use crate::args::{CliError, RulesArgs};
use crate::board_view::{BoardView, Marks};
use kharbaga::{Color, Game, Move, Position};
use std::cell::RefCell;
use std::io::{self, BufRead, IsTerminal, Write};
use std::rc::Rc;

/// Play a game between two people at this terminal
///
/// Black moves up the board (towards rank 9), White down. Who starts is decided by a die
/// roll (shown; the higher roll starts, a tie rolls again), unless --first says so or
/// --position gives a position other than the start position, whose side to move then
/// starts. Moves are read line by line from standard input, so a script can drive a game;
/// the end of input ends the game without a result (exit status 0).
#[derive(clap::Args, Debug)]
#[command(after_help = "\
During the game type a move, e.g. e3-e5, c3xe5xg7 or the short c3xg7, or a command:
  moves    list the legal moves        board    show the board again
  undo     take back the last move     draw     offer a draw (the other confirms)
  resign   give up the game            help     explain the input and the board
  quit     leave without a result

Environment:
  NO_COLOR       when set (not empty), no colours (as --no-color)
  KHARBAGA_SEED  a whole number that fixes the die rolls (for tests and replays)")]
pub struct PlayArgs {
    #[command(flatten)]
    rules: RulesArgs,

    /// Start from this position string (or `start`) instead of the start position
    #[arg(long, value_name = "POSITION")]
    position: Option<Position>,

    /// Who moves first, instead of the die roll
    #[arg(long, value_enum, value_name = "SIDE")]
    first: Option<Side>,

    /// Draw the board without colours (also when NO_COLOR is set or output is not a terminal)
    #[arg(long)]
    no_color: bool,
}

/// A side as named on the command line.
#[derive(Copy, Clone, Debug, clap::ValueEnum)]
enum Side {
    Black,
    White,
}

impl From<Side> for Color {
    fn from(side: Side) -> Color {
        match side {
            Side::Black => Color::Black,
            Side::White => Color::White,
        }
    }
}

/// What a player does on its turn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Choice {
    /// Play this move (legal in the current position).
    Play(Move),
    /// Take back the last move.
    Undo,
    /// Offer the opponent a draw.
    OfferDraw,
    /// Give up the game.
    Resign,
    /// Leave the game without a result.
    Quit,
}

/// A seat at the game: a person at the terminal or a program.
pub trait Player {
    /// Who sits here, for the game's header (e.g. `human`).
    fn name(&self) -> String;

    /// What to do in the current position of `game`, which is not over and has this seat's
    /// side to move.
    fn choose(&mut self, game: &Game) -> Choice;

    /// Whether this seat accepts the draw offered by the side to move in `game`.
    fn accept_draw(&mut self, game: &Game) -> bool;
}

/// The terminal: standard input read line by line, standard output, and how boards look.
///
/// Once input has ended or output has failed, it is closed: every question gets no answer.
struct Console {
    input: Box<dyn BufRead>,
    /// Repeat each input line after its prompt (when input is not a terminal, so that the
    /// output reads as a transcript).
    echo: bool,
    view: BoardView,
    closed: bool,
}

impl Console {
    /// The process's terminal, drawing boards with or without colour.
    fn stdio(color: bool) -> Console {
        let stdin = io::stdin();
        Console {
            echo: !stdin.is_terminal(),
            input: Box::new(stdin.lock()),
            view: BoardView { color },
            closed: false,
        }
    }

    /// Writes text and a newline.
    fn say(&mut self, text: &str) {
        if writeln!(io::stdout(), "{text}").is_err() {
            self.closed = true;
        }
    }

    /// Shows a prompt and reads a line, trimmed; `None` when input has ended.
    fn ask(&mut self, prompt: &str) -> Option<String> {
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

/// A person at the terminal, typing moves and commands.
pub struct Human {
    console: Rc<RefCell<Console>>,
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
  quit     leave the game without a result
  help     this text";

impl Player for Human {
    fn name(&self) -> String {
        "human".to_string()
    }

    fn choose(&mut self, game: &Game) -> Choice {
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

/// The board with the last move marked, then the last move and the side to move, and
/// whether it must capture.
fn describe(game: &Game, view: &BoardView) -> String {
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

/// A small random generator (SplitMix64) for the die.
struct Die(u64);

impl Die {
    /// Seeded from `KHARBAGA_SEED` when it is set, otherwise from the clock and process id.
    fn from_env() -> Result<Die, CliError> {
        match std::env::var("KHARBAGA_SEED") {
            Ok(text) => text.trim().parse::<u64>().map(Die).map_err(|_| {
                CliError::Input(format!(
                    "KHARBAGA_SEED must be a whole number from 0 to {}, not '{text}'",
                    u64::MAX
                ))
            }),
            Err(_) => {
                let nanos = std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(0, |d| d.as_nanos() as u64);
                Ok(Die(nanos ^ (u64::from(std::process::id()) << 32)))
            }
        }
    }

    /// A roll, 1 to 6.
    fn roll(&mut self) -> u8 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^= z >> 31;
        // The high part of z * 6 is uniform on 0..6 up to a bias of 6 / 2^64.
        ((u128::from(z) * 6) >> 64) as u8 + 1
    }
}

/// Rolls for each side until the rolls differ; the higher roll starts.
fn roll_for_first(die: &mut Die, console: &mut Console) -> Color {
    loop {
        let (black, white) = (die.roll(), die.roll());
        console.say(&format!(
            "Die roll for the first move: Black {black}, White {white}."
        ));
        if black != white {
            let first = if black > white {
                Color::Black
            } else {
                Color::White
            };
            console.say(&format!("{first} starts."));
            return first;
        }
        console.say("A tie: rolling again.");
    }
}

/// Whether to colour the output: not with --no-color, not when NO_COLOR is set and not
/// empty, and only when standard output is a terminal.
fn use_color(no_color: bool) -> bool {
    !no_color
        && std::env::var_os("NO_COLOR").map_or(true, |v| v.is_empty())
        && io::stdout().is_terminal()
}

/// Runs the command.
pub fn run(args: &PlayArgs) -> Result<(), CliError> {
    let rules = args.rules.rules()?;
    let console = Rc::new(RefCell::new(Console::stdio(use_color(args.no_color))));
    let mut seats: [Box<dyn Player>; 2] = [
        Box::new(Human {
            console: Rc::clone(&console),
        }),
        Box::new(Human {
            console: Rc::clone(&console),
        }),
    ];
    let mut start = args.position.unwrap_or_else(Position::start);
    // The die decides only for the start position, and is set up before any output so that
    // a bad seed is reported alone.
    let mut die = match args.first {
        None if start == Position::start() => Some(Die::from_env()?),
        _ => None,
    };
    {
        let mut console = console.borrow_mut();
        console.say(&format!(
            "Kharbaga. Rules: {rules}. Black: {}. White: {}.",
            seats[Color::Black.index()].name(),
            seats[Color::White.index()].name()
        ));
        console.say("Black moves up the board (towards rank 9), White down. Type 'help' for help.");
        let first = match (args.first, &mut die) {
            (Some(side), _) => Color::from(side),
            (None, Some(die)) => roll_for_first(die, &mut console),
            (None, None) => start.turn(),
        };
        if start.turn() != first {
            start = start.swap_turn();
        }
        let legend = console.view.legend();
        console.say(&legend);
    }
    let mut game = Game::from_position(rules, start);
    let show = |game: &Game| {
        let mut console = console.borrow_mut();
        let text = describe(game, &console.view);
        console.say(&text);
    };
    show(&game);
    loop {
        if let Some(outcome) = game.outcome() {
            let mut console = console.borrow_mut();
            console.say(&format!("Game over. {outcome}."));
            console.say(&format!("Result: {}", outcome.result_str()));
            return Ok(());
        }
        let side = game.position().turn();
        match seats[side.index()].choose(&game) {
            Choice::Play(mv) => match game.play(&mv) {
                Ok(()) => show(&game),
                Err(e) => console
                    .borrow_mut()
                    .say(&format!("{side} chose a move that cannot be played: {e}")),
            },
            Choice::Undo => match game.undo() {
                Some(mv) => {
                    console
                        .borrow_mut()
                        .say(&format!("Took back {mv} ({}).", game.position().turn()));
                    show(&game);
                }
                None => console.borrow_mut().say("There is no move to take back."),
            },
            Choice::OfferDraw => {
                if seats[(!side).index()].accept_draw(&game) {
                    game.agree_draw();
                } else {
                    console
                        .borrow_mut()
                        .say(&format!("{} declines the draw.", !side));
                }
            }
            Choice::Resign => game.resign(side),
            Choice::Quit => {
                let mut console = console.borrow_mut();
                let plies = match game.moves().len() {
                    1 => "1 ply".to_string(),
                    n => format!("{n} plies"),
                };
                let why = if console.closed { "End of input. " } else { "" };
                console.say(&format!(
                    "{why}Game left unfinished after {plies}; no result."
                ));
                return Ok(());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_die_is_fair_and_repeatable() {
        let mut die = Die(7);
        let mut counts = [0u32; 6];
        for _ in 0..60_000 {
            counts[usize::from(die.roll() - 1)] += 1;
        }
        // Each face expects 10 000; 5 standard deviations is about 460.
        for c in counts {
            assert!((9_500..=10_500).contains(&c), "{counts:?}");
        }
        let rolls = |seed| {
            let mut d = Die(seed);
            (0..10).map(|_| d.roll()).collect::<Vec<_>>()
        };
        assert_eq!(rolls(42), rolls(42));
        assert_ne!(rolls(42), rolls(43));
    }

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
