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
//!   sets and `dense` numbers each kind in rank order. When both men sets are symmetric
//!   (every all-Mullah slice: no men at all) the Mullahs decide: of a position and its mirror
//!   image, the one with the lower Mullah part (below) has the place, and the other's place is
//!   broken. Places whose `M` and `O` overlap are no position ("broken") either.
//! * **Mullahs** go on the `F = 41 - |M| - |O|` points the men leave free: `K1` ranked among
//!   those `F` points, `K2` among the `F - |K1|` left, so the Mullah part is
//!   `rank(K1) * C(F - |K1|, |K2|) + rank(K2)` in a block of `C(F, |K1|) * C(F - |K1|, |K2|)`.
//! * The index is `men_part * block + mullah_part`: the men placement is the high part, so
//!   the positions of one men placement (which only Mullah moves connect) lie together.

mod men;
mod sets;

use crate::frame::mirror;
use crate::slice::SliceId;
use kharbaga::{Bitboard, Color, Position, Setup, NUM_POINTS};
use men::{Domain, MenSets, MIRRORED, NON_SYMMETRIC, SYMMETRIC};
use sets::{binomial, expand, next_colex, rank_among, rank_places, unrank_places};

/// The version of this index scheme, written in table files.
pub const INDEX_SCHEME: u32 = 2;

/// Points a man may stand on: 36 of the 41.
const MEN_POINTS: usize = 36;
/// The most men of one side an index supports.
const MAX_MEN: usize = 10;

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
    /// Both men sets are their own mirror images: the Mullahs choose between a position and
    /// its mirror image.
    symmetric: bool,
    occupied: u64,
}

impl MenPart {
    /// Whether the setup has the men this part was made from.
    #[inline]
    pub fn same_men(&self, s: &Setup) -> bool {
        (s.black & !s.mullahs).0 == self.men_m && (s.white & !s.mullahs).0 == self.men_o
    }
}

