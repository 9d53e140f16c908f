//! `kharbaga solve`: prove the value of a position with the proof-number search, write the
//! proof, split the work into a frontier and combine the parts.

mod serve;
mod split;

use crate::analyze::nps;
use crate::args::{CliError, PositionArgs, RulesArgs, TablesDir};
use kharbaga::{Color, Position, Rules};
use kharbaga_solver::dfpn::{Limits, Progress};
use kharbaga_solver::proof_file::{save, side_path};
use kharbaga_solver::solve::{Solution, Solver, Verdict};
use kharbaga_solver::tt::Tt;
use kharbaga_solver::tt_file::{self, Keep, Loaded};
use kharbaga_tablebase::tablebase::Tablebase;
use std::fs::File;
use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Prove the value of a position: win, loss or draw for the side to move
///
/// Runs a depth-first proof-number search (df-pn) with a transposition table, the endgame
/// tables as leaves where they exist, and the rules' draws (a repetition is never a win; no
/// line of a win passes the no-progress limit). Prints the value with the winning move and
/// the search's figures; the last line, `result: POSITION VALUE [MOVE]`, is for scripts
/// (VALUE is win, loss, draw or unknown when a limit stopped the search first). Progress
/// (the root's proof and disproof numbers, nodes, table hits, speed, the transposition
/// table's size) goes to standard error: on one updated line on a terminal, else a line a
/// minute.
///
/// With --proof FILE the proof is written in the format of docs/proof-format.md (gzip when
/// FILE ends in .gz); a draw is written as two files, FILE with .black and .white before its
/// extensions, each the strategy of one side that holds the draw. `kharbaga verify-proof`
/// checks them.
#[derive(clap::Args, Debug)]
#[command(after_help = "\
Examples:
  kharbaga solve --position 'B:Bc3,e3:Wd6,f6'
  kharbaga solve --moves \"d4-e5 f6xd4 e3xc5\" --time 600 --hash 4096 --proof p.txt.gz
  kharbaga solve --position 'W:Wc5:Bd4,Ke1' --proof endgame.txt && kharbaga verify-proof endgame.txt")]
pub struct SolveArgs {
    #[command(flatten)]
    rules: RulesArgs,

    #[command(flatten)]
    position: PositionArgs,

    #[command(flatten)]
    tables: TablesDir,

    /// Transposition table size in MiB, at most: the table starts at 4 MiB and doubles
    /// instead of replacing an entry until it reaches this size
    #[arg(long, value_name = "MIB", default_value_t = 256,
          value_parser = clap::value_parser!(u32).range(1..=1_048_576))]
    hash: u32,

    /// Start with the transposition table saved in this file (when it exists) and save the
    /// table's solved entries with the most work there at the end (at most an eighth of
    /// --hash), so that the next solve starts with what this one proved: for related
    /// positions in turn, such as the parts of a frontier (made under the same rules; one
    /// solve at a time per file)
    #[arg(long, value_name = "FILE", conflicts_with_all = ["frontier", "combine"])]
    hash_file: Option<PathBuf>,

    /// Go on where a solve of this position stopped: start with the table saved in this
    /// file (when it exists; its open entries, the search's numbers, only if it was saved
    /// by a solve of this position), and save the table's entries with the most work there
    /// at the end, open ones included (at most an eighth of --hash), so that a solve run
    /// again with a larger limit does not start over (read after --hash-file)
    #[arg(long, value_name = "FILE", conflicts_with_all = ["frontier", "combine"])]
    resume: Option<PathBuf>,

    /// Give up after this many seconds, the writing of the proof included (a value the
    /// searches settled whose proof the limit cut off is reported unknown)
    #[arg(long, value_name = "SECONDS", value_parser = clap::value_parser!(u64).range(1..))]
    time: Option<u64>,

    /// Give up after this many nodes, those searched again to write the proof included
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    nodes: Option<u64>,

    /// Write the proof to this file (see docs/proof-format.md)
    #[arg(long, value_name = "FILE")]
    proof: Option<PathBuf>,

    /// Print the positions K plies below the position that are still open (not over, not
    /// in the tables), one per line after a `# frontier: ROOT plies K` header, instead of
    /// solving: each can be solved on its own and the results combined with --combine
    #[arg(long, value_name = "K", conflicts_with = "combine",
          value_parser = clap::value_parser!(u32).range(1..=64))]
    frontier: Option<u32>,

    /// Solve the requests read from standard input instead, one a line, with one table
    /// kept from each to the next (its solved entries carried over): for a driver that
    /// gives one process its parts in turn. A request is a solve's arguments separated by
    /// tabs (--position P [--moves M] [--time S] [--nodes N] [--proof FILE] [--resume
    /// FILE]); its answer is a solve's output, then a line `end`. A line `stop` stops the
    /// solve running. With --hash-file the table starts from the file and is saved there
    /// at the end of the input (and every half hour)
    #[arg(long, conflicts_with_all = ["frontier", "combine", "proof", "resume", "time", "nodes"])]
    serve: bool,

    /// Combine a frontier file (from --frontier), outputs of `kharbaga solve` on its
    /// positions and their proof files into the value of the frontier's root (and, with
    /// --proof, its proof), instead of solving. Open, it lists the positions still needed
    /// (`needed:` lines); decided, those its proof rests on (`leaf:` lines)
    #[arg(long, value_name = "FILES", num_args = 1..)]
    combine: Vec<PathBuf>,
}

