//! Perft suites from `tests/data/perft.txt` (format described at the top of that file).
//!
//! `perft_suites` checks every figure up to [`SHALLOW_LIMIT`] leaves, quick in a debug build;
//! `perft_suites_deep` (ignored by default) checks the rest:
//! `cargo test --release -p kharbaga --test perft -- --ignored`.

use kharbaga::{divide, perft, Count, Position, Rules};
use std::collections::BTreeSet;

/// Figures with at most this many leaves run in the default suite.
const SHALLOW_LIMIT: u64 = 100_000;

/// The divide and path-count checks use each entry's deepest figure up to this size.
const SMALL: u64 = 5_000;

const DATA: &str = include_str!("data/perft.txt");

/// One line of the data file.
struct Entry {
    id: String,
    line: usize,
    count: Count,
    rules: Rules,
    position: Position,
    /// (depth, leaves, where the figure comes from).
    figures: Vec<(u32, u64, String)>,
}

fn entries() -> Vec<Entry> {
    let mut out = Vec::new();
    let mut ids = BTreeSet::new();
    for (i, text) in DATA.lines().enumerate() {
        let line = i + 1;
        let text = text.split('#').next().unwrap_or("").trim();
        if text.is_empty() {
            continue;
        }
        let mut parts = text.split(';');
        let head: Vec<&str> = parts.next().unwrap_or("").split_whitespace().collect();
        let [id, count, rules, position] = head[..] else {
            panic!("perft.txt:{line}: expected ID COUNT RULES POSITION before the first ';'");
        };
        assert!(
            ids.insert(id.to_string()),
            "perft.txt:{line}: id {id} used twice"
        );
        let count = match count {
            "moves" => Count::Moves,
            "paths" => Count::Paths,
            c => panic!("perft.txt:{line}: count '{c}' is not moves or paths"),
        };
        let rules: Rules = rules
            .parse()
            .unwrap_or_else(|e| panic!("perft.txt:{line}: {e}"));
        let position =
            Position::from_fen(position).unwrap_or_else(|e| panic!("perft.txt:{line}: {e}"));
        let mut figures = Vec::new();
        for part in parts {
            let fields: Vec<&str> = part.split_whitespace().collect();
            let [depth, nodes, source] = fields[..] else {
                panic!("perft.txt:{line}: expected '; DEPTH NODES SOURCE', got '{part}'");
            };
            let depth: u32 = depth.parse().expect("a depth");
            let nodes: u64 = nodes.parse().expect("a node count");
            assert!(
                ["ref", "rust"].contains(&source),
                "perft.txt:{line}: source '{source}' is not ref or rust"
            );
            assert!(
                figures.last().map_or(true, |&(d, _, _)| d < depth),
                "perft.txt:{line}: depths must increase"
            );
            figures.push((depth, nodes, source.to_string()));
        }
        assert!(!figures.is_empty(), "perft.txt:{line}: no figures");
        out.push(Entry {
            id: id.to_string(),
            line,
            count,
            rules,
            position,
            figures,
        });
    }
    out
}

/// Checks the figures that `select` keeps; fails with every mismatch listed.
fn check(select: impl Fn(u64) -> bool) {
    let mut failures = Vec::new();
    let mut checked = 0;
    for e in entries() {
        for (depth, expected, source) in &e.figures {
            if !select(*expected) {
                continue;
            }
            checked += 1;
            let got = perft(&e.position, &e.rules, *depth, e.count);
            if got != *expected {
                failures.push(format!(
                    "perft.txt:{} {} ({} {:?}, {}) depth {depth}: expected {expected} ({source}), got {got}",
                    e.line, e.id, e.rules, e.count, e.position
                ));
            }
        }
    }
    assert!(checked > 0, "no figure selected");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn perft_suites() {
    check(|nodes| nodes <= SHALLOW_LIMIT);
}

#[test]
#[ignore = "deep perft: run with --release -- --ignored"]
fn perft_suites_deep() {
    check(|nodes| nodes > SHALLOW_LIMIT);
}

/// The deepest depth of an entry whose figure stays small.
fn small_depth(e: &Entry, limit: u64) -> Option<u32> {
    e.figures.iter().filter(|f| f.1 <= limit).map(|f| f.0).max()
}

#[test]
fn divide_sums_to_perft_and_lists_the_legal_moves() {
    for e in entries() {
        let Some(depth) = small_depth(&e, SMALL) else {
            continue;
        };
        let parts = divide(&e.position, &e.rules, depth, e.count);
        let total: u64 = parts.iter().map(|(_, n)| n).sum();
        assert_eq!(
            total,
            perft(&e.position, &e.rules, depth, e.count),
            "{}",
            e.id
        );
        let moves = match e.count {
            Count::Moves => e.position.legal_moves(&e.rules),
            Count::Paths => e.position.legal_moves_all_paths(&e.rules),
        };
        let mut listed: Vec<_> = parts.iter().map(|(m, _)| *m).collect();
        listed.sort();
        let mut legal = moves.clone();
        legal.sort();
        assert_eq!(listed, legal, "{}", e.id);
        for (m, n) in parts {
            let below = perft(&e.position.play(&m), &e.rules, depth - 1, e.count);
            assert_eq!(n, below, "{} {m}", e.id);
        }
    }
}

#[test]
fn every_path_counts_at_least_every_move() {
    for e in entries() {
        let Some(depth) = small_depth(&e, SMALL) else {
            continue;
        };
        for d in 1..=depth {
            let moves = perft(&e.position, &e.rules, d, Count::Moves);
            let paths = perft(&e.position, &e.rules, d, Count::Paths);
            assert!(
                paths >= moves,
                "{} depth {d}: {paths} paths < {moves} moves",
                e.id
            );
            if !e.rules.capture_chains {
                // A single hop has one path.
                assert_eq!(paths, moves, "{} depth {d}", e.id);
            }
        }
    }
}
