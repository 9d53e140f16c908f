//! Robustness: random and mutated strings fed to every parser give `Ok` or a readable `Err`,
//! never a panic. Deterministic: each test draws from its own fixed seed.

use kharbaga::{MoveError, MoveText, Point, Position, Rules, Setup, START_FEN};
use std::fmt::Display;
use std::panic::{catch_unwind, UnwindSafe};

/// Inputs per parser.
const CASES: usize = 3000;

/// SplitMix64: a tiny deterministic generator, enough to draw test strings.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// Characters the parsers care about, a few they should reject, and some that take more
/// than one byte in UTF-8 (column counting must not slice inside them).
const ALPHABET: &[char] = &[
    'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'z', 'A', 'I', '0', '1', '2', '5', '8', '9',
    'B', 'W', 'K', 'k', 'x', 'X', '-', ':', ',', '=', ' ', '\t', '\n', '\0', 'é', '∞', '🂡',
    '\u{200b}', 's', 't', 'r', 'n', 'o', 'y', 'm', 'l', 'p',
];

/// A random string, or one of `seeds` with a few random edits.
fn draw(rng: &mut Rng, seeds: &[&str]) -> String {
    if rng.below(4) == 0 {
        let len = rng.below(30);
        return (0..len).map(|_| *rng.pick(ALPHABET)).collect();
    }
    let mut chars: Vec<char> = rng.pick(seeds).chars().collect();
    for _ in 0..=rng.below(4) {
        let at = rng.below(chars.len() + 1);
        match rng.below(6) {
            0 => chars.insert(at, *rng.pick(ALPHABET)),
            1 if at < chars.len() => {
                chars.remove(at);
            }
            2 if at < chars.len() => chars[at] = *rng.pick(ALPHABET),
            3 => chars.truncate(at),
            4 => {
                let other: Vec<char> = rng.pick(seeds).chars().collect();
                let from = rng.below(other.len() + 1);
                chars.splice(at..at, other[from..].iter().copied());
            }
            _ => {
                let end = (at + rng.below(6)).min(chars.len());
                let copy: Vec<char> = chars[at..end].to_vec();
                chars.splice(at..at, copy);
            }
        }
    }
    chars.into_iter().collect()
}

/// Runs `parse` on `CASES` strings drawn from `seeds`, failing with the input on a panic, and
/// checks each error with `check_err`.
fn fuzz<T, E: Display>(
    seed: u64,
    seeds: &[&str],
    parse: impl Fn(&str) -> Result<T, E> + Copy + UnwindSafe,
    check_err: impl Fn(&str, &E),
) {
    let mut rng = Rng(seed);
    for _ in 0..CASES {
        let text = draw(&mut rng, seeds);
        let input = text.clone();
        let result = catch_unwind(move || parse(&input).err())
            .unwrap_or_else(|_| panic!("the parser panicked on {text:?}"));
        if let Some(e) = result {
            assert!(
                !e.to_string().is_empty(),
                "empty error message for {text:?}"
            );
            check_err(&text, &e);
        }
    }
}

const FENS: &[&str] = &[
    START_FEN,
    "start",
    "B:Bc3:Wd4,f6",
    "W:BKa1,c3,Ke5:WKi9,b8",
    " B : Ba1 , c1 : W ",
    "B:B:W",
    "W:Wc7,Ke5:Bb4",
];

fn check_fen_column(text: &str, e: &kharbaga::ParseFenError) {
    let len = text.chars().count();
    assert!(
        (1..=len + 1).contains(&e.column),
        "column {} outside 1..={} for {text:?}: {e}",
        e.column,
        len + 1
    );
}

#[test]
fn position_strings_never_panic() {
    fuzz(1, FENS, Position::from_fen, check_fen_column);
    // What parses also prints and reads back to itself.
    let mut rng = Rng(2);
    for _ in 0..CASES {
        let text = draw(&mut rng, FENS);
        if let Ok(pos) = Position::from_fen(&text) {
            assert_eq!(Position::from_fen(&pos.to_fen()), Ok(pos), "{text:?}");
        }
    }
}

#[test]
fn setups_never_panic() {
    fuzz(3, FENS, Setup::from_fen, check_fen_column);
}

#[test]
fn points_never_panic() {
    fuzz(
        4,
        &["e5", "a1", "i9", "b2", "h8", "c4", "j1", "E5"],
        |s| s.parse::<Point>(),
        |_, _| (),
    );
}

#[test]
fn rules_never_panic() {
    let seeds = [
        "standard",
        "ludii",
        "dagaz,turn-back=yes",
        "standard,removal=immediate,majority=no",
        "sideways,no-progress=40,back-rank=promote",
        "standard,no-progress=off",
    ];
    fuzz(5, &seeds, |s| s.parse::<Rules>(), |_, _| ());
}

const MOVES: &[&str] = &[
    "e3-e5",
    "d4-e5",
    "e3xc5xa7",
    "c5xe3xg5xc5",
    "a1xg7xc7xi1",
    "c5xc5",
    "a1-e5",
    "e3xa7",
];

fn check_move_column(text: &str, e: &MoveError) {
    if let MoveError::Syntax { column, .. } = e {
        let len = text.chars().count();
        assert!(
            (1..=len + 1).contains(column),
            "column {column} for {text:?}: {e}"
        );
    }
}

#[test]
fn move_texts_never_panic() {
    fuzz(6, MOVES, MoveText::parse, check_move_column);
}

#[test]
fn moves_in_positions_never_panic() {
    let positions = [
        ("start", Rules::standard()),
        ("B:Be3:Wd4,b6,Kf4", Rules::standard()),
        ("B:Bc5:Wd4,f4,e5", Rules::sideways()),
        ("B:BKa1:We5,e7,g3", Rules::dagaz()),
        (
            "W:BKe5,a1:Wc3,g3,c7,g7,d4,f4,d6,f6,e3,e7,c5,g5,Ki9",
            Rules::ludii(),
        ),
    ];
    for (i, (fen, rules)) in positions.into_iter().enumerate() {
        let pos = Position::from_fen(fen).unwrap();
        let legal = pos.legal_moves(&rules);
        let parse = move |s: &str| pos.parse_move(&rules, s);
        fuzz(10 + i as u64, MOVES, parse, check_move_column);
        let mut rng = Rng(20 + i as u64);
        for _ in 0..CASES {
            let text = draw(&mut rng, MOVES);
            if let Ok(mv) = pos.parse_move(&rules, &text) {
                assert!(
                    legal.contains(&mv),
                    "{text:?} read as {mv}, not a legal move of {fen}"
                );
            }
        }
    }
}
