//! The game database: one SQLite file with a row per game and a row per move.
//!
//! A game is stored as what is needed to replay it (its rules string, start position string
//! and moves in full notation) with the state that is not on the board: the seats, the
//! clocks, a draw offer, how it ended. A change is one transaction: a move appends its row
//! and updates the game's row together. Calls block; the API runs them on tokio's blocking
//! pool. The layout and its migrations are in `schema`.

mod row;
mod schema;

pub(crate) use row::{Clocks, End, GameRow, Player};

use row::{color_option_from_db, color_to_db};
use rusqlite::{params, Connection, OptionalExtension, Row};
use std::path::Path;
use std::sync::Mutex;

/// The database.
pub(crate) struct Store {
    conn: Mutex<Connection>,
}

/// The columns of a game's row, as [`read_game`] reads them.
const GAME_COLUMNS: &str = "id, token_sha256, rules, start, black, white, rolls, created, updated,
    invite_sha256, guest_sha256, clock, black_ms, white_ms, turn_started_ms, draw_offer, result,
    reason, rematch_of, rematch";

fn bad_column(i: usize, what: String) -> rusqlite::Error {
    rusqlite::Error::FromSqlConversionFailure(i, rusqlite::types::Type::Text, what.into())
}

/// Reads a game's row (without its moves) from the columns [`GAME_COLUMNS`].
fn read_game(r: &Row) -> rusqlite::Result<GameRow> {
    let player = |i: usize| -> rusqlite::Result<Player> {
        let text: String = r.get(i)?;
        Player::from_db(&text).ok_or_else(|| bad_column(i, format!("bad player '{text}'")))
    };
    let rolls: String = r.get(6)?;
    let clock: Option<String> = r.get(11)?;
    let clocks = match clock {
        None => None,
        Some(text) => Some(Clocks {
            control: text
                .parse()
                .map_err(|e| bad_column(11, format!("bad clock: {e}")))?,
            left_ms: [r.get(12)?, r.get(13)?],
            turn_started_ms: r.get(14)?,
        }),
    };
    let result: Option<String> = r.get(16)?;
    let reason: Option<String> = r.get(17)?;
    let end = match (result, reason) {
        (Some(result), Some(reason)) => Some(
            End::from_db(&result, &reason)
                .ok_or_else(|| bad_column(17, format!("bad result '{result}' '{reason}'")))?,
        ),
        _ => None,
    };
    Ok(GameRow {
        id: r.get(0)?,
        token_sha256: r.get(1)?,
        rules: r.get(2)?,
        start: r.get(3)?,
        moves: Vec::new(),
        players: [player(4)?, player(5)?],
        rolls: rolls
            .split_whitespace()
            .filter_map(|p| {
                let (b, w) = p.split_once('-')?;
                Some((b.parse().ok()?, w.parse().ok()?))
            })
            .collect(),
        created: r.get(7)?,
        updated: r.get(8)?,
        invite_sha256: r.get(9)?,
        guest_sha256: r.get(10)?,
        clocks,
        draw_offer: color_option_from_db(r.get(15)?),
        end,
        rematch_of: r.get(18)?,
        rematch: r.get(19)?,
    })
}

/// Writes the moves of `row` from ply `first + 1` on, and forgets the stored ones after its
/// last.
fn write_moves(conn: &Connection, row: &GameRow, first: usize) -> rusqlite::Result<()> {
    conn.execute(
        "DELETE FROM moves WHERE game_id = ?1 AND ply > ?2",
        params![row.id, first as i64],
    )?;
    let mut insert =
        conn.prepare_cached("INSERT INTO moves (game_id, ply, notation) VALUES (?1, ?2, ?3)")?;
    for (i, mv) in row.moves.iter().enumerate().skip(first) {
        insert.execute(params![row.id, i as i64 + 1, mv])?;
    }
    Ok(())
}

impl Store {
    /// Opens (or creates) the database file and brings its layout up to date.
    pub fn open(path: &Path) -> rusqlite::Result<Store> {
        let mut conn = Connection::open(path)?;
        // WAL with synchronous=NORMAL: every committed move survives a crash of the server
        // process; only a power cut can lose the last moments.
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", "NORMAL")?;
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        schema::migrate(&mut conn)?;
        Ok(Store {
            conn: Mutex::new(conn),
        })
    }

