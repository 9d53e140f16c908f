//! The database layout and its migrations. `PRAGMA user_version` holds the number of
//! migrations applied; opening a database applies the missing ones in order, each in its
//! own transaction with the version it reaches.

use rusqlite::{params, Connection, Transaction};

/// One step from a layout to the next.
type Migration = fn(&Transaction) -> rusqlite::Result<()>;

/// The migrations, in order: the database is at version `n` once the first `n` are applied.
const MIGRATIONS: [Migration; 2] = [create_games, people_and_moves];

/// The layout version this server writes.
pub(super) const VERSION: i64 = MIGRATIONS.len() as i64;

/// Version 1: one row per game, its moves in one text column, as the server wrote it before
/// layout versions were kept (at version 0), so the table may exist already.
pub(super) const GAMES_V1: &str = "CREATE TABLE IF NOT EXISTS games (
            id TEXT PRIMARY KEY,
            token_sha256 TEXT NOT NULL,
            rules TEXT NOT NULL,
            start TEXT NOT NULL,
            moves TEXT NOT NULL,
            black TEXT NOT NULL,
            white TEXT NOT NULL,
            rolls TEXT NOT NULL,
            created INTEGER NOT NULL,
            updated INTEGER NOT NULL
        )";

/// Version 1 ([`GAMES_V1`]).
fn create_games(tx: &Transaction) -> rusqlite::Result<()> {
    tx.execute_batch(GAMES_V1)
}

/// Version 2: the moves in their own table, one row per move (a move appends a row instead
/// of rewriting the game); games against a person elsewhere (invitation, the guest's token),
/// clocks, draw offers, results with their reason, rematches.
fn people_and_moves(tx: &Transaction) -> rusqlite::Result<()> {
    tx.execute_batch(
        "CREATE TABLE moves (
            game_id TEXT NOT NULL,
            ply INTEGER NOT NULL,
            notation TEXT NOT NULL,
            PRIMARY KEY (game_id, ply)
        ) WITHOUT ROWID;
        ALTER TABLE games ADD COLUMN invite_sha256 TEXT;
        ALTER TABLE games ADD COLUMN guest_sha256 TEXT;
        ALTER TABLE games ADD COLUMN clock TEXT;
        ALTER TABLE games ADD COLUMN black_ms INTEGER;
        ALTER TABLE games ADD COLUMN white_ms INTEGER;
        ALTER TABLE games ADD COLUMN turn_started_ms INTEGER;
        ALTER TABLE games ADD COLUMN draw_offer TEXT;
        ALTER TABLE games ADD COLUMN result TEXT;
        ALTER TABLE games ADD COLUMN reason TEXT;
        ALTER TABLE games ADD COLUMN rematch_of TEXT;
        ALTER TABLE games ADD COLUMN rematch TEXT;
        CREATE INDEX games_unfinished ON games (updated) WHERE result IS NULL;",
    )?;
    {
        let mut read = tx.prepare("SELECT id, moves FROM games")?;
        let mut write =
            tx.prepare("INSERT INTO moves (game_id, ply, notation) VALUES (?1, ?2, ?3)")?;
        let mut rows = read.query([])?;
        while let Some(row) = rows.next()? {
            let id: String = row.get(0)?;
            let moves: String = row.get(1)?;
            for (i, mv) in moves.split_whitespace().enumerate() {
                write.execute(params![id, i as i64 + 1, mv])?;
            }
        }
    }
    tx.execute_batch("ALTER TABLE games DROP COLUMN moves")
}

/// Brings the database to [`VERSION`]; refuses one made by a newer server.
pub(super) fn migrate(conn: &mut Connection) -> rusqlite::Result<()> {
    let version: i64 = conn.pragma_query_value(None, "user_version", |r| r.get(0))?;
    if version > VERSION {
        return Err(rusqlite::Error::SqliteFailure(
            rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_CANTOPEN),
            Some(format!(
                "the database has layout version {version}, newer than this server's {VERSION}: \
                 use a newer kharbaga, or another data folder"
            )),
        ));
    }
    for (done, step) in MIGRATIONS.iter().enumerate().skip(version.max(0) as usize) {
        let tx = conn.transaction()?;
        step(&tx)?;
        tx.pragma_update(None, "user_version", done as i64 + 1)?;
        tx.commit()?;
    }
    Ok(())
}
