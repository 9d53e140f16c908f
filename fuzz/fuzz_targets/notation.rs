//! Move notation, full, shortened and ambiguous: reading never panics, and a move read in a
//! position is one of its legal moves. The first line of the input is a position string
//! (the start position when it does not parse), the rest the move.
#![no_main]

use kharbaga::{MoveText, Position, Rules};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let (fen, written) = text.split_once('\n').unwrap_or(("start", text));
    if let Ok(mt) = MoveText::parse(written) {
        assert!(mt.points.len() >= 2);
    }
    let pos = Position::from_fen(fen).unwrap_or_else(|_| Position::start());
    let names = kharbaga::RULE_SET_NAMES;
    let rules = Rules::named(names[data.len() % names.len()]).expect("a known name");
    if let Ok(mv) = pos.parse_move(&rules, written) {
        let legal = pos.legal_moves(&rules);
        assert!(
            legal.iter().any(|m| m.same_effect(&mv)),
            "{written:?} read as {mv}, not a legal move of {pos}"
        );
        let _next = pos.play(&mv);
    }
});
