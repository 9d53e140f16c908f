//! Positions from engine games for the solver's test suite: `cargo run --release -p
//! kharbaga-solver --example game_positions -- GAMES SEED` plays GAMES engine games (depth 6
//! a move) from random 6-ply openings under `standard` and prints, for each game, the first
//! position with each number of pieces from 14 down to 8, as `PIECES POSITION`.

use kharbaga::Rules;
use kharbaga_engine::selfplay::{play_game, random_openings, EnginePlayer};
use kharbaga_engine::{Limits, Options};

fn main() {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("GAMES SEED"))
        .collect();
    let (games, seed) = (
        args.first().copied().unwrap_or(10),
        args.get(1).copied().unwrap_or(1),
    );
    let rules = Rules::standard();
    let limits = Limits {
        depth: Some(6),
        ..Limits::default()
    };
    let options = Options {
        hash_mib: 16,
        ..Options::default()
    };
    let mut black = EnginePlayer::new(options.clone(), limits.clone());
    let mut white = EnginePlayer::new(options, limits);
    for opening in random_openings(&rules, 6, games as usize, seed) {
        let (game, _) = play_game(
            &opening,
            [&mut black, &mut white],
            Some(300),
            &mut |_, _| {},
        );
        let mut last = 41;
        for pos in game.positions() {
            let n = pos.occupied().count();
            if n < last && (8..=14).contains(&n) {
                println!("{n} {}", pos.to_fen());
                last = n;
            }
        }
    }
}
