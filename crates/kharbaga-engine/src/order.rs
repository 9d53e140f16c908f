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
    /// The keys of each ply's moves ([`Orderer::score_moves`]): a move's score above its
    /// complemented index, in the order the moves are in now.
    keys: Vec<Vec<i64>>,
}

impl Default for Orderer {
    fn default() -> Orderer {
        Orderer {
            killers: vec![[None; 2]; MAX_PLY + 1],
            history: vec![0; 2 * NUM_POINTS * NUM_POINTS],
            keys: (0..=MAX_PLY).map(|_| Vec::with_capacity(64)).collect(),
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
        self.score_moves(pos, moves, tt_move, ply);
        for i in 0..moves.len() {
            self.pick(moves, i, ply);
        }
    }

    /// Scores the moves of `ply` for [`Orderer::pick`], which then brings them forward best
    /// first, one at a time: a node cut off after its first moves does not order the rest.
    pub fn score_moves(
        &mut self,
        pos: &Position,
        moves: &[Move],
        tt_move: Option<MoveKey>,
        ply: usize,
    ) {
        if moves.len() < 2 {
            return;
        }
        let ply = ply.min(MAX_PLY);
        let killers = self.killers[ply];
        let mut keys = std::mem::take(&mut self.keys[ply]);
        keys.clear();
        // One key per move, the score above its complemented index: all keys differ, and
        // of equal scores the earlier move has the larger key (a stable order).
        keys.extend(moves.iter().enumerate().map(|(i, m)| {
            (i64::from(self.score(pos, m, tt_move, &killers)) << 16) | i64::from(!(i as u16))
        }));
        self.keys[ply] = keys;
    }

    /// Brings the best of `moves[i..]` (scored by [`Orderer::score_moves`] at `ply`, the
    /// moves before `i` picked already) to `moves[i]`: picked for `i` = 0, 1, ... in turn,
    /// the moves are in the order [`Orderer::sort`] gives.
    #[inline]
    pub fn pick(&mut self, moves: &mut [Move], i: usize, ply: usize) {
        if i + 1 >= moves.len() {
            return;
        }
        let keys = &mut self.keys[ply.min(MAX_PLY)];
        let rest = &keys[i..moves.len()];
        // The largest key found without a branch a key, then its place.
        let most = rest.iter().copied().max().expect("a move left");
        let j = i + rest.iter().position(|&k| k == most).expect("it is there");
        keys.swap(i, j);
        moves.swap(i, j);
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

#[cfg(test)]
mod tests {
    use super::*;
    use kharbaga::Rules;

    #[test]
    fn moves_picked_in_turn_come_best_first_and_equals_in_the_generators_order() {
        let rules = Rules::standard();
        let mut order = Orderer::default();
        let mut tested = 0;
        for fen in crate::bench::POSITIONS {
            let pos = Position::from_fen(fen).unwrap();
            let moves = pos.legal_moves(&rules);
            if moves.len() < 3 {
                continue;
            }
            // Some history, a killer and a table move, so that the scores differ.
            order.cutoff(&pos, &moves[1], 3, 6, &moves[..1]);
            order.cutoff(&pos, &moves[2], 3, 4, &moves[..2]);
            let tt_move = Some(MoveKey::of(&moves[moves.len() - 1]));
            let killers = order.killers[3];
            // The reference: a stable sort by score, best first.
            let mut expected: Vec<(usize, Move)> = moves.iter().copied().enumerate().collect();
            expected
                .sort_by_key(|(_, m)| std::cmp::Reverse(order.score(&pos, m, tt_move, &killers)));
            let mut picked = moves.clone();
            order.score_moves(&pos, &picked, tt_move, 3);
            for i in 0..picked.len() {
                order.pick(&mut picked, i, 3);
            }
            let expected: Vec<Move> = expected.into_iter().map(|(_, m)| m).collect();
            assert_eq!(picked, expected, "{fen}");
            let mut sorted = moves.clone();
            order.sort(&pos, &mut sorted, tt_move, 3);
            assert_eq!(sorted, expected, "{fen}");
            assert_eq!(picked[0], moves[moves.len() - 1], "the table move first");
            tested += 1;
        }
        assert!(tested >= 5, "{tested} positions with three moves or more");
    }
}
