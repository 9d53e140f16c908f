//! The rulebook: for every rule and rule option, a position and the exact set of legal
//! moves it must have.
//!
//! Every expected set was worked out by hand from the rules (`docs/rules.md`) and the
//! geometry of the board, not copied from the program. The comment above each assertion
//! says why the set is what it is. Geometry reminders (doubled coordinates): grid points
//! have files a, c, e, g, i and odd ranks, centres have files b, d, f, h and even ranks; an
//! orthogonal step moves two letters or two ranks and exists only between grid points; a
//! diagonal step moves one letter and one rank and exists from every point.

use kharbaga::{Color, Game, MoveError, Outcome, Piece, Point, Position, Reason, Rules};

fn position(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn point(name: &str) -> Point {
    name.parse().unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn sorted<S: ToString>(items: impl IntoIterator<Item = S>) -> Vec<String> {
    let mut v: Vec<String> = items.into_iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

/// The legal moves (one per distinct result), in notation, sorted. Also checks that
/// `count_legal` agrees with the list.
fn moves(fen: &str, rules: &Rules) -> Vec<String> {
    let pos = position(fen);
    let list = pos.legal_moves(rules);
    assert_eq!(
        pos.count_legal(rules),
        list.len() as u64,
        "count_legal disagrees with legal_moves in {fen} under {rules}"
    );
    sorted(list)
}

/// Every legal capture path separately (and the non-captures), in notation, sorted.
fn paths(fen: &str, rules: &Rules) -> Vec<String> {
    sorted(position(fen).legal_moves_all_paths(rules))
}

/// The standard rules with some options changed, each written `key=value`.
fn with(options: &[&str]) -> Rules {
    let mut rules = Rules::standard();
    for option in options {
        rules
            .set_option_str(option)
            .unwrap_or_else(|e| panic!("{option}: {e}"));
    }
    rules
}

fn standard() -> Rules {
    Rules::standard()
}

/// The expected list, sorted like [`moves`] sorts.
fn expect(names: &[&str]) -> Vec<String> {
    sorted(names.iter())
}

/// The position after playing `text` (which must be legal) in `fen`.
fn after(fen: &str, rules: &Rules, text: &str) -> Position {
    let pos = position(fen);
    let mv = pos
        .parse_move(rules, text)
        .unwrap_or_else(|e| panic!("{text} in {fen}: {e}"));
    pos.play(&mv)
}

fn piece(pos: &Position, name: &str) -> Option<Piece> {
    pos.piece_at(point(name))
}

const BLACK_MAN: Option<Piece> = Some(Piece {
    color: Color::Black,
    mullah: false,
});
const BLACK_MULLAH: Option<Piece> = Some(Piece {
    color: Color::Black,
    mullah: true,
});
const WHITE_MULLAH: Option<Piece> = Some(Piece {
    color: Color::White,
    mullah: true,
});
const WHITE_MAN: Option<Piece> = Some(Piece {
    color: Color::White,
    mullah: false,
});

/// Plays `texts` one by one in `game`, checking after each that the game is still on.
fn play_all(game: &mut Game, texts: &[&str]) {
    for text in texts {
        assert_eq!(game.outcome(), None, "game over before {text}");
        game.play_str(text)
            .unwrap_or_else(|e| panic!("{text} at {}: {e}", game.position()));
    }
}

// ---------------------------------------------------------------------------------------
// Men: plain steps
// ---------------------------------------------------------------------------------------

#[test]
fn man_on_a_grid_point_steps_straight_or_diagonally_forward() {
    // e3 is a grid point: forward lines go to e5 (straight), d4 and f4 (diagonal).
    assert_eq!(
        moves("B:Be3:W", &standard()),
        expect(&["e3-d4", "e3-e5", "e3-f4"])
    );
}

#[test]
fn man_on_a_centre_steps_only_diagonally_forward() {
    // b4 and d4 are centres: no straight line forward (b6/d6 are not joined to them),
    // only the two diagonal neighbours above.
    assert_eq!(moves("B:Bb4:W", &standard()), expect(&["b4-a5", "b4-c5"]));
    assert_eq!(moves("B:Bd4:W", &standard()), expect(&["d4-c5", "d4-e5"]));
}

#[test]
fn men_on_the_edge_have_only_the_lines_that_exist() {
    // a3: straight to a5 and diagonally to b4 (nothing to the left). i3: i5 and h4.
    assert_eq!(
        moves("B:Ba3,i3:W", &standard()),
        expect(&["a3-a5", "a3-b4", "i3-h4", "i3-i5"])
    );
}

#[test]
fn men_never_step_sideways_or_backwards_in_standard() {
    // e5 has eight empty neighbours, but only the three forward ones (d6, e7, f6) are steps:
    // not c5/g5 (sideways) nor d4/e3/f4 (backwards).
    assert_eq!(
        moves("B:Be5:W", &standard()),
        expect(&["e5-d6", "e5-e7", "e5-f6"])
    );
}

#[test]
fn men_do_not_step_onto_occupied_points() {
    // A White man on e5 blocks e3-e5 and cannot be captured (e7 behind it is occupied).
    assert_eq!(
        moves("B:Be3:We5,e7", &standard()),
        expect(&["e3-d4", "e3-f4"])
    );
    // An own man on f4 blocks e3-f4; the centre f4 itself has e5 and g5.
    assert_eq!(
        moves("B:Be3,f4:W", &standard()),
        expect(&["e3-d4", "e3-e5", "f4-e5", "f4-g5"])
    );
}

#[test]
fn sideways_option_adds_rank_steps_from_grid_points_only() {
    let sideways = with(&["sideways=yes"]);
    // e3 gains c3 and g3 along rank 3.
    assert_eq!(
        moves("B:Be3:W", &sideways),
        expect(&["e3-c3", "e3-d4", "e3-e5", "e3-f4", "e3-g3"])
    );
    // a3 has only one sideways neighbour, c3.
    assert_eq!(
        moves("B:Ba3:W", &sideways),
        expect(&["a3-a5", "a3-b4", "a3-c3"])
    );
    // A centre has no rank line: d4 keeps its two diagonal steps.
    assert_eq!(moves("B:Bd4:W", &sideways), expect(&["d4-c5", "d4-e5"]));
}

#[test]
fn sideways_steps_are_blocked_by_pieces() {
    // e3's sideways neighbours are c3 (own) and g3 (White; not capturable, i3 is
    // occupied). c3 can go left to a3 but not right to e3. Neither man can capture.
    assert_eq!(
        moves("B:Bc3,e3:Wg3,i3", &with(&["sideways=yes"])),
        expect(&["c3-a3", "c3-b4", "c3-c5", "c3-d4", "e3-d4", "e3-e5", "e3-f4"])
    );
}

#[test]
fn white_men_move_down_the_board() {
    // White's forward is towards rank 1: from e5 to d4, e3, f4.
    assert_eq!(
        moves("W:B:We5", &standard()),
        expect(&["e5-d4", "e5-e3", "e5-f4"])
    );
    // From the centre d6: c5 and e5 only.
    assert_eq!(moves("W:B:Wd6", &standard()), expect(&["d6-c5", "d6-e5"]));
    // Sideways along rank 5 with the option.
    assert_eq!(
        moves("W:B:We5", &with(&["sideways=yes"])),
        expect(&["e5-c5", "e5-d4", "e5-e3", "e5-f4", "e5-g5"])
    );
}

// ---------------------------------------------------------------------------------------
// Men: captures by the short leap
// ---------------------------------------------------------------------------------------

#[test]
fn man_captures_in_each_of_the_eight_directions() {
    // A Black man on e5 and one White man next to it; the point beyond is empty and the
    // landing point has no further capture (the only enemy is taken).
    let cases = [
        ("e7", "e9"), // forward
        ("f6", "g7"), // diagonally forward right
        ("g5", "i5"), // sideways right
        ("f4", "g3"), // diagonally backward right
        ("e3", "e1"), // backward
        ("d4", "c3"), // diagonally backward left
        ("c5", "a5"), // sideways left
        ("d6", "c7"), // diagonally forward left
    ];
    for (enemy, landing) in cases {
        let fen = format!("B:Be5:W{enemy}");
        assert_eq!(
            moves(&fen, &standard()),
            vec![format!("e5x{landing}")],
            "{fen}"
        );
    }
}

#[test]
fn a_centre_point_has_only_four_capture_directions() {
    // d4 is a centre: its lines are the two diagonals. With enemies on all four diagonal
    // neighbours it has four single captures (from each landing point the only adjacent
    // enemy is the captured one).
    assert_eq!(
        moves("B:Bd4:Wc5,e5,c3,e3", &standard()),
        expect(&["d4xb2", "d4xb6", "d4xf2", "d4xf6"])
    );
    // d6, d2, b4, f4 are two doubled steps away but not on a line with d4: no capture,
    // and the man just steps.
    assert_eq!(
        moves("B:Bd4:Wd6,d2,b4,f4", &standard()),
        expect(&["d4-c5", "d4-e5"])
    );
}

#[test]
fn no_capture_off_the_board_or_onto_an_occupied_point() {
    // c7: c9 is on the edge (nothing beyond); d8 has e9 behind it, occupied. The only
    // move left is the step to b8 (c9 and d8 are occupied).
    assert_eq!(moves("B:Bc7:Wc9,d8,e9", &standard()), expect(&["c7-b8"]));
}

#[test]
fn white_men_capture_backwards_unless_the_option_forbids_it() {
    // White c5: over b4 to a3 (forward for White), over d6 to e7 (backward for White).
    assert_eq!(
        moves("W:Bd6,b4:Wc5", &standard()),
        expect(&["c5xa3", "c5xe7"])
    );
    assert_eq!(
        moves("W:Bd6,b4:Wc5", &with(&["backwards=no"])),
        expect(&["c5xa3"])
    );
}

#[test]
fn backwards_no_forbids_backward_captures_but_not_forward_or_sideways_ones() {
    let no_back = with(&["backwards=no"]);
    // e5 over d4 to c3 is diagonally backward, over e7 to e9 forward.
    assert_eq!(
        moves("B:Be5:Wd4,e7", &standard()),
        expect(&["e5xc3", "e5xe9"])
    );
    assert_eq!(moves("B:Be5:Wd4,e7", &no_back), expect(&["e5xe9"]));
    // e5 over c5 to a5 is sideways (allowed), over e3 to e1 straight backward.
    assert_eq!(
        moves("B:Be5:Wc5,e3", &standard()),
        expect(&["e5xa5", "e5xe1"])
    );
    assert_eq!(moves("B:Be5:Wc5,e3", &no_back), expect(&["e5xa5"]));
}

#[test]
fn a_forbidden_backward_capture_does_not_make_capturing_compulsory() {
    // The only capture, e5 over e3, is backward: with backwards=no the man simply steps.
    assert_eq!(moves("B:Be5:We3", &standard()), expect(&["e5xe1"]));
    assert_eq!(
        moves("B:Be5:We3", &with(&["backwards=no"])),
        expect(&["e5-d6", "e5-e7", "e5-f6"])
    );
}

// ---------------------------------------------------------------------------------------
// Capturing is compulsory
// ---------------------------------------------------------------------------------------

#[test]
fn capturing_is_compulsory_for_every_piece_of_the_side() {
    // e3 can take d4 (to c5). Then neither e3's steps nor a3's steps are legal.
    assert_eq!(moves("B:Ba3,e3:Wd4", &standard()), expect(&["e3xc5"]));
    // Without compulsion: a3-a5, a3-b4, e3-e5, e3-f4 (d4 is occupied) and the capture.
    let free = Rules {
        capture_compulsory: false,
        ..Rules::standard()
    };
    assert_eq!(
        moves("B:Ba3,e3:Wd4", &free),
        expect(&["a3-a5", "a3-b4", "e3-e5", "e3-f4", "e3xc5"])
    );
}

#[test]
fn without_compulsion_a_capture_once_begun_still_goes_on() {
    // compulsory=no makes the steps c3-b4 and c3-c5 legal (d4 is occupied), but the
    // capture is still the whole chain c3xe5xg7.
    assert_eq!(
        moves("B:Bc3:Wd4,f6", &with(&["compulsory=no"])),
        expect(&["c3-b4", "c3-c5", "c3xe5xg7"])
    );
}

#[test]
fn reading_a_step_when_a_capture_is_compulsory_is_an_error_naming_the_capture() {
    let pos = position("B:Ba3,e3:Wd4");
    match pos.parse_move(&standard(), "e3-e5") {
        Err(MoveError::Illegal { candidates, .. }) => {
            assert_eq!(candidates, expect(&["e3xc5"]));
        }
        other => panic!("expected an illegal move, got {other:?}"),
    }
}

#[test]
fn a_mullah_capture_is_compulsory_too() {
    // The Mullah on a1 sees d4 up the long diagonal (b2, c3 empty) and may land on any of
    // e5..i9. The man on g1 (steps f2, g3, h2) and the Mullah's slides are then illegal.
    assert_eq!(
        moves("B:BKa1,g1:Wd4", &standard()),
        expect(&["a1xe5", "a1xf6", "a1xg7", "a1xh8", "a1xi9"])
    );
    // compulsory=no adds the slides a1-a3..a9, a1-c1, a1-e1 (g1 is own), a1-b2, a1-c3 and
    // the man's three steps.
    assert_eq!(
        moves("B:BKa1,g1:Wd4", &with(&["compulsory=no"])),
        expect(&[
            "a1xe5", "a1xf6", "a1xg7", "a1xh8", "a1xi9", "a1-a3", "a1-a5", "a1-a7", "a1-a9",
            "a1-c1", "a1-e1", "a1-b2", "a1-c3", "g1-f2", "g1-g3", "g1-h2",
        ])
    );
}

// ---------------------------------------------------------------------------------------
// Chains
// ---------------------------------------------------------------------------------------

#[test]
fn a_man_must_go_on_capturing() {
    // c3 over d4 to e5, then over f6 to g7: the man may not stop on e5.
    assert_eq!(moves("B:Bc3:Wd4,f6", &standard()), expect(&["c3xe5xg7"]));
    // Also without the majority rule: stopping early is not a maximal sequence.
    assert_eq!(
        moves("B:Bc3:Wd4,f6", &with(&["majority=no"])),
        expect(&["c3xe5xg7"])
    );
    // chains=no: one hop per move.
    assert_eq!(
        moves("B:Bc3:Wd4,f6", &with(&["chains=no"])),
        expect(&["c3xe5"])
    );
}

#[test]
fn a_chain_with_two_branches() {
    // c3 over d4 to e5. From e5: over d6 to c7 (then nothing), or over f6 to g7 and on over
    // h6 to i5. Branches: c3xe5xc7 (2) and c3xe5xg7xi5 (3).
    let fen = "B:Bc3:Wd4,d6,f6,h6";
    assert_eq!(moves(fen, &standard()), expect(&["c3xe5xg7xi5"]));
    assert_eq!(
        moves(fen, &with(&["majority=no"])),
        expect(&["c3xe5xc7", "c3xe5xg7xi5"])
    );
    assert_eq!(moves(fen, &with(&["chains=no"])), expect(&["c3xe5"]));
}

// ---------------------------------------------------------------------------------------
// Majority rule
// ---------------------------------------------------------------------------------------

#[test]
fn majority_rule_compares_every_piece_of_the_side() {
    // c3 takes two (d4, f6: c3xe5xg7); i1 takes one (h2: i1xg3, nothing more from g3).
    let fen = "B:Bc3,i1:Wd4,f6,h2";
    assert_eq!(moves(fen, &standard()), expect(&["c3xe5xg7"]));
    let no_majority = Rules {
        majority: false,
        ..Rules::standard()
    };
    assert_eq!(moves(fen, &no_majority), expect(&["c3xe5xg7", "i1xg3"]));
}

#[test]
fn majority_rule_keeps_every_sequence_of_the_greatest_length() {
    // One capture each: c3 over d4, i1 over h2.
    assert_eq!(
        moves("B:Bc3,i1:Wd4,h2", &standard()),
        expect(&["c3xe5", "i1xg3"])
    );
}

#[test]
fn a_mullah_counts_as_one_piece() {
    // e3 takes d4 then b6 (e3xc5xa7, two men) or the White Mullah on f4 (e3xg5, one piece).
    let fen = "B:Be3:Wd4,b6,Kf4";
    assert_eq!(moves(fen, &standard()), expect(&["e3xc5xa7"]));
    assert_eq!(
        moves(fen, &with(&["majority=no"])),
        expect(&["e3xc5xa7", "e3xg5"])
    );
    assert_eq!(
        moves(fen, &with(&["chains=no"])),
        expect(&["e3xc5", "e3xg5"])
    );
    // Taking a Mullah is no better than taking a man: a tie, both legal.
    assert_eq!(
        moves("B:Be3:Wd4,Kf4", &standard()),
        expect(&["e3xc5", "e3xg5"])
    );
}

// ---------------------------------------------------------------------------------------
// Delayed removal
// ---------------------------------------------------------------------------------------

#[test]
fn a_man_may_end_on_its_starting_point_and_cannot_jump_a_piece_twice() {
    // c5 over d4 to e3, over f4 to g5, over e5 to c5 (its own start, which counts as
    // empty). Back on c5, d4 is again next to it with e3 empty behind: jumping it a second
    // time would make a fourth capture, which is forbidden. The reverse route c5xg5xe3xc5
    // has the same start, end and captured set: one move, two paths. Also c5xe3xe7 (over
    // d4 then e5) takes only two.
    let fen = "B:Bc5:Wd4,f4,e5";
    assert_eq!(moves(fen, &standard()), expect(&["c5xe3xg5xc5"]));
    assert_eq!(
        paths(fen, &standard()),
        expect(&["c5xe3xg5xc5", "c5xg5xe3xc5"])
    );
    assert_eq!(
        moves(fen, &with(&["majority=no"])),
        expect(&["c5xe3xe7", "c5xe3xg5xc5"])
    );
}

#[test]
fn a_man_loop_of_four_captures_is_one_move_with_two_paths() {
    // e1 over f2 to g3, over f4 to e5, over d4 to c3, over d2 back to e1 (or the other way
    // round). From e1 again nothing may be jumped twice.
    let fen = "B:Be1:Wd2,f2,d4,f4";
    assert_eq!(moves(fen, &standard()), expect(&["e1xc3xe5xg3xe1"]));
    assert_eq!(
        paths(fen, &standard()),
        expect(&["e1xc3xe5xg3xe1", "e1xg3xe5xc3xe1"])
    );
}

#[test]
fn captured_pieces_block_a_mullah_until_the_move_ends() {
    // Mullah a1 takes e5 (landing f6, g7, h8 or i9).
    // From f6: e7 (landing d8, c9). From g7: g3 (landing g1) or e7 (landing c7, a7).
    // From c7 the diagonal to g3 passes e5, which is captured but still standing: blocked.
    // h8 and i9 lead nowhere. Five sequences take two pieces.
    let fen = "B:BKa1:We5,e7,g3";
    assert_eq!(
        moves(fen, &standard()),
        expect(&["a1xf6xc9", "a1xf6xd8", "a1xg7xa7", "a1xg7xc7", "a1xg7xg1"])
    );
    // Immediate removal: e5 is gone, so from c7 the Mullah passes d6, e5, f4 and takes g3,
    // landing h2 or i1: three pieces, the only legal moves.
    assert_eq!(
        moves(fen, &with(&["removal=immediate"])),
        expect(&["a1xg7xc7xh2", "a1xg7xc7xi1"])
    );
}

#[test]
fn a_captured_piece_cannot_be_landed_on_until_the_move_ends() {
    // Mullah a1 takes c3 (landing d4 .. i9). From d4 it takes e3 (landing f2, g1); from e5
    // it takes e3 (landing e1). From e1 the man on d2 has c3 behind it, captured and still
    // standing: no landing. So three sequences of two.
    let fen = "B:BKa1:Wc3,e3,d2";
    assert_eq!(
        moves(fen, &standard()),
        expect(&["a1xd4xf2", "a1xd4xg1", "a1xe5xe1"])
    );
    // Immediate removal: c3 is empty again, so from e1 the Mullah takes d2 and may land on
    // c3 itself, b4 or a5: three pieces.
    assert_eq!(
        moves(fen, &with(&["removal=immediate"])),
        expect(&["a1xe5xe1xa5", "a1xe5xe1xb4", "a1xe5xe1xc3"])
    );
}

#[test]
fn a_mullah_may_pass_over_its_own_starting_point() {
    // Mullah c5 takes c7 (landing c9), then b8 (landing a7), then comes back down the
    // diagonal a7-b6-c5-d4 over its own empty start c5 to take d4 (landing e3, f2, g1).
    // Taking d4 first (c5xe3/f2/g1) leads nowhere: one piece.
    let fen = "B:BKc5:Wc7,b8,d4";
    assert_eq!(
        moves(fen, &standard()),
        expect(&["c5xc9xa7xe3", "c5xc9xa7xf2", "c5xc9xa7xg1"])
    );
}

// ---------------------------------------------------------------------------------------
// Immediate removal and turning back
// ---------------------------------------------------------------------------------------

#[test]
fn removal_does_not_change_what_a_man_can_do() {
    // A man only ever lands two steps along a line from where it jumped, and parity rules
    // out landing on a point it captured earlier in the move; it never passes over points.
    // So the triangle gives the same move under immediate removal.
    let fen = "B:Bc5:Wd4,f4,e5";
    assert_eq!(
        moves(fen, &with(&["removal=immediate"])),
        expect(&["c5xe3xg5xc5"])
    );
    assert_eq!(
        moves("B:Be1:Wd2,f2,d4,f4", &with(&["removal=immediate"])),
        expect(&["e1xc3xe5xg3xe1"])
    );
}

#[test]
fn a_mullah_turns_back_only_with_immediate_removal_and_turn_back_yes() {
    // Mullah c3 on the long diagonal between b2 (adjacent below, a1 behind) and e5 (d4
    // empty, f6..i9 behind).
    let fen = "B:BKc3:Wb2,e5";
    // Immediate removal, turn-back=yes: take b2 (to a1), then turn back up over b2's empty
    // point and the empty start to take e5 (to f6..i9); or take e5 (to f6..i9) and come
    // back down to take b2 (to a1). The four routes ending on a1 have the same start, end
    // and captured set: one move, shown with its smallest path c3xf6xa1.
    let turn = with(&["removal=immediate", "turn-back=yes"]);
    assert_eq!(
        moves(fen, &turn),
        expect(&["c3xa1xf6", "c3xa1xg7", "c3xa1xh8", "c3xa1xi9", "c3xf6xa1"])
    );
    assert_eq!(
        paths(fen, &turn),
        expect(&[
            "c3xa1xf6", "c3xa1xg7", "c3xa1xh8", "c3xa1xi9", "c3xf6xa1", "c3xg7xa1", "c3xh8xa1",
            "c3xi9xa1",
        ])
    );
    // turn-back=no: after each capture the way back is forbidden; one piece each.
    let singles = expect(&["c3xa1", "c3xf6", "c3xg7", "c3xh8", "c3xi9"]);
    assert_eq!(
        moves(fen, &with(&["removal=immediate", "turn-back=no"])),
        singles
    );
    // Delayed removal: the captured piece blocks the way back, whatever turn-back says.
    assert_eq!(moves(fen, &standard()), singles);
    assert_eq!(moves(fen, &with(&["turn-back=no"])), singles);
}

// ---------------------------------------------------------------------------------------
// Mullahs
// ---------------------------------------------------------------------------------------

#[test]
fn a_mullah_slides_any_distance_along_every_line() {
    // e5 has all eight lines; each runs to the edge: 2 + 2 + 2 + 2 along file and rank, 4
    // along each half-diagonal.
    assert_eq!(
        moves("B:BKe5:W", &standard()),
        expect(&[
            "e5-e7", "e5-e9", "e5-e3", "e5-e1", "e5-g5", "e5-i5", "e5-c5", "e5-a5", "e5-f6",
            "e5-g7", "e5-h8", "e5-i9", "e5-d6", "e5-c7", "e5-b8", "e5-a9", "e5-f4", "e5-g3",
            "e5-h2", "e5-i1", "e5-d4", "e5-c3", "e5-b2", "e5-a1",
        ])
    );
}

#[test]
fn a_mullah_on_a_centre_slides_only_diagonally() {
    // d4: NE e5..i9 (5), NW c5, b6, a7, SE e3, f2, g1, SW c3, b2, a1. The White men on
    // d6, b4, f4 are on none of its lines.
    assert_eq!(
        moves("B:BKd4:Wd6,b4,f4", &standard()),
        expect(&[
            "d4-e5", "d4-f6", "d4-g7", "d4-h8", "d4-i9", "d4-c5", "d4-b6", "d4-a7", "d4-e3",
            "d4-f2", "d4-g1", "d4-c3", "d4-b2", "d4-a1",
        ])
    );
}

#[test]
fn a_mullah_slide_stops_before_any_piece() {
    // Own man e7 closes the file upwards. Up-right: f6, g7, then h8 (White) with i9 behind
    // it occupied: no capture, the slide stops at g7. The man e7 steps to d8, e9, f8.
    assert_eq!(
        moves("B:BKe5,e7:Wh8,i9", &standard()),
        expect(&[
            "e5-e3", "e5-e1", "e5-g5", "e5-i5", "e5-c5", "e5-a5", "e5-f6", "e5-g7", "e5-d6",
            "e5-c7", "e5-b8", "e5-a9", "e5-f4", "e5-g3", "e5-h2", "e5-i1", "e5-d4", "e5-c3",
            "e5-b2", "e5-a1", "e7-d8", "e7-e9", "e7-f8",
        ])
    );
}

#[test]
fn a_mullah_captures_from_a_distance_and_lands_on_any_empty_point_beyond() {
    // a1 up the long diagonal over b2, c3 to d4; five landing points, five moves.
    assert_eq!(
        moves("B:BKa1:Wd4", &standard()),
        expect(&["a1xe5", "a1xf6", "a1xg7", "a1xh8", "a1xi9"])
    );
    // A White Mullah: g9 down the diagonal f8, e7, d6 to c5, landing b4 or a3.
    assert_eq!(
        moves("W:Bc5:WKg9", &standard()),
        expect(&["g9xa3", "g9xb4"])
    );
}

#[test]
fn a_mullah_cannot_jump_two_pieces_in_a_row_or_its_own_piece() {
    // d4 and e5 stand together: no landing beyond d4. The slides: a1-a3..a9, a1-c1..i1,
    // a1-b2, a1-c3.
    assert_eq!(
        moves("B:BKa1:Wd4,e5", &standard()),
        expect(&[
            "a1-a3", "a1-a5", "a1-a7", "a1-a9", "a1-c1", "a1-e1", "a1-g1", "a1-i1", "a1-b2",
            "a1-c3",
        ])
    );
    // An own man on b2 hides d4. b2 (a centre) steps to a3 or c3.
    assert_eq!(
        moves("B:BKa1,b2:Wd4", &standard()),
        expect(&[
            "a1-a3", "a1-a5", "a1-a7", "a1-a9", "a1-c1", "a1-e1", "a1-g1", "a1-i1", "b2-a3",
            "b2-c3",
        ])
    );
}

#[test]
fn a_mullah_chain_keeps_only_landings_that_go_on() {
    // a1 takes d4 and may land on e5, f6, g7, h8, i9. From e5 it takes g5 along rank 5
    // (to i5); from f6 down the diagonal (to h4, i3); from g7 down file g (to g3, g1). From
    // h8 and i9 g5 is on no line.
    let fen = "B:BKa1:Wd4,g5";
    let two = ["a1xe5xi5", "a1xf6xh4", "a1xf6xi3", "a1xg7xg3", "a1xg7xg1"];
    assert_eq!(moves(fen, &standard()), expect(&two));
    // Without the majority rule the branches that cannot go on end on h8 and i9; those
    // that can go on must (no a1xe5, a1xf6, a1xg7).
    let mut all = two.to_vec();
    all.extend(["a1xh8", "a1xi9"]);
    assert_eq!(moves(fen, &with(&["majority=no"])), expect(&all));
    // One hop per move: every landing.
    assert_eq!(
        moves(fen, &with(&["chains=no"])),
        expect(&["a1xe5", "a1xf6", "a1xg7", "a1xh8", "a1xi9"])
    );
}

// ---------------------------------------------------------------------------------------
// Promotion
// ---------------------------------------------------------------------------------------

#[test]
fn a_man_stepping_onto_the_far_rank_becomes_a_mullah() {
    let rules = standard();
    assert_eq!(
        moves("B:Bc7:W", &rules),
        expect(&["c7-b8", "c7-c9", "c7-d8"])
    );
    let next = after("B:Bc7:W", &rules, "c7-c9");
    assert_eq!(piece(&next, "c9"), BLACK_MULLAH);
    assert_eq!(piece(&next, "c7"), None);
    // From the centre b8 to a9; the new Mullah then flies: a9 down the a-file to a1.
    assert_eq!(moves("B:Bb8:W", &rules), expect(&["b8-a9", "b8-c9"]));
    let next = after("B:Bb8:W", &rules, "b8-a9");
    assert_eq!(piece(&next, "a9"), BLACK_MULLAH);
    let flies = next.swap_turn().parse_move(&rules, "a9-a1");
    assert!(flies.is_ok(), "{flies:?}");
    // White promotes on rank 1.
    assert_eq!(moves("W:B:Wd2", &rules), expect(&["d2-c1", "d2-e1"]));
    assert_eq!(
        piece(&after("W:B:Wd2", &rules, "d2-c1"), "c1"),
        WHITE_MULLAH
    );
}

#[test]
fn a_man_ending_a_capture_on_the_far_rank_becomes_a_mullah() {
    let rules = standard();
    // c7 over d8 to e9.
    assert_eq!(moves("B:Bc7:Wd8", &rules), expect(&["c7xe9"]));
    let next = after("B:Bc7:Wd8", &rules, "c7xe9");
    assert_eq!(piece(&next, "e9"), BLACK_MULLAH);
    assert_eq!(piece(&next, "d8"), None);
    // White e3 over d2 to c1.
    assert_eq!(moves("W:Bd2:We3", &rules), expect(&["e3xc1"]));
    let next = after("W:Bd2:We3", &rules, "e3xc1");
    assert_eq!(piece(&next, "c1"), WHITE_MULLAH);
}

#[test]
fn a_man_passing_the_far_rank_mid_capture_goes_on_as_a_man() {
    // c5 over b6 to a7, over b8 to c9 (the far rank), then back over d8 to e7. It ends on
    // e7, so it stays a man.
    let fen = "B:Bc5:Wb6,b8,d8";
    assert_eq!(moves(fen, &standard()), expect(&["c5xa7xc9xe7"]));
    let next = after(fen, &standard(), "c5xa7xc9xe7");
    assert_eq!(piece(&next, "e7"), BLACK_MAN);
    assert_eq!(next.pieces(Color::White).count(), 0);
}

#[test]
fn a_man_on_the_far_rank_mid_capture_does_not_capture_like_a_mullah() {
    // As before, plus White men on g9 and e3. A Mullah on c9 could take g9 along rank 9
    // (e9 empty, i9 beyond) and a Mullah on e7 could take e3 down file e (e5 empty, e1
    // beyond); a man cannot, since neither is next to it. So the move is unchanged.
    let fen = "B:Bc5:Wb6,b8,d8,g9,e3";
    assert_eq!(moves(fen, &standard()), expect(&["c5xa7xc9xe7"]));
    let next = after(fen, &standard(), "c5xa7xc9xe7");
    assert_eq!(piece(&next, "e7"), BLACK_MAN);
    // back-rank=promote: the sequence stops on c9 with a new Mullah; d8, g9 and e3 stay.
    let promote = with(&["back-rank=promote"]);
    assert_eq!(moves(fen, &promote), expect(&["c5xa7xc9"]));
    let next = after(fen, &promote, "c5xa7xc9");
    assert_eq!(piece(&next, "c9"), BLACK_MULLAH);
    for name in ["d8", "g9", "e3"] {
        assert_eq!(piece(&next, name), WHITE_MAN, "{name}");
    }
}

#[test]
fn a_white_man_passing_rank_1_mid_capture_goes_on_unless_back_rank_promote() {
    // White g5 over f4 to e3, over f2 to g1 (rank 1), then over h2 to i3 (backward for
    // White): it ends on i3 as a man. Under back-rank=promote it stops on g1 as a Mullah.
    let fen = "W:Bf4,f2,h2:Wg5";
    assert_eq!(moves(fen, &standard()), expect(&["g5xe3xg1xi3"]));
    assert_eq!(
        piece(&after(fen, &standard(), "g5xe3xg1xi3"), "i3"),
        WHITE_MAN
    );
    let promote = with(&["back-rank=promote"]);
    assert_eq!(moves(fen, &promote), expect(&["g5xe3xg1"]));
    let next = after(fen, &promote, "g5xe3xg1");
    assert_eq!(piece(&next, "g1"), WHITE_MULLAH);
    assert_eq!(piece(&next, "h2"), BLACK_MAN);
}

#[test]
fn back_rank_promote_ends_the_move_on_the_far_rank() {
    // The same chain as above without extra men: under promote-and-stop it ends on c9,
    // and d8 is not taken.
    let fen = "B:Bc5:Wb6,b8,d8";
    let promote = with(&["back-rank=promote"]);
    assert_eq!(moves(fen, &promote), expect(&["c5xa7xc9"]));
    let next = after(fen, &promote, "c5xa7xc9");
    assert_eq!(piece(&next, "c9"), BLACK_MULLAH);
    assert_eq!(piece(&next, "d8"), WHITE_MAN);
    assert_eq!(piece(&next, "b6"), None);
    assert_eq!(piece(&next, "b8"), None);
}

// ---------------------------------------------------------------------------------------
// One move, several paths; reading moves
// ---------------------------------------------------------------------------------------

#[test]
fn every_path_of_a_merged_move_and_its_short_form_are_read_as_that_move() {
    let rules = standard();
    for (fen, texts) in [
        (
            "B:Bc5:Wd4,f4,e5",
            ["c5xe3xg5xc5", "c5xg5xe3xc5", "c5xc5"].as_slice(),
        ),
        (
            "B:Be1:Wd2,f2,d4,f4",
            ["e1xc3xe5xg3xe1", "e1xg3xe5xc3xe1", "e1xe1"].as_slice(),
        ),
    ] {
        let pos = position(fen);
        let legal = pos.legal_moves(&rules);
        assert_eq!(legal.len(), 1, "{fen}");
        for text in texts {
            let mv = pos
                .parse_move(&rules, text)
                .unwrap_or_else(|e| panic!("{text} in {fen}: {e}"));
            assert_eq!(mv, legal[0], "{text} in {fen}");
        }
    }
}

#[test]
fn a_short_form_naming_two_different_moves_is_ambiguous() {
    // With backwards=no, e1 reaches e5 two ways: over f2 and f4 (via g3) or over d2 and d4
    // (via c3). From e5 the other two men are behind it (backward): the move ends. Two
    // moves with the same start and end and different captured sets.
    let rules = with(&["backwards=no"]);
    let fen = "B:Be1:Wd2,f2,d4,f4";
    assert_eq!(moves(fen, &rules), expect(&["e1xc3xe5", "e1xg3xe5"]));
    let pos = position(fen);
    match pos.parse_move(&rules, "e1xe5") {
        Err(MoveError::Ambiguous { candidates, .. }) => {
            assert_eq!(sorted(candidates), expect(&["e1xc3xe5", "e1xg3xe5"]));
        }
        other => panic!("expected ambiguity, got {other:?}"),
    }
    let left = pos.parse_move(&rules, "e1xc3xe5").expect("full path");
    let right = pos.parse_move(&rules, "e1xg3xe5").expect("full path");
    assert_eq!(sorted(left.captured()), expect(&["d2", "d4"]));
    assert_eq!(sorted(right.captured()), expect(&["f2", "f4"]));
}

#[test]
fn a_complete_one_hop_path_is_not_ambiguous_with_a_longer_move() {
    // backwards=no, majority=no. e1 over e3 to e5 ends there (everything left is behind
    // or beside with nothing to take). e1 over d2 to c3 goes on: over d4 to e5, or over e3
    // sideways to g3. So e1xe5 is the whole path of one move and also the start and end of
    // e1xc3xe5. The docs: "If several legal moves share start and end, give the full list
    // of landing points"; e1xe5 is that full list for the one-hop move, so it must name it.
    let rules = with(&["backwards=no", "majority=no"]);
    let fen = "B:Be1:Wd2,d4,e3";
    assert_eq!(
        moves(fen, &rules),
        expect(&["e1xc3xe5", "e1xc3xg3", "e1xe5"])
    );
    let pos = position(fen);
    let one_hop = pos
        .parse_move(&rules, "e1xe5")
        .unwrap_or_else(|e| panic!("e1xe5 is a complete path: {e}"));
    assert_eq!(one_hop.to_string(), "e1xe5");
    assert_eq!(sorted(one_hop.captured()), expect(&["e3"]));
    let two_hops = pos.parse_move(&rules, "e1xc3xe5").expect("full path");
    assert_eq!(sorted(two_hops.captured()), expect(&["d2", "d4"]));
}

// ---------------------------------------------------------------------------------------
// End of the game
// ---------------------------------------------------------------------------------------

fn game(fen: &str, rules: Rules) -> Game {
    Game::from_position(rules, position(fen))
}

#[test]
fn a_side_whose_men_are_all_blocked_loses() {
    // a7: a9 and b8 occupied; b8 cannot be jumped (c9 occupied), a9 has nothing beyond.
    let fen = "B:Ba7:Wa9,b8,c9";
    assert!(moves(fen, &standard()).is_empty());
    assert_eq!(
        game(fen, standard()).outcome(),
        Some(Outcome {
            winner: Some(Color::White),
            reason: Reason::NoMoves {
                loser: Color::Black,
                no_pieces: false
            },
        })
    );
}

#[test]
fn a_side_whose_mullah_is_boxed_in_loses() {
    // a1's three lines start with a White piece that has another piece right behind it
    // (White men cannot stand on rank 1, so c1 and e1 are Mullahs).
    let fen = "B:BKa1:Wa3,a5,b2,c3,Kc1,Ke1";
    assert!(moves(fen, &standard()).is_empty());
    let outcome = game(fen, standard()).outcome().expect("game over");
    assert_eq!(outcome.winner, Some(Color::White));
    assert_eq!(
        outcome.reason,
        Reason::NoMoves {
            loser: Color::Black,
            no_pieces: false
        }
    );
}

#[test]
fn a_man_whose_only_capture_is_backward_is_blocked_under_backwards_no() {
    // As above, plus a White man on a5: a7 can jump it backwards to a3 in standard; with
    // backwards=no Black has no move and loses.
    let fen = "B:Ba7:Wa5,a9,b8,c9";
    assert_eq!(moves(fen, &standard()), expect(&["a7xa3"]));
    let rules = with(&["backwards=no"]);
    assert!(moves(fen, &rules).is_empty());
    assert_eq!(
        game(fen, rules).outcome().map(|o| o.winner),
        Some(Some(Color::White))
    );
}

#[test]
fn a_side_without_pieces_loses() {
    let outcome = game("B:B:Wa9", standard()).outcome().expect("game over");
    assert_eq!(outcome.winner, Some(Color::White));
    assert_eq!(
        outcome.reason,
        Reason::NoMoves {
            loser: Color::Black,
            no_pieces: true
        }
    );
    // Taking White's last piece wins for Black.
    let mut g = game("B:Bc3:Wd4", standard());
    play_all(&mut g, &["c3xe5"]);
    assert_eq!(
        g.outcome(),
        Some(Outcome {
            winner: Some(Color::Black),
            reason: Reason::NoMoves {
                loser: Color::White,
                no_pieces: true
            },
        })
    );
}

// ---------------------------------------------------------------------------------------
// Draws
// ---------------------------------------------------------------------------------------

/// Two Mullahs that never see each other with room beyond: a1 and i9 share the long
/// diagonal but nothing is behind either; a3, i7 and their lines stay clear.
const SHUFFLE: &str = "B:BKa1:WKi9";
const SHUFFLE_CYCLE: [&str; 4] = ["a1-a3", "i9-i7", "a3-a1", "i7-i9"];

#[test]
fn threefold_repetition_draws_on_the_third_occurrence() {
    let mut g = game(SHUFFLE, standard());
    // After one cycle the start position is back for the second time: play goes on.
    play_all(&mut g, &SHUFFLE_CYCLE);
    assert_eq!(g.repetitions(), 2);
    // Three more plies: positions 1, 2, 3 occur for the second time only.
    play_all(&mut g, &SHUFFLE_CYCLE[..3]);
    assert_eq!(g.outcome(), None);
    // The last ply brings the start position for the third time.
    g.play_str(SHUFFLE_CYCLE[3]).unwrap();
    assert_eq!(g.repetitions(), 3);
    assert_eq!(
        g.outcome(),
        Some(Outcome {
            winner: None,
            reason: Reason::Repetition
        })
    );
}

#[test]
fn repetition_no_lets_positions_repeat() {
    let mut g = game(SHUFFLE, with(&["repetition=no"]));
    for _ in 0..3 {
        play_all(&mut g, &SHUFFLE_CYCLE);
    }
    assert_eq!(g.repetitions(), 4);
    assert_eq!(g.outcome(), None);
}

#[test]
fn no_progress_draws_after_the_limit_of_mullah_moves() {
    let mut g = game(SHUFFLE, with(&["no-progress=4"]));
    // Three Mullah moves, each to a new position (so no repetition): quiet count 3.
    play_all(&mut g, &["a1-a3", "i9-i7", "a3-a5"]);
    assert_eq!(g.quiet_plies(), 3);
    assert_eq!(g.outcome(), None);
    g.play_str("i7-i5").unwrap();
    assert_eq!(
        g.outcome(),
        Some(Outcome {
            winner: None,
            reason: Reason::NoProgress(4)
        })
    );
}

#[test]
fn no_progress_draws_after_100_plies_by_default() {
    // Repetition off, so that only the no-progress rule can end the shuffle.
    let mut g = game(SHUFFLE, with(&["repetition=no"]));
    for ply in 0..99 {
        play_all(&mut g, &[SHUFFLE_CYCLE[ply % 4]]);
    }
    assert_eq!(g.quiet_plies(), 99);
    assert_eq!(g.outcome(), None);
    g.play_str(SHUFFLE_CYCLE[99 % 4]).unwrap();
    assert_eq!(g.quiet_plies(), 100);
    assert_eq!(
        g.outcome(),
        Some(Outcome {
            winner: None,
            reason: Reason::NoProgress(100)
        })
    );
}

#[test]
fn a_man_move_restarts_the_no_progress_count() {
    // Black Mullah a1 and man a3, White Mullah i9. No position along the way has a
    // capture: the White Mullah on i7 sees c1 at the end of its diagonal with nothing
    // beyond, and no Black piece stands on its other lines.
    let mut g = game("B:BKa1,a3:WKi9", with(&["no-progress=4"]));
    play_all(&mut g, &["a1-c1", "i9-i7"]);
    assert_eq!(g.quiet_plies(), 2);
    play_all(&mut g, &["a3-a5"]); // a man move
    assert_eq!(g.quiet_plies(), 0);
    play_all(&mut g, &["i7-i9", "c1-a1", "i9-i7"]);
    assert_eq!(g.quiet_plies(), 3);
    assert_eq!(g.outcome(), None);
    g.play_str("a1-c1").unwrap();
    assert_eq!(g.outcome().map(|o| o.reason), Some(Reason::NoProgress(4)));
}

#[test]
fn a_capture_restarts_the_no_progress_count() {
    // After a1-c1, i9-g9, c1-e1 White's Mullah on g9 sees c5 down its diagonal (f8, e7, d6
    // empty, b4 and a3 beyond) and must take it: the count starts again.
    let mut g = game("B:BKa1,c5:WKi9", with(&["no-progress=4"]));
    play_all(&mut g, &["a1-c1", "i9-g9", "c1-e1"]);
    assert_eq!(g.quiet_plies(), 3);
    assert_eq!(
        sorted(g.legal_moves()),
        expect(&["g9xa3", "g9xb4"]),
        "the capture is compulsory"
    );
    play_all(&mut g, &["g9xa3"]);
    assert_eq!(g.quiet_plies(), 0);
    play_all(&mut g, &["e1-g1", "a3-a5", "g1-i1"]);
    assert_eq!(g.quiet_plies(), 3);
    assert_eq!(g.outcome(), None);
    g.play_str("a5-a7").unwrap();
    assert_eq!(g.outcome().map(|o| o.reason), Some(Reason::NoProgress(4)));
}

#[test]
fn no_progress_off_never_draws() {
    let mut g = game(SHUFFLE, with(&["no-progress=off", "repetition=no"]));
    for ply in 0..200 {
        play_all(&mut g, &[SHUFFLE_CYCLE[ply % 4]]);
    }
    assert_eq!(g.quiet_plies(), 200);
    assert_eq!(g.outcome(), None);
}

// ---------------------------------------------------------------------------------------
// Named rule sets
// ---------------------------------------------------------------------------------------

/// The moves of `fen` under standard, sideways, ludii and dagaz, in that order.
fn under_each_set(fen: &str) -> [Vec<String>; 4] {
    [
        Rules::standard(),
        Rules::sideways(),
        Rules::ludii(),
        Rules::dagaz(),
    ]
    .map(|rules| moves(fen, &rules))
}

#[test]
fn named_sets_sideways_steps() {
    // Only sideways and dagaz let men step along the rank.
    let [standard, sideways, ludii, dagaz] = under_each_set("B:Be3:W");
    let forward = expect(&["e3-d4", "e3-e5", "e3-f4"]);
    let wide = expect(&["e3-c3", "e3-d4", "e3-e5", "e3-f4", "e3-g3"]);
    assert_eq!(standard, forward);
    assert_eq!(sideways, wide);
    assert_eq!(ludii, forward);
    assert_eq!(dagaz, wide);
}

#[test]
fn named_sets_backward_captures_and_compulsion() {
    // e5 over d4 (backward) or over e7 (forward). sideways forbids the backward one;
    // ludii does not force the capture, so the steps d6 and f6 are legal too (e7 is
    // occupied).
    let [standard, sideways, ludii, dagaz] = under_each_set("B:Be5:Wd4,e7");
    assert_eq!(standard, expect(&["e5xc3", "e5xe9"]));
    assert_eq!(sideways, expect(&["e5xe9"]));
    assert_eq!(ludii, expect(&["e5-d6", "e5-f6", "e5xc3", "e5xe9"]));
    assert_eq!(dagaz, expect(&["e5xc3", "e5xe9"]));
}

#[test]
fn named_sets_majority_and_chains() {
    // Two men (e3xc5xa7) against one Mullah (e3xg5), both forward captures.
    let [standard, sideways, ludii, dagaz] = under_each_set("B:Be3:Wd4,b6,Kf4");
    assert_eq!(standard, expect(&["e3xc5xa7"]));
    assert_eq!(sideways, expect(&["e3xc5xa7", "e3xg5"]));
    assert_eq!(ludii, expect(&["e3-e5", "e3xc5", "e3xg5"]));
    assert_eq!(dagaz, expect(&["e3xc5xa7"]));
}

#[test]
fn named_sets_the_far_rank_mid_capture() {
    // c5xa7xc9 then back over d8 to e7. sideways: the last hop is backward, so it ends on
    // c9. ludii: one hop, or a step. dagaz: promoted on c9 and stops.
    let [standard, sideways, ludii, dagaz] = under_each_set("B:Bc5:Wb6,b8,d8");
    assert_eq!(standard, expect(&["c5xa7xc9xe7"]));
    assert_eq!(sideways, expect(&["c5xa7xc9"]));
    assert_eq!(ludii, expect(&["c5-c7", "c5-d6", "c5xa7"]));
    assert_eq!(dagaz, expect(&["c5xa7xc9"]));
}

#[test]
fn named_sets_removal() {
    // The Mullah blocked by its own capture (see captured_pieces_block_a_mullah...).
    let [standard, sideways, ludii, dagaz] = under_each_set("B:BKa1:We5,e7,g3");
    let twos = ["a1xf6xc9", "a1xf6xd8", "a1xg7xa7", "a1xg7xc7", "a1xg7xg1"];
    assert_eq!(standard, expect(&twos));
    // No majority: the one-piece sequences ending on h8 and i9 are legal too.
    let mut maximal = twos.to_vec();
    maximal.extend(["a1xh8", "a1xi9"]);
    assert_eq!(sideways, expect(&maximal));
    // One hop (landing f6..i9) or any slide (a-file, rank 1, b2..d4).
    assert_eq!(
        ludii,
        expect(&[
            "a1xf6", "a1xg7", "a1xh8", "a1xi9", "a1-a3", "a1-a5", "a1-a7", "a1-a9", "a1-c1",
            "a1-e1", "a1-g1", "a1-i1", "a1-b2", "a1-c3", "a1-d4",
        ])
    );
    // Immediate removal: three pieces; the route never turns back.
    assert_eq!(dagaz, expect(&["a1xg7xc7xh2", "a1xg7xc7xi1"]));
}

#[test]
fn named_sets_draw_rules() {
    // standard and sideways draw by repetition; ludii and dagaz have no draw rules.
    for (name, draws) in [
        ("standard", true),
        ("sideways", true),
        ("ludii", false),
        ("dagaz", false),
    ] {
        let rules: Rules = name.parse().unwrap();
        let mut g = game(SHUFFLE, rules);
        play_all(&mut g, &SHUFFLE_CYCLE);
        play_all(&mut g, &SHUFFLE_CYCLE);
        assert_eq!(g.outcome().is_some(), draws, "{name}");
    }
}

/// With immediate removal a capture may end on the point of a piece it took: the Mullah on
/// a9 takes c9 along rank 9 (landing g9), g7 down file g (landing g5), then e7 up the
/// diagonal g5-f6-e7-d8-c9, landing on c9, emptied by the first capture. It stays a Mullah.
/// Found by the record tests: the Mullah flag used to be cleared with the captured piece.
#[test]
fn immediate_removal_capture_ending_on_a_captured_point_keeps_the_piece() {
    let rules: Rules = "standard,removal=immediate".parse().unwrap();
    let pos = Position::from_fen("B:Ba1,i5,Ka9:We7,g7,h8,c9,i9").unwrap();
    let mv = pos.parse_move(&rules, "a9xg9xg5xc9").unwrap();
    let next = pos.play(&mv);
    assert_eq!(next.to_fen(), "W:Ba1,i5,Kc9:Wh8,i9");
    assert_eq!(
        Position::from_fen(&next.to_fen()).unwrap().hash(),
        next.hash()
    );
}

/// The same under `dagaz`: the Mullah on g9 takes h8 first (landing i7) and, four captures
/// later, lands on h8 again; it must still be a Mullah there.
#[test]
fn dagaz_mullah_landing_where_it_captured_first_stays_a_mullah() {
    let rules = Rules::dagaz();
    let pos =
        Position::from_fen("B:Bc1,e1,i1,b2,d2,h2,i3,Kg9:WKg1,c5,d6,f6,h6,a7,b8,d8,h8,a9,c9,e9,i9")
            .unwrap();
    let mv = pos.parse_move(&rules, "g9xi7xf4xc7xc3xh8").unwrap();
    let next = pos.play(&mv);
    let h8: Point = "h8".parse().unwrap();
    assert_eq!(
        next.piece_at(h8),
        Some(Piece {
            color: Color::Black,
            mullah: true
        })
    );
    assert_eq!(next.pieces(Color::White).count(), 13 - 5);
}
