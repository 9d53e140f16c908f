//! The generator's counts of wins, draws and losses agree with an independent
//! implementation's for every 2- and 3-piece slice under `standard`.

use kharbaga::Rules;
use kharbaga_tablebase::gen::generate_in_memory;
use kharbaga_tablebase::slice::SliceId;
use kharbaga_tablebase::stats::SliceStats;

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
