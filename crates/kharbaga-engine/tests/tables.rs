//! The engine with endgame tables: the table move at the root, table values inside the
//! search, and no tables where they do not apply (lower levels, other rules).

use kharbaga::{Game, Position, Rules, Setup};
use kharbaga_engine::{Engine, Limits, Options, Score};
use kharbaga_tablebase::build::{build, BuildOptions};
use kharbaga_tablebase::tablebase::Tablebase;
use kharbaga_tablebase::value::{Value, Wdl};
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, OnceLock};

/// The standard tables of up to 3 pieces, built once in a temporary directory.
fn tables() -> Arc<Tablebase> {
    static TB: OnceLock<Arc<Tablebase>> = OnceLock::new();
    TB.get_or_init(|| {
        let dir: PathBuf =
            std::env::temp_dir().join(format!("kharbaga-engine-tables-{}", std::process::id()));
        let opts = BuildOptions::new(Rules::standard(), 3, dir.clone());
        build(&opts, &|_| {}, &mut |_| {}).unwrap();
        Arc::new(Tablebase::open(&dir, Rules::standard()).unwrap())
    })
    .clone()
}

fn search(level: u8, tables: bool, game: &Game, depth: u32) -> kharbaga_engine::Report {
    let mut engine = Engine::new(Options {
        hash_mib: 4,
        level,
        tables: tables.then(tables_arc),
        ..Options::default()
    });
    engine.set_seed(1);
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    engine.search(game, &limits, &AtomicBool::new(false), &mut |_| {})
}

fn tables_arc() -> Arc<Tablebase> {
    tables()
}

/// A man against a man with a long win for the side to move: the first position, in index
/// order, that the tables say Black wins in 13 plies (the longest such win, per the
/// independent counts in tests/data of the tablebase crate).
fn long_man_ending() -> Position {
    let tb = tables();
    for b in 0..36u64 {
        for w in 5..41u64 {
            if b == w {
                continue;
            }
            let setup = Setup {
                black: kharbaga::Bitboard(1 << b),
                white: kharbaga::Bitboard(1 << w),
                mullahs: kharbaga::Bitboard(0),
                turn: kharbaga::Color::Black,
            };
            let Ok(pos) = Position::from_setup(setup) else {
                continue;
            };
            if tb.probe(&pos).unwrap() == Value::Win(13) {
                return pos;
            }
        }
    }
    panic!("no win in 13 with a man against a man");
}

#[test]
fn the_root_move_comes_from_the_tables() {
    let tb = tables();
    let pos = long_man_ending();
    let game = Game::from_position(Rules::standard(), pos);
    let report = search(10, true, &game, 20);
    assert_eq!(report.score, Score::TableWin(Some(13)));
    assert_eq!(report.nodes, 0, "no search was needed");
    let best = report.best.unwrap();
    // The move keeps the value: it leads to a loss in 12 for the opponent.
    assert_eq!(tb.probe(&pos.play(&best)).unwrap(), Value::Loss(12));
    // The line follows the tables' best moves.
    assert!(report.pv.len() > 1 && report.pv[0] == best);
}

#[test]
fn lower_levels_and_other_rules_do_not_use_the_tables() {
    let pos = long_man_ending();
    let game = Game::from_position(Rules::standard(), pos);
    let report = search(5, true, &game, 3);
    assert!(
        matches!(report.score, Score::Centi(_)),
        "{:?}",
        report.score
    );
    let sideways = Game::from_position(Rules::sideways(), pos);
    let report = search(10, true, &sideways, 3);
    assert!(
        !matches!(
            report.score,
            Score::TableWin(_) | Score::TableDraw | Score::TableLoss(_)
        ),
        "{:?}",
        report.score
    );
}

#[test]
fn the_search_scores_positions_its_captures_lead_into_by_the_tables() {
    let tb = tables();
    // Four pieces (no table), Black to move; every Black move captures (compulsory) into
    // three-piece positions the tables hold. The search score must agree with the tables'
    // value of the best capture.
    for fen in ["B:BKa1,e3:Wd4,Kh8", "B:Bc3,g3:Wd4,Kb8", "B:BKe1:WKe5,a7,i7"] {
        let pos = Position::from_fen(fen).unwrap();
        let moves = pos.legal_moves(&Rules::standard());
        assert!(moves.iter().all(|m| m.is_capture()), "{fen}");
        let best = tb.moves(&pos).unwrap()[0].1;
        let game = Game::from_position(Rules::standard(), pos);
        let report = search(10, true, &game, 2);
        let wdl = match report.score {
            Score::TableWin(_) | Score::WinIn(_) => Wdl::Win,
            Score::TableLoss(_) | Score::LossIn(_) => Wdl::Loss,
            Score::TableDraw | Score::Centi(0) => Wdl::Draw,
            other => panic!("{fen}: {other:?}"),
        };
        assert_eq!(
            wdl,
            best.wdl(),
            "{fen}: {:?} against the tables' {best}",
            report.score
        );
    }
}
