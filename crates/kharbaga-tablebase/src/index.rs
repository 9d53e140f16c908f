//! The index: how a position of a slice maps to its place in the slice's table, and back.
//!
//! A position is seen from the side to move (see [`crate::frame`]): the mover's men `M`
//! (never on rank 9, so on the 36 points of ranks 1-8), the opponent's men `O` (never on
//! rank 1: the 36 points of ranks 2-9), the mover's Mullahs `K1` and the opponent's `K2`.
//!
//! * Each men set is ranked by the combinatorial number system over its 36 points
//!   (`rank = sum of C(e_i, i + 1)` over its points' places `e_0 < e_1 < ...` on those 36).
//! * **Mirror.** The left-right mirror keeps a position's value. A men set is *symmetric* if
//!   the mirror maps it to itself, *canonical* if its rank is below its mirror's. A position
//!   whose `M` is neither is mirrored first; so is one whose `M` is symmetric and `O`
//!   neither. The men part of the index is then
//!   `dense_ns(M) * C(36, |O|) + rank(O)` for a canonical, non-symmetric `M` (any `O`), or
//!   `NS * C(36, |O|) + dense_sym(M) * CO + dense(O)` for a symmetric `M`, where `NS` counts
//!   the canonical non-symmetric mover men sets, `CO` the canonical or symmetric opponent men
//!   sets and `dense` numbers each kind in rank order. When both men sets are symmetric the
//!   Mullahs are not folded: such a position and its mirror have two places (with equal
//!   values). Places whose `M` and `O` overlap are no position ("broken").
//! * **Mullahs** go on the `F = 41 - |M| - |O|` points the men leave free: `K1` ranked among
//!   those `F` points, `K2` among the `F - |K1|` left, so the Mullah part is
//!   `rank(K1) * C(F - |K1|, |K2|) + rank(K2)` in a block of `C(F, |K1|) * C(F - |K1|, |K2|)`.
//! * The index is `men_part * block + mullah_part`: the men placement is the high part, so
//!   the positions of one men placement (which only Mullah moves connect) lie together.

use crate::frame::mirror;
use crate::slice::SliceId;
use kharbaga::{Bitboard, Color, Position, Setup, NUM_POINTS};
use std::sync::OnceLock;

/// The version of this index scheme, written in table files.
pub const INDEX_SCHEME: u32 = 1;

/// Points a man may stand on: 36 of the 41.
const MEN_POINTS: usize = 36;
/// The most men of one side an index supports.
const MAX_MEN: usize = 10;

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
const BINOMIAL: [[u64; NUM_POINTS + 1]; NUM_POINTS + 1] = build_binomials();

#[inline]
fn binomial(n: usize, k: usize) -> u64 {
    if k > n {
        0
    } else {
        BINOMIAL[n][k]
    }
}

