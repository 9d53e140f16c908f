//! `kharbaga play`: a game at the terminal, between people, against the engine, or between
//! two engines.
//!
//! The game loop asks the [`Player`] in the seat of the side to move for a [`Choice`] and
//! applies it. A [`Human`] seat reads lines from standard input (so a script can drive a
//! game); an [`EngineSeat`] searches with the engine, showing its progress on standard error
//! when that is a terminal.

use crate::analyze::{moves_text, score_text};
use crate::args::{BookSwitch, CliError, EngineArgs, RulesArgs, TablesDir};
use crate::board_view::{BoardView, Marks};
use kharbaga::{clock_text, Color, Game, Move, Position, TimeControl};
use kharbaga_engine::{Engine, Info, Limits, Options, Report, Score};
use std::cell::RefCell;
use std::io::{self, BufRead, IsTerminal, Write};
use std::panic::{self, AssertUnwindSafe};
use std::rc::Rc;
use std::sync::atomic::AtomicBool;
use std::sync::{mpsc, Mutex, PoisonError};
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
    /// side to move, with `time_left` on its clock when the game has clocks.
    fn choose(&mut self, game: &Game, time_left: Option<Duration>) -> Choice;

    /// Whether this seat accepts the draw offered by the side to move in `game`.
    fn accept_draw(&mut self, game: &Game) -> bool;

    /// Whether this seat plays by itself (a program): taking back its move alone would only
    /// make it play again, so `undo` takes back the move before it too.
    fn automatic(&self) -> bool {
        false
    }
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
    /// The engine that answers `hint` (shared by both people).
    adviser: Rc<RefCell<Adviser>>,
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

/// Searches with a progress line on standard error while the engine thinks, when standard
/// error is a terminal (so that the terminal does not look frozen). `None` if the search
/// failed (a bug in the engine, reported on standard error).
fn think(engine: &mut Engine, game: &Game, limits: &Limits, who: &str) -> Option<Report> {
    let stop = AtomicBool::new(false);
    let latest: Mutex<Option<Info>> = Mutex::new(None);
    let show = io::stderr().is_terminal();
    let (done, finished) = mpsc::channel();
    std::thread::scope(|scope| {
        let search = scope.spawn(|| {
            let report = panic::catch_unwind(AssertUnwindSafe(|| {
                engine.search(game, limits, &stop, &mut |info| {
                    if info.multipv == 1 {
                        *latest.lock().unwrap_or_else(PoisonError::into_inner) = Some(info.clone());
                    }
                })
            }));
            let _ = done.send(());
            report.ok()
        });
        let started = Instant::now();
        let spinner = ['|', '/', '-', '\\'];
        let mut frame = 0;
        while let Err(mpsc::RecvTimeoutError::Timeout) =
            finished.recv_timeout(Duration::from_millis(100))
        {
            if !show {
                continue;
            }
            let mut line = format!(
                "{} {who} is thinking ({:.1} s)",
                spinner[frame % spinner.len()],
                started.elapsed().as_secs_f64()
            );
            if let Some(info) = &*latest.lock().unwrap_or_else(PoisonError::into_inner) {
                line.push_str(&format!(
                    ": depth {}, score {}, {}",
                    info.depth,
                    score_text(info.score),
                    moves_text(&info.pv)
                ));
            }
            let line: String = line.chars().take(79).collect();
            eprint!("\r\x1b[2K{line}");
            frame += 1;
        }
        if show && frame > 0 {
            eprint!("\r\x1b[2K");
        }
        search.join().ok().flatten()
    })
}

/// A score in men from the point of view of `side`, for people: `+0.35 for Black`, `Black
/// wins in 7 plies`.
fn verdict_text(score: Score, side: Color) -> String {
    match score {
        Score::Centi(_) => format!("{} for {side}", score_text(score)),
        Score::WinIn(n) | Score::TableWin(Some(n)) => format!("{side} wins in {n} plies"),
        Score::LossIn(n) | Score::TableLoss(Some(n)) => format!("{} wins in {n} plies", !side),
        Score::TableWin(None) => format!("{side} wins (endgame tables)"),
        Score::TableLoss(None) => format!("{} wins (endgame tables)", !side),
        Score::TableDraw => "a draw (endgame tables)".to_string(),
    }
}

/// The engine in a seat.
pub struct EngineSeat {
    engine: Engine,
    /// The time for each move, when the game has no clocks.
    movetime: Duration,
    /// The increment of the clocks, when the game has them.
    increment: Duration,
    console: Rc<RefCell<Console>>,
}

impl Player for EngineSeat {
    fn name(&self) -> String {
        format!("engine (level {})", self.engine.options().level)
    }

