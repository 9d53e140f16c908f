//! Quiescence search: at the end of the main search, play out captures until the position
//! is quiet, so that the evaluation never sees a position in the middle of an exchange.
//!
//! - When the side to move can capture and capturing is compulsory, the position is not
//!   quiet and there is no standing pat: every capture is searched (they are all the legal
//!   moves). When captures are optional, the side may stand pat or capture.
//! - At a quiet position where the opponent threatens a capture, standing pat assumes the
//!   threat can be parried by a quiet move (the usual stand-pat assumption). Two ways of
//!   weighing the threat there were measured and dropped (STRENGTH.md): searching every
//!   move there one more ply (weaker at a fixed node count: it cost more than it found),
//!   and an evaluation term for the side to move's threatened pieces (no gain).
//! - A side with no legal move has lost, quiet or not.

use crate::eval::evaluate;
use crate::score::{lost_at, MAX_PLY};
use crate::search::Searcher;
use kharbaga::Position;

impl Searcher<'_> {
    /// The quiescence value of `pos` at `ply`.
    pub(crate) fn qsearch(&mut self, pos: &Position, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        self.visit(ply);
        if self.aborted {
            return 0;
        }
        let rules = self.shared.rules;
        if ply >= MAX_PLY - 1 {
            return evaluate(pos, &rules, &self.shared.weights);
        }
        let can_capture = pos.has_capture(&rules);
        let compulsory = rules.capture_compulsory;
        let mut best = -crate::score::INFINITE;
        if !(can_capture && compulsory) {
            // No capture and no step: blocked (`is_blocked`, without testing the captures
            // again).
            if !can_capture && !pos.has_step(&rules) {
                return lost_at(ply);
            }
            best = evaluate(pos, &rules, &self.shared.weights);
            if best >= beta || !can_capture {
                return best;
            }
            alpha = alpha.max(best);
        }
        let mut moves = self.take_buffer(ply);
        pos.legal_moves_into(&rules, &mut moves);
        if moves.is_empty() {
            self.give_buffer(ply, moves);
            return lost_at(ply);
        }
        moves.retain(|m| m.is_capture());
        self.order.sort(pos, &mut moves, None, ply);
        for mv in &moves {
            let child = pos.play(mv);
            let score = -self.qsearch(&child, -beta, -alpha, ply + 1);
            if self.aborted {
                break;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        self.give_buffer(ply, moves);
        best
    }
}
