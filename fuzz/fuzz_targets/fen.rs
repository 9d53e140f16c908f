//! Position strings: what parses prints back to a string that parses to the same position,
//! and every legal move of a parsed position replays, its notation naming it again.
#![no_main]

use kharbaga::{Position, Rules, Setup};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(setup) = Setup::from_fen(text) {
        let printed = setup.to_fen();
        let again = Setup::from_fen(&printed).expect("a printed setup parses");
        assert_eq!(again, setup, "{text:?} printed as {printed:?}");
    }
    let Ok(pos) = Position::from_fen(text) else {
        return;
    };
    let printed = pos.to_fen();
    let again = Position::from_fen(&printed).expect("a printed position parses");
    assert_eq!(again, pos, "{text:?} printed as {printed:?}");
    // The rule set follows from the input, so every set is reached.
    let names = kharbaga::RULE_SET_NAMES;
    let rules = Rules::named(names[data.len() % names.len()]).expect("a known name");
    let moves = pos.legal_moves(&rules);
    // Reading a move back generates the moves again, so with hundreds of moves (Mullahs'
    // chains under `sideways` reach 745) reading them all is quadratic and runs past
    // libFuzzer's time limit: every move is played, and at most 40 of them, spread over the
    // list, are read back.
    let every = moves.len().div_ceil(40).max(1);
    for (i, mv) in moves.iter().enumerate() {
        let _next = pos.play(mv);
        if i % every != 0 {
            continue;
        }
        let written = mv.to_string();
        let read = pos
            .parse_move(&rules, &written)
            .unwrap_or_else(|e| panic!("{written} of {printed} does not parse back: {e}"));
        assert!(
            read.same_effect(mv),
            "{written} of {printed} reads as {read}"
        );
    }
});
