//! `kharbaga match`: two players (engine settings, baseline players, or external programs
//! speaking the engine protocol) play each other from balanced openings, each opening with
//! both colours; the result with its Elo difference, an optional SPRT, and the games as
//! records.

use crate::analyze::moves_text;
use crate::args::{CliError, RulesArgs};
use crate::elo::{elo_text, Pentanomial, Sprt, Verdict, Wdl};
use crate::hub::{quote, Line};
use kharbaga::{Color, Game, Move, Reason, Record, Rules};
use kharbaga_engine::rng::Rng;
use kharbaga_engine::selfplay::{
    balanced_openings, play_game, player_from_spec, End, Failure, FailureKind, Player,
};
use kharbaga_engine::{Limits, Options};
use std::fmt;
use std::io::{self, BufRead, BufReader, IsTerminal, Write};
use std::panic::{self, AssertUnwindSafe};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// Play a match between two players
///
/// Each player is `random` (a random legal move), `greedy` (the move that wins the most
/// material at once), or engine settings KEY=VALUE,... with the keys level (1-10, default
/// 10), movetime (milliseconds a move), depth, nodes, hash (MiB, default 16), threads and
/// tables (an endgame table directory; none by default); an engine given none of movetime,
/// depth and nodes thinks --movetime milliseconds a move. For
/// experiments the engine's search switches and weights are accepted too (lmr,
/// aspiration, forced, ttcut, history, zero, weights: see the engine's player_from_spec),
/// e.g. --first lmr=0 --second lmr=1 --sprt elo0=0,elo1=10.
///
/// With --first-cmd or --second-cmd that player is an external program spoken to with the
/// engine protocol (docs/protocol.md): its settings are sent as the parameters level, hash
/// and threads and the limits as `level`.
///
/// The openings are the positions a few plies from the start that a short search finds
/// balanced, in a shuffled order; each is played twice, the first player taking Black, then
/// White. Every move is checked; an illegal move, a program that stops answering or ends,
/// loses the game (a forfeit). The time of every move is measured against the player's
/// movetime.
///
/// The report gives wins, draws and losses from the first player's view, the score, the
/// Elo difference with its 95% interval (trinomial), the game pairs (pentanomial) and with
/// --sprt the log-likelihood ratio of the GSPRT approximation on the pairs, as fishtest
/// computes it with logistic Elo bounds (docs/strength.md). An SPRT stops the match once the
/// ratio crosses a bound, from the 10th pair on (games under way are finished and counted).
///
/// Under rules with no no-progress limit, or where men step sideways, games could last
/// very long: they are called drawn after 500 plies (--max-plies changes it).
#[derive(clap::Args, Debug)]
#[command(after_help = "\
Examples:
  kharbaga match --first level=10 --second random --movetime 100 --games 200
  kharbaga match --first level=10,movetime=200 --second level=10,movetime=100 --concurrency 2
  kharbaga match --second level=10 --second-cmd \"./other-engine hub\" --sprt elo0=0,elo1=10
  kharbaga match --first level=5 --second level=4 --games 100 --pgn games.pdn")]
pub struct MatchArgs {
    #[command(flatten)]
    rules: RulesArgs,

    /// The first player: random, greedy, or engine settings such as level=10,movetime=100
    #[arg(long, value_name = "PLAYER", default_value = "level=10")]
    first: PlayerSpec,

    /// The second player, as --first
    #[arg(long, value_name = "PLAYER", default_value = "level=10")]
    second: PlayerSpec,

    /// Run the first player as this external program and its arguments (split at spaces),
    /// spoken to with the engine protocol
    #[arg(long, value_name = "COMMAND")]
    first_cmd: Option<String>,

    /// Run the second player as an external program, as --first-cmd
    #[arg(long, value_name = "COMMAND")]
    second_cmd: Option<String>,

    /// Games to play, rounded up to an even number (every opening is played with both colours)
    #[arg(long, value_name = "N", default_value_t = 100,
          value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    games: u32,

    /// Milliseconds a move for engines whose settings give no limit
    #[arg(long, value_name = "MS", default_value_t = 100,
          value_parser = clap::value_parser!(u64).range(1..=3_600_000))]
    movetime: u64,

    /// Games played at the same time
    #[arg(long, value_name = "K", default_value_t = 1,
          value_parser = clap::value_parser!(u32).range(1..=256))]
    concurrency: u32,

    /// Stop when a sequential probability ratio test decides, e.g.
    /// elo0=0,elo1=10,alpha=0.05,beta=0.05
    #[arg(long, value_name = "PARAMS")]
    sprt: Option<Sprt>,

    /// Write every game to this file as records (PDN)
    #[arg(long, value_name = "FILE")]
    pgn: Option<PathBuf>,

    /// How many plies from the start the openings are
    #[arg(long, value_name = "PLIES", default_value_t = 8,
          value_parser = clap::value_parser!(u32).range(1..=12))]
    opening_plies: u32,

    /// The largest evaluation, in hundredths of a man, that an opening may have for either side
    #[arg(long, value_name = "CENTI", default_value_t = 50,
          value_parser = clap::value_parser!(u32).range(0..=10_000))]
    opening_margin: u32,

    /// Call a game drawn after this many plies (default: 500 under rules that need it, else none)
    #[arg(long, value_name = "PLIES", value_parser = clap::value_parser!(u32).range(1..))]
    max_plies: Option<u32>,

    /// A seed for the order of the openings and the baseline players' random choices
    #[arg(long, value_name = "N", default_value_t = 1)]
    seed: u64,
}

