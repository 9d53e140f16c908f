//! How a node's proof and disproof numbers come from its children's: the initial numbers
//! of a leaf, weak sums, the child to search and its threshold, and the numbers of a node
//! once solved.

use super::{Kid, Num, NONE};
use crate::tt::INF;

/// The initial number for a position worth `e` centi-men to the side it is the number of
/// (the prover for the disproof number, the opponent for the proof number).
pub(super) fn initial_number(e: i32) -> u32 {
    (1 + (e + 150).max(0) / 75).min(30) as u32
}

pub(super) fn sat_add(a: u32, b: u32) -> u32 {
    a.saturating_add(b)
}

/// The threshold for the best child: the second-best number and a quarter more.
pub(super) fn grow(second: u32) -> u32 {
    if second >= INF {
        INF
    } else {
        (second + second / 4 + 1).min(INF - 1)
    }
}

/// The node's proof and disproof numbers from its children's, as weak proof numbers
/// (Ueda et al. 2008): the sum side is the largest child's number plus one for each other
/// unsolved child, which keeps the numbers of positions reached by many paths (and of long
/// lines) from growing out of all proportion, as plain sums do here.
pub(super) fn numbers(or: bool, kids: &[Kid]) -> (u32, u32) {
    combine(or, kids.iter().map(|k| (k.num.pn, k.num.dn)))
}

/// [`numbers`] from the kids' proof and disproof numbers. (A node without kids is not
/// reached: it is a leaf. Here it would be lost for the side to move.)
pub(super) fn combine(or: bool, nums: impl Iterator<Item = (u32, u32)> + Clone) -> (u32, u32) {
    if or {
        let pn = nums.clone().map(|(pn, _)| pn).min().unwrap_or(INF);
        (pn, weak_sum(nums.map(|(_, dn)| dn)))
    } else {
        let dn = nums.clone().map(|(_, dn)| dn).min().unwrap_or(INF);
        (weak_sum(nums.map(|(pn, _)| pn)), dn)
    }
}

/// The largest of the numbers plus one for each other non-zero number: infinite if one is.
fn weak_sum(values: impl Iterator<Item = u32>) -> u32 {
    let mut max = 0;
    let mut nonzero = 0u32;
    for v in values {
        if v >= INF {
            return INF;
        }
        if v > 0 {
            nonzero += 1;
            max = max.max(v);
        }
    }
    if nonzero == 0 {
        0
    } else {
        max.saturating_add(nonzero - 1).min(INF - 1)
    }
}

/// The node's numbers ([`numbers`]) and the child to search, in one pass over the kids, as
/// the search loop needs them both: the proof and disproof numbers, the child (smallest
/// proof number at an OR node, smallest disproof number at an AND node, the first of
/// equals) and the second-smallest of those numbers.
pub(super) fn scan(or: bool, kids: &[Kid]) -> (u32, u32, usize, u32) {
    let (mut best, mut least, mut second) = (0, INF, INF);
    let (mut max, mut nonzero, mut infinite) = (0, 0u32, false);
    for (i, k) in kids.iter().enumerate() {
        let (n, other) = if or {
            (k.num.pn, k.num.dn)
        } else {
            (k.num.dn, k.num.pn)
        };
        if i == 0 || n < least {
            second = if i == 0 { INF } else { least };
            best = i;
            least = n;
        } else if n < second {
            second = n;
        }
        infinite |= other >= INF;
        if other > 0 {
            nonzero += 1;
            max = max.max(other);
        }
    }
    let sum = if infinite {
        INF
    } else if nonzero == 0 {
        0
    } else {
        max.saturating_add(nonzero - 1).min(INF - 1)
    };
    let least = if kids.is_empty() { INF } else { least };
    if or {
        (least, sum, best, second)
    } else {
        (sum, least, best, second)
    }
}

/// The quiet run a proven child adds to its parent's.
fn proof_run(k: &Kid) -> u32 {
    if k.num.terminal || !k.quiet {
        0
    } else {
        k.num.aux + 1
    }
}

/// The least count at the parent from which a disproven child's disproof holds.
fn disproof_from(k: &Kid) -> u32 {
    if k.quiet {
        k.num.aux.saturating_sub(1)
    } else {
        0
    }
}

/// The node's numbers after its search, with the proof's run and length or the disproof's
/// count and path dependency.
pub(super) fn settle(or: bool, kids: &[Kid]) -> Num {
    let (pn, dn) = numbers(or, kids);
    if pn == 0 {
        let proven = kids.iter().filter(|k| k.num.pn == 0);
        return if or {
            let k = proven
                .min_by_key(|k| (k.num.dist, proof_run(k)))
                .expect("proven");
            Num::proof(proof_run(k), k.num.dist + 1)
        } else {
            let run = proven.clone().map(proof_run).max().unwrap_or(0);
            let dist = proven.map(|k| k.num.dist).max().unwrap_or(0);
            Num::proof(run, dist + 1)
        };
    }
    if dn == 0 {
        let disproven = kids.iter().filter(|k| k.num.dn == 0);
        return if or {
            let from = disproven.clone().map(disproof_from).max().unwrap_or(0);
            let dep = disproven.map(|k| k.num.dep).min().unwrap_or(NONE);
            Num::disproof(from, dep)
        } else {
            let k = disproven
                .min_by_key(|k| (k.num.dep != NONE, disproof_from(k)))
                .expect("disproven");
            Num::disproof(disproof_from(k), k.num.dep)
        };
    }
    Num::unknown(pn, dn)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn initial_numbers_favour_the_side_ahead() {
        assert_eq!(initial_number(0), 3);
        assert_eq!(initial_number(-300), 1);
        assert!(initial_number(300) > initial_number(0));
        assert_eq!(initial_number(10_000), 30);
    }

    /// The child to search and the second-smallest number, the plain way.
    fn select(or: bool, kids: &[Kid]) -> (usize, u32) {
        let n = |k: &Kid| if or { k.num.pn } else { k.num.dn };
        let mut best = 0;
        let mut second = INF;
        for (i, k) in kids.iter().enumerate().skip(1) {
            if n(k) < n(&kids[best]) {
                second = n(&kids[best]);
                best = i;
            } else if n(k) < second {
                second = n(k);
            }
        }
        (best, second)
    }

    #[test]
    fn one_scan_gives_the_numbers_and_the_selection() {
        let mut state = 12345u64;
        let mut next = |m: u64| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 33) % m
        };
        let pos = kharbaga::Position::start();
        for _ in 0..20_000 {
            let kids: Vec<Kid> = (0..1 + next(8))
                .map(|_| {
                    let mut number = || match next(10) {
                        0 => 0,
                        1 => INF,
                        _ => 1 + next(6) as u32,
                    };
                    let (pn, dn) = (number(), number());
                    Kid {
                        pos,
                        q: 0,
                        quiet: true,
                        num: Num::unknown(pn, dn),
                    }
                })
                .collect();
            for or in [true, false] {
                let (pn, dn) = numbers(or, &kids);
                let (best, second) = select(or, &kids);
                assert_eq!(scan(or, &kids), (pn, dn, best, second));
            }
        }
    }

    #[test]
    fn weak_sums_are_the_largest_plus_the_other_unsolved_and_saturate() {
        assert_eq!(weak_sum([4, 0, 9, 2].into_iter()), 11);
        assert_eq!(weak_sum([0, 0].into_iter()), 0);
        assert_eq!(weak_sum([INF - 2, 10, 10].into_iter()), INF - 1);
        assert_eq!(weak_sum([3, INF].into_iter()), INF);
        assert_eq!(grow(INF), INF);
        assert_eq!(grow(4), 6);
    }
}