/// The colex rank of a set given as a bitboard over places `0..n`.
#[inline]
fn rank_places(mut places: u64) -> u64 {
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

/// The `k`-set of places (below `n`) with colex rank `r`.
#[inline]
fn unrank_places(mut r: u64, k: usize, n: usize) -> u64 {
    let mut out = 0u64;
    // Each element is the largest e below the previous one with C(e, i) <= r: a binary
    // search, since C(e, i) grows with e.
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

/// The places of `set` among the points of `free` (each point's place is the number of free
/// points below it).
#[inline]
fn compress(set: u64, free: u64) -> u64 {
    let mut out = 0u64;
    let mut rest = set;
    while rest != 0 {
        let p = rest.trailing_zeros();
        rest &= rest - 1;
        out |= 1u64 << (free & ((1u64 << p) - 1)).count_ones();
    }
    out
}

/// The points of `free` at the given places (the inverse of [`compress`]).
#[inline]
fn expand(places: u64, free: u64) -> u64 {
    let mut out = 0u64;
    let mut f = free;
    let mut place = 0u32;
    let mut rest = places;
    while rest != 0 {
        let want = rest.trailing_zeros();
        rest &= rest - 1;
        while place < want {
            f &= f - 1;
            place += 1;
        }
        out |= f & f.wrapping_neg();
        f &= f - 1;
        place += 1;
    }
    out
}

/// Which men domain: the mover's (ranks 1-8, points 0..36) or the opponent's (ranks 2-9,
/// points 5..41).
#[derive(Copy, Clone)]
enum Domain {
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
const NON_SYMMETRIC: u8 = 0;
const SYMMETRIC: u8 = 1;
const MIRRORED: u8 = 2;

/// The mirror classes of every `k`-set of one domain.
struct MenSets {
    /// For each raw rank: its kind.
    kind: Vec<u8>,
    /// For each raw rank of a canonical or symmetric set: its number within its kind.
    dense: Vec<u32>,
    /// The raw ranks of the canonical non-symmetric sets, in order.
    non_symmetric: Vec<u32>,
    /// The raw ranks of the symmetric sets, in order.
    symmetric: Vec<u32>,
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
    fn get(domain: Domain, k: usize) -> &'static MenSets {
        static TABLES: [[OnceLock<MenSets>; MAX_MEN + 1]; 2] =
            [const { [const { OnceLock::new() }; MAX_MEN + 1] }; 2];
        let d = match domain {
            Domain::Mover => 0,
            Domain::Opponent => 1,
        };
        TABLES[d][k].get_or_init(|| MenSets::build(domain, k))
    }

    fn canonical_count(&self) -> u64 {
        (self.non_symmetric.len() + self.symmetric.len()) as u64
    }
}

/// The index of one slice: its size and the maps between positions and places.
pub struct SliceIndex {
    slice: SliceId,
    mover: &'static MenSets,
    opp: &'static MenSets,
    /// `C(36, |O|)`: opponent men sets, canonical or not.
    opp_all: u64,
    /// Canonical or symmetric opponent men sets.
    opp_canonical: u64,
    /// Men placements whose `M` is canonical and not symmetric.
    ns_part: u64,
    /// `C(F - |K1|, |K2|)`.
    k2_count: u64,
    /// Positions per men placement.
    block: u64,
    len: u64,
}

/// The men part of a place (see [`SliceIndex::men_part`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct MenPart {
    men_m: u64,
    men_o: u64,
    men: u64,
    mirrored: bool,
    occupied: u64,
}

impl MenPart {
    /// Whether the setup has the men this part was made from.
    #[inline]
    pub fn same_men(&self, s: &Setup) -> bool {
        (s.black & !s.mullahs).0 == self.men_m && (s.white & !s.mullahs).0 == self.men_o
    }
}

/// Where a position lies in its table, and whether it had to be mirrored to get there.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Place {
    /// The index in the table.
    pub index: u64,
    /// Whether the position is the mirror image of the one the index stands for.
    pub mirrored: bool,
}

impl SliceIndex {
    /// The index of a slice. Panics if a side has more than 10 men.
    pub fn new(slice: SliceId) -> SliceIndex {
        let (m, k1, o, k2) = slice.counts();
        let (m, k1, o, k2) = (m as usize, k1 as usize, o as usize, k2 as usize);
        assert!(m <= MAX_MEN && o <= MAX_MEN, "too many men for the index");
        let mover = MenSets::get(Domain::Mover, m);
        let opp = MenSets::get(Domain::Opponent, o);
        let opp_all = binomial(MEN_POINTS, o);
        let opp_canonical = opp.canonical_count();
        let ns_part = mover.non_symmetric.len() as u64 * opp_all;
        let men = ns_part + mover.symmetric.len() as u64 * opp_canonical;
        let free = NUM_POINTS - m - o;
        let k2_count = binomial(free - k1, k2);
        let block = binomial(free, k1) * k2_count;
        SliceIndex {
            slice,
            mover,
            opp,
            opp_all,
            opp_canonical,
            ns_part,
            k2_count,
            block,
            len: men * block,
        }
    }

    /// The slice.
    pub fn slice(&self) -> SliceId {
        self.slice
    }

    /// The number of places (positions, their unfolded mirror images where both men sets
    /// are symmetric, and broken places).
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Whether the table has no places (never: each side has a piece).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Places per men placement: the positions a Mullah move can reach without leaving it.
    pub fn block(&self) -> u64 {
        self.block
    }

    /// The place of a position of this slice seen from the side to move (Black to move:
    /// see [`crate::frame::mover_frame`]). The caller guarantees the material matches.
    #[inline]
    pub fn place(&self, pos: &Position) -> Place {
        debug_assert_eq!(pos.turn(), Color::Black);
        self.place_setup(&pos.to_setup())
    }

    /// [`SliceIndex::place`] of a setup that is a legal position of the slice, Black to
    /// move.
    #[inline]
    pub fn place_setup(&self, s: &Setup) -> Place {
        self.place_with(&self.men_part(s), s)
    }

