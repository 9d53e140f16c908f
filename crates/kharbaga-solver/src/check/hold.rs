//! The walk of a hold proof: depth first (without recursion) over (position, no-progress
//! count) states.
//!
//! A line may come back to a position already on it (a cycle: the game is drawn by
//! repetition, or goes on for ever), so a position met again is not walked again, unless it
//! is reached with a smaller no-progress count than any walk of it so far: a smaller count
//! leaves more plies before a no-progress draw, so it is never easier to hold. Counts above
//! the limit behave like the limit, and without a limit the count plays no part, so each
//! position is walked at most limit + 1 times, and once without a limit.

use super::error::ProofError;
use super::failure::Failure;
use super::walk::{Edge, Expansion, ForProver, Leaf, Stats, Walker};
use super::Claim;
use kharbaga::{Move, Position};

/// Not reached yet.
const NEW: u8 = 0;
/// Walked with the count in `best`.
const SEEN: u8 = 1;
/// On the line being walked, with the count in `best`.
const ON_LINE: u8 = 2;
/// The opponent is to move and has no legal move.
const OVER: u8 = 3;

/// A position with a line being walked, with its no-progress count.
struct Frame {
    index: u32,
    pos: Position,
    count: u32,
    moves: Vec<Move>,
    next: usize,
    /// The longest line below, in plies (a line that comes back to a position on it ends
    /// there).
    depth: u32,
}

/// Checks a hold proof.
pub(super) fn walk(w: &mut Walker) -> Result<Stats, ProofError> {
    let n = w.proof.len();
    let mut state = vec![NEW; n];
    // The smallest count each position has been walked with.
    let mut best = vec![u32::MAX; n];
    let mut depth = vec![0u32; n];
    let root = w.proof.root;
    let mut stack = Vec::new();
    match w.expand(0, &root, None)? {
        Expansion::Over => {
            return Ok(Stats {
                line_nodes: 1,
                longest: 0,
            })
        }
        Expansion::Moves(moves) => {
            (state[0], best[0]) = (ON_LINE, 0);
            stack.push(Frame {
                index: 0,
                pos: root,
                count: 0,
                moves,
                next: 0,
                depth: 0,
            });
        }
    }
    let mut reached: u64 = 1;
    while let Some(top) = stack.last_mut() {
        if top.next == top.moves.len() {
            let done = stack.pop().expect("not empty");
            let i = done.index as usize;
            (state[i], depth[i]) = (SEEN, depth[i].max(done.depth));
            if let Some(parent) = stack.last_mut() {
                parent.depth = parent.depth.max(done.depth + 1);
            }
            continue;
        }
        let mv = top.moves[top.next];
        top.next += 1;
        let edge = Edge {
            from: top.pos,
            index: top.index,
            mv,
        };
        let child = edge.from.play(&mv);
        let count = match w.limit {
            Some(_) if edge.from.is_progress(&mv) => 0,
            Some(limit) => (top.count + 1).min(limit),
            None => 0,
        };
        let Some(c) = w.proof.find(&child) else {
            match w.leaf(&child)? {
                Leaf::Over if child.turn() == w.prover => {
                    return Err(w.prover_blocked(&edge, child))
                }
                Leaf::Over => {}
                Leaf::Table(value) => {
                    // A table loss reached at the no-progress limit is a draw all the same:
                    // the game ends there.
                    let drawn = w.limit.is_some_and(|limit| count >= limit);
                    if w.for_prover(&child, value) == ForProver::Loses && !drawn {
                        return Err(Failure::TableValue {
                            step: w.step(&edge),
                            position: child,
                            value,
                            prover: w.prover,
                            claim: Claim::Hold,
                        }
                        .into());
                    }
                }
                // A draw by the no-progress rule.
                Leaf::Open if w.limit.is_some_and(|limit| count >= limit) => {}
                // Without a line the position cannot be on the line already: no cycle.
                Leaf::Open => return Err(w.not_covered(&edge, child)),
            }
            top.depth = top.depth.max(1);
            continue;
        };
        let ci = c as usize;
        let walked = best[ci] <= count;
        match state[ci] {
            // A game end, or a cycle: the line ends here.
            OVER => {
                top.depth = top.depth.max(1);
                continue;
            }
            ON_LINE if walked => {
                top.depth = top.depth.max(1);
                continue;
            }
            // A position walked with a count no higher.
            SEEN if walked => {
                top.depth = top.depth.max(depth[ci] + 1);
                continue;
            }
            _ => {}
        }
        if state[ci] == NEW {
            reached += 1;
        }
        match w.expand(c, &child, Some(&edge))? {
            Expansion::Over => {
                state[ci] = OVER;
                top.depth = top.depth.max(1);
            }
            Expansion::Moves(moves) => {
                (state[ci], best[ci]) = (ON_LINE, count);
                stack.push(Frame {
                    index: c,
                    pos: child,
                    count,
                    moves,
                    next: 0,
                    depth: 0,
                });
            }
        }
    }
    Ok(Stats {
        line_nodes: reached,
        longest: depth[0],
    })
}
