//! The server's log: a line per request with its method, path, client and status, and an
//! error's cause.

mod common;

use common::client::Api;
use reqwest::StatusCode;
use serde_json::json;
use std::io::Write;
use std::sync::{Arc, Mutex};

/// The log lines written in this test process.
#[derive(Clone, Default)]
struct Captured(Arc<Mutex<Vec<u8>>>);

impl Write for Captured {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Captured {
    fn lines(&self) -> Vec<String> {
        String::from_utf8_lossy(&self.0.lock().unwrap())
            .lines()
            .map(str::to_string)
            .collect()
    }
}

#[tokio::test]
async fn requests_and_errors_are_logged_with_their_cause() {
    let log = Captured::default();
    let writer = log.clone();
    tracing_subscriber::fmt()
        .with_env_filter("info")
        .with_ansi(false)
        .with_writer(move || writer.clone())
        .init();
    let api = Api::start("logging").await;
    let g = api.create(json!({})).await;
    let (status, _) = api.get("/api/meta").await;
    assert_eq!(status, StatusCode::OK);
    // A stored game that cannot be read back: a 500, whose cause must be in the log.
    let db = rusqlite::Connection::open(api.server.data_dir.join("games.sqlite3")).unwrap();
    db.execute(
        "UPDATE games SET rules = 'no-such-rules' WHERE id = ?1",
        [&g.id],
    )
    .unwrap();
    let (status, v) = api.get(&format!("/api/games/{}", g.id)).await;
    assert_eq!(status, StatusCode::INTERNAL_SERVER_ERROR, "{v}");

    let lines = log.lines();
    let find = |words: &[&str]| {
        lines
            .iter()
            .find(|l| words.iter().all(|w| l.contains(w)))
            .unwrap_or_else(|| panic!("no log line with {words:?} in:\n{}", lines.join("\n")))
            .clone()
    };
    find(&[
        "INFO",
        "method=GET",
        "path=/api/meta",
        "client=127.0.0.1",
        "status=200",
    ]);
    find(&["INFO", "method=POST", "path=/api/games", "status=201"]);
    let error = find(&["ERROR", "cannot be replayed", &g.id]);
    assert!(error.contains("no-such-rules"), "the cause: {error}");
    // Tokens are never logged.
    assert!(
        lines.iter().all(|l| !l.contains(&g.token)),
        "a token in the log"
    );
}
