//! Zobrist keys for hashing positions, generated at compile time.

use crate::color::Color;
use crate::point::{Point, NUM_POINTS};

const fn splitmix64(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (state, z ^ (z >> 31))
}

const fn build_keys() -> ([[[u64; NUM_POINTS]; 2]; 2], u64) {
    let mut keys = [[[0u64; NUM_POINTS]; 2]; 2];
    let mut state = 0x6B68_6172_6261_6761; // "kharbaga"
    let mut c = 0;
    while c < 2 {
        let mut k = 0;
        while k < 2 {
            let mut p = 0;
            while p < NUM_POINTS {
                let (s, v) = splitmix64(state);
                state = s;
                keys[c][k][p] = v;
                p += 1;
            }
            k += 1;
        }
        c += 1;
    }
    let (_, turn) = splitmix64(state);
    (keys, turn)
}

const KEYS: ([[[u64; NUM_POINTS]; 2]; 2], u64) = build_keys();

/// The key of a piece: its colour, whether it is a Mullah, and its point.
#[inline]
pub fn piece_key(color: Color, mullah: bool, p: Point) -> u64 {
    KEYS.0[color.index()][mullah as usize][p.index()]
}

/// The key xored in when White is to move.
pub const WHITE_TO_MOVE: u64 = KEYS.1;
