//! `kharbaga play`: a game at the terminal, between people, against the engine, or between
//! two engines.
//!
//! The game loop asks the [`Player`] in the seat of the side to move for a [`Choice`] and
//! applies it. A [`Human`] seat reads lines from standard input (so a script can drive a
//! game); an [`EngineSeat`] searches with the engine, showing its progress on standard error
//! when that is a terminal.

mod console;
mod die;
mod engine_seat;
mod human;
mod player;

use crate::args::{BookSwitch, CliError, EngineArgs, RulesArgs, TablesDir};
use console::{describe, Console};
use die::{roll_for_first, seed_from_env, Die};
use engine_seat::{Adviser, EngineSeat};
use human::Human;
use kharbaga::{clock_text, Color, Game, Position, TimeControl};
use kharbaga_engine::{Engine, Options};
use player::{Choice, Player};
use std::cell::RefCell;
use std::io::{self, IsTerminal};
use std::rc::Rc;
use std::time::{Duration, Instant};

/// Play a game at this terminal: two people, a person against the engine, or two engines
///
/// Black moves up the board (towards rank 9), White down. Who starts is decided by a die
/// roll (shown; the higher roll starts, a tie rolls again), unless --first says so or
/// --position gives a position other than the start position, whose side to move then
/// starts. Moves are read line by line from standard input, so a script can drive a game;
/// the end of input ends the game without a result (exit status 0).
///
/// The engine plays the sides given by --engine (or --black/--white engine), at --level,
/// thinking --movetime milliseconds a move (1000 by default) or on the clock of --time.
/// It shows its move, its score (in men, from its own point of view) and the line it
/// expects. Two engines play without any input.
#[derive(clap::Args, Debug)]
#[command(after_help = "\
During the game type a move, e.g. e3-e5, c3xe5xg7 or the short c3xg7, or a command:
  moves    list the legal moves        board    show the board again
  undo     take back the last move     draw     offer a draw (the other confirms)
  resign   give up the game            help     explain the input and the board
  hint     ask the engine for a move   quit     leave without a result
Against the engine, undo takes back its reply and your move before it.

Examples:
  kharbaga play --engine white                  you are Black, the engine White
  kharbaga play --engine black --level 3 --time 5+2
  kharbaga play --engine both --movetime 200    the engine against itself

Environment:
  NO_COLOR       when set (not empty), no colours (as --no-color)
  KHARBAGA_SEED  a whole number that fixes the die rolls and the engine's random choices
                 at levels below 10 (for tests and replays)")]
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

    /// Who plays Black
    #[arg(long, value_enum, value_name = "WHO", conflicts_with = "engine")]
    black: Option<Who>,

    /// Who plays White
    #[arg(long, value_enum, value_name = "WHO", conflicts_with = "engine")]
    white: Option<Who>,

    /// The sides the engine plays (the others are people)
    #[arg(long, value_enum, value_name = "SIDES")]
    engine: Option<EngineSides>,

    /// The engine's level, from 1 (beginner) to 10 (full strength)
    #[arg(long, value_name = "N", default_value_t = 10,
          value_parser = clap::value_parser!(u8).range(1..=10))]
    level: u8,

    /// The engine's time for each move, in milliseconds [default: 1000 without --time]
    #[arg(long, value_name = "MS", conflicts_with = "time",
          value_parser = clap::value_parser!(u64).range(1..=3_600_000))]
    movetime: Option<u64>,

    /// A clock for each side: MIN minutes plus INC seconds a move (e.g. 5+3, or 10 for no
    /// increment); a side whose time runs out loses
    #[arg(long, value_name = "MIN+INC")]
    time: Option<TimeControl>,

    #[command(flatten)]
    resources: EngineArgs,

    #[command(flatten)]
    tables: TablesDir,

    #[command(flatten)]
    book: BookSwitch,
}

/// Who sits at a side.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
enum Who {
    Human,
    Engine,
}