/// How often a run whose standard error is not a terminal logs its progress.
const LOG_EVERY: Duration = Duration::from_secs(60);

/// Runs the command.
pub fn run(args: &SolveArgs) -> Result<(), CliError> {
    let rules = args.rules.rules()?;
    let game = args.position.game(rules)?;
    let pos = *game.position();
    let tables = args.tables.open(&rules)?;
    if let Some(plies) = args.frontier {
        let mut out = io::BufWriter::new(io::stdout().lock());
        split::print_frontier(&mut out, &pos, &rules, tables.as_deref(), plies)?;
        return Ok(out.flush()?);
    }
    if !args.combine.is_empty() {
        let mut out = io::stdout().lock();
        let proof = args.proof.as_deref();
        return split::combine(&mut out, &args.combine, &rules, tables.as_deref(), proof);
    }
    if args.serve {
        let file = args.hash_file.as_deref().map(|path| (path, pos));
        return serve::serve(rules, tables.as_deref(), args.hash as usize, file);
    }
    let mut tt = Tt::new(args.hash as usize);
    let job = Job {
        pos,
        limits: Limits {
            nodes: args.nodes,
            deadline: args.time.map(|s| Instant::now() + Duration::from_secs(s)),
            stop: None,
        },
        proof: args.proof.as_deref(),
        resume: args.resume.as_deref(),
    };
    let mut out = io::stdout().lock();
    job.announce(&mut out, &rules, tables.as_deref())?;
    if let Some(path) = &args.hash_file {
        let from = match load_table(&mut tt, &rules, &pos, "--hash-file", path)? {
            Some(got) => format!("an earlier solve's, {} entries", got.entries),
            None => "new".to_string(),
        };
        writeln!(out, "hash file: {} ({from})", path.display())?;
    }
    job.run(&mut out, &rules, tables.as_deref(), &mut tt)?;
    if let Some(path) = &args.hash_file {
        keep_table(&tt, &rules, &pos, Keep::Solved, path);
    }
    Ok(())
}

/// One solve: of `run`, or of a request of `--serve`.
struct Job<'a> {
    pos: Position,
    limits: Limits,
    proof: Option<&'a Path>,
    resume: Option<&'a Path>,
}

