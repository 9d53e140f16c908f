//! Property tests: random games under every rule set and random option combinations, from the
//! start and from random placements, keep the invariants of the rules.
//!
//! Each legal move is checked leg by leg against the board geometry of `kharbaga::board`
//! (an independent re-statement of the rules, not a call of the move generator), and the
//! move lists are checked against each other (counted vs generated, merged vs every path,
//! majority vs no majority).

use kharbaga::board::{neighbour, Direction};
use kharbaga::{
    BackRank, Bitboard, Color, Move, Piece, Point, Position, Removal, Rules, Setup, MAX_PIECES,
};
use proptest::prelude::*;
use std::collections::{BTreeMap, BTreeSet};

/// The longest random game (plies); the property runs stay quick in debug builds.
const MAX_PLIES: usize = 40;

/// Up to this many capture paths, every path's notation is read back; above it only the
/// merged moves' (reading is quadratic in the number of paths).
const PARSE_ALL_PATHS: usize = 64;

/// Whether direction `d` leads a man of `color` backwards (towards its own side).
fn is_backwards(d: Direction, color: Color) -> bool {
    let dy = d.dxdy().1;
    match color {
        Color::Black => dy < 0,
        Color::White => dy > 0,
    }
}

/// The direction and the points strictly between `from` and `to`, if `to` lies on a line
/// from `from`.
fn line_between(from: Point, to: Point) -> Option<(Direction, Vec<Point>)> {
    Direction::ALL.into_iter().find_map(|d| {
        let mut between = Vec::new();
        let mut cur = neighbour(from, d);
        while let Some(p) = cur {
            if p == to {
                return Some((d, between));
            }
            between.push(p);
            cur = neighbour(p, d);
        }
        None
    })
}

/// The board during a move, as the rules describe it: the mover lifted from its start,
/// captured pieces kept (delayed removal) or taken off (immediate removal).
struct Board {
    pieces: BTreeMap<Point, Piece>,
    mover: Piece,
    captured: Vec<Point>,
    previous: Option<Direction>,
}

impl Board {
    fn lift(pos: &Position, from: Point) -> Result<Board, String> {
        let mover = pos.piece_at(from).ok_or(format!("no piece on {from}"))?;
        if mover.color != pos.turn() {
            return Err(format!("the piece on {from} is not the mover's"));
        }
        let pieces = Point::all()
            .filter(|&p| p != from)
            .filter_map(|p| pos.piece_at(p).map(|pc| (p, pc)))
            .collect();
        Ok(Board {
            pieces,
            mover,
            captured: Vec::new(),
            previous: None,
        })
    }

    /// The enemy piece a capture leg from `cur` to `land` jumps, if the leg is legal.
    fn leg(&self, rules: &Rules, cur: Point, land: Point) -> Result<(Direction, Point), String> {
        let (d, between) =
            line_between(cur, land).ok_or(format!("{cur}-{land} is not on a line"))?;
        if self.pieces.contains_key(&land) {
            return Err(format!("{land} is occupied"));
        }
        let occupied: Vec<Point> = between
            .iter()
            .copied()
            .filter(|p| self.pieces.contains_key(p))
            .collect();
        let [over] = occupied[..] else {
            return Err(format!("{cur}x{land} passes {} pieces", occupied.len()));
        };
        if self.pieces[&over].color == self.mover.color {
            return Err(format!("{cur}x{land} jumps its own piece"));
        }
        if self.captured.contains(&over) {
            return Err(format!("{cur}x{land} jumps {over} a second time"));
        }
        if self.mover.mullah {
            if !rules.mullah_turn_back && self.previous == Some(d.opposite()) {
                return Err(format!("{cur}x{land} turns back"));
            }
        } else {
            if between.len() != 1 {
                return Err(format!("a man's leap {cur}x{land} is not a short leap"));
            }
            if !rules.men_capture_backwards && is_backwards(d, self.mover.color) {
                return Err(format!("{cur}x{land} captures backwards"));
            }
        }
        Ok((d, over))
    }

