//! `kharbaga book`: build the opening book, or show a position's book moves.

use crate::args::{CliError, PositionArgs};
use kharbaga::Rules;
use kharbaga_engine::book::{self, Book};
use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;

/// The opening book (standard rules): build it, or show a position's book moves
#[derive(clap::Args, Debug)]
pub struct BookArgs {
    #[command(subcommand)]
    command: BookCommand,
}

#[derive(clap::Subcommand, Debug)]
enum BookCommand {
    /// Build a book: every position up to --plies choices from the start, every move
    /// scored by a search of the position it leads to
    ///
    /// One thread and a fixed order, so the same arguments build the same book. The book
    /// built into the program is `crates/kharbaga-engine/data/book-standard.txt`, built
    /// with the defaults.
    Build {
        /// Positions reached with fewer than this many choices (forced moves do not count)
        #[arg(long, value_name = "N", default_value_t = 6,
              value_parser = clap::value_parser!(u32).range(1..=12))]
        plies: u32,
        /// The search depth behind each move
        #[arg(long, value_name = "D", default_value_t = 14,
              value_parser = clap::value_parser!(u32).range(1..=40))]
        depth: u32,
        /// Write the book here (default: standard output)
        #[arg(long, value_name = "FILE")]
        out: Option<PathBuf>,
    },
    /// Show the book moves of a position, best first, or say it is not in the book
    Show {
        #[command(flatten)]
        position: PositionArgs,
    },
}

/// Runs the command.
pub fn run(args: &BookArgs) -> Result<(), CliError> {
    match &args.command {
        BookCommand::Build { plies, depth, out } => build(*plies, *depth, out.as_ref()),
        BookCommand::Show { position } => show(position),
    }
}

fn build(plies: u32, depth: u32, out: Option<&PathBuf>) -> Result<(), CliError> {
    let rules = Rules::standard();
    let positions = book::book_positions(rules, plies).len();
    let mut err = io::stderr();
    let live = err.is_terminal();
    writeln!(err, "{positions} positions, searched {depth} plies deep")?;
    let started = std::time::Instant::now();
    let mut last_line = started;
    let book = book::build(rules, plies, depth, &mut |done, total| {
        let now = std::time::Instant::now();
        if live || now.duration_since(last_line).as_secs() >= 60 || done == total {
            last_line = now;
            let elapsed = started.elapsed().as_secs_f64();
            let left = elapsed / done as f64 * (total - done) as f64;
            let end = if live { '\r' } else { '\n' };
            let _ = write!(
                err,
                "{done}/{total} moves searched, {elapsed:.0} s, about {left:.0} s left{end}"
            );
        }
    });
    if live {
        writeln!(err)?;
    }
    let text = book.to_text();
    match out {
        Some(path) => std::fs::write(path, text)
            .map_err(|e| CliError::Input(format!("{}: {e}", path.display())))?,
        None => io::stdout().lock().write_all(text.as_bytes())?,
    }
    Ok(())
}

fn show(position: &PositionArgs) -> Result<(), CliError> {
    let book = Book::standard();
    let game = position.game(*book.rules())?;
    let mut out = io::stdout().lock();
    match book.moves(game.rules(), game.position()) {
        Some(moves) => {
            for m in moves {
                writeln!(out, "{} {} depth {}", m.mv, m.score, m.depth)?;
            }
        }
        None => writeln!(out, "not in the book")?,
    }
    Ok(())
}
