//! The `kharbaga` command: list legal moves, count the move tree (perft), and play a game at
//! the terminal. Each command lives in its own module as a thin layer over the `kharbaga`
//! library.

mod args;
mod board_view;
mod moves;
mod perft;
mod play;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// Kharbaga, the North-African game of the Zamma family: moves, perft and play.
///
/// Exit status: 0 on success, 2 for bad input (with the reason on standard error).
#[derive(Parser)]
#[command(name = "kharbaga", version)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    Moves(moves::MovesArgs),
    Perft(perft::PerftArgs),
    Play(play::PlayArgs),
}

fn main() -> ExitCode {
    let result = match Cli::parse().command {
        Command::Moves(args) => moves::run(&args),
        Command::Perft(args) => perft::run(&args),
        Command::Play(args) => play::run(&args),
    };
    args::exit_status(result)
}
