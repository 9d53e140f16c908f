//! Analyses one position and prints the engine's iterations.
//!
//! `cargo run --release -p kharbaga-engine --example analyze -- [FEN|start] [DEPTH] [RULES] [THREADS] [MULTIPV]`

use kharbaga::{Game, Position, Rules};
use kharbaga_engine::{Engine, Limits, Options};
use std::sync::atomic::AtomicBool;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let fen = args.first().map_or("start", String::as_str);
    let pos = if fen == "start" {
        Position::start()
    } else {
        Position::from_fen(fen).unwrap_or_else(|e| panic!("bad position: {e}"))
    };
    let depth: u32 = args.get(1).map_or(12, |d| d.parse().expect("depth"));
    let rules: Rules = args
        .get(2)
        .map_or(Ok(Rules::standard()), |r| r.parse())
        .unwrap_or_else(|e| panic!("{e}"));
    let threads: usize = args.get(3).map_or(1, |t| t.parse().expect("threads"));
    let multipv: usize = args.get(4).map_or(1, |t| t.parse().expect("multipv"));
    let mut engine = Engine::new(Options {
        threads,
        ..Options::default()
    });
    let game = Game::from_position(rules, pos);
    let limits = Limits {
        depth: Some(depth),
        multipv,
        ..Limits::default()
    };
    let stop = AtomicBool::new(false);
    let report = engine.search(&game, &limits, &stop, &mut |info| {
        let pv: Vec<String> = info.pv.iter().map(|m| m.to_string()).collect();
        println!(
            "depth {} seldepth {} multipv {} score {} nodes {} time {} ms nps {} pv {}",
            info.depth,
            info.seldepth,
            info.multipv,
            info.score,
            info.nodes,
            info.time.as_millis(),
            (info.nodes as f64 / info.time.as_secs_f64().max(1e-6)) as u64,
            pv.join(" ")
        );
    });
    println!(
        "best {} score {} depth {} nodes {} time {} ms",
        report.best.map_or("none".into(), |m| m.to_string()),
        report.score,
        report.depth,
        report.nodes,
        report.time.as_millis()
    );
}
