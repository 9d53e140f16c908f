//! Engine-protocol lines, a sequence of them as a session sends: reading a line never
//! panics; a line read, written again with `quote`, reads as the same line (when no value
//! holds a double quote, which `quote` turns into a single one); the position and rules a
//! `pos` or `set-param` line names are read as the command loop reads them. No search is
//! run (`hub_session` fuzzes the command loop with whole sessions).
#![no_main]

use kharbaga::{Game, Position, Rules};
use kharbaga_engine::protocol::{quote, Line};
use libfuzzer_sys::fuzz_target;
use std::str::FromStr;

/// The line written back: the command, then each argument as `name`, or `name=value` with
/// the value quoted when needed.
fn write(line: &Line) -> String {
    let mut text = line.command.clone();
    for (name, value) in &line.args {
        text.push(' ');
        text.push_str(name);
        if let Some(v) = value {
            text.push('=');
            text.push_str(&quote(v));
        }
    }
    text
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut rules = Rules::standard();
    for raw in text.split('\n') {
        let Ok(Some(line)) = Line::parse(raw.trim()) else {
            continue;
        };
        let has_quote = line
            .args
            .iter()
            .any(|(_, v)| v.as_deref().is_some_and(|v| v.contains('"')));
        if !has_quote {
            let written = write(&line);
            let again = Line::parse(&written)
                .unwrap_or_else(|e| panic!("{raw:?} written as {written:?} does not read: {e}"));
            assert_eq!(
                again.as_ref(),
                Some(&line),
                "{raw:?} written as {written:?}"
            );
        }
        match line.command.as_str() {
            "set-param" if line.get("name") == Some("rules") => {
                if let Ok(r) = Rules::from_str(line.get("value").unwrap_or("")) {
                    rules = r;
                }
            }
            "pos" => {
                let start = match line.get("pos") {
                    Some(fen) => match Position::from_fen(fen) {
                        Ok(p) => p,
                        Err(_) => continue,
                    },
                    None => Position::start(),
                };
                let mut game = Game::from_position(rules, start);
                for mv in line.get("moves").unwrap_or("").split_whitespace() {
                    if game.play_str(mv).is_err() {
                        break;
                    }
                }
                let _ = game.outcome();
                let _ = game.legal_moves();
            }
            _ => {}
        }
    }
});
