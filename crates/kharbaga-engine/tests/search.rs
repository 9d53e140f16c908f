//! Search behaviour: legal moves under every rule set, win distances, determinism, the stop
//! flag, limits and draws by repetition.

use kharbaga::{Game, Position, Rules};
use kharbaga_engine::rng::Rng;
use kharbaga_engine::{Engine, Limits, Options, Score};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

fn engine() -> Engine {
    Engine::new(Options {
        hash_mib: 4,
        ..Options::default()
    })
}

fn depth(d: u32) -> Limits {
    Limits {
        depth: Some(d),
        ..Limits::default()
    }
}

fn search(engine: &mut Engine, game: &Game, limits: &Limits) -> kharbaga_engine::Report {
    let stop = AtomicBool::new(false);
    engine.search(game, limits, &stop, &mut |_| {})
}

#[test]
fn a_legal_move_in_random_games_under_every_rule_set() {
    let sets = [
        "standard",
        "sideways",
        "ludii",
        "dagaz",
        "standard,removal=immediate",
    ];
    let mut rng = Rng::new(11);
    for name in sets {
        let rules: Rules = name.parse().unwrap();
        let mut engine = engine();
        for _ in 0..2 {
            let mut game = Game::new(rules);
            for ply in 0..120 {
                let legal = game.legal_moves();
                if ply % 9 == 0 {
                    let report = search(&mut engine, &game, &depth(3));
                    match report.best {
                        Some(m) => assert!(
                            legal.contains(&m),
                            "{name}: {m} is not legal in {}",
                            game.position().to_fen()
                        ),
                        None => assert!(legal.is_empty(), "{name}: no move returned"),
                    }
                }
                if legal.is_empty() {
                    break;
                }
                game.play(&legal[rng.below(legal.len())]).unwrap();
            }
        }
    }
}

#[test]
fn one_move_wins_at_once() {
    // Black's capture takes White's last piece: White has no piece and so no move.
    let game = Game::from_position(
        Rules::standard(),
        Position::from_fen("B:Bc3,a1:Wd4").unwrap(),
    );
    let report = search(&mut engine(), &game, &depth(4));
    assert_eq!(report.best.unwrap().to_string(), "c3xe5");
    assert_eq!(report.score, Score::WinIn(1));
}

#[test]
fn a_side_without_moves_has_lost() {
    // The rules page's example: the Black man on a7 is blocked, Black has no move.
    let game = Game::from_position(
        Rules::standard(),
        Position::from_fen("B:Ba7:Wa9,b8,c9").unwrap(),
    );
    let report = search(&mut engine(), &game, &depth(4));
    assert_eq!(report.best, None);
    assert_eq!(report.score, Score::LossIn(0));
}

#[test]
fn fixed_depth_is_deterministic() {
    let mut game = Game::new(Rules::standard());
    for m in ["d4-e5", "f6xd4", "c3xe5"] {
        game.play_str(m).unwrap();
    }
    let a = search(&mut engine(), &game, &depth(9));
    let b = search(&mut engine(), &game, &depth(9));
    assert_eq!((a.best, a.nodes, a.score), (b.best, b.nodes, b.score));
    assert_eq!(a.depth, 9);
    assert!(a.nodes > 1000);
}

#[test]
fn node_limit_is_honoured() {
    let game = Game::new(Rules::standard());
    let limits = Limits {
        nodes: Some(5000),
        ..Limits::default()
    };
    let report = search(&mut engine(), &game, &limits);
    assert!(report.best.is_some());
    // Checked every 64 nodes.
    assert!(report.nodes <= 5000 + 64, "{}", report.nodes);
}

#[test]
fn stop_is_honoured_promptly_and_a_move_is_returned() {
    let game = Game::new(Rules::standard());
    let stop = AtomicBool::new(true);
    let mut engine = engine();
    let report = engine.search(&game, &Limits::default(), &stop, &mut |_| {});
    assert!(game.legal_moves().contains(&report.best.unwrap()));

    let stop = AtomicBool::new(false);
    let started = Instant::now();
    std::thread::scope(|s| {
        s.spawn(|| {
            std::thread::sleep(Duration::from_millis(200));
            stop.store(true, Ordering::Relaxed);
        });
        let report = engine.search(&game, &Limits::default(), &stop, &mut |_| {});
        assert!(game.legal_moves().contains(&report.best.unwrap()));
    });
    // An unlimited search ended by the flag (generous bound for slow debug builds).
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "{:?}",
        started.elapsed()
    );
}

