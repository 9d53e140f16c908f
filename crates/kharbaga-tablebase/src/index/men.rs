//! The men sets of one side and size, classed by the left-right mirror: symmetric,
//! canonical (below its mirror image in rank) or mirrored, and numbered within their class.

use super::sets::{binomial, rank_places, unrank_places};
use super::{MAX_MEN, MEN_POINTS};
use crate::frame::mirror;
use kharbaga::Bitboard;
use std::sync::OnceLock;

/// Which men domain: the mover's (ranks 1-8, points 0..36) or the opponent's (ranks 2-9,
/// points 5..41).
#[derive(Copy, Clone)]
pub(super) enum Domain {
    Mover,
    Opponent,
}

impl Domain {
    #[inline]
    fn offset(self) -> u32 {
        match self {
            Domain::Mover => 0,
            Domain::Opponent => 5,
        }
    }
}

/// Kind of a men set under the mirror.
pub(super) const NON_SYMMETRIC: u8 = 0;
pub(super) const SYMMETRIC: u8 = 1;
pub(super) const MIRRORED: u8 = 2;

/// The mirror classes of every `k`-set of one domain.
pub(super) struct MenSets {
    /// For each raw rank: its kind.
    pub(super) kind: Vec<u8>,
    /// For each raw rank of a canonical or symmetric set: its number within its kind.
    pub(super) dense: Vec<u32>,
    /// The raw ranks of the canonical non-symmetric sets, in order.
    pub(super) non_symmetric: Vec<u32>,
    /// The raw ranks of the symmetric sets, in order.
    pub(super) symmetric: Vec<u32>,
}

impl MenSets {
    fn build(domain: Domain, k: usize) -> MenSets {
        let total = binomial(MEN_POINTS, k) as usize;
        let off = domain.offset();
        let mut kind = vec![0u8; total];
        let mut dense = vec![u32::MAX; total];
        let mut non_symmetric = Vec::new();
        let mut symmetric = Vec::new();
        for r in 0..total {
            let places = unrank_places(r as u64, k, MEN_POINTS);
            let points = places << off;
            let mirrored = (mirror(Bitboard(points)).0) >> off;
            let mr = rank_places(mirrored) as usize;
            if mr == r {
                kind[r] = SYMMETRIC;
                dense[r] = symmetric.len() as u32;
                symmetric.push(r as u32);
            } else if r < mr {
                kind[r] = NON_SYMMETRIC;
                dense[r] = non_symmetric.len() as u32;
                non_symmetric.push(r as u32);
            } else {
                kind[r] = MIRRORED;
            }
        }
        MenSets {
            kind,
            dense,
            non_symmetric,
            symmetric,
        }
    }

    /// The shared table of one domain and size, built on first use.
    pub(super) fn get(domain: Domain, k: usize) -> &'static MenSets {
        static TABLES: [[OnceLock<MenSets>; MAX_MEN + 1]; 2] =
            [const { [const { OnceLock::new() }; MAX_MEN + 1] }; 2];
        let d = match domain {
            Domain::Mover => 0,
            Domain::Opponent => 1,
        };
        TABLES[d][k].get_or_init(|| MenSets::build(domain, k))
    }

    pub(super) fn canonical_count(&self) -> u64 {
        (self.non_symmetric.len() + self.symmetric.len()) as u64
    }
}