/// A player as configured on the command line.
#[derive(Clone, Debug, PartialEq)]
enum PlayerSpec {
    Random,
    Greedy,
    Engine(EngineSpec),
}

/// Engine settings from `KEY=VALUE,...`.
#[derive(Clone, Debug, Default, PartialEq)]
struct EngineSpec {
    text: String,
    level: Option<u8>,
    movetime: Option<u64>,
    depth: Option<u32>,
    nodes: Option<u64>,
    hash: Option<usize>,
    threads: Option<usize>,
    /// Settings for experiments, passed on to the engine's own player specification.
    experiments: Vec<String>,
    /// The endgame tables' directory.
    tables: Option<String>,
}

/// The engine's settings for experiments (see `kharbaga_engine::selfplay::player_from_spec`).
const EXPERIMENT_KEYS: [&str; 7] = [
    "lmr",
    "aspiration",
    "forced",
    "ttcut",
    "history",
    "zero",
    "weights",
];

impl std::str::FromStr for PlayerSpec {
    type Err = String;

    fn from_str(text: &str) -> Result<PlayerSpec, String> {
        match text.trim() {
            "random" => return Ok(PlayerSpec::Random),
            "greedy" => return Ok(PlayerSpec::Greedy),
            "" => return Err("a player is random, greedy or KEY=VALUE,...".to_string()),
            _ => {}
        }
        let mut spec = EngineSpec {
            text: text.trim().to_string(),
            ..EngineSpec::default()
        };
        for part in text.split(',') {
            let (key, value) = part.split_once('=').ok_or_else(|| {
                format!("'{part}' is not KEY=VALUE (a player is random, greedy or KEY=VALUE,...)")
            })?;
            let (key, value) = (key.trim(), value.trim());
            fn read<T: std::str::FromStr + PartialOrd + fmt::Display>(
                key: &str,
                value: &str,
                low: T,
                high: T,
            ) -> Result<T, String> {
                value
                    .parse::<T>()
                    .ok()
                    .filter(|v| *v >= low && *v <= high)
                    .ok_or_else(|| {
                        format!("{key} must be a whole number from {low} to {high}, not '{value}'")
                    })
            }
            match key {
                "level" => spec.level = Some(read(key, value, 1, 10)?),
                "movetime" => spec.movetime = Some(read(key, value, 1, 3_600_000)?),
                "depth" => spec.depth = Some(read(key, value, 1, 127)?),
                "nodes" => spec.nodes = Some(read(key, value, 1, u64::MAX)?),
                "hash" => spec.hash = Some(read(key, value, 1, 65_536)?),
                "threads" => spec.threads = Some(read(key, value, 1, 256)?),
                "tables" => spec.tables = Some(value.to_string()),
                _ if EXPERIMENT_KEYS.contains(&key) => {
                    spec.experiments.push(format!("{key}={value}"))
                }
                _ => {
                    return Err(format!(
                    "unknown engine setting '{key}' (level, movetime, depth, nodes, hash, threads, \
                     tables, or for experiments {})",
                    EXPERIMENT_KEYS.join(", ")
                ))
                }
            }
        }
        Ok(PlayerSpec::Engine(spec))
    }
}

impl fmt::Display for PlayerSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayerSpec::Random => f.write_str("random"),
            PlayerSpec::Greedy => f.write_str("greedy"),
            PlayerSpec::Engine(spec) => f.write_str(&spec.text),
        }
    }
}

impl EngineSpec {
    /// The search limits: the spec's, or `default_movetime` when it gives none.
    fn limits(&self, default_movetime: u64) -> Limits {
        let mut limits = Limits {
            depth: self.depth,
            nodes: self.nodes,
            movetime: self.movetime.map(Duration::from_millis),
            ..Limits::default()
        };
        if limits.depth.is_none() && limits.nodes.is_none() && limits.movetime.is_none() {
            limits.movetime = Some(Duration::from_millis(default_movetime));
        }
        limits
    }

    fn options(&self) -> Options {
        let default = Options::default();
        Options {
            hash_mib: self.hash.unwrap_or(DEFAULT_HASH_MIB),
            threads: self.threads.unwrap_or(default.threads),
            level: self.level.unwrap_or(default.level),
            tables: None,
            book: None,
        }
    }

