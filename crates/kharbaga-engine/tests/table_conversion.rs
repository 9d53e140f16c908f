//! With the endgame tables the engine converts won table positions against itself without
//! tables, within the no-progress limit (an `--ignored` run over a table directory).
//!
//! `KHARBAGA_TABLES=DIR cargo test --release -p kharbaga-engine --test table_conversion --
//! --ignored --nocapture`, with `KHARBAGA_PIECES` (default 5: the slices of this many
//! pieces), `KHARBAGA_SAMPLES` (default 200) and `KHARBAGA_MOVETIME` (the defender's
//! milliseconds a move, default 100) and `KHARBAGA_MIN_DISTANCE` (the shortest win sampled,
//! default 3 plies).

use kharbaga::{Game, Rules};
use kharbaga_engine::selfplay::{play_game, End, EnginePlayer};
use kharbaga_engine::{Limits, Options};
use kharbaga_tablebase::bench::{random_positions, Rng};
use kharbaga_tablebase::tablebase::Tablebase;
use kharbaga_tablebase::value::Value;
use std::sync::Arc;
use std::time::Duration;

#[test]
#[ignore]
fn the_engine_with_tables_converts_won_positions() {
    let env = |k: &str| std::env::var(k).ok();
    let dir = env("KHARBAGA_TABLES").expect("KHARBAGA_TABLES: a table directory");
    let pieces: u32 = env("KHARBAGA_PIECES").map_or(5, |s| s.parse().unwrap());
    let samples: usize = env("KHARBAGA_SAMPLES").map_or(200, |s| s.parse().unwrap());
    let movetime: u64 = env("KHARBAGA_MOVETIME").map_or(100, |s| s.parse().unwrap());
    let shortest: u16 = env("KHARBAGA_MIN_DISTANCE").map_or(3, |s| s.parse().unwrap());
    let rules = Rules::standard();
    let tb = Arc::new(Tablebase::open(std::path::Path::new(&dir), rules).unwrap());
    let slices: Vec<_> = tb
        .slices()
        .into_iter()
        .filter(|s| s.pieces() == pieces)
        .collect();
    assert!(!slices.is_empty(), "no {pieces}-piece tables in {dir}");
    // Won positions that are not over at once (a win in 1 converts itself).
    let mut rng = Rng::new(2026);
    let mut won = Vec::new();
    while won.len() < samples {
        for pos in random_positions(&slices, 1000, &mut rng) {
            if let Ok(Value::Win(d)) = tb.probe(&pos) {
                if d >= shortest && won.len() < samples {
                    won.push((pos, d));
                }
            }
        }
    }
    let limits = Limits {
        movetime: Some(Duration::from_millis(movetime)),
        ..Limits::default()
    };
    let with = Options {
        hash_mib: 16,
        tables: Some(tb.clone()),
        ..Options::default()
    };
    let without = Options {
        hash_mib: 16,
        ..Options::default()
    };
    let mut converted = 0;
    let mut plies = 0;
    let mut failures = Vec::new();
    for (pos, d) in &won {
        let mover = pos.turn();
        let mut winner = EnginePlayer::new(with.clone(), limits.clone());
        let mut loser = EnginePlayer::new(without.clone(), limits.clone());
        let players: [&mut dyn kharbaga_engine::selfplay::Player; 2] =
            if mover == kharbaga::Color::Black {
                [&mut winner, &mut loser]
            } else {
                [&mut loser, &mut winner]
            };
        let (game, end) = play_game(
            &Game::from_position(rules, *pos),
            players,
            None,
            &mut |_, _| {},
        );
        match end {
            End::Rules(o) if o.winner == Some(mover) => {
                converted += 1;
                plies += game.moves().len();
                assert!(
                    game.moves().len() <= usize::from(*d),
                    "{}: won in {} plies, the tables say {d}",
                    pos.to_fen(),
                    game.moves().len()
                );
            }
            other => failures.push(format!("{} (win in {d}): {other:?}", pos.to_fen())),
        }
    }
    println!(
        "{converted} of {} won {pieces}-piece positions converted by the engine with tables against itself without them ({} ms a move), {:.1} plies a game on average",
        won.len(),
        movetime,
        plies as f64 / converted.max(1) as f64
    );
    assert!(
        failures.is_empty(),
        "not converted:\n{}",
        failures.join("\n")
    );
}
