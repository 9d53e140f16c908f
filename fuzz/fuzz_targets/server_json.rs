//! The server's JSON request bodies, through the whole router as the server answers them,
//! for every endpoint that reads a body: create a game, move, undo, engine move, hint,
//! analysis, and the requests of a game against a person elsewhere (join, resign, draw
//! offer/accept/decline, abort, rematch).
//!
//! The first byte picks the endpoint and whose token goes with the request (the game's
//! creator, the invited guest, none, or a wrong one) and to which game; the rest is the
//! body. Two games are
//! kept, one between two sides at this screen and one against a person elsewhere, and made
//! again when a request has ended or called off one of them, so that every endpoint keeps
//! meeting a game in play. Properties: no body gets a 5xx answer or a panic, and a refused
//! (4xx) request changes nothing stored: neither game's state reads differently after it,
//! and no game is added (the database's rows are counted). Engine searches are cut to a few
//! milliseconds.
#![no_main]

use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use kharbaga_server::{app, Config};
use libfuzzer_sys::fuzz_target;
use serde_json::{json, Value};
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::OnceLock;
use std::time::Duration;
use tower::ServiceExt;

/// A game the target sends requests to.
#[derive(Clone)]
struct Game {
    id: String,
    /// The creator's token.
    token: String,
    /// The invitation's secret and the guest's token once seated (games against a person).
    invite: Option<String>,
    guest: Option<String>,
}

/// The router, its runtime and database, and the two games.
struct Server {
    runtime: tokio::runtime::Runtime,
    router: axum::Router,
    db: PathBuf,
    games: Mutex<(Game, Game)>,
    /// Games against a person made so far (every other one is left waiting for its guest).
    made: Mutex<u64>,
}

/// Sends one request; answers the status and the body read as JSON (null if it is not).
async fn send(
    router: &axum::Router,
    method: &str,
    uri: &str,
    token: Option<&str>,
    body: Vec<u8>,
) -> (StatusCode, Value) {
    let mut req = Request::builder()
        .method(method)
        .uri(uri)
        .header("content-type", "application/json");
    if let Some(t) = token {
        req = req.header("x-kharbaga-token", t);
    }
    let req = req.body(Body::from(body)).expect("a request");
    let resp = router
        .clone()
        .oneshot(req)
        .await
        .expect("the router answers");
    let status = resp.status();
    let bytes = resp.into_body().collect().await.expect("a body").to_bytes();
    let json = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
    (status, json)
}

/// Creates a game with `body`; a game against a person is joined by its guest when `join`.
async fn create(router: &axum::Router, body: Value, join: bool) -> Game {
    let (status, json) = send(router, "POST", "/api/games", None, body.to_string().into()).await;
    assert!(status.is_success(), "a game is created: {status} {json}");
    let text = |v: &Value| v.as_str().map(str::to_string);
    let mut game = Game {
        id: text(&json["id"]).expect("an id"),
        token: text(&json["token"]).expect("a token"),
        invite: text(&json["invite"]),
        guest: None,
    };
    if let (true, Some(invite)) = (join, &game.invite) {
        let uri = format!("/api/games/{}/join", game.id);
        let body = json!({ "invite": invite }).to_string().into();
        let (status, json) = send(router, "POST", &uri, None, body).await;
        assert!(status.is_success(), "the guest joins: {status} {json}");
        game.guest = text(&json["token"]);
    }
    game
}

/// A game between two sides at this screen.
async fn local_game(router: &axum::Router) -> Game {
    create(router, json!({}), false).await
}

/// A game against a person elsewhere, every other one with its guest seated.
async fn person_game(router: &axum::Router, made: &Mutex<u64>) -> Game {
    let join = {
        let mut n = made.lock().expect("no panic holds the lock");
        *n += 1;
        *n % 2 == 0
    };
    create(router, json!({ "white": { "kind": "person" }, "clock": "600" }), join).await
}

