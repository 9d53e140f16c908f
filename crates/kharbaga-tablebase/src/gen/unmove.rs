//! Unmoves: the positions from which one move that neither captures nor promotes leads to a
//! given position. Retrograde analysis walks these backwards from decided positions.

use crate::frame::swap_setup;
use kharbaga::board::{neighbour, run_until, Direction};
use kharbaga::{Color, Position, Rules, Setup};

/// Every position from which the opponent of `pos`'s side to move (Black), by a step or
/// slide that neither captures nor promotes, reaches `pos`, seen from its own side to move:
/// turned round as [`swap_setup`] turns it, so Black is to move in each, as in the tables.
/// Whether that move is legal there also depends on whether a capture is compulsory there,
/// which the caller knows.
pub fn unmoves(rules: &Rules, pos: &Position, out: &mut Vec<Setup>) {
    out.clear();
    // Turned round once: the side that just moved is Black, and each predecessor is this
    // setup with one of Black's pieces moved back.
    let s = swap_setup(&pos.to_setup());
    let occupied = s.black | s.white;
    let back = |from: kharbaga::Point, to: kharbaga::Point, mullah: bool| {
        let mullahs = if mullah {
            s.mullahs.without(to).with(from)
        } else {
            s.mullahs
        };
        Setup {
            black: s.black.without(to).with(from),
            white: s.white,
            mullahs,
            turn: Color::Black,
        }
    };
    for to in s.black & s.mullahs {
        for d in Direction::ALL {
            for from in run_until(to, d, occupied).0 {
                out.push(back(from, to, true));
            }
        }
    }
    for to in s.black & !s.mullahs {
        for &d in rules.man_step_directions(Color::Black) {
            if let Some(from) = neighbour(to, d.opposite()) {
                if !occupied.contains(from) {
                    out.push(back(from, to, false));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every unmove, played forwards, is a legal non-capturing, non-promoting move to the
    /// position; and every such move from a position is found by unmoving its result.
    #[test]
    fn unmoves_invert_quiet_moves() {
        for rules in [Rules::standard(), Rules::sideways()] {
            for fen in ["W:Wc3,Kg7:Bd4,Ka9", "W:We5,Kb2:Bi1", "W:Wf6,h8,Ke9:Bb2,Ka1"] {
                let start = Position::from_fen(fen).unwrap();
                for mv in start.legal_moves(&rules) {
                    if mv.is_capture() || start.is_promotion(&mv) {
                        continue;
                    }
                    let after = start.play(&mv);
                    let mut back = Vec::new();
                    unmoves(&rules, &after, &mut back);
                    assert!(back.contains(&swap_setup(&start.to_setup())), "{fen} {mv}");
                    for q in &back {
                        assert_eq!(q.turn, Color::Black);
                        let q = Position::from_setup(swap_setup(q)).unwrap();
                        let found = q.legal_moves(&rules).iter().any(|m| q.play(m) == after)
                            || q.has_capture(&rules);
                        assert!(found, "unmove {q:?} of {fen} {mv}");
                    }
                }
            }
        }
    }
}