    fn choose(&mut self, game: &Game, time_left: Option<Duration>) -> Choice {
        let side = game.position().turn();
        let limits = move_limits(game, time_left, self.movetime, self.increment);
        let mut console = self.console.borrow_mut();
        match think(&mut self.engine, game, &limits, &format!("{side} (engine)")) {
            Some(Report {
                best: Some(mv),
                score,
                book: true,
                ..
            }) => {
                console.say(&format!(
                    "{side} (engine) plays {mv} from the opening book: {}",
                    verdict_text(score, side),
                ));
                Choice::Play(mv)
            }
            Some(Report {
                best: Some(mv),
                score,
                depth,
                time,
                pv,
                ..
            }) => {
                // The line it expects after its own move.
                let rest = pv.strip_prefix(&[mv][..]).unwrap_or(&pv);
                let expects = if rest.is_empty() {
                    String::new()
                } else {
                    format!("; expects {}", moves_text(rest))
                };
                console.say(&format!(
                    "{side} (engine) plays {mv}: {}, depth {depth}, {:.1} s{expects}",
                    verdict_text(score, side),
                    time.as_secs_f64(),
                ));
                Choice::Play(mv)
            }
            _ => {
                console.say(&format!("{side} (engine) failed to choose a move."));
                Choice::Quit
            }
        }
    }

    /// Accepts unless it thinks itself better by more than a quarter of a man.
    fn accept_draw(&mut self, game: &Game) -> bool {
        let limits = Limits {
            movetime: Some(self.movetime.min(Duration::from_secs(1))),
            ..Limits::default()
        };
        let offering = game.position().turn();
        let report = think(
            &mut self.engine,
            game,
            &limits,
            &format!("{} (engine)", !offering),
        );
        // The score is the offering side's.
        match report.map(|r| r.score) {
            Some(Score::Centi(c)) => c >= -25,
            Some(Score::WinIn(_) | Score::TableWin(_) | Score::TableDraw) => true,
            Some(Score::LossIn(_) | Score::TableLoss(_)) | None => false,
        }
    }

    fn automatic(&self) -> bool {
        true
    }
}

/// The engine's limits for choosing a move in `game`: on its clock when the game has clocks,
/// else thinking `movetime`. A forced move (the only legal one) is played at once, after one
/// iteration for its score: the engine does so by itself on the clock, but takes a fixed
/// move time as time to think, as analysis wants.
fn move_limits(
    game: &Game,
    time_left: Option<Duration>,
    movetime: Duration,
    increment: Duration,
) -> Limits {
    match time_left {
        Some(clock) => Limits {
            clock: Some(clock),
            increment,
            ..Limits::default()
        },
        None => Limits {
            movetime: Some(movetime),
            depth: (game.legal_moves().len() == 1).then_some(1),
            ..Limits::default()
        },
    }
}

/// The engine that gives hints, made at the first `hint`.
pub struct Adviser {
    engine: Option<Engine>,
    options: Options,
    movetime: Duration,
}

impl Adviser {
    /// The suggestion for the side to move in `game`, as a sentence.
    fn advise(&mut self, game: &Game) -> String {
        let options = self.options.clone();
        let engine = self.engine.get_or_insert_with(|| Engine::new(options));
        let limits = Limits {
            movetime: Some(self.movetime),
            ..Limits::default()
        };
        let side = game.position().turn();
        match think(engine, game, &limits, "the adviser") {
            Some(Report {
                best: Some(mv),
                score,
                pv,
                ..
            }) => format!(
                "Hint: {mv} ({}; line {})",
                verdict_text(score, side),
                moves_text(&pv)
            ),
            _ => "No hint: the engine failed.".to_string(),
        }
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

/// The seed in `KHARBAGA_SEED`, if it is set.
fn seed_from_env() -> Result<Option<u64>, CliError> {
    match std::env::var("KHARBAGA_SEED") {
        Ok(text) => text.trim().parse::<u64>().map(Some).map_err(|_| {
            CliError::Input(format!(
                "KHARBAGA_SEED must be a whole number from 0 to {}, not '{text}'",
                u64::MAX
            ))
        }),
        Err(_) => Ok(None),
    }
}

impl Die {
    /// Seeded from `KHARBAGA_SEED` when it is set, otherwise from the clock and process id.
    fn from_env() -> Result<Die, CliError> {
        Ok(Die(seed_from_env()?.unwrap_or_else(|| {
            let nanos = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos() as u64);
            nanos ^ (u64::from(std::process::id()) << 32)
        })))
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
    fn a_forced_move_is_played_at_once() {
        let rules = kharbaga::Rules::standard();
        // e3xc5xa7 is Black's only move (docs/rules.md, the majority rule).
        let forced = Game::from_position(rules, Position::from_fen("B:Be3:Wd4,b6,Kf4").unwrap());
        let second = Duration::from_secs(1);
        let limits = move_limits(&forced, None, second, Duration::ZERO);
        assert_eq!((limits.movetime, limits.depth), (Some(second), Some(1)));
        let mut engine = Engine::new(Options {
            hash_mib: 1,
            ..Options::default()
        });
        let started = Instant::now();
        let report = engine.search(&forced, &limits, &AtomicBool::new(false), &mut |_| {});
        assert_eq!(
            report.best.map(|m| m.to_string()).as_deref(),
            Some("e3xc5xa7")
        );
        assert!(
            started.elapsed() < Duration::from_millis(500),
            "{:?}",
            started.elapsed()
        );
        // A move with a choice gets its time; on the clock the engine decides.
        let free = Game::new(rules);
        let limits = move_limits(&free, None, second, Duration::ZERO);
        assert_eq!((limits.movetime, limits.depth), (Some(second), None));
        let limits = move_limits(&forced, Some(second * 60), second, second);
        assert_eq!(
            (limits.clock, limits.movetime, limits.depth),
            (Some(second * 60), None, None)
        );
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