    /// The engine's own player specification of these settings.
    fn engine_spec(&self, default_movetime: u64, rules: &Rules) -> String {
        let options = self.options();
        let limits = self.limits(default_movetime);
        let mut items = vec![
            format!("level={}", options.level),
            format!("hash={}", options.hash_mib),
            format!("threads={}", options.threads),
        ];
        if let Some(d) = limits.depth {
            items.push(format!("depth={d}"));
        }
        if let Some(n) = limits.nodes {
            items.push(format!("nodes={n}"));
        }
        if let Some(t) = limits.movetime {
            items.push(format!("movetime={}", t.as_millis()));
        }
        items.extend(self.experiments.iter().cloned());
        if let Some(dir) = &self.tables {
            items.push(format!("tables={dir}"));
            items.push(format!(
                "tables-rules={}",
                rules.to_string().replace(',', "+")
            ));
        }
        format!("engine:{}", items.join(","))
    }
}

/// The transposition table of the engines in a match, unless their settings say otherwise:
/// enough for a second a move, and light when several games run at once.
const DEFAULT_HASH_MIB: usize = 16;

/// A player in this process: the engine or a baseline player, made from the engine
/// library's player specification.
struct Internal {
    spec: String,
    player: Box<dyn Player>,
}

impl Internal {
    fn new(spec: String) -> Result<Internal, String> {
        Ok(Internal {
            player: player_from_spec(&spec)?,
            spec,
        })
    }
}

impl Player for Internal {
    fn new_game(&mut self) -> Result<(), Failure> {
        self.player.new_game()
    }

    fn choose(&mut self, game: &Game) -> Result<Move, Failure> {
        match panic::catch_unwind(AssertUnwindSafe(|| self.player.choose(game))) {
            Ok(choice) => choice,
            Err(_) => {
                // The player may be left inconsistent: start afresh for the next game.
                if let Ok(fresh) = player_from_spec(&self.spec) {
                    self.player = fresh;
                }
                Err(Failure::new(FailureKind::Crash, "the engine panicked"))
            }
        }
    }
}

/// An external program spoken to with the engine protocol.
struct External {
    command: String,
    spec: EngineSpec,
    limits: Limits,
    rules: Rules,
    running: Option<Process>,
}

/// A running external program: its input, and its output lines as they arrive.
struct Process {
    child: Child,
    input: ChildStdin,
    lines: Receiver<String>,
}

/// How long a program may take to identify itself and to get ready.
const STARTUP_TIME: Duration = Duration::from_secs(30);

impl Process {
    fn send(&mut self, line: &str) -> Result<(), Failure> {
        writeln!(self.input, "{line}")
            .and_then(|()| self.input.flush())
            .map_err(|e| Failure::new(FailureKind::Crash, format!("cannot write to it: {e}")))
    }

