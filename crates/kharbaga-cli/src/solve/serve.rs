//! `kharbaga solve --serve`: one process solving the requests it reads, one after the
//! other, with one transposition table kept from each to the next.
//!
//! A driver that gives a worker its parts in turn (cluster/solve.py's `--keep-solvers`)
//! keeps one such process a slot: a part starts with every solved entry of the parts
//! before it (not the most-worked eighth a `--hash-file` carries), and no file is read or
//! written between parts.
//!
//! A request is one line: the arguments of a solve, separated by tabs (`--position P
//! [--moves M] [--time S] [--nodes N] [--proof FILE] [--resume FILE]`). Its answer is what
//! `kharbaga solve` prints, then a line `end`; a request that cannot be read is answered by
//! a line `error: ...` and `end`, and the process goes on. A line `stop` stops the solve
//! running (it ends at once with the value unknown). At the end of the input, or once the
//! process that started it has ended (the solve running stopped), the process saves its
//! table to `--hash-file` (when given; also after a request when the last save is half an
//! hour old) and exits.

use super::{keep_table, load_table, Job};
use crate::args::{CliError, PositionArgs};
use kharbaga::{Position, Rules};
use kharbaga_solver::dfpn::Limits;
use kharbaga_solver::tt::Tt;
use kharbaga_solver::tt_file::Keep;
use kharbaga_tablebase::tablebase::Tablebase;
use std::io::{self, BufRead, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Set by a `stop` line, cleared by the next request: the running solve's stop flag.
static STOP: AtomicBool = AtomicBool::new(false);

/// How often the table is saved to `--hash-file` between requests, at most.
const SAVE_EVERY: Duration = Duration::from_secs(30 * 60);

/// One request: the arguments of a solve.
#[derive(clap::Parser, Debug)]
#[command(name = "request", no_binary_name = true, disable_help_flag = true)]
struct Request {
    #[command(flatten)]
    position: PositionArgs,

    /// Give up after this many seconds
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    time: Option<u64>,

    /// Give up after this many nodes
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    nodes: Option<u64>,

    /// Write the proof to this file
    #[arg(long)]
    proof: Option<PathBuf>,

    /// Go on from (and save) this position's own table
    #[arg(long)]
    resume: Option<PathBuf>,
}

/// The table kept between requests and where it is saved.
struct Server<'a> {
    rules: Rules,
    tables: Option<&'a Tablebase>,
    tt: Tt,
    /// `--hash-file` and the root its entries are saved for (its entries are all solved).
    file: Option<(&'a Path, Position)>,
    saved: Instant,
}

/// Serves the requests of standard input (see the module documentation) with a table of
/// `hash` MiB, started from `hash_file` when it exists.
pub fn serve(
    rules: Rules,
    tables: Option<&Tablebase>,
    hash: usize,
    hash_file: Option<(&Path, Position)>,
) -> Result<(), CliError> {
    let mut tt = Tt::new(hash);
    if let Some((path, root)) = &hash_file {
        load_table(&mut tt, &rules, root, "--hash-file", path)?;
    }
    let mut server = Server {
        rules,
        tables,
        tt,
        file: hash_file,
        saved: Instant::now(),
    };
    // The input is read by a thread of its own, so that a `stop` line is seen while a
    // solve runs.
    let (requests, received) = mpsc::channel();
    let orphaned = requests.clone();
    std::thread::spawn(move || {
        for line in io::stdin().lock().lines() {
            let Ok(line) = line else { break };
            if line.trim() == "stop" {
                STOP.store(true, Ordering::Relaxed);
            } else {
                // A stop sent for the request before, after it ended, must not stop this one.
                STOP.store(false, Ordering::Relaxed);
                if requests.send(Some(line)).is_err() {
                    break;
                }
            }
        }
        let _ = requests.send(None); // the end of the input
    });
    #[cfg(unix)]
    std::thread::spawn(move || {
        // A process whose parent has ended (a driver killed) has no one to answer: the
        // solve running stops, and the process saves its table and ends.
        let parent = std::os::unix::process::parent_id();
        while std::os::unix::process::parent_id() == parent {
            std::thread::sleep(Duration::from_secs(1));
        }
        STOP.store(true, Ordering::Relaxed);
        let _ = orphaned.send(None);
    });
    #[cfg(not(unix))]
    drop(orphaned);
    let mut out = io::stdout().lock();
    for line in received.iter().map_while(|line| line) {
        if line.trim().is_empty() {
            continue;
        }
        if server.respond(&mut out, &line).is_err() {
            break; // no one reads the answers any more
        }
        server.save(false);
    }
    server.save(true);
    Ok(())
}

impl Server<'_> {
    /// Answers the request `line` ([`Server::answer`], or the error that refuses it),
    /// then `end`.
    fn respond(&mut self, out: &mut impl Write, line: &str) -> io::Result<()> {
        if let Err(e) = self.answer(out, line) {
            writeln!(out, "error: {}", e.to_string().replace('\n', " "))?;
        }
        writeln!(out, "end")?;
        out.flush()
    }

    /// Solves the request `line`, with the solved entries of the requests before carried
    /// over in the table, printing what `kharbaga solve` prints.
    fn answer(&mut self, out: &mut impl Write, line: &str) -> Result<(), CliError> {
        let request = <Request as clap::Parser>::try_parse_from(line.split('\t')).map_err(|e| {
            // Clap's first line says what is wrong (the rest is usage for a terminal).
            let text = e.to_string();
            let first = text.lines().next().unwrap_or_default();
            CliError::Input(first.trim_start_matches("error: ").to_string())
        })?;
        let game = request.position.game(self.rules)?;
        let job = Job {
            pos: *game.position(),
            limits: Limits {
                nodes: request.nodes,
                deadline: request
                    .time
                    .map(|s| Instant::now() + Duration::from_secs(s)),
                stop: Some(&STOP),
            },
            proof: request.proof.as_deref(),
            resume: request.resume.as_deref(),
        };
        job.announce(out, &self.rules, self.tables)?;
        let carried = self.tt.carry_over();
        writeln!(
            out,
            "table: {carried} solved entries from the solves before"
        )?;
        job.run(out, &self.rules, self.tables, &mut self.tt)
    }

    /// Saves the table to the hash file, when there is one: `at_end`, or when the last
    /// save is [`SAVE_EVERY`] old.
    fn save(&mut self, at_end: bool) {
        if let Some((path, root)) = &self.file {
            if at_end || self.saved.elapsed() >= SAVE_EVERY {
                keep_table(&self.tt, &self.rules, root, Keep::Solved, path);
                self.saved = Instant::now();
            }
        }
    }
}