    fn conn(&self) -> std::sync::MutexGuard<'_, Connection> {
        // A panic while holding the lock cannot leave SQLite inconsistent (each transaction
        // is atomic), so a poisoned lock is still usable.
        self.conn.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Adds a new game with its moves.
    pub fn insert(&self, row: &GameRow) -> rusqlite::Result<()> {
        let mut conn = self.conn();
        let tx = conn.transaction()?;
        let rolls: Vec<String> = row.rolls.iter().map(|(b, w)| format!("{b}-{w}")).collect();
        tx.execute(
            "INSERT INTO games (id, token_sha256, rules, start, black, white, rolls, created,
                updated, rematch_of)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
            params![
                row.id,
                row.token_sha256,
                row.rules,
                row.start,
                row.players[0].to_db(),
                row.players[1].to_db(),
                rolls.join(" "),
                row.created,
                row.updated,
                row.rematch_of,
            ],
        )?;
        update_game(&tx, row)?;
        write_moves(&tx, row, 0)?;
        tx.commit()
    }

    /// Reads a game; `None` if there is no game with this id.
    pub fn load(&self, id: &str) -> rusqlite::Result<Option<GameRow>> {
        let conn = self.conn();
        let mut stmt =
            conn.prepare_cached(&format!("SELECT {GAME_COLUMNS} FROM games WHERE id = ?1"))?;
        let Some(mut row) = stmt.query_row([id], read_game).optional()? else {
            return Ok(None);
        };
        let mut moves =
            conn.prepare_cached("SELECT notation FROM moves WHERE game_id = ?1 ORDER BY ply")?;
        row.moves = moves
            .query_map([id], |r| r.get(0))?
            .collect::<rusqlite::Result<_>>()?;
        Ok(Some(row))
    }

    /// Writes the changes of a game in one transaction: its state, and its moves from ply
    /// `unchanged + 1` on (the first `unchanged` stored moves are as they were; stored moves
    /// past the game's last are taken back).
    pub fn save(&self, row: &GameRow, unchanged: usize) -> rusqlite::Result<()> {
        let mut conn = self.conn();
        let tx = conn.transaction()?;
        update_game(&tx, row)?;
        write_moves(&tx, row, unchanged)?;
        tx.commit()
    }

    /// Deletes the unfinished games not changed since `before` (Unix seconds), with their
    /// moves; returns how many.
    pub fn delete_abandoned(&self, before: i64) -> rusqlite::Result<usize> {
        let mut conn = self.conn();
        let tx = conn.transaction()?;
        tx.execute(
            "DELETE FROM moves WHERE game_id IN
                (SELECT id FROM games WHERE result IS NULL AND updated < ?1)",
            [before],
        )?;
        let n = tx.execute(
            "DELETE FROM games WHERE result IS NULL AND updated < ?1",
            [before],
        )?;
        tx.commit()?;
        Ok(n)
    }

    /// The ids of the unfinished games whose clock is running.
    pub fn running_clocks(&self) -> rusqlite::Result<Vec<String>> {
        let conn = self.conn();
        let mut stmt = conn
            .prepare("SELECT id FROM games WHERE result IS NULL AND turn_started_ms IS NOT NULL")?;
        let ids = stmt.query_map([], |r| r.get(0))?.collect();
        ids
    }
}

/// Writes what may change in a game's row.
fn update_game(conn: &Connection, row: &GameRow) -> rusqlite::Result<()> {
    let (result, reason) = row.end.as_ref().map(End::to_db).unzip();
    let clock = row.clocks.map(|c| c.control.to_string());
    let left = row.clocks.map(|c| c.left_ms);
    conn.execute(
        "UPDATE games SET updated = ?2, invite_sha256 = ?3, guest_sha256 = ?4, clock = ?5,
            black_ms = ?6, white_ms = ?7, turn_started_ms = ?8, draw_offer = ?9, result = ?10,
            reason = ?11, rematch = ?12
         WHERE id = ?1",
        params![
            row.id,
            row.updated,
            row.invite_sha256,
            row.guest_sha256,
            clock,
            left.map(|l| l[0]),
            left.map(|l| l[1]),
            row.clocks.and_then(|c| c.turn_started_ms),
            color_to_db(row.draw_offer),
            result,
            reason,
            row.rematch,
        ],
    )?;
    Ok(())
}

#[cfg(test)]
mod tests;
