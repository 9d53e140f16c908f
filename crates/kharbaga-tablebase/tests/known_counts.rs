//! The generator's counts of wins, draws and losses agree with an independent
//! implementation's for every 2- and 3-piece slice under `standard`.

use kharbaga::{Position, Rules};
use kharbaga_tablebase::gen::generate_in_memory;
use kharbaga_tablebase::slice::SliceId;
use kharbaga_tablebase::stats::SliceStats;
use kharbaga_tablebase::value::Value;

#[test]
fn two_and_three_piece_counts_match_the_independent_implementation() {
    let tables = generate_in_memory(&Rules::standard(), 3).unwrap();
    let data = include_str!("data/standard-counts.txt");
    let mut rows = 0;
    let (mut wins, mut draws, mut losses) = (0, 0, 0);
    for line in data
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let f: Vec<&str> = line.split_whitespace().collect();
        let n: Vec<u64> = f[1..].iter().map(|x| x.parse().unwrap()).collect();
        let (bm, bk, wm, wk) = (n[0] as u8, n[1] as u8, n[2] as u8, n[3] as u8);
        let slice = match f[0] {
            "Black" => SliceId::new(bm, bk, wm, wk),
            _ => SliceId::new(wm, wk, bm, bk),
        }
        .unwrap();
        let t = tables.get(slice).unwrap();
        let s = SliceStats::count(&t.index, &t.codes);
        assert_eq!(
            (s.wins, s.draws, s.losses, u64::from(s.longest_win)),
            (n[4], n[5], n[6], n[7]),
            "{line} (slice {slice}: {s})"
        );
        rows += 1;
        wins += s.wins;
        draws += s.draws;
        losses += s.losses;
    }
    assert_eq!(rows, 32);
    assert_eq!((wins, draws, losses), (478122, 114178, 266150));
}

/// Endgames worked out by hand (each derivation is written out beside the same position in
/// `exhaustive_solver.rs`): a position with no move, captures of the last piece, a lone
/// Mullah against one and two men, two Mullahs against one, a man against a man.
#[test]
fn hand_worked_endgames_have_their_values_in_the_tables() {
    let tables = generate_in_memory(&Rules::standard(), 3).unwrap();
    let cases = [
        ("B:Bb8:Wa9,c9", Value::Loss(0)),
        ("B:Bc3:Wd4", Value::Win(1)),
        ("W:BKd4:We5", Value::Win(1)),
        ("B:BKe5:Wc3", Value::Win(1)),
        ("B:BKa1:Wc3,e5", Value::Win(1)),
        ("W:BKi5:Wd6", Value::Loss(2)),
        ("W:BKa5:Wd6", Value::Loss(2)),
        ("B:BKa1:Wd6", Value::Win(3)),
        ("W:BKb2,Ki9:WKa1", Value::Loss(2)),
        ("B:BKa1,Ki9:WKe5", Value::Win(1)),
        ("B:Bd4:Wd6", Value::Loss(2)),
        ("W:Bd4:Wd6", Value::Loss(2)),
    ];
    for (fen, value) in cases {
        let pos = Position::from_fen(fen).unwrap();
        assert_eq!(tables.value(&pos), Some(value), "{fen}");
    }
}
