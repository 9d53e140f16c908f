//! The endgame tables' values of a game's current position, as the game state shows them.

use crate::tables::Tables;
use kharbaga::{Game, Position};
use kharbaga_tablebase::tablebase::{ProbeError, Tablebase};
use serde::Serialize;

/// The value of the position and of each legal move, for the side to move (`win 17`,
/// `draw`, `loss 8`: plies to the end of the game), the moves best first.
#[derive(Serialize, Debug)]
pub(crate) struct TablesJson {
    value: String,
    moves: Vec<TableMove>,
}

#[derive(Serialize, Debug)]
struct TableMove {
    #[serde(rename = "move")]
    notation: String,
    value: String,
}

fn probe(tb: &Tablebase, pos: &Position) -> Result<TablesJson, ProbeError> {
    let value = tb.probe(pos)?;
    let moves = tb.moves(pos)?;
    Ok(TablesJson {
        value: value.to_string(),
        moves: moves
            .into_iter()
            .map(|(mv, v)| TableMove {
                notation: mv.to_string(),
                value: v.to_string(),
            })
            .collect(),
    })
}

/// The tables' values of the current position of a game that is not over, if the server
/// has tables for its rules that cover it. A probe that fails (a damaged table file) is
/// written to standard error and gives none: the game goes on without.
pub(super) async fn values(tables: &Tables, game: &Game) -> Option<TablesJson> {
    if game.outcome().is_some() {
        return None;
    }
    let tb = tables.for_rules(game.rules())?;
    let pos = *game.position();
    if !tb.covers(&pos) {
        return None;
    }
    // A first probe of a slice opens its file: off the async threads.
    let probed = tokio::task::spawn_blocking(move || probe(&tb, &pos)).await;
    match probed {
        Ok(Ok(json)) => Some(json),
        Ok(Err(e)) => {
            eprintln!("endgame tables: cannot probe {}: {e}", pos.to_fen());
            None
        }
        Err(e) => {
            eprintln!("endgame tables: the probe of {} failed: {e}", pos.to_fen());
            None
        }
    }
}
