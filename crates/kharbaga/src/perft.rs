//! Perft: counting the leaves of the move tree to a fixed depth, to check move generation.

use crate::moves::Move;
use crate::position::Position;
use crate::rules::Rules;

/// How perft counts capture sequences.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Count {
    /// Sequences with the same start, end and captured set count once (the default).
    Moves,
    /// Every capture path counts.
    Paths,
}

/// The number of leaf nodes `depth` plies below `pos` (1 at depth 0), counting the last ply
/// in bulk.
///
/// ```
/// use kharbaga::{perft, Count, Position, Rules};
/// assert_eq!(perft(&Position::start(), &Rules::standard(), 4, Count::Moves), 10);
/// ```
pub fn perft(pos: &Position, rules: &Rules, depth: u32, count: Count) -> u64 {
    let mut buffers: Vec<Vec<Move>> = (0..depth).map(|_| Vec::with_capacity(64)).collect();
    perft_inner(pos, rules, depth, count, &mut buffers)
}

fn generate(pos: &Position, rules: &Rules, count: Count, out: &mut Vec<Move>) {
    match count {
        Count::Moves => pos.legal_moves_into(rules, out),
        Count::Paths => *out = pos.legal_moves_all_paths(rules),
    }
}

fn perft_inner(
    pos: &Position,
    rules: &Rules,
    depth: u32,
    count: Count,
    buffers: &mut [Vec<Move>],
) -> u64 {
    match depth {
        0 => 1,
        1 if count == Count::Moves => pos.count_legal(rules),
        _ => {
            let (buf, rest) = buffers.split_first_mut().expect("a buffer per ply");
            generate(pos, rules, count, buf);
            if depth == 1 {
                return buf.len() as u64;
            }
            buf.iter()
                .map(|m| perft_inner(&pos.play(m), rules, depth - 1, count, rest))
                .sum()
        }
    }
}

/// Perft split by the first move: each legal move with the leaf count below it.
pub fn divide(pos: &Position, rules: &Rules, depth: u32, count: Count) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    let mut moves = Vec::new();
    generate(pos, rules, count, &mut moves);
    moves
        .into_iter()
        .map(|m| (m, perft(&pos.play(&m), rules, depth - 1, count)))
        .collect()
}
