//! Move ordering: the transposition-table move first, then captures by the number and
//! kind of pieces taken, promotions, the killer moves of the ply, and the rest by history.

use crate::score::MAX_PLY;
use crate::tt::MoveKey;
use kharbaga::{Move, Position, NUM_POINTS};

const TT_MOVE: i32 = 1 << 30;
const CAPTURE: i32 = 1 << 24;
const PROMOTION: i32 = 1 << 23;
const KILLER: [i32; 2] = [1 << 22, (1 << 22) - 1];
/// History scores saturate at this magnitude, below the killers.
const HISTORY_MAX: i32 = 1 << 20;

/// Per-thread ordering state: killer moves per ply and a history table per colour, and
/// scratch space so that sorting allocates nothing once warm.
pub struct Orderer {
    killers: Vec<[Option<MoveKey>; 2]>,
    history: Vec<i32>,
    /// The sort keys of the moves being sorted: score and complemented index.
    keys: Vec<i64>,
    /// A copy of the moves being sorted.
    scratch: Vec<Move>,
}

impl Default for Orderer {
    fn default() -> Orderer {
        Orderer {
            killers: vec![[None; 2]; MAX_PLY + 1],
            history: vec![0; 2 * NUM_POINTS * NUM_POINTS],
            keys: Vec::with_capacity(128),
            scratch: Vec::with_capacity(128),
        }
    }
}

fn history_index(pos: &Position, mv: &Move) -> usize {
    (pos.turn().index() * NUM_POINTS + mv.from().index()) * NUM_POINTS + mv.to().index()
}

impl Orderer {
    /// Forgets everything.
    pub fn clear(&mut self) {
        self.killers.iter_mut().for_each(|k| *k = [None; 2]);
        self.history.iter_mut().for_each(|h| *h = 0);
    }

    /// Sorts `moves` best first (stable, so equal moves keep the generator's order).
    pub fn sort(
        &mut self,
        pos: &Position,
        moves: &mut [Move],
        tt_move: Option<MoveKey>,
        ply: usize,
    ) {
        if moves.len() < 2 {
            return;
        }
        let killers = self.killers[ply.min(MAX_PLY)];
        let mut keys = std::mem::take(&mut self.keys);
        keys.clear();
        // One key per move, the score above its complemented index: all keys differ, and
        // of equal scores the earlier move has the larger key (a stable order).
        keys.extend(moves.iter().enumerate().map(|(i, m)| {
            (i64::from(self.score(pos, m, tt_move, &killers)) << 16) | i64::from(!(i as u16))
        }));
        self.scratch.clear();
        self.scratch.extend_from_slice(moves);
        if keys.len() <= 16 {
            // A move's place is the number of keys above its own: counted without a branch,
            // where a sort of a few moves mispredicts at almost every comparison.
            for (i, &key) in keys.iter().enumerate() {
                let place = keys.iter().filter(|&&k| k > key).count();
                moves[place] = self.scratch[i];
            }
        } else {
            keys.sort_unstable_by(|a, b| b.cmp(a));
            for (slot, &key) in moves.iter_mut().zip(&keys) {
                *slot = self.scratch[usize::from(!(key as u16))];
            }
        }
        self.keys = keys;
    }

    fn score(
        &self,
        pos: &Position,
        mv: &Move,
        tt_move: Option<MoveKey>,
        killers: &[Option<MoveKey>; 2],
    ) -> i32 {
        let key = MoveKey::of(mv);
        if tt_move == Some(key) {
            return TT_MOVE;
        }
        let mut s = 0;
        if mv.is_capture() {
            let taken = mv.captured();
            let mullahs = (taken & pos.mullahs(!pos.turn())).count() as i32;
            s += CAPTURE + (taken.count() as i32) * 1024 + mullahs * 512;
        }
        if pos.is_promotion(mv) {
            s += PROMOTION;
        }
        if s > 0 {
            return s + self.history[history_index(pos, mv)] / 4096;
        }
        if let Some(k) = killers.iter().position(|k| *k == Some(key)) {
            return KILLER[k];
        }
        self.history[history_index(pos, mv)]
    }

    /// Records that `mv` caused a cutoff at `ply` with `depth` left, after the moves in
    /// `tried` failed to (captures among them are not held against their history).
    pub fn cutoff(&mut self, pos: &Position, mv: &Move, ply: usize, depth: i32, tried: &[Move]) {
        let bonus = (depth * depth).min(400);
        if !mv.is_capture() {
            let key = MoveKey::of(mv);
            let k = &mut self.killers[ply.min(MAX_PLY)];
            if k[0] != Some(key) {
                k[1] = k[0];
                k[0] = Some(key);
            }
        }
        self.update(history_index(pos, mv), bonus);
        for m in tried.iter().filter(|m| !m.is_capture()) {
            self.update(history_index(pos, m), -bonus);
        }
    }

    fn update(&mut self, i: usize, bonus: i32) {
        // Gravity: the entry moves towards the bound, so old results fade.
        let h = &mut self.history[i];
        *h += bonus * 1024 - *h * bonus.abs() / 400;
        *h = (*h).clamp(-HISTORY_MAX, HISTORY_MAX);
    }
}
