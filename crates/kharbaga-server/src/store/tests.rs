use super::*;
use kharbaga::{Color, TimeControl};

/// A fresh folder for one test's database.
fn temp_db(label: &str) -> (std::path::PathBuf, std::path::PathBuf) {
    let dir = std::env::temp_dir().join(format!("kharbaga-store-{label}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("games.sqlite3");
    (dir, path)
}

fn sample() -> GameRow {
    GameRow {
        players: [Player::Human, Player::Engine { level: 7 }],
        rolls: vec![(3, 3), (2, 6)],
        created: 10,
        updated: 10,
        ..GameRow::new(
            "abc".into(),
            "00ff".into(),
            "ludii".into(),
            "W:Bc3:Wd4".into(),
        )
    }
}

#[test]
fn a_game_survives_closing_and_reopening_the_file() {
    let (dir, path) = temp_db("reopen");
    let row = sample();
    let mut changed = GameRow {
        moves: vec!["d4xb2".to_string()],
        updated: 11,
        players: [Player::Human, Player::Person],
        invite_sha256: Some("11".into()),
        guest_sha256: Some("22".into()),
        clocks: Some(Clocks {
            control: "0.5+2".parse::<TimeControl>().unwrap(),
            left_ms: [29_000, 30_000],
            turn_started_ms: Some(1_000_000),
        }),
        draw_offer: Some(Color::White),
        end: Some(End::Flagged(Color::Black)),
        rematch: Some("def".into()),
        ..row.clone()
    };
    {
        let store = Store::open(&path).unwrap();
        store.insert(&row).unwrap();
        store.save(&changed, 0).unwrap();
        assert!(store.insert(&row).is_err(), "ids are unique");
    }
    let store = Store::open(&path).unwrap();
    let back = store.load("abc").unwrap().unwrap();
    // The players are written once, at creation.
    changed.players = row.players;
    assert_eq!(back, changed);
    assert_eq!(store.load("abd").unwrap(), None);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn moves_are_appended_and_taken_back() {
    let (dir, path) = temp_db("moves");
    let store = Store::open(&path).unwrap();
    let mut row = GameRow {
        moves: vec!["a".into(), "b".into()],
        ..sample()
    };
    store.insert(&row).unwrap();
    row.moves.push("c".into());
    store.save(&row, 2).unwrap();
    assert_eq!(store.load("abc").unwrap().unwrap().moves, ["a", "b", "c"]);
    row.moves.truncate(1);
    store.save(&row, 1).unwrap();
    assert_eq!(store.load("abc").unwrap().unwrap().moves, ["a"]);
    row.moves.push("d".into());
    store.save(&row, 1).unwrap();
    assert_eq!(store.load("abc").unwrap().unwrap().moves, ["a", "d"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn abandoned_games_go_with_their_moves_and_finished_ones_stay() {
    let (dir, path) = temp_db("abandoned");
    let store = Store::open(&path).unwrap();
    let old = GameRow {
        moves: vec!["a".into()],
        ..sample()
    };
    let finished = GameRow {
        id: "fin".into(),
        end: Some(End::Agreed),
        ..old.clone()
    };
    let recent = GameRow {
        id: "new".into(),
        updated: 100,
        ..old.clone()
    };
    for row in [&old, &finished, &recent] {
        store.insert(row).unwrap();
    }
    assert_eq!(store.delete_abandoned(50).unwrap(), 1);
    assert_eq!(store.load("abc").unwrap(), None);
    assert!(store.load("fin").unwrap().is_some());
    assert!(store.load("new").unwrap().is_some());
    let left: i64 = store
        .conn()
        .query_row("SELECT count(*) FROM moves", [], |r| r.get(0))
        .unwrap();
    assert_eq!(left, 2, "the deleted game's move went with it");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_database_of_the_first_layout_is_migrated_with_its_games() {
    let (dir, path) = temp_db("migrate");
    {
        // Exactly what the server wrote before layout versions were kept (user_version 0).
        let conn = Connection::open(&path).unwrap();
        conn.execute_batch(schema::GAMES_V1).unwrap();
        conn.execute_batch(
            "INSERT INTO games VALUES ('abc', '00ff', 'ludii', 'W:Bc3:Wd4', 'd4xb2',
                'human', 'engine:7', '3-3 2-6', 10, 11);
            INSERT INTO games VALUES ('xyz', '00ee', 'standard', 'start', 'e3-e5 d6-d5 f3-f4',
                'human', 'human', '', 20, 21);
            INSERT INTO games VALUES ('new', '00dd', 'standard', 'start', '',
                'engine:1', 'human', '', 30, 30);",
        )
        .unwrap();
    }
    let store = Store::open(&path).unwrap();
    let version: i64 = store
        .conn()
        .pragma_query_value(None, "user_version", |r| r.get(0))
        .unwrap();
    assert_eq!(version, schema::VERSION);
    assert_eq!(
        store.load("abc").unwrap().unwrap(),
        GameRow {
            moves: vec!["d4xb2".into()],
            updated: 11,
            ..sample()
        }
    );
    assert_eq!(
        store.load("xyz").unwrap().unwrap().moves,
        ["e3-e5", "d6-d5", "f3-f4"]
    );
    let new = store.load("new").unwrap().unwrap();
    assert!(new.moves.is_empty());
    assert_eq!(new.players, [Player::Engine { level: 1 }, Player::Human]);
    drop(store);
    // Opening again changes nothing.
    let store = Store::open(&path).unwrap();
    assert_eq!(store.load("abc").unwrap().unwrap().moves, ["d4xb2"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_database_from_a_newer_server_is_refused() {
    let (dir, path) = temp_db("newer");
    Connection::open(&path)
        .unwrap()
        .pragma_update(None, "user_version", schema::VERSION + 1)
        .unwrap();
    let e = Store::open(&path).err().expect("refused").to_string();
    assert!(e.contains("newer than this server"), "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
}