impl Job<'_> {
    /// Prints the first line of the solve's output: the position, the rules, the tables.
    fn announce(
        &self,
        out: &mut impl Write,
        rules: &Rules,
        tables: Option<&Tablebase>,
    ) -> io::Result<()> {
        let pos = &self.pos;
        writeln!(
            out,
            "solving {} ({} to move) under {rules}{}",
            pos.to_fen(),
            color_name(pos.turn()),
            match tables {
                Some(tb) => format!(", tables of {}", tb.extent()),
                None => String::new(),
            }
        )
    }

    /// Solves with `tt` (after the resume file's entries, when there is one) and prints
    /// the result, writes the proofs, and saves the resume file.
    fn run(
        &self,
        out: &mut impl Write,
        rules: &Rules,
        tables: Option<&Tablebase>,
        tt: &mut Tt,
    ) -> Result<(), CliError> {
        let pos = &self.pos;
        if let Some(path) = self.resume {
            let from = match load_table(tt, rules, pos, "--resume", path)? {
                Some(got) if got.open > 0 => format!(
                    "this position's earlier solve goes on: {} entries, {} of them open",
                    got.entries, got.open
                ),
                Some(got) => format!("{} solved entries", got.entries),
                None => "new".to_string(),
            };
            writeln!(out, "resume file: {} ({from})", path.display())?;
        }
        let solution = solve(pos, *rules, tables, self.limits, tt, self.proof.is_some())?;
        report(out, pos, &solution)?;
        if let Some(path) = self.proof {
            write_proofs(out, path, rules, &solution)?;
        }
        writeln!(out, "result: {}", result_line(pos, &solution.verdict))?;
        if let Some(path) = self.resume {
            keep_table(tt, rules, pos, Keep::All, path);
        }
        Ok(())
    }
}

/// Saves the table as [`save_table`] does; the result stands without it, so a table that
/// cannot be saved is only a warning.
fn keep_table(tt: &Tt, rules: &Rules, root: &Position, keep: Keep, path: &Path) {
    if let Err(e) = save_table(tt, rules, root, keep, path) {
        eprintln!("warning: the table was not saved: {}: {e}", path.display());
    }
}

/// Solves `pos`, showing progress on a terminal.
pub fn solve(
    pos: &Position,
    rules: Rules,
    tables: Option<&Tablebase>,
    limits: Limits,
    tt: &mut Tt,
    proofs: bool,
) -> Result<Solution, CliError> {
    let terminal = io::stderr().is_terminal();
    let start = Instant::now();
    let mut logged = Instant::now();
    let mut show = |p: &Progress| {
        let elapsed = start.elapsed();
        let line = format!(
            "{} wins?  pn {}  dn {}  nodes {}  tables {}  {} nodes/s  hash {} MiB",
            color_name(p.prover),
            p.root.0,
            p.root.1,
            p.stats.nodes,
            p.stats.table_hits,
            nps(p.stats.nodes, elapsed),
            p.table_mib
        );
        if terminal {
            eprint!("\r  {line}   ");
        } else if logged.elapsed() >= LOG_EVERY {
            // A long run in the background leaves a line a minute in its log.
            eprintln!("{:.0} s: {line}", elapsed.as_secs_f64());
            logged = Instant::now();
        }
    };
    let solver = Solver {
        rules,
        tables,
        limits,
        proofs,
    };
    let solution = solver
        .solve(pos, tt, &mut show)
        .map_err(|e| CliError::Input(e.to_string()))?;
    if terminal {
        eprintln!();
    }
    Ok(solution)
}

/// Reads the table saved in `path` (given with `flag`) into `tt` when the file exists (by a
/// solve of `root`, its open entries too): what it put there, `None` when there was no file.
fn load_table(
    tt: &mut Tt,
    rules: &Rules,
    root: &Position,
    flag: &str,
    path: &Path,
) -> Result<Option<Loaded>, CliError> {
    let file = match File::open(path) {
        Ok(file) => file,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(CliError::Input(format!("{}: {e}", path.display()))),
    };
    let mut input = io::BufReader::with_capacity(1 << 20, file);
    let read = tt_file::read(tt, rules, root, &mut input)
        .map_err(|e| CliError::Input(format!("{flag} {}: {e}", path.display())))?;
    Ok(Some(read))
}

