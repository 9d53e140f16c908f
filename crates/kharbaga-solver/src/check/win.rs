//! The walk of a win proof: one depth-first walk over the positions with a line (without
//! recursion: proofs can be deep), with the cycle check on the current line, then the
//! no-progress conditions for the worst line.
//!
//! Every position with a line gets a cap: the highest no-progress count it may be reached
//! with so that every line of play below it still ends before the limit (rule 2) and every
//! table leaf below it still wins within the limit (rule 4). A capture or a man move sets
//! the count to 0 whatever it was, any other move adds one, so a position's cap is the least,
//! over its moves, of what the position reached allows (its cap, or the plies the tables
//! leave) less one, or no bound after a capture or a man move. The proof holds when the root
//! may be entered with a count of 0; if it may not, the worst line is followed down from the
//! root to name the position where the limit is reached.

use super::error::ProofError;
use super::failure::Failure;
use super::walk::{Edge, Expansion, ForProver, Leaf, Stats, Walker};
use kharbaga::{Move, Position};

/// Not reached yet.
const NEW: u8 = 0;
/// On the line being walked.
const ON_LINE: u8 = 1;
/// Walked, with its cap and depth.
const DONE: u8 = 2;
/// The opponent is to move and has no legal move.
const OVER: u8 = 3;

/// The cap of a position that cannot be reached with any count.
const NEVER: i64 = -1;
/// No bound.
const FREE: i64 = i64::MAX;

/// A position with a line being walked.
struct Frame {
    index: u32,
    pos: Position,
    moves: Vec<Move>,
    next: usize,
    /// The least cap of the moves walked so far.
    cap: i64,
    /// The longest line below, in plies.
    depth: u32,
    /// Whether the move to the child being walked is a capture or a man move.
    progress: bool,
}

impl Frame {
    fn new(index: u32, pos: Position, moves: Vec<Move>) -> Frame {
        Frame {
            index,
            pos,
            moves,
            next: 0,
            cap: FREE,
            depth: 0,
            progress: false,
        }
    }

    /// Takes in a move to a position that allows counts up to `child_max` there, with the
    /// longest line below it `child_depth` plies.
    fn fold(&mut self, child_max: i64, progress: bool, child_depth: u32) {
        let cap = if child_max == FREE {
            FREE
        } else if progress {
            if child_max >= 0 {
                FREE
            } else {
                NEVER
            }
        } else {
            child_max - 1
        };
        self.cap = self.cap.min(cap);
        self.depth = self.depth.max(child_depth + 1);
    }
}

/// The highest count a position with a line (not over) and cap `cap` may be reached with.
fn line_max(limit: Option<u32>, cap: i64) -> i64 {
    match limit {
        None => FREE,
        Some(l) => (i64::from(l) - 1).min(cap),
    }
}

/// The highest count a table leaf where the prover wins in `plies` may be reached with.
fn table_max(limit: Option<u32>, plies: u32) -> i64 {
    match limit {
        None => FREE,
        Some(l) => (i64::from(l) - 1).min(i64::from(l) - i64::from(plies)),
    }
}

/// Checks a win proof.
pub(super) fn walk(w: &mut Walker) -> Result<Stats, ProofError> {
    let n = w.proof.len();
    let mut state = vec![NEW; n];
    let mut cap = vec![FREE; n];
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
            state[0] = ON_LINE;
            stack.push(Frame::new(0, root, moves));
        }
    }
    let mut reached: u64 = 1;
    while let Some(top) = stack.last_mut() {
        if top.next == top.moves.len() {
            let done = stack.pop().expect("not empty");
            let i = done.index as usize;
            (state[i], cap[i], depth[i]) = (DONE, done.cap, done.depth);
            if let Some(parent) = stack.last_mut() {
                let progress = parent.progress;
                parent.fold(line_max(w.limit, done.cap), progress, done.depth);
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
        let progress = edge.from.is_progress(&mv);
        let Some(c) = w.proof.find(&child) else {
            let child_max = match w.leaf(&child)? {
                Leaf::Over if child.turn() == w.prover => {
                    return Err(w.prover_blocked(&edge, child))
                }
                Leaf::Over => FREE,
                Leaf::Table(value) => match w.for_prover(&child, value) {
                    ForProver::Wins(plies) => table_max(w.limit, plies),
                    _ => {
                        return Err(Failure::TableValue {
                            step: w.step(&edge),
                            position: child,
                            value,
                            prover: w.prover,
                            claim: super::Claim::Win,
                        }
                        .into())
                    }
                },
                Leaf::Open => return Err(w.not_covered(&edge, child)),
            };
            top.fold(child_max, progress, 0);
            continue;
        };
        let ci = c as usize;
        match state[ci] {
            NEW => match w.expand(c, &child, Some(&edge))? {
                Expansion::Over => {
                    state[ci] = OVER;
                    reached += 1;
                    top.fold(FREE, progress, 0);
                }
                Expansion::Moves(moves) => {
                    state[ci] = ON_LINE;
                    reached += 1;
                    top.progress = progress;
                    stack.push(Frame::new(c, child, moves));
                }
            },
            ON_LINE => {
                return Err(Failure::Cycle {
                    step: w.step(&edge),
                    position: child,
                    line: w.proof.line(c),
                }
                .into())
            }
            OVER => top.fold(FREE, progress, 0),
            _ => top.fold(line_max(w.limit, cap[ci]), progress, depth[ci]),
        }
    }
    if cap[0] < 0 {
        return Err(worst_line(w, &state, &cap));
    }
    Ok(Stats {
        line_nodes: reached,
        longest: depth[0],
    })
}

/// Follows a line from the root on which the no-progress count goes over a cap, down to the
/// position where the limit is reached (the root's cap is below 0).
fn worst_line(w: &mut Walker, state: &[u8], cap: &[i64]) -> ProofError {
    let limit = w.limit.expect("caps are bounded only under a limit");
    let l = i64::from(limit);
    let (mut pos, mut index, mut q) = (w.proof.root, 0u32, 0i64);
    loop {
        let Ok(Expansion::Moves(moves)) = w.expand(index, &pos, None) else {
            unreachable!("every line on the worst line was walked");
        };
        let mut next = None;
        for mv in moves {
            let edge = Edge {
                from: pos,
                index,
                mv,
            };
            let child = pos.play(&mv);
            let q2 = if pos.is_progress(&mv) { 0 } else { q + 1 };
            let no_progress = |w: &Walker| -> ProofError {
                Failure::NoProgress {
                    step: w.step(&edge),
                    position: child,
                    count: q2 as u32,
                    limit,
                }
                .into()
            };
            match w.proof.find(&child) {
                Some(c) if state[c as usize] == OVER => {}
                Some(c) => {
                    if q2 >= l {
                        return no_progress(w);
                    }
                    if q2 > cap[c as usize] {
                        next = Some((child, c, q2));
                        break;
                    }
                }
                None => {
                    let Ok(Leaf::Table(value)) = w.leaf(&child) else {
                        continue;
                    };
                    let ForProver::Wins(plies) = w.for_prover(&child, value) else {
                        continue;
                    };
                    if q2 >= l {
                        return no_progress(w);
                    }
                    if q2 + i64::from(plies) > l {
                        return Failure::TableTooLong {
                            step: w.step(&edge),
                            position: child,
                            plies,
                            count: q2 as u32,
                            limit,
                        }
                        .into();
                    }
                }
            }
        }
        (pos, index, q) = next.expect("a position over its cap has a move over the cap");
    }
}