    fn jump(&mut self, rules: &Rules, d: Direction, over: Point) {
        self.captured.push(over);
        self.previous = Some(d);
        if rules.removal == Removal::Immediate {
            self.pieces.remove(&over);
        }
    }

    /// Whether a capture leg starts from `cur` (the chain may not stop there).
    fn can_go_on(&self, rules: &Rules, cur: Point) -> bool {
        Direction::ALL.into_iter().any(|d| {
            let mut p = neighbour(cur, d);
            let mut steps = 0;
            while let Some(q) = p {
                steps += 1;
                if self.pieces.contains_key(&q) {
                    let after = neighbour(q, d);
                    return after.is_some_and(|l| self.leg(rules, cur, l).is_ok());
                }
                if !self.mover.mullah && steps == 1 {
                    return false;
                }
                p = neighbour(q, d);
            }
            false
        })
    }
}

/// Checks one legal move against the rules, leg by leg.
fn check_move(pos: &Position, rules: &Rules, mv: &Move) -> Result<(), String> {
    let us = pos.turn();
    let mut board = Board::lift(pos, mv.from())?;
    if !mv.is_capture() {
        let [to] = mv.path() else {
            return Err("a step with several landing points".into());
        };
        let (d, between) = line_between(mv.from(), *to).ok_or("not along a line")?;
        if board.pieces.contains_key(to) || between.iter().any(|p| board.pieces.contains_key(p)) {
            return Err("the way is not empty".into());
        }
        if !board.mover.mullah {
            let sideways = d == Direction::E || d == Direction::W;
            let allowed = if sideways {
                rules.men_step_sideways
            } else {
                !is_backwards(d, us)
            };
            if !between.is_empty() || !allowed {
                return Err("not a man's step".into());
            }
        }
        return Ok(());
    }
    let mut cur = mv.from();
    for (i, &land) in mv.path().iter().enumerate() {
        let (d, over) = board.leg(rules, cur, land)?;
        board.jump(rules, d, over);
        cur = land;
        let last = i + 1 == mv.path().len();
        let promoted_here = !board.mover.mullah
            && land.y() == us.promotion_y()
            && rules.back_rank == BackRank::Promote;
        if promoted_here && !last {
            return Err(format!("the man goes on from its far rank at {land}"));
        }
        if !last && !rules.capture_chains {
            return Err("a chain without chains".into());
        }
        if last && rules.capture_chains && !promoted_here && board.can_go_on(rules, cur) {
            return Err(format!("the chain stops at {cur} but can go on"));
        }
    }
    let captured: Bitboard = board.captured.iter().copied().collect();
    if captured != mv.captured() || board.captured.len() != mv.path().len() {
        return Err(format!(
            "captured {:?} by the legs, {:?} by the move",
            board.captured,
            mv.captured()
        ));
    }
    Ok(())
}

fn names(moves: &[Move]) -> BTreeSet<String> {
    moves.iter().map(Move::to_string).collect()
}