/// Saves the entries of `tt` that `keep` names to `path`, for a solve of `root`, through a
/// temporary file beside it renamed at the end (a solve stopped while it writes leaves the
/// file before it whole).
fn save_table(tt: &Tt, rules: &Rules, root: &Position, keep: Keep, path: &Path) -> io::Result<()> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    let mut out = io::BufWriter::with_capacity(1 << 20, File::create(&tmp)?);
    tt_file::write(tt, rules, root, keep, &mut out)?;
    out.flush()?;
    drop(out);
    std::fs::rename(&tmp, path)
}

/// The `result:` line's fields: the position, the value and the winning move.
pub fn result_line(pos: &Position, verdict: &Verdict) -> String {
    match verdict {
        Verdict::Win(mv) => format!("{} win {mv}", pos.to_fen()),
        v => format!("{} {}", pos.to_fen(), v.name()),
    }
}

fn report(out: &mut impl Write, pos: &Position, s: &Solution) -> io::Result<()> {
    let mover = color_name(pos.turn());
    match &s.verdict {
        Verdict::Win(mv) => writeln!(out, "{mover} to move wins with {mv}")?,
        Verdict::Loss => writeln!(out, "{mover} to move loses")?,
        Verdict::Draw => writeln!(out, "a draw: neither side can force a win")?,
        Verdict::Unknown if s.cut => writeln!(
            out,
            "unknown: the searches settled the value, but the limit stopped the solver \
             while it confirmed the value or wrote its proof"
        )?,
        Verdict::Unknown => writeln!(out, "unknown: the search stopped at its limit")?,
    }
    for search in &s.searches {
        let outcome = if search.root.proven() {
            "proven".to_string()
        } else if search.root.disproven() {
            "disproven".to_string()
        } else {
            format!("open (pn {}, dn {})", search.root.pn, search.root.dn)
        };
        writeln!(
            out,
            "  {} wins? {outcome}: {} nodes, {} table hits, {} repetitions",
            color_name(search.prover),
            search.stats.nodes,
            search.stats.table_hits,
            search.stats.repetitions
        )?;
    }
    if s.cycles > 0 {
        writeln!(
            out,
            "  the proof walk met {} cycle{} of stored proofs justifying each other (carried \
             from the solves before): their entries dropped and searched again",
            s.cycles,
            if s.cycles == 1 { "" } else { "s" }
        )?;
    }
    if s.restarted {
        writeln!(
            out,
            "  the proof could not be written from the carried table (its proofs justify each \
             other in cycles): solved again from an empty table"
        )?;
    }
    if s.proof_nodes > 0 {
        writeln!(
            out,
            "  then {} nodes to confirm the value and write its proof",
            s.proof_nodes
        )?;
    }
    writeln!(
        out,
        "{} nodes in {:.2} s ({} nodes/s)",
        s.nodes(),
        s.elapsed.as_secs_f64(),
        nps(s.nodes(), s.elapsed)
    )
}

fn write_proofs(
    out: &mut impl Write,
    path: &std::path::Path,
    rules: &Rules,
    s: &Solution,
) -> Result<(), CliError> {
    if s.proofs.is_empty() {
        writeln!(out, "no proof written: nothing was proven")?;
        return Ok(());
    }
    let draw = s.proofs.len() > 1;
    for proof in &s.proofs {
        let file = if draw {
            side_path(path, proof.prover)
        } else {
            path.to_path_buf()
        };
        save(&file, rules, proof)?;
        writeln!(
            out,
            "proof: {} ({} lines, {} {} for {})",
            file.display(),
            proof.lines.len(),
            proof.claim.name(),
            if draw { "strategy" } else { "proof" },
            color_name(proof.prover)
        )?;
    }
    Ok(())
}

/// `Black` or `White`.
pub fn color_name(c: Color) -> &'static str {
    match c {
        Color::Black => "Black",
        Color::White => "White",
    }
}