    /// The men part of a setup's place: what all positions with its men share (the
    /// generator reuses it for every Mullah move of a position).
    #[inline]
    pub fn men_part(&self, s: &Setup) -> MenPart {
        let men_m = (s.black & !s.mullahs).0;
        let men_o = (s.white & !s.mullahs).0;
        let rm = rank_places(men_m) as usize;
        let (men, mirrored) = match self.mover.kind[rm] {
            NON_SYMMETRIC => {
                let ro = rank_places(men_o >> 5);
                (u64::from(self.mover.dense[rm]) * self.opp_all + ro, false)
            }
            SYMMETRIC => {
                let ro = rank_places(men_o >> 5) as usize;
                let (ro, mirrored) = if self.opp.kind[ro] == MIRRORED {
                    (rank_places(mirror(Bitboard(men_o)).0 >> 5) as usize, true)
                } else {
                    (ro, false)
                };
                let dense_o = if self.opp.kind[ro] == SYMMETRIC {
                    self.opp.non_symmetric.len() as u64 + u64::from(self.opp.dense[ro])
                } else {
                    u64::from(self.opp.dense[ro])
                };
                let men =
                    self.ns_part + u64::from(self.mover.dense[rm]) * self.opp_canonical + dense_o;
                (men, mirrored)
            }
            _ => {
                let m = |b: u64| mirror(Bitboard(b)).0;
                let rm = rank_places(m(men_m)) as usize;
                debug_assert_eq!(self.mover.kind[rm], NON_SYMMETRIC);
                let ro = rank_places(m(men_o) >> 5);
                (u64::from(self.mover.dense[rm]) * self.opp_all + ro, true)
            }
        };
        let occupied = men_m | men_o;
        MenPart {
            men_m,
            men_o,
            men,
            mirrored,
            occupied: if mirrored {
                mirror(Bitboard(occupied)).0
            } else {
                occupied
            },
        }
    }

    /// The place of a setup whose men part is `part` (from [`SliceIndex::men_part`] of a
    /// setup with the same men).
    #[inline]
    pub fn place_with(&self, part: &MenPart, s: &Setup) -> Place {
        debug_assert!(part.same_men(s));
        let k1 = (s.black & s.mullahs).0;
        let k2 = (s.white & s.mullahs).0;
        let (k1, k2) = if part.mirrored {
            (mirror(Bitboard(k1)).0, mirror(Bitboard(k2)).0)
        } else {
            (k1, k2)
        };
        Place {
            index: self.with_mullahs(part.men, part.occupied, k1, k2),
            mirrored: part.mirrored,
        }
    }

    #[inline]
    fn with_mullahs(&self, men: u64, occupied: u64, k1: u64, k2: u64) -> u64 {
        let free = Bitboard::FULL.0 & !occupied;
        let r1 = rank_places(compress(k1, free));
        let r2 = rank_places(compress(k2, free & !k1));
        men * self.block + r1 * self.k2_count + r2
    }

    /// The index of a position (see [`SliceIndex::place`]).
    #[inline]
    pub fn index(&self, pos: &Position) -> u64 {
        self.place(pos).index
    }

    /// The men sets of a men placement number.
    fn men_sets(&self, men: u64) -> (u64, u64) {
        let (m, _, o, _) = self.slice.counts();
        let (rm, ro) = if men < self.ns_part {
            let rm = self.mover.non_symmetric[(men / self.opp_all) as usize];
            (u64::from(rm), men % self.opp_all)
        } else {
            let j = men - self.ns_part;
            let rm = self.mover.symmetric[(j / self.opp_canonical) as usize];
            let t = (j % self.opp_canonical) as usize;
            let ns = self.opp.non_symmetric.len();
            let ro = if t < ns {
                self.opp.non_symmetric[t]
            } else {
                self.opp.symmetric[t - ns]
            };
            (u64::from(rm), u64::from(ro))
        };
        (
            unrank_places(rm, m as usize, MEN_POINTS),
            unrank_places(ro, o as usize, MEN_POINTS) << 5,
        )
    }

    /// The position at a place, Black to move, or None for a broken place.
    pub fn position(&self, index: u64) -> Option<Position> {
        self.position_cached(index, &mut None)
    }

    /// [`SliceIndex::position`], reusing the men sets of the last place decoded with the
    /// same cache when it has the same men placement (places come in blocks of one).
    pub fn position_cached(
        &self,
        index: u64,
        cache: &mut Option<(u64, u64, u64)>,
    ) -> Option<Position> {
        if index >= self.len {
            return None;
        }
        let (_, k1n, _, k2n) = self.slice.counts();
        let men = index / self.block;
        let (men_m, men_o) = match *cache {
            Some((m, a, b)) if m == men => (a, b),
            _ => {
                let (a, b) = self.men_sets(men);
                *cache = Some((men, a, b));
                (a, b)
            }
        };
        if men_m & men_o != 0 {
            return None;
        }
        let rest = index % self.block;
        let free = Bitboard::FULL.0 & !(men_m | men_o);
        let k1 = expand(
            unrank_places(
                rest / self.k2_count,
                k1n as usize,
                free.count_ones() as usize,
            ),
            free,
        );
        let k2 = expand(
            unrank_places(
                rest % self.k2_count,
                k2n as usize,
                (free & !k1).count_ones() as usize,
            ),
            free & !k1,
        );
        Position::from_setup(Setup {
            black: Bitboard(men_m | k1),
            white: Bitboard(men_o | k2),
            mullahs: Bitboard(k1 | k2),
            turn: Color::Black,
        })
        .ok()
    }