/// Every invariant of one position and its legal moves.
fn check_position(pos: &Position, rules: &Rules) -> Result<(), TestCaseError> {
    let fen = pos.to_fen();
    prop_assert_eq!(Position::from_fen(&fen), Ok(*pos), "round trip of {}", fen);
    let legal = pos.legal_moves(rules);
    let all = pos.legal_moves_all_paths(rules);
    let mut buf = Vec::new();
    for (index, mv) in legal.iter().enumerate() {
        let picked = pos.pick_legal_move(
            rules,
            |n| {
                assert_eq!(n, legal.len(), "pick_legal_move's count in {fen}");
                index
            },
            &mut buf,
        );
        prop_assert_eq!(picked, Some(*mv), "pick_legal_move({}) in {}", index, fen);
    }
    if legal.is_empty() {
        prop_assert_eq!(pos.pick_legal_move(rules, |_| 0, &mut buf), None);
    }
    prop_assert_eq!(
        pos.count_legal(rules),
        legal.len() as u64,
        "count_legal in {}",
        fen
    );
    prop_assert_eq!(names(&legal).len(), legal.len(), "duplicates in {}", fen);
    prop_assert_eq!(
        pos.is_blocked(rules),
        legal.is_empty(),
        "is_blocked in {}",
        fen
    );
    for m in &all {
        let merged: Vec<&Move> = legal.iter().filter(|l| l.same_effect(m)).collect();
        prop_assert_eq!(merged.len(), 1, "{} in {} is not merged once", m, fen);
        prop_assert!(
            all.contains(merged[0]),
            "{} is not one of the paths",
            merged[0]
        );
        if let Err(why) = check_move(pos, rules, m) {
            return Err(TestCaseError::fail(format!(
                "{m} in {fen} ({rules}): {why}"
            )));
        }
        // Reading a move back searches every path, so read them all only where they are few.
        if all.len() <= PARSE_ALL_PATHS || legal.contains(m) {
            prop_assert_eq!(pos.parse_move(rules, &m.to_string()), Ok(*merged[0]));
        }
    }
    if rules.majority {
        let free = Rules {
            majority: false,
            ..*rules
        };
        let captures: Vec<Move> = pos
            .legal_moves_all_paths(&free)
            .into_iter()
            .filter(Move::is_capture)
            .collect();
        let most = captures.iter().map(|m| m.captured().count()).max();
        let expected: Vec<Move> = captures
            .into_iter()
            .filter(|m| Some(m.captured().count()) == most)
            .collect();
        let taken: Vec<Move> = all.iter().copied().filter(Move::is_capture).collect();
        prop_assert_eq!(names(&taken), names(&expected), "majority in {}", fen);
    }
    Ok(())
}

/// Plays one move and checks what changed.
fn check_play(pos: &Position, mv: &Move) -> Result<Position, TestCaseError> {
    let us = pos.turn();
    let next = pos.play(mv);
    prop_assert_eq!(next.turn(), !us);
    prop_assert_eq!(next.pieces(us).count(), pos.pieces(us).count());
    prop_assert_eq!(
        next.pieces(!us).count(),
        pos.pieces(!us).count() - mv.captured().count(),
        "{} in {}",
        mv,
        pos
    );
    prop_assert!((mv.captured() & next.pieces(!us)).is_empty());
    let far = Color::ALL.map(|c| next.men(c).iter().any(|p| p.y() == c.promotion_y()));
    prop_assert_eq!(
        far,
        [false, false],
        "a man on its far rank after {} in {}",
        mv,
        pos
    );
    prop_assert_eq!(Position::from_setup(next.to_setup()), Ok(next));
    let reread = Position::from_fen(&next.to_fen()).expect("a played position reads back");
    prop_assert_eq!(reread.hash(), next.hash(), "hash after {} in {}", mv, pos);
    prop_assert_eq!(
        pos.hash_after(mv),
        reread.hash(),
        "hash_after {} in {}",
        mv,
        pos
    );
    Ok(next)
}

/// A random game from `start`: at each ply the move `choice % n` of the `n` legal moves.
fn check_game(rules: Rules, start: Position, choices: &[usize]) -> Result<(), TestCaseError> {
    let mut pos = start;
    for &choice in choices {
        check_position(&pos, &rules)?;
        let legal = pos.legal_moves(&rules);
        if legal.is_empty() {
            break;
        }
        pos = check_play(&pos, &legal[choice % legal.len()])?;
    }
    Ok(())
}

fn choices() -> impl Strategy<Value = Vec<usize>> {
    prop::collection::vec(any::<usize>(), 1..MAX_PLIES)
}

/// Any combination of the options that change move generation.
fn any_rules() -> impl Strategy<Value = Rules> {
    (any::<[bool; 8]>()).prop_map(|b| Rules {
        men_step_sideways: b[0],
        men_capture_backwards: b[1],
        capture_compulsory: b[2],
        capture_chains: b[3],
        majority: b[4],
        removal: if b[5] {
            Removal::Delayed
        } else {
            Removal::Immediate
        },
        back_rank: if b[6] {
            BackRank::Continue
        } else {
            BackRank::Promote
        },
        mullah_turn_back: b[7],
        ..Rules::standard()
    })
}

