//! The server's JSON request bodies, through the whole router as the server answers them:
//! the first byte picks the endpoint (create a game, move, undo, engine move, hint), the rest
//! is the body. No body gets a 5xx answer or a panic, and a refused request to a game
//! changes nothing stored (its state reads the same before and after). Engine searches are
//! cut to a few milliseconds.
#![no_main]

use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use kharbaga_server::{app, Config};
use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;
use std::time::Duration;
use tower::ServiceExt;

/// The router, its runtime and a game made once per process, with the game's id and token.
struct Server {
    runtime: tokio::runtime::Runtime,
    router: axum::Router,
    id: String,
    token: String,
}

/// Sends one request; answers the status and the body read as JSON (null if it is not).
async fn send(
    router: &axum::Router,
    method: &str,
    uri: &str,
    token: Option<&str>,
    body: Vec<u8>,
) -> (StatusCode, serde_json::Value) {
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
    let json = serde_json::from_slice(&bytes).unwrap_or(serde_json::Value::Null);
    (status, json)
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
            data_dir: dir,
            max_engine_time: Duration::from_millis(2),
            default_engine_time: Duration::from_millis(1),
            engine_hash_mib: 1,
            ..Config::default()
        };
        let (router, id, token) = runtime.block_on(async {
            let router = app(config).expect("the app");
            let (status, json) = send(&router, "POST", "/api/games", None, b"{}".to_vec()).await;
            assert!(status.is_success(), "a game is created: {status} {json}");
            let id = json["id"].as_str().expect("an id").to_string();
            let token = json["token"].as_str().expect("a token").to_string();
            (router, id, token)
        });
        Server {
            runtime,
            router,
            id,
            token,
        }
    })
}

/// The stored state of the game, without what changes on its own.
fn stored(mut state: serde_json::Value) -> serde_json::Value {
    if let Some(map) = state.as_object_mut() {
        map.remove("thinking");
    }
    state
}

fuzz_target!(|data: &[u8]| {
    let Some((&switch, body)) = data.split_first() else {
        return;
    };
    let s = server();
    let game = format!("/api/games/{}", s.id);
    let path = match switch % 5 {
        0 => "/api/games".to_string(),
        1 => format!("{game}/moves"),
        2 => format!("{game}/undo"),
        3 => format!("{game}/engine"),
        _ => format!("{game}/hint"),
    };
    s.runtime.block_on(async {
        let (_, before) = send(&s.router, "GET", &game, None, Vec::new()).await;
        let (status, answer) = send(&s.router, "POST", &path, Some(&s.token), body.to_vec()).await;
        assert!(
            !status.is_server_error(),
            "{path} {:?} answered {status} {answer}",
            String::from_utf8_lossy(body)
        );
        if status.is_client_error() {
            let (_, after) = send(&s.router, "GET", &game, None, Vec::new()).await;
            assert_eq!(
                stored(before),
                stored(after),
                "{path} {:?} refused with {status} {answer} but changed the game",
                String::from_utf8_lossy(body)
            );
        }
    });
});
