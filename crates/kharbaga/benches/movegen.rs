//! Move generation benchmarks: perft from the start, legal move generation and counting in
//! middle-game positions. Every measured result is checked, so a fast wrong answer fails.

use criterion::{criterion_group, criterion_main, Criterion};
use kharbaga::{perft, Count, Position, Rules};
use std::hint::black_box;

/// Perft from the start: rules, depth, expected leaf count (cross-checked by
/// tools/reference_movegen.py; see tests/data/perft.txt).
const PERFT: [(&str, u32, u64); 3] = [
    ("standard", 12, 207_681),
    ("ludii", 8, 173_067),
    ("dagaz", 11, 309_866),
];

/// Middle-game positions: rules, position, number of legal moves.
const POSITIONS: [(&str, &str, usize); 4] = [
    (
        "standard",
        "W:Bc1,g1,i1,f2,h2,a3,h4,Ke9:WKe1,f6,h6,a7,g7,h8",
        2,
    ),
    (
        "ludii",
        "B:Bi1,d2,f2,h2,g3,i3,d4,h4,i5,d6,Ke7:WKc1,a3,f4,g5,b6,f6,c7,i7,b8,h8,a9,g9,i9",
        18,
    ),
    (
        "standard",
        "B:BKe5,a1:Wc3,g3,c7,g7,d4,f4,d6,f6,e3,e7,c5,g5,Ki9",
        26,
    ),
    (
        "standard,removal=immediate",
        "B:BKe5,a1:Wc3,g3,c7,g7,d4,f4,d6,f6,e3,e7,c5,g5,Ki9",
        35,
    ),
];

fn bench_perft(c: &mut Criterion) {
    let start = Position::start();
    for (name, depth, expected) in PERFT {
        let rules: Rules = name.parse().expect("a rule set");
        assert_eq!(
            perft(&start, &rules, depth, Count::Moves),
            expected,
            "{name} perft({depth})"
        );
        c.bench_function(&format!("perft/{name}/{depth}"), |b| {
            b.iter(|| {
                let n = perft(black_box(&start), &rules, depth, Count::Moves);
                assert_eq!(n, expected);
                n
            })
        });
    }
}

fn bench_positions(c: &mut Criterion) {
    for (i, (rules, fen, expected)) in POSITIONS.into_iter().enumerate() {
        let rules: Rules = rules.parse().expect("rules");
        let pos = Position::from_fen(fen).expect("a position");
        assert_eq!(pos.legal_moves(&rules).len(), expected, "{fen}");
        c.bench_function(&format!("legal_moves/{i}"), |b| {
            b.iter(|| {
                let moves = black_box(&pos).legal_moves(&rules);
                assert_eq!(moves.len(), expected);
                moves
            })
        });
        c.bench_function(&format!("count_legal/{i}"), |b| {
            b.iter(|| {
                let n = black_box(&pos).count_legal(&rules);
                assert_eq!(n, expected as u64);
                n
            })
        });
    }
}

criterion_group!(benches, bench_perft, bench_positions);
criterion_main!(benches);