fn named_rules() -> impl Strategy<Value = Rules> {
    prop::sample::select(vec![
        Rules::standard(),
        Rules::sideways(),
        Rules::ludii(),
        Rules::dagaz(),
    ])
}

/// A legal placement with up to 20 pieces a side, many Mullahs, and a random side to move.
fn placement() -> impl Strategy<Value = Position> {
    placement_with(false)
}

/// A placement as [`placement`], with only Mullahs for the side to move when
/// `mover_mullahs_only` (late in long games, and a shortcut of the playouts').
fn placement_with(mover_mullahs_only: bool) -> impl Strategy<Value = Position> {
    (prop::collection::vec(0u8..8, 41), any::<bool>()).prop_map(move |(cells, white)| {
        let mut setup = Setup {
            turn: if white { Color::White } else { Color::Black },
            ..Setup::default()
        };
        for (p, cell) in Point::all().zip(cells) {
            let color = match cell {
                0 | 1 => Color::Black,
                2 | 3 => Color::White,
                _ => continue,
            };
            let side = match color {
                Color::Black => &mut setup.black,
                Color::White => &mut setup.white,
            };
            if side.count() == MAX_PIECES {
                continue;
            }
            *side = side.with(p);
            if cell % 2 == 1
                || p.y() == color.promotion_y()
                || mover_mullahs_only && color == setup.turn
            {
                setup.mullahs = setup.mullahs.with(p);
            }
        }
        Position::from_setup(setup).expect("at most 20 pieces a side, no man on its far rank")
    })
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 32,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn games_under_named_rules(rules in named_rules(), choices in choices()) {
        check_game(rules, Position::start(), &choices)?;
    }

    #[test]
    fn games_under_any_options(rules in any_rules(), choices in choices()) {
        check_game(rules, Position::start(), &choices)?;
    }

    #[test]
    fn games_from_placements_under_named_rules(
        rules in named_rules(),
        start in placement(),
        choices in choices(),
    ) {
        check_game(rules, start, &choices)?;
    }

    #[test]
    fn games_from_placements_with_only_mullahs_to_move(
        rules in prop_oneof![named_rules(), any_rules()],
        start in placement_with(true),
        choices in choices(),
    ) {
        prop_assert!(start.men(start.turn()).is_empty());
        check_game(rules, start, &choices)?;
    }

    #[test]
    fn games_from_placements_under_any_options(
        rules in any_rules(),
        start in placement(),
        choices in choices(),
    ) {
        check_game(rules, start, &choices)?;
    }
}

#[test]
fn the_leg_checker_rejects_wrong_moves() {
    // The checker must be able to fail: a capture that stops too early, a backwards man
    // step, a second jump over the same piece.
    let rules = Rules::standard();
    let pos = Position::from_fen("B:Be3:Wd4,b6").unwrap();
    let e3 = "e3".parse().unwrap();
    let c5 = "c5".parse().unwrap();
    let a7 = "a7".parse().unwrap();
    let d4 = "d4".parse().unwrap();
    let b6 = "b6".parse().unwrap();
    let short = Move::capture(e3, &[c5], Bitboard::from_point(d4));
    assert!(check_move(&pos, &rules, &short)
        .unwrap_err()
        .contains("can go on"));
    let full = Move::capture(e3, &[c5, a7], [d4, b6].into_iter().collect());
    assert_eq!(check_move(&pos, &rules, &full), Ok(()));
    let back = Move::step(e3, "d2".parse().unwrap());
    assert!(check_move(&pos, &rules, &back).is_err());
    let triangle = Position::from_fen("B:Bc5:Wd4,f4,e5").unwrap();
    let p = |s: &str| s.parse::<Point>().unwrap();
    let twice = Move::capture(
        p("c5"),
        &[p("e3"), p("g5"), p("c5"), p("e3")],
        [p("d4"), p("f4"), p("e5")].into_iter().collect(),
    );
    assert!(check_move(&triangle, &rules, &twice).is_err());
}
