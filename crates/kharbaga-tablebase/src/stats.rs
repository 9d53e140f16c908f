//! Counts of wins, draws and losses of a table, every placement counted (a place that
//! stands for a position and its mirror image counts twice).

use crate::index::{is_mirror_symmetric, SliceIndex};
use crate::value::Value;
use rayon::prelude::*;
use std::fmt;

/// Places counted per rayon task.
const CHUNK: u64 = 1 << 16;

/// Wins, draws and losses of one slice, and its longest win and loss.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct SliceStats {
    /// Positions the side to move wins.
    pub wins: u64,
    /// Drawn positions.
    pub draws: u64,
    /// Positions the side to move loses.
    pub losses: u64,
    /// The longest win, in plies (0 if none).
    pub longest_win: u16,
    /// The longest loss, in plies (0 if none).
    pub longest_loss: u16,
}

impl SliceStats {
    /// Counts the codes of a table with its index (in parallel, on the current rayon pool).
    pub fn count(index: &SliceIndex, codes: &[u16]) -> SliceStats {
        let chunks = index.len().div_ceil(CHUNK);
        (0..chunks)
            .into_par_iter()
            .map(|c| {
                let mut s = SliceStats::default();
                index.for_each_position(c * CHUNK, (c + 1) * CHUNK, |i, pos| {
                    let weight = if is_mirror_symmetric(&pos) { 1 } else { 2 };
                    s.add(Value::from_code(codes[i as usize]), weight);
                });
                s
            })
            .reduce(SliceStats::default, |a, b| a.merge(&b))
    }

    /// The counts of two sets of positions together.
    pub fn merge(&self, other: &SliceStats) -> SliceStats {
        SliceStats {
            wins: self.wins + other.wins,
            draws: self.draws + other.draws,
            losses: self.losses + other.losses,
            longest_win: self.longest_win.max(other.longest_win),
            longest_loss: self.longest_loss.max(other.longest_loss),
        }
    }

    /// Adds `weight` positions of value `v`.
    pub fn add(&mut self, v: Value, weight: u64) {
        match v {
            Value::Win(d) => {
                self.wins += weight;
                self.longest_win = self.longest_win.max(d);
            }
            Value::Draw => self.draws += weight,
            Value::Loss(d) => {
                self.losses += weight;
                self.longest_loss = self.longest_loss.max(d);
            }
        }
    }

    /// All positions counted.
    pub fn positions(&self) -> u64 {
        self.wins + self.draws + self.losses
    }
}

impl fmt::Display for SliceStats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} wins, {} draws, {} losses; longest win {}, longest loss {}",
            self.wins, self.draws, self.losses, self.longest_win, self.longest_loss
        )
    }
}
