//! The API's shared state seen from inside: what requests leave behind in it.

use super::*;
use std::net::SocketAddr;
use std::path::PathBuf;

/// The API over a fresh database, served on a free port; the folder is removed when dropped.
struct Served {
    app: Arc<AppState>,
    addr: SocketAddr,
    dir: PathBuf,
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

async fn serve(label: &str) -> Served {
    let dir = std::env::temp_dir().join(format!("kharbaga-unit-{label}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let store = Store::open(&dir.join("games.sqlite3")).unwrap();
    let app = Arc::new(AppState::new(
        Config {
            data_dir: dir.clone(),
            default_engine_time: Duration::from_millis(50),
            engine_hash_mib: 1,
            abandon_after: Some(Duration::from_secs(86_400)),
            ..Config::default()
        },
        store,
    ));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let routes = router(Arc::clone(&app));
    tokio::spawn(async move { axum::serve(listener, routes).await });
    Served { app, addr, dir }
}

#[tokio::test]
async fn a_bad_game_id_makes_no_lock() {
    let served = serve("locks").await;
    let app = &served.app;
    let long = "a".repeat(60_000);
    assert!(app.lock_game(&long).await.is_err());
    assert!(app.lock_game("ABCDEFGHJK").await.is_err());
    assert_eq!(app.lock_count(), 0);
    // Through the API: ids that are not ids, and an id of no game.
    let http = reqwest::Client::new();
    for id in [long.as_str(), "abc", "abcdefghij"] {
        for end in ["moves", "engine", "undo"] {
            let res = http
                .post(format!("http://{}/api/games/{id}/{end}", served.addr))
                .header(TOKEN_HEADER, "0123")
                .header("content-type", "application/json")
                .body("{}")
                .send()
                .await
                .unwrap();
            assert_eq!(res.status(), reqwest::StatusCode::NOT_FOUND, "{end}");
        }
    }
    assert_eq!(app.lock_count(), 0, "no lock left behind");
}

#[tokio::test]
async fn a_game_lock_is_forgotten_after_use() {
    let served = serve("lock-use").await;
    let app = &served.app;
    let held = app.lock_game("abcdefghij").await.unwrap();
    assert_eq!(app.lock_count(), 1);
    // Someone waits for it: the lock outlives the first holder.
    let waiter = {
        let app = Arc::clone(app);
        tokio::spawn(async move {
            let _second = app.lock_game("abcdefghij").await.unwrap();
        })
    };
    tokio::task::yield_now().await;
    drop(held);
    waiter.await.unwrap();
    assert_eq!(app.lock_count(), 0);
}

#[tokio::test]
async fn a_game_is_watched_while_someone_listens() {
    let served = serve("watch").await;
    let app = &served.app;
    let http = reqwest::Client::new();
    let url = |path: &str| format!("http://{}{path}", served.addr);
    let created: serde_json::Value = http
        .post(url("/api/games"))
        .header("content-type", "application/json")
        .body("{}")
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let id = created["id"].as_str().unwrap();
    let events = url(&format!("/api/games/{id}/events"));
    let mut first = http.get(&events).send().await.unwrap();
    let mut second = http.get(&events).send().await.unwrap();
    assert!(first.chunk().await.unwrap().is_some());
    assert!(second.chunk().await.unwrap().is_some());
    assert_eq!(app.watchers.count(), 1, "one channel for the game");
    drop(first);
    drop(second);
    // The server notices a closed stream when it next writes to it, or on its own.
    let deadline = std::time::Instant::now() + Duration::from_secs(5);
    while app.watchers.count() > 0 {
        assert!(std::time::Instant::now() < deadline, "the channel stays");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    // An unknown game leaves no channel.
    let res = http
        .get(url("/api/games/abcdefghij/events"))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), reqwest::StatusCode::NOT_FOUND);
    assert_eq!(app.watchers.count(), 0);
}

#[tokio::test]
async fn abandoned_games_are_deleted_and_others_kept() {
    let served = serve("abandoned").await;
    let app = &served.app;
    let day = 86_400;
    let game = |id: &str, updated: i64, end: Option<crate::store::End>| GameRow {
        created: updated,
        updated,
        end,
        ..GameRow::new(id.into(), "00".into(), "standard".into(), "start".into())
    };
    let old = now() - 3 * day;
    for row in [
        game("abandoned1", old, None),
        game("finished22", old, Some(crate::store::End::Agreed)),
        game("recent3333", now() - day / 2, None),
    ] {
        app.store.insert(&row).unwrap();
    }
    let sweeping = tokio::spawn(sweep_abandoned(Arc::clone(app)));
    tokio::time::timeout(Duration::from_secs(10), async {
        while app.store.load("abandoned1").unwrap().is_some() {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
    .await
    .expect("the abandoned game is deleted");
    sweeping.abort();
    assert!(app.store.load("finished22").unwrap().is_some());
    assert!(app.store.load("recent3333").unwrap().is_some());
}

/// A game against a person elsewhere after two moves, Black's clock running since
/// `started_ms` with `black_ms` left on it, as a server would have stored it.
fn clocked_game(id: &str, black_ms: i64, started_ms: i64) -> GameRow {
    let mut game = kharbaga::Game::new(kharbaga::Rules::standard());
    for _ in 0..2 {
        let mv = game.legal_moves()[0];
        game.play(&mv).unwrap();
    }
    GameRow {
        moves: game.moves().iter().map(Move::to_string).collect(),
        players: [crate::store::Player::Human, crate::store::Player::Person],
        guest_sha256: Some("11".into()),
        clocks: Some(crate::store::Clocks {
            control: "1+0".parse().unwrap(),
            left_ms: [black_ms, 60_000],
            turn_started_ms: Some(started_ms),
        }),
        ..GameRow::new(
            id.into(),
            "00".into(),
            "standard".into(),
            kharbaga::START_FEN.into(),
        )
    }
}

#[tokio::test]
async fn a_clock_that_ran_out_unwatched_ends_the_game_when_it_is_next_read() {
    let served = serve("flag-read").await;
    let app = &served.app;
    // Stored as a server that stopped would have left it: Black's clock running since long
    // ago, with no timer to end it.
    let row = clocked_game("timeupgame", 60_000, now_ms() - 61_000);
    app.store.insert(&row).unwrap();
    let got: serde_json::Value =
        reqwest::get(format!("http://{}/api/games/timeupgame", served.addr))
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
    assert_eq!(got["status"], "over", "{got}");
    assert_eq!(got["outcome"]["reason"], "time");
    assert_eq!(got["outcome"]["winner"], "white");
    let stored = app.store.load("timeupgame").unwrap().unwrap();
    assert_eq!(
        stored.end,
        Some(crate::store::End::Flagged(kharbaga::Color::Black))
    );
    assert_eq!(app.store.running_clocks().unwrap(), Vec::<String>::new());
}

#[tokio::test]
async fn a_clock_running_when_the_server_stopped_falls_when_its_time_is_up() {
    let served = serve("flag-restart").await;
    let app = &served.app;
    // Black's clock has 0.3 s left: no request comes, the timer set at the start ends it.
    let row = clocked_game("runnngxyz2", 300, now_ms());
    app.store.insert(&row).unwrap();
    assert_eq!(app.store.running_clocks().unwrap(), ["runnngxyz2"]);
    watch_stored_clocks(Arc::clone(app)).await;
    let end = tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            if let Some(end) = app.store.load("runnngxyz2").unwrap().unwrap().end {
                return end;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
    .await
    .expect("the flag falls by itself");
    assert_eq!(end, crate::store::End::Flagged(kharbaga::Color::Black));
}