/// The men sets of the last men placement decoded (see [`SliceIndex::position_cached`]); a
/// cache serves one index.
#[derive(Copy, Clone, Debug, Default)]
pub struct DecodeCache(Option<(u64, u64, u64, bool)>);

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

    /// The number of places (positions, each standing for its mirror image too, and broken
    /// places).
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
        let (men, mirrored, symmetric) = match self.mover.kind[rm] {
            NON_SYMMETRIC => {
                let ro = rank_places(men_o >> 5);
                (
                    u64::from(self.mover.dense[rm]) * self.opp_all + ro,
                    false,
                    false,
                )
            }
            SYMMETRIC => {
                let ro = rank_places(men_o >> 5) as usize;
                let (ro, mirrored) = if self.opp.kind[ro] == MIRRORED {
                    (rank_places(mirror(Bitboard(men_o)).0 >> 5) as usize, true)
                } else {
                    (ro, false)
                };
                let symmetric = self.opp.kind[ro] == SYMMETRIC;
                let dense_o = if symmetric {
                    self.opp.non_symmetric.len() as u64 + u64::from(self.opp.dense[ro])
                } else {
                    u64::from(self.opp.dense[ro])
                };
                let men =
                    self.ns_part + u64::from(self.mover.dense[rm]) * self.opp_canonical + dense_o;
                (men, mirrored, symmetric)
            }
            _ => {
                let m = |b: u64| mirror(Bitboard(b)).0;
                let rm = rank_places(m(men_m)) as usize;
                debug_assert_eq!(self.mover.kind[rm], NON_SYMMETRIC);
                let ro = rank_places(m(men_o) >> 5);
                (
                    u64::from(self.mover.dense[rm]) * self.opp_all + ro,
                    true,
                    false,
                )
            }
        };
        let occupied = men_m | men_o;
        MenPart {
            men_m,
            men_o,
            men,
            mirrored,
            symmetric,
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
        let index = self.with_mullahs(part.men, part.occupied, k1, k2);
        if part.symmetric {
            let (m1, m2) = (mirror(Bitboard(k1)).0, mirror(Bitboard(k2)).0);
            let image = self.with_mullahs(part.men, part.occupied, m1, m2);
            if image < index {
                return Place {
                    index: image,
                    mirrored: true,
                };
            }
        }
        Place {
            index,
            mirrored: part.mirrored,
        }
    }

    #[inline]
    fn with_mullahs(&self, men: u64, occupied: u64, k1: u64, k2: u64) -> u64 {
        let free = Bitboard::FULL.0 & !occupied;
        let r1 = rank_among(k1, free);
        let r2 = rank_among(k2, free & !k1);
        men * self.block + r1 * self.k2_count + r2
    }

    /// The index of a position (see [`SliceIndex::place`]).
    #[inline]
    pub fn index(&self, pos: &Position) -> u64 {
        self.place(pos).index
    }

    /// The men sets of a men placement number, and whether both are their own mirror
    /// images.
    fn men_sets(&self, men: u64) -> (u64, u64, bool) {
        let (m, _, o, _) = self.slice.counts();
        let (rm, ro, symmetric) = if men < self.ns_part {
            let rm = self.mover.non_symmetric[(men / self.opp_all) as usize];
            (u64::from(rm), men % self.opp_all, false)
        } else {
            let j = men - self.ns_part;
            let rm = self.mover.symmetric[(j / self.opp_canonical) as usize];
            let t = (j % self.opp_canonical) as usize;
            let ns = self.opp.non_symmetric.len();
            let (ro, symmetric) = if t < ns {
                (self.opp.non_symmetric[t], false)
            } else {
                (self.opp.symmetric[t - ns], true)
            };
            (u64::from(rm), u64::from(ro), symmetric)
        };
        (
            unrank_places(rm, m as usize, MEN_POINTS),
            unrank_places(ro, o as usize, MEN_POINTS) << 5,
            symmetric,
        )
    }

    /// The position at a place, Black to move, or None for a broken place.
    pub fn position(&self, index: u64) -> Option<Position> {
        self.position_cached(index, &mut DecodeCache::default())
    }

    /// [`SliceIndex::position`], reusing the men sets of the last place decoded with the
    /// same cache where it has the same men placement (as places near each other mostly do).
    pub fn position_cached(&self, index: u64, cache: &mut DecodeCache) -> Option<Position> {
        if index >= self.len {
            return None;
        }
        let men = index / self.block;
        let (men_m, men_o, symmetric) = match cache.0 {
            Some((m, a, b, s)) if m == men => (a, b, s),
            _ => {
                let (a, b, s) = self.men_sets(men);
                cache.0 = Some((men, a, b, s));
                (a, b, s)
            }
        };
        let rest = index % self.block;
        self.setup_at(
            men_m,
            men_o,
            symmetric,
            rest / self.k2_count,
            rest % self.k2_count,
        )
        .map(|s| Position::from_setup(s).expect("a place's setup is a legal position"))
    }

    /// The setup of a men placement and Mullah ranks, or None where it is broken.
    #[inline]
    fn setup_at(&self, men_m: u64, men_o: u64, symmetric: bool, r1: u64, r2: u64) -> Option<Setup> {
        if men_m & men_o != 0 {
            return None;
        }
        let (_, k1n, _, k2n) = self.slice.counts();
        let free = Bitboard::FULL.0 & !(men_m | men_o);
        let k1 = expand(unrank_places(r1, k1n as usize, NUM_POINTS), free);
        let k2 = expand(unrank_places(r2, k2n as usize, NUM_POINTS), free & !k1);
        if symmetric {
            let (m1, m2) = (mirror(Bitboard(k1)).0, mirror(Bitboard(k2)).0);
            let rest = r1 * self.k2_count + r2;
            if self.with_mullahs(0, men_m | men_o, m1, m2) < rest {
                return None;
            }
        }
        Some(Setup {
            black: Bitboard(men_m | k1),
            white: Bitboard(men_o | k2),
            mullahs: Bitboard(k1 | k2),
            turn: Color::Black,
        })
    }

    /// Calls `each(index, position)` for every place from `start` to `end` (excluded) that
    /// is a position, in index order: [`SliceIndex::position`] for a run of places, without
    /// decoding each one from scratch.
    pub fn for_each_position(&self, start: u64, end: u64, mut each: impl FnMut(u64, Position)) {
        let end = end.min(self.len);
        if start >= end {
            return;
        }
        let (_, k1n, _, k2n) = self.slice.counts();
        let k1_count = self.block / self.k2_count;
        let mut men = start / self.block;
        let rest = start % self.block;
        let (mut r1, mut r2) = (rest / self.k2_count, rest % self.k2_count);
        let mut i = start;
        while i < end {
            let (men_m, men_o, symmetric) = self.men_sets(men);
            if men_m & men_o != 0 {
                // A broken men placement: skip its block.
                i += (k1_count - r1) * self.k2_count - r2;
                (men, r1, r2) = (men + 1, 0, 0);
                continue;
            }
            let free = Bitboard::FULL.0 & !(men_m | men_o);
            let mut c1 = unrank_places(r1, k1n as usize, NUM_POINTS);
            while r1 < k1_count && i < end {
                let k1 = expand(c1, free);
                let free2 = free & !k1;
                let mut c2 = unrank_places(r2, k2n as usize, NUM_POINTS);
                while r2 < self.k2_count && i < end {
                    let k2 = expand(c2, free2);
                    let canonical = !symmetric || {
                        let (m1, m2) = (mirror(Bitboard(k1)).0, mirror(Bitboard(k2)).0);
                        self.with_mullahs(0, men_m | men_o, m1, m2) >= r1 * self.k2_count + r2
                    };
                    if canonical {
                        let setup = Setup {
                            black: Bitboard(men_m | k1),
                            white: Bitboard(men_o | k2),
                            mullahs: Bitboard(k1 | k2),
                            turn: Color::Black,
                        };
                        each(
                            i,
                            Position::from_setup(setup)
                                .expect("a place's setup is a legal position"),
                        );
                    }
                    i += 1;
                    r2 += 1;
                    if k2n > 0 {
                        c2 = next_colex(c2);
                    }
                }
                r2 = 0;
                r1 += 1;
                if k1n > 0 {
                    c1 = next_colex(c1);
                }
            }
            (men, r1) = (men + 1, 0);
        }
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

    /// Every place of small slices maps to a position that maps back to it, and every
    /// position (and its mirror image) of the slice has that place.
    #[test]
    fn round_trip_every_place_of_small_slices() {
        for name in [
            "0m1k-0m1k",
            "0m1k-0m2k",
            "0m2k-0m1k",
            "1m0k-1m0k",
            "1m1k-0m1k",
            "0m1k-2m0k",
            "2m0k-1m0k",
            "1m0k-1m1k",
        ] {
            let slice: SliceId = name.parse().unwrap();
            let index = SliceIndex::new(slice);
            let mut positions = 0u64;
            let mut symmetric = 0u64;
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
                assert_eq!(mp.index, i, "{name} mirror of {i}");
                assert_eq!(mp.mirrored, m != pos, "{name} mirror of {i}");
                if m == pos {
                    symmetric += 1;
                }
            }
            // Count the slice's positions directly: every placement, folded by the mirror
            // (a position and its distinct mirror image are one).
            let (a, b, c, d) = slice.counts();
            let all = count_placements(a as usize, b as usize, c as usize, d as usize);
            assert_eq!(positions, (all + symmetric) / 2, "{name}");
            assert_eq!(symmetric, count_symmetric(slice), "{name}");
        }
    }

    /// `for_each_position` gives the positions `position` gives, over whole tables and runs
    /// that start and end inside a men placement's block.
    #[test]
    fn for_each_position_walks_the_places_in_order() {
        for name in ["0m2k-0m1k", "1m1k-0m1k", "1m0k-2m1k", "0m1k-1m0k"] {
            let index = SliceIndex::new(name.parse().unwrap());
            let len = index.len();
            for (start, end) in [
                (0, len),
                (7, len - 3),
                (index.block() + 5, 3 * index.block() + 1),
            ] {
                let mut walked = Vec::new();
                index.for_each_position(start, end, |i, p| walked.push((i, p)));
                let direct: Vec<(u64, Position)> = (start..end)
                    .filter_map(|i| index.position(i).map(|p| (i, p)))
                    .collect();
                assert_eq!(walked, direct, "{name} {start}..{end}");
            }
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

    /// The positions of a slice that are their own mirror image, counted from their halves:
    /// a symmetric position is fixed by its pieces on files a-d and on the middle file e.
    fn count_symmetric(slice: SliceId) -> u64 {
        // Points of files a-d and of file e; a symmetric set has its points of files f-i
        // mirrored from a-d. Count by brute force over the half board (25 points).
        let half: Vec<usize> = (0..NUM_POINTS).filter(|&p| (p * 2) % 9 <= 4).collect();
        let (a, b, c, d) = slice.counts();
        let want = [a, b, c, d].map(u32::from);
        let mut n = 0u64;
        // Each half point holds nothing or one of the four kinds: 5^25 is too many, so walk
        // kinds by recursion with the counts left.
        fn walk(half: &[usize], i: usize, left: [u32; 4], n: &mut u64) {
            if left == [0; 4] {
                *n += 1;
                return;
            }
            if i == half.len() {
                return;
            }
            walk(half, i + 1, left, n);
            let p = half[i];
            let middle = (p * 2) % 9 == 4;
            let cost = if middle { 1 } else { 2 };
            let y = (p * 2) / 9;
            for kind in 0..4 {
                // Mover men never on rank 9 (y = 8), opponent men never on rank 1 (y = 0).
                if (kind == 0 && y == 8) || (kind == 2 && y == 0) || left[kind] < cost {
                    continue;
                }
                let mut l = left;
                l[kind] -= cost;
                walk(half, i + 1, l, n);
            }
        }
        walk(&half, 0, want, &mut n);
        n
    }
}
