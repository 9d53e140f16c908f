//! `kharbaga match`: two players (engine settings, baseline players, or external programs
//! speaking the engine protocol) play each other from balanced openings, each opening with
//! both colours; the result with its Elo difference, an optional SPRT, and the games as
//! records.

mod external;
mod players;
mod report;
mod schedule;
mod spec;
mod tally;

use crate::args::{CliError, RulesArgs};
use crate::elo::Sprt;
use players::contestant;
use report::{records, report, ReportContext};
use schedule::{openings, Message, Schedule};
use spec::PlayerSpec;
use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};
use tally::Tally;

/// Play a match between two players
///
/// Each player is `random` (a random legal move), `greedy` (the move that wins the most
/// material at once), or engine settings KEY=VALUE,... with the keys level (1-10, default
/// 10), movetime (milliseconds a move), depth, nodes, hash (MiB, default 16), threads and
/// tables (an endgame table directory; none by default) and book (yes or no: play from the
/// built-in opening book; no by default); an engine given none of movetime,
/// depth and nodes thinks --movetime milliseconds a move. For
/// experiments the engine's search switches and weights are accepted too (lmr,
/// aspiration, forced, ttcut, history, zero, weights: see the engine's player_from_spec),
/// e.g. --first lmr=0 --second lmr=1 --sprt elo0=0,elo1=10.
///
/// With --first-cmd or --second-cmd that player is an external program spoken to with the
/// engine protocol (docs/protocol.md): its settings are sent as the parameters level, hash
/// and threads (and book when given) and the limits as `level`.
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

/// The SPRT decides only after this many pairs: the approximation underestimates the
/// variance of a few lopsided pairs (one pair won twice gives an LLR above 3).
const MIN_SPRT_PAIRS: u32 = 10;

/// The default ply cap for rules whose games might not end in reasonable time.
const DEFAULT_CAP: u32 = 500;

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
