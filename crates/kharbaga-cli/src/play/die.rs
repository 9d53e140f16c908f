//! The die that decides who starts.

use super::console::Console;
use crate::args::CliError;
use kharbaga::Color;

/// A small random generator (SplitMix64) for the die.
pub(super) struct Die(u64);

/// The seed in `KHARBAGA_SEED`, if it is set.
pub(super) fn seed_from_env() -> Result<Option<u64>, CliError> {
    match std::env::var("KHARBAGA_SEED") {
        Ok(text) => text.trim().parse::<u64>().map(Some).map_err(|_| {
            CliError::Input(format!(
                "KHARBAGA_SEED must be a whole number from 0 to {}, not '{text}'",
                u64::MAX
            ))
        }),
        Err(_) => Ok(None),
    }
}

impl Die {
    /// Seeded from `KHARBAGA_SEED` when it is set, otherwise from the clock and process id.
    pub(super) fn from_env() -> Result<Die, CliError> {
        Ok(Die(seed_from_env()?.unwrap_or_else(|| {
            let nanos = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos() as u64);
            nanos ^ (u64::from(std::process::id()) << 32)
        })))
    }

    /// A roll, 1 to 6.
    pub(super) fn roll(&mut self) -> u8 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^= z >> 31;
        // The high part of z * 6 is uniform on 0..6 up to a bias of 6 / 2^64.
        ((u128::from(z) * 6) >> 64) as u8 + 1
    }
}

/// Rolls for each side until the rolls differ; the higher roll starts.
pub(super) fn roll_for_first(die: &mut Die, console: &mut Console) -> Color {
    loop {
        let (black, white) = (die.roll(), die.roll());
        console.say(&format!(
            "Die roll for the first move: Black {black}, White {white}."
        ));
        if black != white {
            let first = if black > white {
                Color::Black
            } else {
                Color::White
            };
            console.say(&format!("{first} starts."));
            return first;
        }
        console.say("A tie: rolling again.");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_die_is_fair_and_repeatable() {
        let mut die = Die(7);
        let mut counts = [0u32; 6];
        for _ in 0..60_000 {
            counts[usize::from(die.roll() - 1)] += 1;
        }
        // Each face expects 10 000; 5 standard deviations is about 460.
        for c in counts {
            assert!((9_500..=10_500).contains(&c), "{counts:?}");
        }
        let rolls = |seed| {
            let mut d = Die(seed);
            (0..10).map(|_| d.roll()).collect::<Vec<_>>()
        };
        assert_eq!(rolls(42), rolls(42));
        assert_ne!(rolls(42), rolls(43));
    }
}
