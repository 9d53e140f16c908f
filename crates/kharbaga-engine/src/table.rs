//! The root move from the endgame tables: the move that keeps the value (the fastest win,
//! the slowest loss, a draw), when the no-progress rule cannot change it.

use crate::time::Clock;
use crate::{Info, Report, Score};
use kharbaga::{Game, Move, Position};
use kharbaga_tablebase::tablebase::Tablebase;
use kharbaga_tablebase::value::Value;

/// The longest line shown after a table move.
const PV_PLIES: usize = 12;

/// The public score of a table value.
fn score_of(v: Value) -> Score {
    match v {
        Value::Win(d) => Score::TableWin(Some(u32::from(d))),
        Value::Draw => Score::TableDraw,
        Value::Loss(d) => Score::TableLoss(Some(u32::from(d))),
    }
}

/// Whether playing `mv` (of value `v`) keeps the value under the no-progress rule: a win
/// must end before `limit` plies without progress, counting from `quiet` now; a loss
/// too, or the loser might reach a no-progress draw the tables do not know of.
fn keeps_value(pos: &Position, mv: &Move, v: Value, quiet: u32, limit: Option<u32>) -> bool {
    let Some(limit) = limit else { return true };
    let after = if pos.is_progress(mv) { 0 } else { quiet + 1 };
    match v {
        Value::Draw => true,
        Value::Win(d) | Value::Loss(d) => after + u32::from(d).saturating_sub(1) <= limit,
    }
}

/// The report of a table move for the current position of `game`, if its slice is in the
/// tables and the no-progress rule cannot change the value (None: search instead).
pub(crate) fn root(
    tb: &Tablebase,
    game: &Game,
    multipv: usize,
    clock: &Clock,
    on_info: &mut dyn FnMut(&Info),
) -> Option<Report> {
    let pos = game.position();
    if !tb.covers(pos) {
        return None;
    }
    let moves = tb.moves(pos).ok()?;
    let limit = game.rules().no_progress_limit;
    let quiet = game.quiet_plies();
    let (best, value) = *moves.first()?;
    if !keeps_value(pos, &best, value, quiet, limit) {
        return None;
    }
    let pv = line(tb, pos, best);
    for (i, &(mv, v)) in moves.iter().take(multipv).enumerate() {
        on_info(&Info {
            depth: 1,
            seldepth: 1,
            multipv: i + 1,
            score: score_of(v),
            nodes: 0,
            time: clock.elapsed(),
            // The best line is walked once, for the report too.
            pv: if i == 0 {
                pv.clone()
            } else {
                line(tb, pos, mv)
            },
        });
    }
    Some(Report {
        best: Some(best),
        ponder: pv.get(1).copied(),
        score: score_of(value),
        depth: 1,
        nodes: 0,
        pv,
        time: clock.elapsed(),
        book: false,
    })
}

/// `first`, then the tables' best move after it, and so on for a few plies.
fn line(tb: &Tablebase, pos: &Position, first: Move) -> Vec<Move> {
    let mut pv = vec![first];
    let mut cur = pos.play(&first);
    while pv.len() < PV_PLIES {
        let Some(&(mv, _)) = tb
            .moves(&cur)
            .ok()
            .and_then(|m| m.first().copied())
            .as_ref()
        else {
            break;
        };
        pv.push(mv);
        cur = cur.play(&mv);
    }
    pv
}
