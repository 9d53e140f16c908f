//! `kharbaga tablebase generate`.

use super::tables_dir;
use crate::args::{CliError, RulesArgs};
use kharbaga_tablebase::build::{build, BuildOptions, PairReport, Progress};
use kharbaga_tablebase::gen::Phase;
use kharbaga_tablebase::slice::SliceId;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Build the tables of every position of up to N pieces
///
/// Slices are built in dependency order; a slice whose file exists and reads back cleanly
/// is not built again, so an interrupted run goes on where it stopped. One line per slice
/// pair on standard output; a progress bar with the expected time left on standard error
/// when it is a terminal.
#[derive(clap::Args, Debug)]
#[command(after_help = "\
Examples:
  kharbaga tablebase generate --pieces 4
  kharbaga tablebase generate --rules sideways --pieces 4 --dir /tmp/tables
  kharbaga tablebase generate --slice 2m1k-1m1k --dir /shared/tables   (one pair, for a cluster)")]
pub struct GenerateArgs {
    #[command(flatten)]
    rules: RulesArgs,

    /// Every slice of at most this many pieces
    #[arg(long, value_name = "N", default_value_t = 4,
          value_parser = clap::value_parser!(u32).range(2..=8))]
    pieces: u32,

    /// Only this slice and its pair (NAME like 2m1k-0m1k: the mover's men and Mullahs, then
    /// the opponent's); the slices it depends on must be built already
    #[arg(long, value_name = "NAME")]
    slice: Option<SliceId>,

    /// The directory of the table files (default: ~/.local/share/kharbaga/tables/RULES)
    #[arg(long, value_name = "DIR")]
    dir: Option<PathBuf>,

    /// Worker threads (default: one per core)
    #[arg(long, value_name = "N", default_value_t = 0)]
    threads: usize,

    /// The most memory the tables in memory may take, in MiB (default: no limit)
    #[arg(long, value_name = "MIB")]
    memory: Option<u64>,
}

/// Runs the command.
pub fn run(args: &GenerateArgs) -> Result<(), CliError> {
    let rules = args.rules.rules()?;
    let dir = tables_dir(args.dir.as_ref(), &rules)?;
    let opts = BuildOptions {
        rules,
        max_pieces: args.pieces,
        slice: args.slice,
        dir: dir.clone(),
        threads: args.threads,
        memory_budget: args.memory.map(|m| m << 20),
    };
    let terminal = std::io::stderr().is_terminal();
    let last_draw = Mutex::new(Instant::now() - Duration::from_secs(1));
    let progress = |p: &Progress| {
        if !terminal {
            return;
        }
        let mut last = last_draw.lock().expect("no panic holds the lock");
        if last.elapsed() < Duration::from_millis(200) {
            return;
        }
        *last = Instant::now();
        eprint!("\r{}\x1b[K", bar(p));
    };
    let start = Instant::now();
    let mut out = std::io::stdout().lock();
    let mut total_bytes = 0;
    let mut built = 0;
    let mut failure: Option<std::io::Error> = None;
    let mut done = |r: &PairReport| {
        if terminal {
            eprint!("\r\x1b[K");
        }
        total_bytes += r.file_bytes;
        built += usize::from(r.built);
        if let Err(e) = writeln!(out, "{}", report_line(r)) {
            failure.get_or_insert(e);
        }
    };
    let result = build(&opts, &progress, &mut done);
    if let Some(e) = failure {
        return Err(e.into());
    }
    let reports = result.map_err(|e| CliError::Input(e.to_string()))?;
    writeln!(
        std::io::stdout(),
        "{} slice pairs ({} built now) in {}, {:.1} MiB of files in {}",
        reports.len(),
        built,
        human(start.elapsed()),
        total_bytes as f64 / 1048576.0,
        dir.display()
    )?;
    Ok(())
}

fn report_line(r: &PairReport) -> String {
    if !r.built {
        return format!("{}: already built ({} places)", r.pair, r.places);
    }
    let stats: Vec<String> = r
        .stats
        .iter()
        .map(|(s, st)| {
            format!(
                "{s} {}W/{}D/{}L longest win {}, loss {}",
                st.wins, st.draws, st.losses, st.longest_win, st.longest_loss
            )
        })
        .collect();
    format!(
        "{}: {} places in {:.2}s, {} KiB; {}",
        r.pair,
        r.places,
        r.elapsed.as_secs_f64(),
        r.file_bytes / 1024,
        stats.join("; ")
    )
}

/// A one-line progress bar: share done, the pair and its pass, time spent and left.
fn bar(p: &Progress) -> String {
    const WIDTH: usize = 30;
    let share = if p.total == 0 {
        1.0
    } else {
        p.done as f64 / p.total as f64
    };
    let filled = ((share * WIDTH as f64) as usize).min(WIDTH);
    let phase = match p.phase {
        Phase::Seed => "seed".to_string(),
        Phase::Iterate(n) => format!("ply {n}"),
    };
    let left = p.remaining().map_or("?".to_string(), human);
    format!(
        "[{}{}] {:5.1}% {} {phase}, {} spent, about {left} left",
        "#".repeat(filled),
        " ".repeat(WIDTH - filled),
        share * 100.0,
        p.pair,
        human(p.elapsed)
    )
}

fn human(d: Duration) -> String {
    let s = d.as_secs();
    if s >= 3600 {
        format!("{}h{:02}m", s / 3600, (s / 60) % 60)
    } else if s >= 60 {
        format!("{}m{:02}s", s / 60, s % 60)
    } else {
        format!("{:.1}s", d.as_secs_f64())
    }
}