fn server() -> &'static Server {
    static SERVER: OnceLock<Server> = OnceLock::new();
    SERVER.get_or_init(|| {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a runtime");
        let dir = std::env::temp_dir().join(format!("kharbaga-fuzz-server-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let config = Config {
            data_dir: dir.clone(),
            max_engine_time: Duration::from_millis(2),
            default_engine_time: Duration::from_millis(1),
            engine_hash_mib: 1,
            max_games_per_minute: 0,
            ..Config::default()
        };
        let made = Mutex::new(0);
        let (router, games) = runtime.block_on(async {
            let router = app(config).expect("the app");
            let local = local_game(&router).await;
            let person = person_game(&router, &made).await;
            (router, (local, person))
        });
        Server {
            runtime,
            router,
            db: dir.join("games.sqlite3"),
            games: Mutex::new(games),
            made,
        }
    })
}

/// The stored state of a game, without what changes on its own (the engine thinking, the
/// clocks counting down).
fn stored(mut state: Value) -> Value {
    if let Some(map) = state.as_object_mut() {
        map.remove("thinking");
        if let Some(clock) = map.get_mut("clock").and_then(Value::as_object_mut) {
            clock.remove("black_ms");
            clock.remove("white_ms");
        }
    }
    state
}

/// The games stored.
fn count_games(db: &PathBuf) -> i64 {
    let conn = rusqlite::Connection::open_with_flags(db, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
        .expect("the database opens");
    conn.query_row("SELECT COUNT(*) FROM games", [], |r| r.get(0))
        .expect("the games are counted")
}

/// The endpoints, with the game they go to (false: the local one, true: the one against a
/// person); `None` is the creation of a game.
const ENDPOINTS: [(Option<&str>, bool); 13] = [
    (None, false),
    (Some("moves"), false),
    (Some("undo"), false),
    (Some("engine"), false),
    (Some("hint"), false),
    (Some("analysis"), false),
    (Some("join"), true),
    (Some("resign"), true),
    (Some("draw/offer"), true),
    (Some("draw/accept"), true),
    (Some("draw/decline"), true),
    (Some("abort"), true),
    (Some("rematch"), true),
];

fuzz_target!(|data: &[u8]| {
    let Some((&switch, body)) = data.split_first() else {
        return;
    };
    let s = server();
    let (endpoint, against_person) = ENDPOINTS[usize::from(switch) % ENDPOINTS.len()];
    let (local, person) = s.games.lock().expect("no panic holds the lock").clone();
    // Bit 6 sends the local game's requests to the game against a person instead.
    let to_person = against_person || (endpoint.is_some() && switch & 0x40 != 0);
    let game = if to_person { &person } else { &local };
    let path = match endpoint {
        None => "/api/games".to_string(),
        Some(e) => format!("/api/games/{}/{e}", game.id),
    };
    // Bits 4-5: the creator's token, the guest's (the creator's where there is none), none,
    // or one that is no game's.
    let token = match (switch >> 4) & 3 {
        0 => Some(game.token.as_str()),
        1 => game.guest.as_deref().or(Some(game.token.as_str())),
        2 => None,
        _ => Some("0123456789abcdef0123456789abcdef"),
    };
    s.runtime.block_on(async {
        let state = |g: &Game| {
            let uri = format!("/api/games/{}", g.id);
            async move { stored(send(&s.router, "GET", &uri, None, Vec::new()).await.1) }
        };
        let before = (state(&local).await, state(&person).await, count_games(&s.db));
        let (status, answer) = send(&s.router, "POST", &path, token, body.to_vec()).await;
        assert!(
            !status.is_server_error(),
            "{path} {:?} answered {status} {answer}",
            String::from_utf8_lossy(body)
        );
        let after = (state(&local).await, state(&person).await, count_games(&s.db));
        if status.is_client_error() {
            assert!(
                before == after,
                "{path} {:?} refused with {status} {answer} but changed what is stored: \
                 before {before:?}, after {after:?}",
                String::from_utf8_lossy(body)
            );
        }
        // A game ended or called off is made again, so that its endpoints meet one in play.
        let over = |state: &Value| matches!(state["status"].as_str(), Some("over" | "aborted"));
        let mut games = s.games.lock().expect("no panic holds the lock");
        if over(&after.0) {
            games.0 = local_game(&s.router).await;
        }
        if over(&after.1) {
            games.1 = person_game(&s.router, &s.made).await;
        }
    });
});
