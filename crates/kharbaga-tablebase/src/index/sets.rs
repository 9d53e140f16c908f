//! Point sets as numbers: binomial coefficients, the colex rank of a set and its inverse,
//! the next set in colex order, and a set's rank among the points another set leaves free.
//! The index is built of these.

use kharbaga::NUM_POINTS;
use std::sync::OnceLock;

const fn build_binomials() -> [[u64; NUM_POINTS + 1]; NUM_POINTS + 1] {
    let mut c = [[0u64; NUM_POINTS + 1]; NUM_POINTS + 1];
    let mut n = 0;
    while n <= NUM_POINTS {
        c[n][0] = 1;
        let mut k = 1;
        while k <= n {
            c[n][k] = c[n - 1][k - 1] + if k < n { c[n - 1][k] } else { 0 };
            k += 1;
        }
        n += 1;
    }
    c
}

/// `BINOMIAL[n][k]`: the number of `k`-sets of `n` things.
pub(super) const BINOMIAL: [[u64; NUM_POINTS + 1]; NUM_POINTS + 1] = build_binomials();

#[inline]
pub(super) fn binomial(n: usize, k: usize) -> u64 {
    if k > n {
        0
    } else {
        BINOMIAL[n][k]
    }
}

/// The colex rank of a set given as a bitboard over places `0..n`.
#[inline]
pub(super) fn rank_places(mut places: u64) -> u64 {
    let mut r = 0;
    let mut i = 1;
    while places != 0 {
        let e = places.trailing_zeros() as usize;
        places &= places - 1;
        r += BINOMIAL[e][i];
        i += 1;
    }
    r
}

/// The largest set size whose colex unranking is a table lookup.
pub(super) const UNRANK_TABLE_MAX: usize = 5;

/// `UNRANK[k][r]`: the `k`-set of places (below 41) with colex rank `r`, built on first use.
/// The colex rank of a set does not depend on how many places there are, so one table
/// serves every `n`.
fn unrank_table(k: usize) -> &'static [u64] {
    static TABLES: [OnceLock<Vec<u64>>; UNRANK_TABLE_MAX + 1] =
        [const { OnceLock::new() }; UNRANK_TABLE_MAX + 1];
    TABLES[k].get_or_init(|| {
        (0..binomial(NUM_POINTS, k))
            .map(|r| unrank_search(r, k, NUM_POINTS))
            .collect()
    })
}

/// The `k`-set of places (below `n`) with colex rank `r`.
#[inline]
pub(super) fn unrank_places(r: u64, k: usize, n: usize) -> u64 {
    match k {
        0 => 0,
        1 => 1u64 << r,
        _ if k <= UNRANK_TABLE_MAX && n <= NUM_POINTS => unrank_table(k)[r as usize],
        _ => unrank_search(r, k, n),
    }
}

/// [`unrank_places`] by search: each element is the largest `e` below the previous one with
/// `C(e, i) <= r`, found by bisection since `C(e, i)` grows with `e`.
pub(super) fn unrank_search(mut r: u64, k: usize, n: usize) -> u64 {
    let mut out = 0u64;
    let mut high = n;
    for i in (1..=k).rev() {
        let (mut lo, mut hi) = (i - 1, high - 1);
        while lo < hi {
            let mid = (lo + hi).div_ceil(2);
            if BINOMIAL[mid][i] <= r {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        r -= BINOMIAL[lo][i];
        out |= 1u64 << lo;
        high = lo;
    }
    out
}

/// The next set of as many places in colex order (the next larger number with as many bits
/// set). `set` must not be empty.
#[inline]
pub(super) fn next_colex(set: u64) -> u64 {
    let t = set | (set - 1);
    (t + 1) | (((!t & t.wrapping_add(1)) - 1) >> (set.trailing_zeros() + 1))
}

/// The colex rank of `set` among the points of `free` (each point's place is the number of
/// free points below it): the rank of the set's places.
#[inline]
pub(super) fn rank_among(set: u64, free: u64) -> u64 {
    let mut r = 0;
    let mut i = 1;
    let mut rest = set;
    while rest != 0 {
        let p = rest.trailing_zeros();
        rest &= rest - 1;
        r += BINOMIAL[(free & ((1u64 << p) - 1)).count_ones() as usize][i];
        i += 1;
    }
    r
}

const fn build_select() -> [[u8; 8]; 256] {
    let mut t = [[8u8; 8]; 256];
    let mut b = 0;
    while b < 256 {
        let mut j = 0;
        let mut bit = 0;
        while bit < 8 {
            if b & (1 << bit) != 0 {
                t[b][j] = bit as u8;
                j += 1;
            }
            bit += 1;
        }
        b += 1;
    }
    t
}

/// `SELECT[b][j]`: the bit of the `j`-th set bit of the byte `b`, counting from 0.
const SELECT: [[u8; 8]; 256] = build_select();

/// The points of `free` at the given places (each below the number of free points), a byte
/// of `free` at a time.
#[inline]
pub(super) fn expand(places: u64, free: u64) -> u64 {
    let mut out = 0u64;
    let mut rest = places;
    let mut below = 0u32;
    let mut shift = 0;
    while rest != 0 {
        let byte = ((free >> shift) & 0xFF) as usize;
        let here = below + byte.count_ones();
        while rest != 0 && rest.trailing_zeros() < here {
            let j = (rest.trailing_zeros() - below) as usize;
            out |= 1u64 << (shift + u32::from(SELECT[byte][j]));
            rest &= rest - 1;
        }
        below = here;
        shift += 8;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binomials_and_ranks() {
        assert_eq!(binomial(41, 6), 4_496_388);
        assert_eq!(binomial(36, 3), 7140);
        for k in 0..4 {
            for r in 0..binomial(12, k) {
                assert_eq!(rank_places(unrank_places(r, k, 12)), r);
            }
        }
        let free = 0b1011_0110u64;
        assert_eq!(expand(0b1_0001, free), 0b1000_0010);
        // Places 0 and 4 of free: the rank of {0, 4} is C(0, 1) + C(4, 2).
        assert_eq!(rank_among(0b1000_0010, free), 6);
        for r in 0..binomial(5, 2) {
            assert_eq!(rank_among(expand(unrank_places(r, 2, 5), free), free), r);
        }
    }

    #[test]
    fn next_colex_follows_the_ranks() {
        for k in 1..=4 {
            let mut set = unrank_places(0, k, 20);
            for r in 0..binomial(20, k) {
                assert_eq!(set, unrank_search(r, k, 20), "{k} {r}");
                assert_eq!(rank_places(set), r);
                set = next_colex(set);
            }
        }
        for k in 0..=UNRANK_TABLE_MAX {
            for r in (0..binomial(NUM_POINTS, k)).step_by(97) {
                assert_eq!(
                    unrank_places(r, k, NUM_POINTS),
                    unrank_search(r, k, NUM_POINTS)
                );
            }
        }
    }
}
