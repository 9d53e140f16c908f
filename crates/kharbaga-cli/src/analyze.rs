//! `kharbaga analyze`: search a position with the engine and print what it finds as the
//! search deepens, then the best move.

use crate::args::{BookSwitch, CliError, EngineArgs, PositionArgs, RulesArgs, TablesDir};
pub use kharbaga_engine::protocol::{game_after, moves_text};
use kharbaga_engine::{Engine, Info, Limits, Options, Score};
use std::io::{self, Write};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// The move time used when no limit is given, in milliseconds.
const DEFAULT_MOVETIME_MS: u64 = 5000;

/// Analyse a position with the engine
///
/// Prints one `info` line per completed search depth (and per line with --multipv):
///
///   info depth D seldepth S [multipv K] score SCORE nodes N nps NPS time SECONDS pv MOVES
///
/// SCORE is from the side to move's point of view, in men (+1.00 = one man ahead), or
/// `win in N` / `loss in N` for a forced result N plies away. seldepth is the deepest ply
/// reached (captures included), nps the nodes per second, time the seconds since the start.
/// The last line is `bestmove MOVE [ponder MOVE]`, or `bestmove none (OUTCOME)` when the side
/// to move has no legal move.
///
/// The limits combine (the first reached ends the search); with none, the search runs for
/// 5 seconds (--movetime 5000), as a note on standard error says.
#[derive(clap::Args, Debug)]
#[command(after_help = "\
Examples:
  kharbaga analyze --depth 12
  kharbaga analyze --moves \"d4-e5 f6xd4\" --movetime 2000 --multipv 3
  kharbaga analyze --position 'B:Bc3,Ke1:Wd4,f6,Ka9' --nodes 1000000")]
pub struct AnalyzeArgs {
    #[command(flatten)]
    rules: RulesArgs,

    #[command(flatten)]
    position: PositionArgs,

    /// Search this many plies deep
    #[arg(long, value_name = "D", value_parser = clap::value_parser!(u32).range(1..=127))]
    depth: Option<u32>,

    /// Search for this many milliseconds
    #[arg(long, value_name = "MS", value_parser = clap::value_parser!(u64).range(1..))]
    movetime: Option<u64>,

    /// Search this many nodes (positions)
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    nodes: Option<u64>,

    /// Show the best K lines (moves), not only the best one
    #[arg(long, value_name = "K", default_value_t = 1,
          value_parser = clap::value_parser!(u32).range(1..=1000))]
    multipv: u32,

    #[command(flatten)]
    engine: EngineArgs,

    #[command(flatten)]
    tables: TablesDir,

    #[command(flatten)]
    book: BookSwitch,
}

/// A score as the commands print it: `+0.35` (men, from the side to move's view),
/// `win in 7`, `loss in 6` (plies).
pub fn score_text(score: Score) -> String {
    match score {
        Score::Centi(c) => format!("{}{}.{:02}", sign(c), c.abs() / 100, c.abs() % 100),
        Score::WinIn(n) => format!("win in {n}"),
        Score::LossIn(n) => format!("loss in {n}"),
        table => table.to_string(),
    }
}

/// `+` for zero and above, `-` below.
fn sign(c: i32) -> char {
    if c < 0 {
        '-'
    } else {
        '+'
    }
}

/// Nodes per second (0 before any time has passed).
pub fn nps(nodes: u64, time: Duration) -> u64 {
    let secs = time.as_secs_f64();
    if secs > 0.0 {
        (nodes as f64 / secs) as u64
    } else {
        0
    }
}

/// One `info` line.
fn info_line(info: &Info, multipv: bool) -> String {
    let mut line = format!("info depth {} seldepth {}", info.depth, info.seldepth);
    if multipv {
        line.push_str(&format!(" multipv {}", info.multipv));
    }
    line.push_str(&format!(
        " score {} nodes {} nps {} time {:.3} pv {}",
        score_text(info.score),
        info.nodes,
        nps(info.nodes, info.time),
        info.time.as_secs_f64(),
        moves_text(&info.pv)
    ));
    line
}

/// Runs the command.
pub fn run(args: &AnalyzeArgs) -> Result<(), CliError> {
    let rules = args.rules.rules()?;
    let game = args.position.game(rules)?;
    let mut limits = Limits {
        depth: args.depth,
        nodes: args.nodes,
        movetime: args.movetime.map(Duration::from_millis),
        multipv: args.multipv as usize,
        ..Limits::default()
    };
    if limits.depth.is_none() && limits.nodes.is_none() && limits.movetime.is_none() {
        eprintln!(
            "kharbaga: no limit given: searching for {} s (--movetime {DEFAULT_MOVETIME_MS})",
            DEFAULT_MOVETIME_MS / 1000
        );
        limits.movetime = Some(Duration::from_millis(DEFAULT_MOVETIME_MS));
    }
    let mut out = io::stdout().lock();
    writeln!(out, "position {} rules {rules}", game.position())?;
    out.flush()?;
    if game.legal_moves().is_empty() {
        let outcome = game.outcome().expect("a game without legal moves is over");
        writeln!(out, "bestmove none ({outcome})")?;
        return Ok(());
    }
    let mut engine = Engine::new(Options {
        tables: args.tables.open(&rules)?,
        book: args.book.book(),
        ..args.engine.options(10)
    });
    let stop = AtomicBool::new(false);
    let mut written = Ok(());
    let report = engine.search(&game, &limits, &stop, &mut |info| {
        if written.is_ok() && info.multipv <= limits.multipv {
            written =
                writeln!(out, "{}", info_line(info, limits.multipv > 1)).and_then(|()| out.flush());
        }
    });
    written?;
    let best = report
        .best
        .expect("the engine finds a move when there is a legal one");
    if report.book {
        writeln!(out, "info string book move")?;
    }
    match report.ponder {
        Some(ponder) => writeln!(out, "bestmove {best} ponder {ponder}")?,
        None => writeln!(out, "bestmove {best}")?,
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_are_written_in_men_or_plies() {
        assert_eq!(score_text(Score::Centi(35)), "+0.35");
        assert_eq!(score_text(Score::Centi(0)), "+0.00");
        assert_eq!(score_text(Score::Centi(-5)), "-0.05");
        assert_eq!(score_text(Score::Centi(-1230)), "-12.30");
        assert_eq!(score_text(Score::WinIn(7)), "win in 7");
        assert_eq!(score_text(Score::LossIn(6)), "loss in 6");
    }

    #[test]
    fn nodes_per_second() {
        assert_eq!(nps(1000, Duration::from_millis(500)), 2000);
        assert_eq!(nps(1000, Duration::ZERO), 0);
    }
}
