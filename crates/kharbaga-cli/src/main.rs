//! The `kharbaga` command: play a game at the terminal (against a person or the engine),
//! analyse positions, run the engine behind a line protocol, play engine matches, run the
//! benchmark, serve the browser page, list legal moves and count the move tree (perft). Each command lives in its
//! own module as a thin layer over the `kharbaga` and `kharbaga-engine` libraries.

mod analyze;
mod args;
mod batch;
mod bench;
mod board_view;
mod book;
mod elo;
mod hub;
mod match_cmd;
mod moves;
mod perft;
mod play;
mod serve;
mod solve;
mod tablebase;
mod verify_proof;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// Kharbaga, the North-African game of the Zamma family: play, analyse, engine matches,
/// moves and perft.
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
    Analyze(analyze::AnalyzeArgs),
    Engine(hub::HubArgs),
    Match(Box<match_cmd::MatchArgs>),
    Bench(bench::BenchArgs),
    Book(book::BookArgs),
    Serve(serve::ServeArgs),
    Tablebase(tablebase::TablebaseArgs),
    Solve(Box<solve::SolveArgs>),
    VerifyProof(verify_proof::VerifyProofArgs),
}

fn main() -> ExitCode {
    let result = match Cli::parse().command {
        Command::Moves(args) => moves::run(&args),
        Command::Perft(args) => perft::run(&args),
        Command::Play(args) => play::run(&args),
        Command::Analyze(args) => analyze::run(&args),
        Command::Engine(args) => hub::run(&args),
        Command::Match(args) => match_cmd::run(&args),
        Command::Bench(args) => bench::run(&args),
        Command::Book(args) => book::run(&args),
        Command::Serve(args) => serve::run(&args),
        Command::Tablebase(args) => tablebase::run(&args),
        Command::Solve(args) => solve::run(&args),
        // Its own exit status: 1 when the proof does not hold.
        Command::VerifyProof(args) => return verify_proof::run(&args),
    };
    args::exit_status(result)
}
