//! Composed positions with a known forced win, each worked out by hand (see the comments);
//! the engine must find the winning move and see the win.

use kharbaga::{Game, Position, Rules};
use kharbaga_engine::{Engine, Limits, Options, Report, Score};
use std::sync::atomic::AtomicBool;

fn solve(fen: &str, depth: u32) -> Report {
    let game = Game::from_position(Rules::standard(), Position::from_fen(fen).unwrap());
    let mut engine = Engine::new(Options {
        hash_mib: 8,
        ..Options::default()
    });
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    engine.search(&game, &limits, &AtomicBool::new(false), &mut |_| {})
}

fn pv(report: &Report) -> Vec<String> {
    report.pv.iter().map(|m| m.to_string()).collect()
}

#[test]
fn promotion_sacrifice_then_a_five_piece_majority_capture() {
    // Black: b4, b6, a7, b8; White: f2, g3, e5, f8, c9.
    // 1. a7-a9 promotes, and offers three men: White must capture, and by the majority rule
    //    must take the most, c9xa7xc5xa3 (over b8, b6, b4). The pieces are removed at the
    //    end of the move, which opens file a for the new Mullah:
    // 2. a9xa1 (over the man now on a3) xg7 (up the long diagonal over e5) xg1 (down file g
    //    over g3) xc5 (over f2) xg9 (over f8): five pieces, all of White's. White has no
    //    piece left and loses: a win in 3 plies.
    let r = solve("B:Bb4,b6,a7,b8:Wf2,g3,e5,f8,c9", 6);
    assert_eq!(r.best.unwrap().to_string(), "a7-a9");
    assert_eq!(r.score, Score::WinIn(3));
    assert_eq!(pv(&r), ["a7-a9", "c9xa7xc5xa3", "a9xa1xg7xg1xc5xg9"]);
}

#[test]
fn sacrifice_for_a_three_piece_capture_and_promotion() {
    // Black: a1, e1, f2, b4; White: h4, b6, a7, b8, f8.
    // 1. b4-a5 gives a man: White's only capture is a7xa3 (b6 cannot jump a5, nothing lies
    //    beyond it), and capturing is compulsory. 2. a1xa5xc7xa9 then takes the man on a3,
    //    then b6, then b8, and ends on a9: a Mullah. Black is left with a Mullah and two men
    //    against two men (h4, f8), a won ending; without the sacrifice nothing is won.
    let r = solve("B:Ba1,e1,f2,b4:Wh4,b6,a7,b8,f8", 12);
    assert_eq!(r.best.unwrap().to_string(), "b4-a5");
    assert_eq!(&pv(&r)[..3], ["b4-a5", "a7xa3", "a1xa5xc7xa9"]);
    assert!(matches!(r.score, Score::WinIn(_)), "{:?}", r.score);
}

#[test]
fn a_mullah_hunts_down_a_lone_man() {
    // Black Mullah e7 against a White man on c3, two steps from promotion on rank 1.
    // 1. e7-e1! guards rank 1 from the side. White's man has three steps:
    //    - c3-c1 (promotes) is taken at once along rank 1: e1xa1;
    //    - c3-d2 stands next to the Mullah with c3 empty behind it: e1xc3;
    //    - c3-b2, then 2. e1-a1: the man on b2 cannot capture (a1 has nothing beyond it)
    //      and its only step is b2-c1, 3. a1xe1 takes it.
    // White has nothing left after at most five plies.
    let r = solve("B:BKe7:Wc3", 8);
    assert_eq!(r.best.unwrap().to_string(), "e7-e1");
    assert_eq!(r.score, Score::WinIn(5));
}

#[test]
fn a_deflecting_sacrifice_lets_a_man_through_to_promotion() {
    // Black: h2, e3, a7; White: b2, a3, g5. Black's a7 man would promote on a9, but White
    // has time to answer. 1. h2-g3! forces g5xg1 (the only capture, compulsory), and the
    // new White Mullah on g1 is now obliged to capture e3 on the next move, whatever Black
    // does. 2. a7-a9 promotes; White must take e3 (g1xd4, or landing further on c5, b6 or
    // a7). 3. The Black Mullah then sweeps: a9xa1 (over a3), xc3 (over b2), and on over the
    // White Mullah (xe5 from d4, or xc7 from c5; a landing on b6 or a7 is taken on the way
    // down or along the diagonal). White has no piece left: a win in 5 plies.
    let r = solve("B:Bh2,e3,a7:Wb2,a3,g5", 8);
    assert_eq!(r.best.unwrap().to_string(), "h2-g3");
    assert_eq!(r.score, Score::WinIn(5));
    assert_eq!(&pv(&r)[..3], ["h2-g3", "g5xg1", "a7-a9"]);
}
