//! What the win and hold walks share: the proof with the rules and tables, the positions
//! without a line (game ends and table leaves, each looked at once), and reading a line's
//! moves.

use super::error::ProofError;
use super::failure::{Failure, Step};
use super::file::{Key, PosMap, Proof};
use kharbaga::{Color, Move, Position, Rules};
use kharbaga_tablebase::tablebase::Tablebase;
use kharbaga_tablebase::value::Value;

/// What a position without a line is.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum Leaf {
    /// The side to move has no legal move: it has lost (rule 1).
    Over,
    /// The tables hold it with this value for the side to move (rule 4).
    Table(Value),
    /// Neither: only a hold proof's no-progress draw can make it a leaf (rule 5).
    Open,
}

/// A table value seen from the prover.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum ForProver {
    /// The prover wins in this many plies.
    Wins(u32),
    /// A draw.
    Draw,
    /// The prover loses.
    Loses,
}

/// A line's moves in its position, once rule 1 and the kind of the line are checked.
pub(super) enum Expansion {
    /// The opponent is to move and has no legal move: the prover has won.
    Over,
    /// The prover's move, or every legal reply of the opponent.
    Moves(Vec<Move>),
}

/// A move played from a position with a line: where a child comes from.
#[derive(Copy, Clone)]
pub(super) struct Edge {
    /// The position the move is played from.
    pub from: Position,
    /// The index of its line.
    pub index: u32,
    /// The move.
    pub mv: Move,
}

/// What the walks found, for the summary.
pub(super) struct Stats {
    /// The lines the walk reached.
    pub line_nodes: u64,
    /// The longest line of play in plies.
    pub longest: u32,
}

/// The proof being checked, with its rules and tables, and what the walk learnt of the
/// positions without a line.
pub(super) struct Walker<'a> {
    /// The proof.
    pub proof: &'a Proof,
    /// The rules.
    pub rules: &'a Rules,
    /// The tables for table leaves, if any.
    tables: Option<&'a Tablebase>,
    /// The side that plays the lines with a move.
    pub prover: Color,
    /// The rules' no-progress limit.
    pub limit: Option<u32>,
    /// Every position without a line the walk reached.
    leaves: PosMap<Leaf>,
}

impl<'a> Walker<'a> {
    /// A walker for `proof`: the prover is the side to move at the root when the root line
    /// has a move, the other side when it is `all`.
    pub fn new(proof: &'a Proof, rules: &'a Rules, tables: Option<&'a Tablebase>) -> Walker<'a> {
        let root_turn = proof.root.turn();
        let prover = if proof.move_text(0).is_some() {
            root_turn
        } else {
            !root_turn
        };
        Walker {
            proof,
            rules,
            tables,
            prover,
            limit: rules.no_progress_limit,
            leaves: PosMap::default(),
        }
    }

    /// The number of distinct positions without a line the walk reached.
    pub fn leaf_count(&self) -> u64 {
        self.leaves.len() as u64
    }

    /// What the position `pos`, which has no line, is (rules 1, 4, 5), looked at once.
    pub fn leaf(&mut self, pos: &Position) -> Result<Leaf, ProofError> {
        if let Some(&leaf) = self.leaves.get(&Key(*pos)) {
            return Ok(leaf);
        }
        let leaf = if pos.is_blocked(self.rules) {
            Leaf::Over
        } else {
            match self.tables {
                Some(tb) if tb.covers(pos) => {
                    Leaf::Table(tb.probe(pos).map_err(|error| ProofError::Table {
                        position: *pos,
                        error,
                    })?)
                }
                _ => Leaf::Open,
            }
        };
        self.leaves.insert(Key(*pos), leaf);
        Ok(leaf)
    }

    /// A table value of `pos` (for its side to move) seen from the prover.
    pub fn for_prover(&self, pos: &Position, value: Value) -> ForProver {
        let mover_wins = match value {
            Value::Draw => return ForProver::Draw,
            Value::Win(_) => true,
            Value::Loss(_) => false,
        };
        let plies = u32::from(value.plies().unwrap_or(0));
        if mover_wins == (pos.turn() == self.prover) {
            ForProver::Wins(plies)
        } else {
            ForProver::Loses
        }
    }

    /// The step of an edge, for an error message.
    pub fn step(&self, edge: &Edge) -> Step {
        Step {
            from: edge.from,
            line: self.proof.line(edge.index),
            mv: edge.mv.to_string(),
        }
    }

    /// The moves of line `index`, whose position is `pos`, reached by `edge` (none at the
    /// root): rule 1 first (a side to move without a legal move has lost: an error if it is
    /// the prover), then the kind of the line (rule 3), then the line's move.
    pub fn expand(
        &self,
        index: u32,
        pos: &Position,
        edge: Option<&Edge>,
    ) -> Result<Expansion, ProofError> {
        let moves = pos.legal_moves(self.rules);
        let prover_to_move = pos.turn() == self.prover;
        if moves.is_empty() {
            if prover_to_move {
                return Err(Failure::ProverBlocked {
                    step: edge.map(|e| self.step(e)),
                    position: *pos,
                    prover: self.prover,
                }
                .into());
            }
            return Ok(Expansion::Over);
        }
        let text = self.proof.move_text(index);
        if text.is_some() != prover_to_move {
            return Err(Failure::KindMismatch {
                step: edge.map(|e| self.step(e)),
                position: *pos,
                line: self.proof.line(index),
                prover: self.prover,
            }
            .into());
        }
        match text {
            None => Ok(Expansion::Moves(moves)),
            Some(text) => match pos.parse_move(self.rules, text) {
                Ok(mv) => Ok(Expansion::Moves(vec![mv])),
                Err(error) => Err(Failure::IllegalMove {
                    position: *pos,
                    line: self.proof.line(index),
                    text: text.to_string(),
                    error,
                }
                .into()),
            },
        }
    }

    /// The error for a position without a line that is not covered.
    pub fn not_covered(&self, edge: &Edge, position: Position) -> ProofError {
        Failure::NotCovered {
            step: self.step(edge),
            position,
        }
        .into()
    }

    /// The error for a position without a line where the prover, to move, has lost.
    pub fn prover_blocked(&self, edge: &Edge, position: Position) -> ProofError {
        Failure::ProverBlocked {
            step: Some(self.step(edge)),
            position,
            prover: self.prover,
        }
        .into()
    }
}
