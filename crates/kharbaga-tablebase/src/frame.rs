//! The two symmetries the tables use: the colour swap (the board turned half a turn with the
//! colours exchanged, which puts the side to move at the bottom) and the left-right mirror.
//!
//! Every table position is seen from the side to move ("the mover frame"): the side to move
//! is Black, whose men move up the board. A position with White to move is turned half a
//! turn (point `p` goes to `40 - p`, a1 to i9) with the colours swapped; its value is the same.

use kharbaga::{Bitboard, Color, Position, Setup, NUM_POINTS};

/// The point half a turn away: `(x, y)` to `(8 - x, 8 - y)`, index `p` to `40 - p`.
#[inline]
pub fn rotate(bb: Bitboard) -> Bitboard {
    // Reversing 64 bits sends bit i to 63 - i; 23 places down gives 40 - i.
    Bitboard(bb.0.reverse_bits() >> (64 - NUM_POINTS))
}

const fn build_mirror() -> [u8; NUM_POINTS] {
    let mut t = [0u8; NUM_POINTS];
    let mut p = 0;
    while p < NUM_POINTS {
        let x = (p * 2) % 9;
        let y = (p * 2) / 9;
        t[p] = ((9 * y + 8 - x) / 2) as u8;
        p += 1;
    }
    t
}

/// `MIRROR[p]`: the point reflected left to right, `(x, y)` to `(8 - x, y)`.
pub const MIRROR: [u8; NUM_POINTS] = build_mirror();

const fn build_mirror_chunks() -> [u16; 512] {
    // Ranks come in pairs of 5 + 4 points, 9 bits, and the mirror keeps each rank: so each
    // 9-bit chunk (the last one holds rank 9 alone) is reflected on its own.
    let mut t = [0u16; 512];
    let mut v = 0;
    while v < 512 {
        let mut out = 0u16;
        let mut b = 0;
        while b < 9 {
            if v & (1 << b) != 0 {
                out |= 1 << MIRROR[b];
            }
            b += 1;
        }
        t[v] = out;
        v += 1;
    }
    t
}

/// The mirror of each 9-bit chunk of a bitboard (two ranks).
const MIRROR_CHUNKS: [u16; 512] = build_mirror_chunks();

/// The set reflected left to right.
#[inline]
pub fn mirror(bb: Bitboard) -> Bitboard {
    let mut out = 0u64;
    let mut shift = 0;
    while shift < 45 {
        out |= u64::from(MIRROR_CHUNKS[((bb.0 >> shift) & 511) as usize]) << shift;
        shift += 9;
    }
    Bitboard(out)
}

/// The position reflected left to right (same side to move).
pub fn mirror_position(pos: &Position) -> Position {
    Position::from_setup(mirror_setup(&pos.to_setup()))
        .expect("a reflection keeps every man off its promotion rank")
}

/// [`mirror_position`] on an unchecked setup.
#[inline]
pub fn mirror_setup(s: &Setup) -> Setup {
    Setup {
        black: mirror(s.black),
        white: mirror(s.white),
        mullahs: mirror(s.mullahs),
        turn: s.turn,
    }
}

/// The position turned half a turn with the colours and the side to move swapped: the same
/// game seen from the other side.
pub fn swap_sides(pos: &Position) -> Position {
    Position::from_setup(swap_setup(&pos.to_setup()))
        .expect("turning the board keeps every man off its promotion rank")
}

/// [`swap_sides`] on an unchecked setup.
#[inline]
pub fn swap_setup(s: &Setup) -> Setup {
    Setup {
        black: rotate(s.white),
        white: rotate(s.black),
        mullahs: rotate(s.mullahs),
        turn: !s.turn,
    }
}

/// The child of a legal move of the side to move in `s`, seen from the side to move
/// there: [`Position::play`] without the hash, then [`swap_setup`].
#[inline]
pub fn child_setup(s: &Setup, mv: &kharbaga::Move) -> Setup {
    let us = s.turn;
    let (mut mine, mut theirs) = match us {
        Color::Black => (s.black, s.white),
        Color::White => (s.white, s.black),
    };
    let captured = mv.captured();
    theirs = Bitboard(theirs.0 & !captured.0);
    let mut mullahs = Bitboard(s.mullahs.0 & !captured.0);
    let promoted = mullahs.contains(mv.from()) || mv.to().y() == us.promotion_y();
    mine = mine.without(mv.from()).with(mv.to());
    mullahs = mullahs.without(mv.from());
    if promoted {
        mullahs = mullahs.with(mv.to());
    }
    let (black, white) = match us {
        Color::Black => (mine, theirs),
        Color::White => (theirs, mine),
    };
    swap_setup(&Setup {
        black,
        white,
        mullahs,
        turn: !us,
    })
}

/// The position seen from the side to move: itself when Black is to move, else
/// [`swap_sides`].
#[inline]
pub fn mover_frame(pos: &Position) -> Position {
    if pos.turn() == Color::Black {
        *pos
    } else {
        swap_sides(pos)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kharbaga::Point;

    fn pos(fen: &str) -> Position {
        Position::from_fen(fen).unwrap()
    }

    #[test]
    fn rotation_and_mirror_send_named_points() {
        let p = |s: &str| Bitboard::from_point(s.parse().unwrap());
        assert_eq!(rotate(p("a1")), p("i9"));
        assert_eq!(rotate(p("b2")), p("h8"));
        assert_eq!(rotate(p("e5")), p("e5"));
        assert_eq!(mirror(p("a1")), p("i1"));
        assert_eq!(mirror(p("b2")), p("h2"));
        assert_eq!(mirror(p("d4") | p("e7")), p("f4") | p("e7"));
        // The five points of file e are their own images.
        let fixed = Point::all().filter(|q| MIRROR[q.index()] as usize == q.index());
        assert_eq!(fixed.count(), 5);
        for q in Point::all() {
            let m = Point::new(MIRROR[q.index()]).unwrap();
            assert_eq!(mirror(Bitboard::from_point(q)), Bitboard::from_point(m));
            assert_eq!((q.x() + m.x(), q.y()), (8, m.y()));
        }
    }

    #[test]
    fn swap_sides_is_an_involution_and_keeps_moves() {
        let rules = kharbaga::Rules::standard();
        for fen in ["W:Wc3,Kg7:Bd4,Ka9", "B:Bc3,Ke1:Wd4,f6", "W:Wb2:Bh8,e5"] {
            let p = pos(fen);
            let q = swap_sides(&p);
            assert_eq!(swap_sides(&q), p);
            for mv in p.legal_moves(&rules) {
                assert_eq!(
                    child_setup(&p.to_setup(), &mv),
                    swap_sides(&p.play(&mv)).to_setup()
                );
            }
            assert_eq!(mover_frame(&p).turn(), Color::Black);
            assert_eq!(
                p.legal_moves(&rules).len(),
                q.legal_moves(&rules).len(),
                "{fen}"
            );
        }
        assert_eq!(swap_sides(&pos("W:Wc3,Kg7:Bd4")), pos("B:Bg7,Kc3:Wf6"));
    }
}