    /// Reads lines until one with command `want`, within `limit`; an `error` line fails.
    fn expect(&mut self, want: &str, limit: Duration) -> Result<Line, Failure> {
        let deadline = Instant::now() + limit;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let text = match self.lines.recv_timeout(left) {
                Ok(text) => text,
                Err(RecvTimeoutError::Timeout) => {
                    return Err(Failure::new(
                        FailureKind::Timeout,
                        format!("no '{want}' within {:.1} s", limit.as_secs_f64()),
                    ))
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(Failure::new(
                        FailureKind::Crash,
                        format!("it ended while '{want}' was awaited"),
                    ))
                }
            };
            let Ok(Some(line)) = Line::parse(&text) else {
                continue;
            };
            if line.command == "error" {
                let message = line.get("message").unwrap_or(&text).to_string();
                return Err(Failure::new(
                    FailureKind::Crash,
                    format!("it answered error: {message}"),
                ));
            }
            if line.command == want {
                return Ok(line);
            }
        }
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.send("quit");
        let deadline = Instant::now() + Duration::from_secs(1);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl External {
    /// Starts the program and goes through `hub` ... `wait`, the parameters, `init` ... `ready`.
    fn start(&mut self) -> Result<(), Failure> {
        let mut words = self.command.split_whitespace();
        let program = words
            .next()
            .ok_or_else(|| Failure::new(FailureKind::Crash, "the command is empty"))?;
        let mut child = Command::new(program)
            .args(words)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| Failure::new(FailureKind::Crash, format!("cannot start it: {e}")))?;
        let input = child.stdin.take().expect("piped");
        let output = child.stdout.take().expect("piped");
        let (sender, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(output).lines() {
                let Ok(line) = line else { break };
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        let mut process = Process {
            child,
            input,
            lines,
        };
        process.send("hub")?;
        process.expect("wait", STARTUP_TIME)?;
        process.send(&format!(
            "set-param name=rules value={}",
            quote(&self.rules.to_string())
        ))?;
        // The same settings as the engine in this process would get.
        let options = self.spec.options();
        for (name, value) in [
            ("level", usize::from(options.level)),
            ("hash", options.hash_mib),
            ("threads", options.threads),
        ] {
            process.send(&format!("set-param name={name} value={value}"))?;
        }
        process.send("init")?;
        process.expect("ready", STARTUP_TIME)?;
        self.running = Some(process);
        Ok(())
    }

    /// The `level` line of the limits.
    fn level_line(&self) -> String {
        let mut line = "level".to_string();
        if let Some(d) = self.limits.depth {
            line.push_str(&format!(" depth={d}"));
        }
        if let Some(n) = self.limits.nodes {
            line.push_str(&format!(" nodes={n}"));
        }
        if let Some(t) = self.limits.movetime {
            line.push_str(&format!(" move-time={}", t.as_secs_f64()));
        }
        line
    }

    /// Runs `f` on the running program; a failure stops the program (it is started again
    /// for the next game).
    fn with_process<T>(
        &mut self,
        f: impl FnOnce(&mut Process) -> Result<T, Failure>,
    ) -> Result<T, Failure> {
        let process = self
            .running
            .as_mut()
            .ok_or_else(|| Failure::new(FailureKind::Crash, "it is not running"))?;
        let result = f(process);
        if result.is_err() {
            self.running = None;
        }
        result
    }
}

impl Player for External {
    fn new_game(&mut self) -> Result<(), Failure> {
        if self.running.is_none() {
            self.start()?;
        }
        self.with_process(|p| p.send("new-game"))
    }

    fn choose(&mut self, game: &Game) -> Result<Move, Failure> {
        let pos = format!(
            "pos pos={} moves={}",
            game.start(),
            quote(&moves_text(game.moves()))
        );
        let level = self.level_line();
        // Generous: a program is late only when it is far beyond its time.
        let limit = self
            .limits
            .movetime
            .map_or(Duration::from_secs(600), |b| b * 3 + Duration::from_secs(2));
        let done = self.with_process(|p| {
            p.send(&pos)?;
            p.send(&level)?;
            p.send("go think")?;
            p.expect("done", limit)
        })?;
        let text = done
            .get("move")
            .ok_or_else(|| Failure::new(FailureKind::Illegal, "'done' without a move"))?;
        game.position()
            .parse_move(game.rules(), text)
            .map_err(|e| Failure::new(FailureKind::Illegal, format!("{text}: {e}")))
    }
}

/// A player with the time it may take for a move, if limited by time.
struct Seat {
    player: Box<dyn Player>,
    budget: Option<Duration>,
}

/// Makes a player from its settings (`seed` for its random choices).
fn contestant(
    spec: &PlayerSpec,
    command: Option<&str>,
    rules: Rules,
    movetime: u64,
    seed: u64,
) -> Result<Seat, String> {
    let internal = |spec: String, budget| -> Result<Seat, String> {
        Ok(Seat {
            player: Box::new(Internal::new(spec)?),
            budget,
        })
    };
    match (spec, command) {
        (PlayerSpec::Random, None) => internal(format!("random:{seed}"), None),
        (PlayerSpec::Greedy, None) => internal(format!("greedy:{seed}"), None),
        (PlayerSpec::Engine(spec), None) => internal(
            spec.engine_spec(movetime, &rules),
            spec.limits(movetime).movetime,
        ),
        (PlayerSpec::Engine(spec), Some(_))
            if !spec.experiments.is_empty() || spec.tables.is_some() =>
        {
            Err(format!(
                "{} are settings of this program's engine, not of an external one",
                spec.experiments
                    .iter()
                    .map(String::as_str)
                    .chain(spec.tables.as_ref().map(|_| "tables"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ))
        }
        (PlayerSpec::Engine(spec), Some(command)) => {
            let mut external = External {
                command: command.to_string(),
                spec: spec.clone(),
                limits: spec.limits(movetime),
                rules,
                running: None,
            };
            external
                .start()
                .map_err(|f| format!("'{command}': {}", f.message))?;
            Ok(Seat {
                budget: external.limits.movetime,
                player: Box::new(external),
            })
        }
        (baseline, Some(_)) => Err(format!(
            "'{baseline}' is a built-in player: an external program needs engine settings"
        )),
    }
}

/// The time a player took for its moves.
#[derive(Copy, Clone, Debug, Default)]
struct MoveTimes {
    moves: u64,
    total: Duration,
    longest: Duration,
    /// The most a move took beyond the budget.
    overrun: Duration,
    /// Moves that took longer than the budget.
    late: u64,
}

impl MoveTimes {
    fn record(&mut self, used: Duration, budget: Option<Duration>) {
        self.moves += 1;
        self.total += used;
        self.longest = self.longest.max(used);
        if let Some(budget) = budget {
            if used > budget {
                self.late += 1;
                self.overrun = self.overrun.max(used - budget);
            }
        }
    }

    fn merge(&mut self, other: &MoveTimes) {
        self.moves += other.moves;
        self.total += other.total;
        self.longest = self.longest.max(other.longest);
        self.overrun = self.overrun.max(other.overrun);
        self.late += other.late;
    }
}

/// A played game.
#[derive(Clone, Debug)]
struct Played {
    pair: usize,
    first_is_black: bool,
    game: Game,
    end: End,
}

impl Played {
    /// The first player's points, in half points (0, 1 or 2).
    fn first_half_points(&self) -> usize {
        let first = if self.first_is_black {
            Color::Black
        } else {
            Color::White
        };
        match self.end.winner() {
            Some(c) if c == first => 2,
            Some(_) => 0,
            None => 1,
        }
    }
}

/// What a worker sends back.
enum Message {
    /// A game pair: the games, and the move times of the first and second players.
    Pair(Box<[Played; 2]>, [MoveTimes; 2]),
    /// A player could not be made.
    Fatal(String),
}

/// The running totals.
#[derive(Default)]
struct Tally {
    wdl: Wdl,
    pairs: Pentanomial,
    times: [MoveTimes; 2],
    played: Vec<Played>,
}

impl Tally {
    fn add(&mut self, games: [Played; 2], times: [MoveTimes; 2]) {
        let mut pair_points = 0;
        for game in &games {
            let points = game.first_half_points();
            pair_points += points;
            match points {
                2 => self.wdl.wins += 1,
                1 => self.wdl.draws += 1,
                _ => self.wdl.losses += 1,
            }
        }
        self.pairs.add(pair_points);
        self.times[0].merge(&times[0]);
        self.times[1].merge(&times[1]);
        self.played.extend(games);
    }

    /// The one-line summary of the progress.
    fn progress(&self, total: u32, sprt: Option<&Sprt>) -> String {
        let wdl = self.wdl;
        let mut line = format!(
            "[{}/{total}] +{} ={} -{}",
            wdl.games(),
            wdl.wins,
            wdl.draws,
            wdl.losses
        );
        if let (Some(score), Some((elo, low, high))) = (wdl.score(), wdl.elo()) {
            let interval = match wdl.sweep_bound() {
                Some(bound) => format!("bound {}", elo_text(bound)),
                None => format!("{} to {}", elo_text(low), elo_text(high)),
            };
            line.push_str(&format!(
                " {:.1}% Elo {} ({interval})",
                100.0 * score,
                elo_text(elo),
            ));
        }
        if let Some(sprt) = sprt {
            line.push_str(&format!(" LLR {:.2}", self.pairs.llr(sprt.elo0, sprt.elo1)));
        }
        line
    }
}

/// The SPRT decides only after this many pairs: the approximation underestimates the
/// variance of a few lopsided pairs (one pair won twice gives an LLR above 3).
const MIN_SPRT_PAIRS: u32 = 10;

/// The default ply cap for rules whose games might not end in reasonable time.
const DEFAULT_CAP: u32 = 500;

/// The openings, in an order shuffled by `seed`.
fn openings(rules: &Rules, plies: u32, margin: u32, seed: u64) -> Vec<Game> {
    let mut openings = balanced_openings(rules, plies as usize, margin as i32);
    let mut rng = Rng::new(seed);
    for i in (1..openings.len()).rev() {
        openings.swap(i, rng.below(i + 1));
    }
    openings
}

/// The pairs to play, shared by the workers.
struct Schedule<'a> {
    args: &'a MatchArgs,
    rules: Rules,
    max_plies: Option<u32>,
    openings: &'a [Game],
    pairs: usize,
    /// The next pair to play.
    next: AtomicUsize,
    /// Set to play no more pairs (an SPRT decided, or a player could not be made).
    stop: AtomicBool,
}

impl Schedule<'_> {
    /// A worker: makes its own two players, then plays pairs until none is left.
    fn work(&self, worker: usize, sender: &mpsc::Sender<Message>) {
        let args = self.args;
        let seed = args.seed.wrapping_mul(1000).wrapping_add(2 * worker as u64);
        let make = |spec, cmd: &Option<String>, seed| {
            contestant(spec, cmd.as_deref(), self.rules, args.movetime, seed)
        };
        let made = make(&args.first, &args.first_cmd, seed)
            .and_then(|first| make(&args.second, &args.second_cmd, seed + 1).map(|s| (first, s)));
        let (mut first, mut second) = match made {
            Ok(players) => players,
            Err(e) => {
                let _ = sender.send(Message::Fatal(e));
                return;
            }
        };
        while !self.stop.load(Ordering::Relaxed) {
            let pair = self.next.fetch_add(1, Ordering::Relaxed);
            if pair >= self.pairs {
                break;
            }
            let opening = &self.openings[pair % self.openings.len()];
            let mut times = [MoveTimes::default(); 2];
            let [a, b] = [true, false].map(|first_is_black| {
                // The seats by colour, and the index of each colour's player in `times`.
                let (seats, owners) = if first_is_black {
                    ([&mut first, &mut second], [0, 1])
                } else {
                    ([&mut second, &mut first], [1, 0])
                };
                let budgets = [seats[0].budget, seats[1].budget];
                let [black, white] = seats;
                let (game, end) = play_game(
                    opening,
                    [black.player.as_mut(), white.player.as_mut()],
                    self.max_plies,
                    &mut |side, used| {
                        times[owners[side.index()]].record(used, budgets[side.index()]);
                    },
                );
                Played {
                    pair,
                    first_is_black,
                    game,
                    end,
                }
            });
            if sender.send(Message::Pair(Box::new([a, b]), times)).is_err() {
                break;
            }
        }
    }
}

/// Runs the command.
pub fn run(args: &MatchArgs) -> Result<(), CliError> {
    let rules = args.rules.rules()?;
    let max_plies = args
        .max_plies
        .or((rules.no_progress_limit.is_none() || rules.men_step_sideways).then_some(DEFAULT_CAP));
    let pair_count = args.games.div_ceil(2) as usize;
    let total_games = 2 * pair_count as u32;
    let names = [
        player_name(&args.first, args.first_cmd.as_deref()),
        player_name(&args.second, args.second_cmd.as_deref()),
    ];
    // Make both players once before the openings are searched, to report bad settings
    // (or a program that does not start) at once.
    for (spec, cmd) in [
        (&args.first, &args.first_cmd),
        (&args.second, &args.second_cmd),
    ] {
        contestant(spec, cmd.as_deref(), rules, args.movetime, args.seed)
            .map_err(CliError::Input)?;
    }
    let progress_to_terminal = io::stderr().is_terminal();
    eprintln!(
        "Preparing openings ({} plies deep, within {} of a man)...",
        args.opening_plies,
        f64::from(args.opening_margin) / 100.0
    );
    let openings = openings(&rules, args.opening_plies, args.opening_margin, args.seed);
    if openings.is_empty() {
        return Err(CliError::Input(format!(
            "no balanced opening {} plies deep under these rules; try another --opening-plies \
             or a larger --opening-margin",
            args.opening_plies
        )));
    }
    let started = Instant::now();
    let schedule = Schedule {
        args,
        rules,
        max_plies,
        openings: &openings,
        pairs: pair_count,
        next: AtomicUsize::new(0),
        stop: AtomicBool::new(false),
    };
    let mut tally = Tally::default();
    let mut fatal = None;
    let mut verdict = None;
    std::thread::scope(|scope| {
        let (sender, receiver) = mpsc::channel();
        for worker in 0..(args.concurrency as usize).min(pair_count) {
            let sender = sender.clone();
            let schedule = &schedule;
            scope.spawn(move || schedule.work(worker, &sender));
        }
        drop(sender);
        let mut last_note = Instant::now();
        for message in receiver {
            match message {
                Message::Fatal(e) => {
                    schedule.stop.store(true, Ordering::Relaxed);
                    fatal.get_or_insert(e);
                }
                Message::Pair(games, times) => {
                    let [a, b] = *games;
                    tally.add([a, b], times);
                    if let Some(sprt) = &args.sprt {
                        if verdict.is_none() && tally.pairs.pairs() >= MIN_SPRT_PAIRS {
                            verdict = sprt.verdict(tally.pairs.llr(sprt.elo0, sprt.elo1));
                            if verdict.is_some() {
                                schedule.stop.store(true, Ordering::Relaxed);
                            }
                        }
                    }
                    let line = tally.progress(total_games, args.sprt.as_ref());
                    if progress_to_terminal {
                        eprint!("\r\x1b[2K{line}");
                    } else if last_note.elapsed() >= Duration::from_secs(10) {
                        eprintln!("{line}");
                        last_note = Instant::now();
                    }
                }
            }
        }
        if progress_to_terminal {
            eprintln!();
        }
    });
    if let Some(e) = fatal {
        return Err(CliError::Input(e));
    }
    tally.played.sort_by_key(|p| (p.pair, !p.first_is_black));
    let mut out = io::stdout().lock();
    report(
        &mut out,
        args,
        &rules,
        &names,
        &tally,
        ReportContext {
            openings: openings.len(),
            max_plies,
            seconds: started.elapsed().as_secs_f64(),
            verdict,
        },
    )?;
    if let Some(path) = &args.pgn {
        let text = records(&tally.played, &names)?;
        std::fs::write(path, text)
            .map_err(|e| CliError::Input(format!("cannot write {}: {e}", path.display())))?;
        writeln!(out, "Games written to {}.", path.display())?;
    }
    Ok(())
}

/// A player's name for reports and records.
fn player_name(spec: &PlayerSpec, command: Option<&str>) -> String {
    match command {
        Some(command) => format!("{command} ({spec})"),
        None => spec.to_string(),
    }
}

/// What the report needs besides the tally.
struct ReportContext {
    openings: usize,
    max_plies: Option<u32>,
    seconds: f64,
    verdict: Option<Verdict>,
}

/// How many games ended in each way.
#[derive(Default)]
struct Endings {
    no_moves: u32,
    repetition: u32,
    no_progress: u32,
    capped: u32,
    illegal: u32,
    crashes: u32,
    timeouts: u32,
}

impl Endings {
    fn count(played: &[Played]) -> Endings {
        let mut e = Endings::default();
        for p in played {
            match &p.end {
                End::Rules(o) => match o.reason {
                    Reason::NoMoves { .. } => e.no_moves += 1,
                    Reason::Repetition => e.repetition += 1,
                    Reason::NoProgress(_) => e.no_progress += 1,
                    // A match never resigns or agrees a draw.
                    Reason::Resignation(_) | Reason::Agreement | Reason::Time(_) => {}
                },
                End::Capped(_) => e.capped += 1,
                End::Forfeit { failure, .. } => match failure.kind {
                    FailureKind::Illegal => e.illegal += 1,
                    FailureKind::Crash => e.crashes += 1,
                    FailureKind::Timeout => e.timeouts += 1,
                },
            }
        }
        e
    }
}

/// Writes the final report.
fn report(
    out: &mut impl Write,
    args: &MatchArgs,
    rules: &Rules,
    names: &[String; 2],
    tally: &Tally,
    context: ReportContext,
) -> io::Result<()> {
    let wdl = tally.wdl;
    writeln!(out, "First: {}. Second: {}.", names[0], names[1])?;
    writeln!(
        out,
        "Rules: {rules}. {} openings ({} plies deep), each played with both colours; {} at a time.",
        context.openings, args.opening_plies, args.concurrency
    )?;
    if let Some(cap) = context.max_plies {
        writeln!(out, "Games still going after {cap} plies are called drawn.")?;
    }
    writeln!(
        out,
        "Played {} games in {:.1} s.",
        wdl.games(),
        context.seconds
    )?;
    writeln!(
        out,
        "Result (first player's view): wins {}, draws {}, losses {}",
        wdl.wins, wdl.draws, wdl.losses
    )?;
    if let (Some(score), Some((elo, low, high))) = (wdl.score(), wdl.elo()) {
        writeln!(out, "Score: {:.1}%", 100.0 * score)?;
        match wdl.sweep_bound() {
            Some(bound) => writeln!(
                out,
                "Elo: {} (every game went one way; one-sided 95% bound {})",
                elo_text(elo),
                elo_text(bound)
            )?,
            None => writeln!(
                out,
                "Elo: {} (95% interval {} to {})",
                elo_text(elo),
                elo_text(low),
                elo_text(high)
            )?,
        }
    }
    let p = tally.pairs.0;
    writeln!(
        out,
        "Pairs by the first player's points (0, 1/2, 1, 3/2, 2): {} {} {} {} {}",
        p[0], p[1], p[2], p[3], p[4]
    )?;
    if let Some(sprt) = &args.sprt {
        let (low, high) = sprt.bounds();
        let decision = match context.verdict {
            Some(Verdict::H0) => "H0 accepted (no gain of elo1)",
            Some(Verdict::H1) => "H1 accepted (a gain)",
            None => "no decision yet",
        };
        writeln!(
            out,
            "SPRT {sprt}: LLR {:.2} (bounds {low:.2}, {high:.2}): {decision}",
            tally.pairs.llr(sprt.elo0, sprt.elo1)
        )?;
    }
    let endings = Endings::count(&tally.played);
    writeln!(
        out,
        "Endings: no legal move {}, repetition {}, no progress {}, called drawn at the cap {}, \
         forfeits {} (illegal moves {}, crashes {}, time-outs {})",
        endings.no_moves,
        endings.repetition,
        endings.no_progress,
        endings.capped,
        endings.illegal + endings.crashes + endings.timeouts,
        endings.illegal,
        endings.crashes,
        endings.timeouts
    )?;
    for (i, (times, spec)) in tally
        .times
        .iter()
        .zip([&args.first, &args.second])
        .enumerate()
    {
        let name = ["First", "Second"][i];
        let mean = if times.moves > 0 {
            times.total.as_secs_f64() * 1000.0 / times.moves as f64
        } else {
            0.0
        };
        write!(
            out,
            "{name}: {} moves, {mean:.1} ms on average, longest {:.1} ms",
            times.moves,
            times.longest.as_secs_f64() * 1000.0,
        )?;
        match spec {
            PlayerSpec::Engine(spec) if spec.limits(args.movetime).movetime.is_some() => writeln!(
                out,
                "; {} over its movetime, by at most {:.1} ms",
                times.late,
                times.overrun.as_secs_f64() * 1000.0
            )?,
            _ => writeln!(out, "; no movetime")?,
        }
    }
    for played in &tally.played {
        if let End::Forfeit { loser, failure } = &played.end {
            let who = if (*loser == Color::Black) == played.first_is_black {
                "first"
            } else {
                "second"
            };
            writeln!(
                out,
                "Forfeit in pair {}: the {who} player ({loser}) after {} plies: {}",
                played.pair + 1,
                played.game.moves().len(),
                failure.message
            )?;
        }
    }
    Ok(())
}

/// Every game as a record, in pair order.
fn records(played: &[Played], names: &[String; 2]) -> Result<String, CliError> {
    let clean = |text: &str| -> String {
        text.chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .collect()
    };
    let mut text = String::new();
    for (i, p) in played.iter().enumerate() {
        let mut game = p.game.clone();
        let termination = match &p.end {
            End::Rules(_) => None,
            End::Capped(cap) => {
                game.agree_draw();
                Some(format!("adjudicated: drawn after {cap} plies"))
            }
            End::Forfeit { loser, failure } => {
                game.resign(*loser);
                Some(clean(&format!("{loser} forfeits: {}", failure.message)))
            }
        };
        let (black, white) = if p.first_is_black {
            (&names[0], &names[1])
        } else {
            (&names[1], &names[0])
        };
        let round = format!("{}.{}", p.pair + 1, i % 2 + 1);
        let (black, white) = (clean(black), clean(white));
        let mut tags = vec![
            ("Event", "kharbaga match"),
            ("Round", round.as_str()),
            ("Black", black.as_str()),
            ("White", white.as_str()),
        ];
        if let Some(t) = &termination {
            tags.push(("Termination", t.as_str()));
        }
        let record = Record::from_game(&game, &tags)
            .map_err(|e| CliError::Input(format!("cannot write game {}: {e}", i + 1)))?;
        if !text.is_empty() {
            text.push('\n');
        }
        text.push_str(&record.to_pdn());
    }
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn players_are_read_from_their_settings() {
        assert_eq!("random".parse::<PlayerSpec>(), Ok(PlayerSpec::Random));
        assert_eq!(" greedy".parse::<PlayerSpec>(), Ok(PlayerSpec::Greedy));
        let PlayerSpec::Engine(spec) = "level=7,movetime=250,hash=8".parse().unwrap() else {
            panic!("an engine");
        };
        assert_eq!(
            (spec.level, spec.movetime, spec.hash, spec.depth),
            (Some(7), Some(250), Some(8), None)
        );
        assert_eq!(spec.limits(100).movetime, Some(Duration::from_millis(250)));
        assert_eq!(spec.options().level, 7);
        // Without a limit of its own the engine gets the match's movetime.
        let PlayerSpec::Engine(spec) = "depth=3".parse().unwrap() else {
            panic!("an engine");
        };
        assert_eq!(spec.limits(100).movetime, None);
        let PlayerSpec::Engine(spec) = "level=9".parse().unwrap() else {
            panic!("an engine");
        };
        assert_eq!(spec.limits(100).movetime, Some(Duration::from_millis(100)));
        // Settings for experiments go to the engine's own player specification.
        let PlayerSpec::Engine(spec) = "lmr=0,level=9,history=1".parse().unwrap() else {
            panic!("an engine");
        };
        assert_eq!(spec.experiments, ["lmr=0", "history=1"]);
        assert_eq!(
            spec.engine_spec(100, &Rules::standard()),
            "engine:level=9,hash=16,threads=1,movetime=100,lmr=0,history=1"
        );
        assert!(Internal::new(spec.engine_spec(100, &Rules::standard())).is_ok());
        let e = contestant(
            &PlayerSpec::Engine(spec),
            Some("other-engine"),
            Rules::standard(),
            100,
            1,
        )
        .err()
        .unwrap();
        assert!(
            e.contains("lmr=0, history=1 are settings of this program's engine"),
            "{e}"
        );
        let e = contestant(
            &PlayerSpec::Greedy,
            Some("other-engine"),
            Rules::standard(),
            100,
            1,
        )
        .err()
        .unwrap();
        assert!(e.contains("'greedy' is a built-in player"), "{e}");
        for (bad, why) in [
            ("level=11", "level must be a whole number from 1 to 10"),
            ("speed=3", "unknown engine setting 'speed'"),
            ("fast", "'fast' is not KEY=VALUE"),
            ("", "random, greedy or KEY=VALUE"),
        ] {
            let e = bad.parse::<PlayerSpec>().unwrap_err();
            assert!(e.contains(why), "{bad}: {e}");
        }
    }

    #[test]
    fn move_times_track_the_worst_overrun() {
        let mut t = MoveTimes::default();
        let ms = Duration::from_millis;
        t.record(ms(90), Some(ms(100)));
        t.record(ms(130), Some(ms(100)));
        t.record(ms(110), Some(ms(100)));
        assert_eq!(
            (t.moves, t.late, t.overrun, t.longest),
            (3, 2, ms(30), ms(130))
        );
        let mut u = MoveTimes::default();
        u.record(ms(500), None);
        u.merge(&t);
        assert_eq!(
            (u.moves, u.late, u.overrun, u.longest),
            (4, 2, ms(30), ms(500))
        );
    }

    #[test]
    fn a_forfeit_loses_the_pair_game() {
        let played = Played {
            pair: 0,
            first_is_black: false,
            game: Game::new(Rules::standard()),
            end: End::Forfeit {
                loser: Color::White,
                failure: Failure::new(FailureKind::Crash, "x"),
            },
        };
        assert_eq!(played.first_half_points(), 0);
        let played = Played {
            first_is_black: true,
            ..played
        };
        assert_eq!(played.first_half_points(), 2);
    }
}
