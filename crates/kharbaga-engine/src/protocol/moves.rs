//! Move lists as the protocol writes and reads them: moves in our notation separated by
//! spaces (`moves="d4-e5 f6xd4"`, `pv="c3xe5 a5xc3"`).

use kharbaga::{Game, Move, Position, Rules};

/// Moves in notation, separated by spaces.
pub fn moves_text(moves: &[Move]) -> String {
    moves
        .iter()
        .map(Move::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// The game after playing `moves` (notation separated by spaces) from `start`; an error
/// names the move by its number and says why it cannot be played.
pub fn game_after(rules: Rules, start: Position, moves: &str) -> Result<Game, String> {
    let mut game = Game::from_position(rules, start);
    for (i, text) in moves.split_whitespace().enumerate() {
        game.play_str(text)
            .map_err(|e| format!("move {} ({text}): {e}", i + 1))?;
    }
    Ok(game)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_are_numbered_in_errors() {
        let rules = Rules::standard();
        let game = game_after(rules, Position::start(), " d4-e5  f6xd4 ").unwrap();
        assert_eq!(game.moves().len(), 2);
        assert_eq!(moves_text(game.moves()), "d4-e5 f6xd4");
        // After d4-e5 White must capture: f6-e5 is not a legal second move.
        let e = game_after(rules, Position::start(), "d4-e5 f6-e5").unwrap_err();
        assert!(e.starts_with("move 2 (f6-e5): "), "{e}");
    }
}