#[test]
fn multipv_reports_distinct_lines() {
    let game = Game::new(Rules::standard());
    let limits = Limits {
        depth: Some(4),
        multipv: 3,
        ..Limits::default()
    };
    let stop = AtomicBool::new(false);
    let mut last = Vec::new();
    search_with_infos(&game, &limits, &stop, &mut last);
    // The start has exactly three moves: e3-e5, d4-e5, f4-e5, one line each.
    let mut firsts: Vec<String> = last.iter().map(|i| i.pv[0].to_string()).collect();
    firsts.sort();
    assert_eq!(firsts, ["d4-e5", "e3-e5", "f4-e5"]);
    assert!(last
        .windows(2)
        .all(|w| w[0].score.ordinal() >= w[1].score.ordinal()));
}

fn search_with_infos(
    game: &Game,
    limits: &Limits,
    stop: &AtomicBool,
    last: &mut Vec<kharbaga_engine::Info>,
) {
    engine().search(game, limits, stop, &mut |info| {
        if info.multipv == 1 {
            last.clear();
        }
        last.push(info.clone());
    });
}

#[test]
fn repetition_draw_is_recognized() {
    // Black: Mullah a1 and men c1, e1, g1; White: a lone Mullah on i9. Both Mullahs go
    // back and forth twice, so the position after White's i7-i9 has occurred twice and
    // playing it again is the third occurrence: a draw. White, three men down, takes it.
    let start = Position::from_fen("B:BKa1,c1,e1,g1:WKi9").unwrap();
    let mut game = Game::from_position(Rules::standard(), start);
    for m in [
        "a1-a3", "i9-i7", "a3-a1", "i7-i9", "a1-a3", "i9-i7", "a3-a1",
    ] {
        game.play_str(m).unwrap();
    }
    let report = search(&mut engine(), &game, &depth(6));
    assert_eq!(report.best.unwrap().to_string(), "i7-i9");
    assert_eq!(report.score, Score::Centi(0));
    // Without that history the same position is bad for White.
    let fresh = Game::from_position(Rules::standard(), *game.position());
    match search(&mut engine(), &fresh, &depth(6)).score {
        Score::Centi(c) => assert!(c < -100, "{c}"),
        s => assert!(matches!(s, Score::LossIn(_)), "{s:?}"),
    }
}

#[test]
fn finished_games_return_no_move() {
    let start = Position::from_fen("B:BKa1,c1,e1,g1:WKi9").unwrap();
    let mut game = Game::from_position(Rules::standard(), start);
    for m in [
        "a1-a3", "i9-i7", "a3-a1", "i7-i9", "a1-a3", "i9-i7", "a3-a1", "i7-i9",
    ] {
        game.play_str(m).unwrap();
    }
    assert!(game.outcome().is_some());
    let report = search(&mut engine(), &game, &depth(3));
    assert_eq!((report.best, report.score), (None, Score::Centi(0)));
}

#[test]
fn helper_threads_share_the_work_and_agree_on_a_forced_win() {
    // The composed win of tests/composed.rs (a7-a9 wins in 3) found with two threads.
    let game = Game::from_position(
        Rules::standard(),
        Position::from_fen("B:Bb4,b6,a7,b8:Wf2,g3,e5,f8,c9").unwrap(),
    );
    let mut engine = Engine::new(Options {
        hash_mib: 4,
        threads: 2,
        ..Options::default()
    });
    let report = search(&mut engine, &game, &depth(6));
    assert_eq!(report.best.unwrap().to_string(), "a7-a9");
    assert_eq!(report.score, Score::WinIn(3));
}

#[test]
fn clock_limits_keep_the_search_short() {
    let game = Game::new(Rules::standard());
    let limits = Limits {
        clock: Some(Duration::from_millis(600)),
        ..Limits::default()
    };
    let started = Instant::now();
    let report = search(&mut engine(), &game, &limits);
    assert!(report.best.is_some());
    // The hard limit is a third of the clock at most.
    assert!(
        started.elapsed() < Duration::from_millis(450),
        "{:?}",
        started.elapsed()
    );
}

#[test]
fn the_table_fills_and_new_game_empties_it() {
    let game = Game::new(Rules::standard());
    let mut engine = engine();
    assert_eq!(engine.hashfull(), 0);
    search(&mut engine, &game, &depth(10));
    assert!(engine.hashfull() > 0);
    engine.new_game();
    assert_eq!(engine.hashfull(), 0);
}
