//! Two baseline players to measure the engine against: one that plays a random legal move,
//! and a one-ply greedy player that takes the move leaving it best off in material.

use crate::rng::Rng;
use crate::selfplay::{Failure, FailureKind, Player};
use kharbaga::{Game, Move, Position};

/// Material of the side that just moved minus the other's: men 100, Mullahs 300.
fn material_after(pos: &Position) -> i32 {
    let mover = !pos.turn();
    let value = |c| pos.men(c).count() as i32 * 100 + pos.mullahs(c).count() as i32 * 300;
    value(mover) - value(!mover)
}

/// The failure of a player asked to move where there is no legal move.
fn no_move() -> Failure {
    Failure::new(FailureKind::Crash, "no legal move to choose from")
}

/// Plays a uniformly random legal move.
pub struct RandomPlayer {
    rng: Rng,
}

impl RandomPlayer {
    /// A random player from a seed.
    pub fn new(seed: u64) -> RandomPlayer {
        RandomPlayer {
            rng: Rng::new(seed),
        }
    }
}

impl Player for RandomPlayer {
    fn choose(&mut self, game: &Game) -> Result<Move, Failure> {
        let moves = game.legal_moves();
        if moves.is_empty() {
            return Err(no_move());
        }
        Ok(moves[self.rng.below(moves.len())])
    }
}

/// Plays the move after which its material lead is largest (ties broken at random); a
/// move that leaves the opponent without a legal move wins outright and comes first.
pub struct GreedyPlayer {
    rng: Rng,
}

impl GreedyPlayer {
    /// A greedy player from a seed (for its tie-breaks).
    pub fn new(seed: u64) -> GreedyPlayer {
        GreedyPlayer {
            rng: Rng::new(seed),
        }
    }
}

impl Player for GreedyPlayer {
    fn choose(&mut self, game: &Game) -> Result<Move, Failure> {
        let pos = game.position();
        let rules = game.rules();
        let mut best: Vec<Move> = Vec::new();
        let mut best_value = i32::MIN;
        for mv in game.legal_moves() {
            let next = pos.play(&mv);
            let value = if next.is_blocked(rules) {
                i32::MAX
            } else {
                material_after(&next)
            };
            if value > best_value {
                best_value = value;
                best.clear();
            }
            if value == best_value {
                best.push(mv);
            }
        }
        if best.is_empty() {
            return Err(no_move());
        }
        Ok(best[self.rng.below(best.len())])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kharbaga::Rules;

    #[test]
    fn greedy_takes_the_most_material() {
        // Without the majority rule Black may take one man or two; greedy takes two.
        let rules: Rules = "standard,majority=no".parse().unwrap();
        let pos = Position::from_fen("B:Be3,i1:Wd4,b6,Kf4").unwrap();
        let game = Game::from_position(rules, pos);
        let mv = GreedyPlayer::new(3).choose(&game).unwrap();
        // Two men (200) and the Mullah (300): the Mullah is worth more.
        assert_eq!(mv.to_string(), "e3xg5");
        let mut random = RandomPlayer::new(5);
        let m = random.choose(&game).unwrap();
        assert!(game.legal_moves().contains(&m));
    }
}
