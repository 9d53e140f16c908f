//! Plays a match between two players from balanced openings, each opening with both
//! colours, and prints the score from the first player's view.
//!
//! ```text
//! cargo run --release -p kharbaga-engine --example match -- \
//!     --first engine:movetime=100 --second greedy [--rules standard] [--plies 6] \
//!     [--margin 150] [--rounds 1] [--workers 2] [--max-plies 400] [--verbose]
//! ```
//!
//! Player specifications are those of `kharbaga_engine::selfplay::player_from_spec`.
//! `--rounds N` repeats the opening set N times (useful with randomized players).

use kharbaga::Rules;
use kharbaga_engine::selfplay::{balanced_openings, player_from_spec, run_match, Player};
use std::time::Instant;

fn main() {
    let mut first = "engine".to_string();
    let mut second = "greedy".to_string();
    let mut rules = Rules::standard();
    let mut plies = 6;
    let mut margin = 150;
    let mut rounds = 1;
    let mut workers = 2;
    let mut max_plies = 400;
    let mut verbose = false;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = || args.next().unwrap_or_else(|| panic!("{arg} needs a value"));
        match arg.as_str() {
            "--first" => first = value(),
            "--second" => second = value(),
            "--rules" => rules = value().parse().unwrap_or_else(|e| panic!("{e}")),
            "--plies" => plies = value().parse().expect("--plies N"),
            "--margin" => margin = value().parse().expect("--margin CENTI"),
            "--rounds" => rounds = value().parse().expect("--rounds N"),
            "--workers" => workers = value().parse().expect("--workers N"),
            "--max-plies" => max_plies = value().parse().expect("--max-plies N"),
            "--verbose" => verbose = true,
            other => panic!("unknown argument {other}"),
        }
    }
    for spec in [&first, &second] {
        if let Err(e) = player_from_spec(spec) {
            panic!("{spec}: {e}");
        }
    }
    let base = balanced_openings(&rules, plies, margin);
    let openings: Vec<_> = (0..rounds).flat_map(|_| base.iter().cloned()).collect();
    println!(
        "{first} vs {second}: {} openings x {rounds} rounds x 2 colours, rules {rules}",
        base.len()
    );
    let make = |spec: &str| -> Box<dyn Player> { player_from_spec(spec).expect("checked") };
    let started = Instant::now();
    let score = run_match(
        &openings,
        &|| make(&first),
        &|| make(&second),
        max_plies,
        workers,
        &mut |g, s| {
            if verbose {
                let result = match g.result.winner {
                    Some(c) => format!("{c} wins"),
                    None if g.result.capped => "draw (ply cap)".into(),
                    None => "draw".into(),
                };
                println!(
                    "opening {} first={} {} in {} plies; score {s}",
                    g.opening,
                    if g.first_is_black { "Black" } else { "White" },
                    result,
                    g.result.game.moves().len()
                );
            }
        },
    );
    println!("{score}  [{:.0} s]", started.elapsed().as_secs_f64());
}