    /// Whether the place stands for a position and its mirror image (false where both men
    /// sets are symmetric, which gives the mirror image a place of its own).
    pub fn folds_mirror(&self, index: u64) -> bool {
        let men = index / self.block;
        if men < self.ns_part {
            return true;
        }
        let t = (men - self.ns_part) % self.opp_canonical;
        t < self.opp.non_symmetric.len() as u64
    }
}

/// Whether `p` is its own mirror image (for tests and statistics).
pub fn is_mirror_symmetric(pos: &Position) -> bool {
    let s = pos.to_setup();
    let m = |b: Bitboard| mirror(b) == b;
    m(s.black) && m(s.white) && m(s.mullahs)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frame::mirror_position;

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
        assert_eq!(compress(0b1000_0010, free), 0b1_0001);
        assert_eq!(expand(0b1_0001, free), 0b1000_0010);
    }

    /// Every place of small slices maps to a position that maps back to it, and every
    /// position (and its mirror) of the slice has a place.
    #[test]
    fn round_trip_every_place_of_small_slices() {
        for name in [
            "0m1k-0m1k",
            "1m0k-1m0k",
            "1m1k-0m1k",
            "0m1k-2m0k",
            "2m0k-1m0k",
            "1m0k-1m1k",
        ] {
            let slice: SliceId = name.parse().unwrap();
            let index = SliceIndex::new(slice);
            let mut positions = 0u64;
            for i in 0..index.len() {
                let Some(pos) = index.position(i) else {
                    continue;
                };
                positions += 1;
                assert_eq!(SliceId::of(&pos), Some(slice));
                let place = index.place(&pos);
                assert_eq!(
                    place,
                    Place {
                        index: i,
                        mirrored: false
                    },
                    "{name} {i}"
                );
                let m = mirror_position(&pos);
                let mp = index.place(&m);
                if index.folds_mirror(i) {
                    assert_eq!(mp.index, i, "{name} mirror of {i}");
                    assert_eq!(mp.mirrored, m != pos);
                } else {
                    assert_eq!(index.position(mp.index), Some(m));
                }
            }
            // Count the slice's positions directly: every placement, folded by the mirror.
            let (a, b, c, d) = slice.counts();
            let all = count_placements(a as usize, b as usize, c as usize, d as usize);
            let (sym, _) = count_symmetric_classes(slice);
            assert_eq!(positions, (all + sym) / 2 + unfolded_extra(slice), "{name}");
        }
    }

    fn count_placements(a: usize, b: usize, c: usize, d: usize) -> u64 {
        // Brute force over point sets is too slow beyond 2 pieces per group; count by
        // inclusion: men first (mover on points 0..36, opponent on 5..41, disjoint).
        let mut n = 0u64;
        let mover_sets: Vec<u64> = (0..binomial(36, a))
            .map(|r| unrank_places(r, a, 36))
            .collect();
        let opp_sets: Vec<u64> = (0..binomial(36, c))
            .map(|r| unrank_places(r, c, 36) << 5)
            .collect();
        for &m in &mover_sets {
            for &o in &opp_sets {
                if m & o == 0 {
                    let free = NUM_POINTS - a - c;
                    n += binomial(free, b) * binomial(free - b, d);
                }
            }
        }
        n
    }

    /// Positions that are their own mirror image, and placements with both men sets
    /// symmetric, by brute force over the index's own positions.
    fn count_symmetric_classes(slice: SliceId) -> (u64, u64) {
        let index = SliceIndex::new(slice);
        let mut sym = 0;
        let mut unfolded = 0;
        for i in 0..index.len() {
            if let Some(p) = index.position(i) {
                if is_mirror_symmetric(&p) {
                    sym += 1;
                }
                if !index.folds_mirror(i) {
                    unfolded += 1;
                }
            }
        }
        (sym, unfolded)
    }

    /// Unfolded places hold both a position and its mirror: (pairs counted twice) minus
    /// what the folded count assumed.
    fn unfolded_extra(slice: SliceId) -> u64 {
        let index = SliceIndex::new(slice);
        let mut extra = 0;
        for i in 0..index.len() {
            if let Some(p) = index.position(i) {
                if !index.folds_mirror(i) && !is_mirror_symmetric(&p) {
                    extra += 1;
                }
            }
        }
        // Those positions come in mirror pairs, each counted as half a class above.
        extra / 2
    }
}
