//! Playing levels 1 (beginner) to 10 (full strength).
//!
//! Below level 10 the engine searches to a small depth, scores every root move, adds
//! random noise to the scores and sometimes plays a random move outright; lower levels
//! see less and err more.

use crate::rng::Rng;

/// How one level plays.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Level {
    /// The level, 1..=10.
    pub level: u8,
    /// The deepest search, or `None` for no limit.
    pub max_depth: Option<u32>,
    /// The standard deviation of the noise added to each root move's score, in centi-men.
    pub noise: f64,
    /// The chance of playing a random legal move instead.
    pub blunder: f64,
}

/// The levels, from 1 to 10.
const LEVELS: [(Option<u32>, f64, f64); 10] = [
    (Some(1), 250.0, 0.30),
    (Some(1), 120.0, 0.15),
    (Some(2), 80.0, 0.08),
    (Some(2), 40.0, 0.04),
    (Some(3), 25.0, 0.02),
    (Some(4), 15.0, 0.0),
    (Some(5), 8.0, 0.0),
    (Some(6), 0.0, 0.0),
    (Some(8), 0.0, 0.0),
    (None, 0.0, 0.0),
];

impl Level {
    /// The lowest level.
    pub const MIN: u8 = 1;
    /// Full strength.
    pub const MAX: u8 = 10;

    /// The settings of `level` (clamped to 1..=10).
    pub fn new(level: u8) -> Level {
        let level = level.clamp(Level::MIN, Level::MAX);
        let (max_depth, noise, blunder) = LEVELS[level as usize - 1];
        Level {
            level,
            max_depth,
            noise,
            blunder,
        }
    }

    /// Whether the level picks among scored root moves at random (and so needs every root
    /// move scored).
    pub fn randomized(&self) -> bool {
        self.noise > 0.0 || self.blunder > 0.0
    }

    /// Picks the index of the move to play among root moves with these `scores` (exact
    /// scores of every move, best first).
    pub fn pick(&self, scores: &[i32], rng: &mut Rng) -> usize {
        if scores.len() <= 1 {
            return 0;
        }
        if rng.unit() < self.blunder {
            return rng.below(scores.len());
        }
        let mut best = 0;
        let mut best_value = f64::NEG_INFINITY;
        for (i, &s) in scores.iter().enumerate() {
            let value = s as f64 + rng.gaussian(self.noise);
            if value > best_value {
                best_value = value;
                best = i;
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_are_ordered() {
        for l in 2..=10 {
            let (a, b) = (Level::new(l - 1), Level::new(l));
            assert!(a.noise >= b.noise && a.blunder >= b.blunder);
            assert!(b.max_depth.unwrap_or(u32::MAX) >= a.max_depth.unwrap_or(u32::MAX));
        }
        assert_eq!(Level::new(0).level, 1);
        assert_eq!(Level::new(99).level, 10);
        assert!(!Level::new(10).randomized());
    }

    #[test]
    fn full_strength_picks_the_best() {
        let mut rng = Rng::new(1);
        assert_eq!(Level::new(10).pick(&[50, 10, -30], &mut rng), 0);
        // Level 1 sometimes picks a worse move.
        let l1 = Level::new(1);
        let worse = (0..200)
            .filter(|_| l1.pick(&[50, 10, -30], &mut rng) != 0)
            .count();
        assert!(worse > 20, "{worse}");
    }
}