/// The sides the engine plays.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
enum EngineSides {
    Black,
    White,
    Both,
    None,
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

/// Whether to colour the output: not with --no-color, not when NO_COLOR is set and not
/// empty, and only when standard output is a terminal.
fn use_color(no_color: bool) -> bool {
    !no_color
        && std::env::var_os("NO_COLOR").map_or(true, |v| v.is_empty())
        && io::stdout().is_terminal()
}

/// The default time for each of the engine's moves, without clocks.
const DEFAULT_MOVETIME: Duration = Duration::from_secs(1);

/// Who sits at each side, from --engine, --black and --white.
fn seating(args: &PlayArgs) -> [Who; 2] {
    let engine_plays = |side: EngineSides| {
        matches!(
            (args.engine, side),
            (Some(EngineSides::Both), _)
                | (Some(EngineSides::Black), EngineSides::Black)
                | (Some(EngineSides::White), EngineSides::White)
        )
    };
    let who = |given: Option<Who>, side| {
        given.unwrap_or(if engine_plays(side) {
            Who::Engine
        } else {
            Who::Human
        })
    };
    let mut seats = [Who::Human; 2];
    seats[Color::Black.index()] = who(args.black, EngineSides::Black);
    seats[Color::White.index()] = who(args.white, EngineSides::White);
    seats
}

/// The clocks of a game with a time control.
struct Clocks {
    left: [Duration; 2],
    increment: Duration,
}

impl Clocks {
    fn text(&self) -> String {
        format!(
            "Clocks: Black {}, White {}.",
            clock_text(self.left[Color::Black.index()]),
            clock_text(self.left[Color::White.index()])
        )
    }
}

/// Runs the command.
pub fn run(args: &PlayArgs) -> Result<(), CliError> {
    let rules = args.rules.rules()?;
    let who = seating(args);
    // The engine's random choices (below level 10) follow the seed too.
    let seed = if who.contains(&Who::Engine) {
        seed_from_env()?
    } else {
        None
    };
    let console = Rc::new(RefCell::new(Console::stdio(use_color(args.no_color))));
    let options = Options {
        tables: args.tables.open(&args.rules.rules()?)?,
        book: args.book.book(),
        ..args.resources.options(args.level)
    };
    let movetime = args
        .movetime
        .map_or(DEFAULT_MOVETIME, Duration::from_millis);
    let adviser = Rc::new(RefCell::new(Adviser {
        engine: None,
        options: Options {
            level: 10,
            ..options.clone()
        },
        movetime: movetime.min(DEFAULT_MOVETIME),
    }));
    let mut clocks = args.time.map(|tc| Clocks {
        left: [tc.base; 2],
        increment: tc.increment,
    });
    let seat = |side: Color, who: Who| -> Box<dyn Player> {
        match who {
            Who::Human => Box::new(Human {
                console: Rc::clone(&console),
                adviser: Rc::clone(&adviser),
            }),
            Who::Engine => {
                let mut engine = Engine::new(options.clone());
                if let Some(seed) = seed {
                    engine.set_seed(seed.wrapping_add(1 + side.index() as u64));
                }
                Box::new(EngineSeat {
                    engine,
                    movetime,
                    increment: args.time.map_or(Duration::ZERO, |tc| tc.increment),
                    console: Rc::clone(&console),
                })
            }
        }
    };
    let mut seats: [Box<dyn Player>; 2] = [
        seat(Color::Black, who[Color::Black.index()]),
        seat(Color::White, who[Color::White.index()]),
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
        if let Some(tc) = args.time {
            console.say(&format!(
                "Time control: {} for each side, plus {} s a move.",
                clock_text(tc.base),
                tc.increment.as_secs_f64()
            ));
        } else if who.contains(&Who::Engine) {
            console.say(&format!(
                "The engine thinks {} ms a move.",
                movetime.as_millis()
            ));
        }
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
    let show = |game: &Game, clocks: &Option<Clocks>| {
        let mut console = console.borrow_mut();
        let text = describe(game, &console.view);
        console.say(&text);
        if let Some(clocks) = clocks {
            console.say(&clocks.text());
        }
    };
    show(&game, &clocks);
    loop {
        if let Some(outcome) = game.outcome() {
            let mut console = console.borrow_mut();
            console.say(&format!("Game over. {outcome}."));
            console.say(&format!("Result: {}", outcome.result_str()));
            return Ok(());
        }
        let side = game.position().turn();
        let asked = Instant::now();
        let choice =
            seats[side.index()].choose(&game, clocks.as_ref().map(|c| c.left[side.index()]));
        if let Some(clocks) = &mut clocks {
            let left = &mut clocks.left[side.index()];
            let used = asked.elapsed();
            if used > *left && choice != Choice::Quit {
                game.flag(side);
                continue;
            }
            *left = left.saturating_sub(used);
            if matches!(choice, Choice::Play(_)) {
                *left += clocks.increment;
            }
        }
        match choice {
            Choice::Play(mv) => match game.play(&mv) {
                Ok(()) => show(&game, &clocks),
                Err(e) => console
                    .borrow_mut()
                    .say(&format!("{side} chose a move that cannot be played: {e}")),
            },
            Choice::Undo => {
                let text = take_back(&mut game, &seats);
                console.borrow_mut().say(&text);
                if text.starts_with("Took back") {
                    show(&game, &clocks);
                }
            }
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

/// Takes back the last move, and when a program played it, the move before it too (the
/// asker's own); says what was taken back.
fn take_back(game: &mut Game, seats: &[Box<dyn Player>; 2]) -> String {
    let Some(last) = game.undo() else {
        return "There is no move to take back.".to_string();
    };
    let mover = game.position().turn();
    if !seats[mover.index()].automatic() {
        return format!("Took back {last} ({mover}).");
    }
    match game.undo() {
        Some(before) => format!(
            "Took back {last} ({mover}) and {before} ({}).",
            game.position().turn()
        ),
        None => {
            game.play(&last)
                .expect("a move taken back replays in its position");
            "There is no move of yours to take back.".to_string()
        }
    }
}
