//! Slow and half-sent requests: a client that never finishes its headers, or its body, or
//! sends nothing at all, has its connection closed after the read timeout, and the server
//! goes on answering others meanwhile.

mod common;

use common::client::Api;
use common::{fresh_dir, test_config};
use reqwest::StatusCode;
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// The server's read timeout in this test.
const READ_TIMEOUT: Duration = Duration::from_secs(1);

/// How long a connection may stay open before the test fails: the timeout, plus room for a
/// loaded machine.
const DEADLINE: Duration = Duration::from_secs(20);

/// The ways of sending half a request.
const HALF_REQUESTS: [&str; 4] = [
    // Nothing at all.
    "",
    // Headers never finished.
    "GET /api/meta HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: */*\r\n",
    // A body shorter than announced, to an endpoint that reads it.
    "POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n\
     Content-Length: 100\r\n\r\n{\"rules\":",
    // A body announced to an endpoint that does not read it.
    "GET /api/meta HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 50\r\n\r\nab",
];

/// Sends `half`, then reads until the server closes the connection; returns what it read.
async fn held_open(mut stream: TcpStream, half: &'static str) -> Result<String, String> {
    stream
        .write_all(half.as_bytes())
        .await
        .map_err(|e| format!("write: {e}"))?;
    let mut got = Vec::new();
    let read = tokio::time::timeout(DEADLINE, async {
        let mut buf = [0u8; 4096];
        loop {
            match stream.read(&mut buf).await {
                Ok(0) | Err(_) => return,
                Ok(n) => got.extend_from_slice(&buf[..n]),
            }
        }
    })
    .await;
    let text = String::from_utf8_lossy(&got).into_owned();
    match read {
        Ok(()) => Ok(text),
        Err(_) => Err(format!(
            "{half:?}: still open after {DEADLINE:?} (read so far: {text:?})"
        )),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn half_sent_requests_are_closed_after_the_read_timeout() {
    let mut api = Api::start_with(kharbaga_server::Config {
        read_timeout: READ_TIMEOUT,
        ..test_config(fresh_dir("timeouts"))
    })
    .await;
    // The server closes a keep-alive connection that stays idle for the read timeout, so a
    // pooled connection reused just as that happens is reset (the keep-alive race, which
    // browsers answer by retrying). Each whole request here goes on a connection of its own.
    api.http = reqwest::Client::builder()
        .pool_max_idle_per_host(0)
        .build()
        .expect("a client");
    let addr = api.server.base.trim_start_matches("http://").to_string();
    let started = Instant::now();
    let mut tasks = Vec::new();
    for batch in 0..8 {
        for i in 0..50 {
            let half = HALF_REQUESTS[(batch * 50 + i) % HALF_REQUESTS.len()];
            let stream = TcpStream::connect(&addr).await.expect("connect");
            tasks.push((half, tokio::spawn(held_open(stream, half))));
        }
        // Meanwhile, whole requests are answered. The answer also means that the server has
        // taken the connections made before this one off its accept queue: a burst of
        // connects can overflow that queue, and a silent connection dropped there would
        // look open to its client forever.
        let (status, meta) = api.get("/api/meta").await;
        assert_eq!(status, StatusCode::OK, "{meta}");
    }
    let tasks_len = tasks.len();
    let mut failures = Vec::new();
    for (half, task) in tasks {
        match task.await.expect("the client task runs") {
            Ok(answer) => {
                // The half-sent body is answered 408 before the connection closes.
                if half.contains("Content-Length: 100") {
                    assert!(answer.starts_with("HTTP/1.1 408"), "{half:?}: {answer:?}");
                    assert!(answer.contains("\"code\":\"timeout\""), "{answer}");
                }
            }
            Err(e) => failures.push(e),
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} connections held open, e.g. {}",
        failures.len(),
        tasks_len,
        failures[0]
    );
    // None was closed before the timeout had a chance to run out.
    assert!(started.elapsed() >= READ_TIMEOUT);

    // The server still answers, and still creates games.
    let (status, meta) = api.get("/api/meta").await;
    assert_eq!(status, StatusCode::OK, "{meta}");
    let (status, created) = api.post("/api/games", None, serde_json::json!({})).await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
}
