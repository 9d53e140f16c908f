//! The game database: one SQLite file, one row per game, rewritten on every change.
//!
//! A game is stored as what is needed to replay it: its rules string, its start position
//! string and its moves in full notation. Calls block; the API runs them on tokio's blocking
//! pool.

use rusqlite::{params, Connection, OptionalExtension};
use std::path::Path;
use std::sync::Mutex;

/// Who plays one side.
#[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase", deny_unknown_fields)]
pub(crate) enum Player {
    /// A person at the browser that created the game.
    Human,
    /// The engine at a playing level 1-10.
    Engine {
        /// The playing level.
        level: u8,
    },
}

impl Player {
    fn to_db(self) -> String {
        match self {
            Player::Human => "human".to_string(),
            Player::Engine { level } => format!("engine:{level}"),
        }
    }

    fn from_db(text: &str) -> Option<Player> {
        match text.split_once(':') {
            None if text == "human" => Some(Player::Human),
            Some(("engine", level)) => level.parse().ok().map(|level| Player::Engine { level }),
            _ => None,
        }
    }
}

/// One stored game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct GameRow {
    /// The game's id (its address is `/game/<id>`).
    pub id: String,
    /// The SHA-256 of the owner's secret token, in hex.
    pub token_sha256: String,
    /// The rules string (`standard,removal=immediate`).
    pub rules: String,
    /// The start position string.
    pub start: String,
    /// The moves played, in full notation.
    pub moves: Vec<String>,
    /// Who plays Black and White.
    pub players: [Player; 2],
    /// The die rolls that decided who starts (Black's and White's, in turn, until they
    /// differed), if a die was rolled.
    pub rolls: Vec<(u8, u8)>,
    /// Creation time, Unix seconds.
    pub created: i64,
    /// Time of the last change, Unix seconds.
    pub updated: i64,
}

/// The database.
pub(crate) struct Store {
    conn: Mutex<Connection>,
}

impl Store {
    /// Opens (or creates) the database file and its table.
    pub fn open(path: &Path) -> rusqlite::Result<Store> {
        let conn = Connection::open(path)?;
        // WAL with synchronous=NORMAL: every committed move survives a crash of the server
        // process; only a power cut can lose the last moments.
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", "NORMAL")?;
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        conn.execute_batch(
            "CREATE TABLE IF NOT EXISTS games (
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
            )",
        )?;
        Ok(Store {
            conn: Mutex::new(conn),
        })
    }

    fn conn(&self) -> std::sync::MutexGuard<'_, Connection> {
        // A panic while holding the lock cannot leave SQLite inconsistent (each statement is
        // atomic), so a poisoned lock is still usable.
        self.conn.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Adds a new game.
    pub fn insert(&self, row: &GameRow) -> rusqlite::Result<()> {
        let rolls: Vec<String> = row.rolls.iter().map(|(b, w)| format!("{b}-{w}")).collect();
        self.conn().execute(
            "INSERT INTO games (id, token_sha256, rules, start, moves, black, white, rolls, created, updated)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
            params![
                row.id,
                row.token_sha256,
                row.rules,
                row.start,
                row.moves.join(" "),
                row.players[0].to_db(),
                row.players[1].to_db(),
                rolls.join(" "),
                row.created,
                row.updated
            ],
        )?;
        Ok(())
    }

    /// Reads a game; `None` if there is no game with this id.
    pub fn load(&self, id: &str) -> rusqlite::Result<Option<GameRow>> {
        let conn = self.conn();
        let mut stmt = conn.prepare_cached(
            "SELECT id, token_sha256, rules, start, moves, black, white, rolls, created, updated
             FROM games WHERE id = ?1",
        )?;
        stmt.query_row([id], |r| {
            let player = |i: usize| -> rusqlite::Result<Player> {
                let text: String = r.get(i)?;
                Player::from_db(&text).ok_or_else(|| {
                    rusqlite::Error::FromSqlConversionFailure(
                        i,
                        rusqlite::types::Type::Text,
                        format!("bad player '{text}'").into(),
                    )
                })
            };
            let moves: String = r.get(4)?;
            let rolls: String = r.get(7)?;
            Ok(GameRow {
                id: r.get(0)?,
                token_sha256: r.get(1)?,
                rules: r.get(2)?,
                start: r.get(3)?,
                moves: moves.split_whitespace().map(str::to_string).collect(),
                players: [player(5)?, player(6)?],
                rolls: rolls
                    .split_whitespace()
                    .filter_map(|p| {
                        let (b, w) = p.split_once('-')?;
                        Some((b.parse().ok()?, w.parse().ok()?))
                    })
                    .collect(),
                created: r.get(8)?,
                updated: r.get(9)?,
            })
        })
        .optional()
    }

    /// Replaces the moves of a game.
    pub fn set_moves(&self, id: &str, moves: &[String], updated: i64) -> rusqlite::Result<()> {
        self.conn().execute(
            "UPDATE games SET moves = ?2, updated = ?3 WHERE id = ?1",
            params![id, moves.join(" "), updated],
        )?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_survives_closing_and_reopening_the_file() {
        let dir = std::env::temp_dir().join(format!("kharbaga-store-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("games.sqlite3");
        let _ = std::fs::remove_file(&path);
        let row = GameRow {
            id: "abc".into(),
            token_sha256: "00ff".into(),
            rules: "ludii".into(),
            start: "W:Bc3:Wd4".into(),
            moves: vec![],
            players: [Player::Human, Player::Engine { level: 7 }],
            rolls: vec![(3, 3), (2, 6)],
            created: 10,
            updated: 10,
        };
        {
            let store = Store::open(&path).unwrap();
            store.insert(&row).unwrap();
            store.set_moves("abc", &["d4xb2".to_string()], 11).unwrap();
            assert!(store.insert(&row).is_err(), "ids are unique");
        }
        let store = Store::open(&path).unwrap();
        let back = store.load("abc").unwrap().unwrap();
        assert_eq!(back.moves, ["d4xb2"]);
        assert_eq!(back.updated, 11);
        assert_eq!(
            GameRow {
                moves: vec![],
                updated: 10,
                ..back
            },
            row
        );
        assert_eq!(store.load("abd").unwrap(), None);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn players_read_back_what_was_written() {
        for p in [
            Player::Human,
            Player::Engine { level: 1 },
            Player::Engine { level: 10 },
        ] {
            assert_eq!(Player::from_db(&p.to_db()), Some(p));
        }
        assert_eq!(Player::from_db("engine:x"), None);
        assert_eq!(Player::from_db("robot"), None);
    }
}
