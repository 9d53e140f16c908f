//! The probe benchmark: random positions of the slices a directory holds, probed for their
//! win/draw/loss and for their exact value, timed.

use crate::index::SliceIndex;
use crate::slice::SliceId;
use crate::tablebase::{ProbeError, Tablebase};
use crate::value::Wdl;
use kharbaga::Position;
use std::time::{Duration, Instant};

/// A small deterministic generator (xorshift64*), so that runs are repeatable.
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed.
    pub fn new(seed: u64) -> Rng {
        Rng(seed.max(1))
    }

    /// The next number.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number below `n` (n > 0).
    pub fn below(&mut self, n: u64) -> u64 {
        ((u128::from(self.next_u64()) * u128::from(n)) >> 64) as u64
    }
}

/// `n` positions drawn uniformly from the places of the given slices (a place drawn
/// again when it is broken), half of them with White to move.
pub fn random_positions(slices: &[SliceId], n: usize, rng: &mut Rng) -> Vec<Position> {
    let indexes: Vec<SliceIndex> = slices.iter().map(|s| SliceIndex::new(*s)).collect();
    let total: u64 = indexes.iter().map(|i| i.len()).sum();
    let mut out = Vec::with_capacity(n);
    while out.len() < n && total > 0 {
        let mut r = rng.below(total);
        let index = indexes
            .iter()
            .find(|i| {
                if r < i.len() {
                    true
                } else {
                    r -= i.len();
                    false
                }
            })
            .expect("r is below the total");
        if let Some(pos) = index.position(r) {
            let pos = if rng.next_u64() & 1 == 1 {
                crate::frame::swap_sides(&pos)
            } else {
                pos
            };
            out.push(pos);
        }
    }
    out
}

/// What a probe run measured.
#[derive(Clone, Debug)]
pub struct ProbeTiming {
    /// Probes made.
    pub probes: usize,
    /// Their total time.
    pub elapsed: Duration,
    /// Wins, draws and losses found (a check that the probes really read the tables).
    pub wdl: [u64; 3],
}

impl ProbeTiming {
    /// Probes a second.
    pub fn per_second(&self) -> f64 {
        self.probes as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

/// Probes every position for its win/draw/loss (`exact`: for its exact value), timed.
pub fn time_probes(
    tb: &Tablebase,
    positions: &[Position],
    exact: bool,
) -> Result<ProbeTiming, ProbeError> {
    let mut wdl = [0u64; 3];
    let start = Instant::now();
    for pos in positions {
        let w = if exact {
            tb.probe(pos)?.wdl()
        } else {
            tb.probe_wdl(pos)?
        };
        wdl[match w {
            Wdl::Win => 0,
            Wdl::Draw => 1,
            Wdl::Loss => 2,
        }] += 1;
    }
    Ok(ProbeTiming {
        probes: positions.len(),
        elapsed: start.elapsed(),
        wdl,
    })
}
