//! The server under a stranger's traffic: for a bounded time, random and malformed requests
//! (methods, paths and ids, headers, tokens, bodies, broken HTTP) are sent over raw TCP to a
//! running server. No answer is a 5xx, no handler panics, and the game whose token the
//! stranger never has is unchanged at the end.
//!
//! Four strangers send at once for 5 seconds; `KHARBAGA_STRANGER_CLIENTS`,
//! `KHARBAGA_STRANGER_SECS` and `KHARBAGA_STRANGER_SEED` change the number, the time and
//! the seed (printed by every run) for longer runs and replays.

mod common;

use common::client::Api;
use common::{fresh_dir, test_config};
use serde_json::{json, Value};
use std::io::{ErrorKind, Read, Write};
use std::net::{Shutdown, TcpStream};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// How long the traffic runs unless `KHARBAGA_STRANGER_SECS` says otherwise.
const TRAFFIC_SECS: u64 = 5;
/// Strangers sending at once unless `KHARBAGA_STRANGER_CLIENTS` says otherwise.
const CLIENTS: u64 = 4;

/// A whole number from the environment variable `name`, or `default`.
fn setting(name: &str, default: u64) -> u64 {
    match std::env::var(name) {
        Ok(v) => v
            .parse()
            .unwrap_or_else(|_| panic!("{name} must be a whole number, not '{v}'")),
        Err(_) => default,
    }
}

/// Panics seen anywhere in this process (the server runs in it).
static PANICS: AtomicUsize = AtomicUsize::new(0);

/// A small deterministic generator (xorshift64*), seeded per run from the clock and printed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }

    fn bytes(&mut self, max: usize) -> Vec<u8> {
        let n = self.below(max + 1);
        (0..n).map(|_| self.next() as u8).collect()
    }
}

/// One random request as raw bytes.
fn request(rng: &mut Rng, victim: &str, token: &str, other: &str) -> Vec<u8> {
    let methods = [
        "GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS", "TRACE", "CONNECT", "FOO",
        "get", "G\u{0}T", "",
    ];
    let ids = [
        victim,
        other,
        "",
        "x",
        "0",
        "..",
        "%00",
        "%ff%fe",
        "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
    ];
    let id = rng.pick(&ids).to_string();
    let long = "a".repeat(rng.below(10_000));
    let paths = [
        format!("/api/games/{id}"),
        format!("/api/games/{id}/moves"),
        format!("/api/games/{id}/undo"),
        format!("/api/games/{id}/engine"),
        format!("/api/games/{id}/hint"),
        format!("/api/games/{id}/record"),
        format!("/api/games/{id}/{long}"),
        "/api/games".to_string(),
        "/api/meta".to_string(),
        "/".to_string(),
        "/../../etc/passwd".to_string(),
        "*".to_string(),
        "http://example.invalid/api/games".to_string(),
        format!("/api/games/{id}?x=%zz&&=="),
        String::new(),
    ];
    let path = &paths[rng.below(paths.len())];
    let versions = [
        "HTTP/1.1",
        "HTTP/1.0",
        "HTTP/2.0",
        "HTTP/9",
        "",
        "HTTP/1.1 extra",
    ];
    let bodies = [
        "{}".to_string(),
        json!({"move": "d4-e5"}).to_string(),
        json!({"move": "d4-e5", "ply": 0}).to_string(),
        json!({"path": ["d4", "e5"]}).to_string(),
        json!({"count": 1}).to_string(),
        json!({"count": 18446744073709551615u64}).to_string(),
        json!({"level": 255, "movetime_ms": 18446744073709551615u64}).to_string(),
        json!({"level": 1, "movetime_ms": 1}).to_string(),
        json!({"rules": "standard", "position": "B:Bc3:Wd4"}).to_string(),
        json!({"record": "1. d4-e5 *"}).to_string(),
        "[\"d4-e5\"]".to_string(),
        "{\"move\": ".to_string(),
        "null".to_string(),
        "\"\\ud800\"".to_string(),
        "{".repeat(2000),
        "x".repeat(20_000),
        String::new(),
    ];
    let mut body = bodies[rng.below(bodies.len())].clone().into_bytes();
    if rng.below(4) == 0 {
        body = rng.bytes(300);
    }
    // A token, but never the victim's: its first character changed, or another.
    let near = format!(
        "{}{}",
        if token.starts_with('0') { "1" } else { "0" },
        &token[1..]
    );
    let tokens = [near.as_str(), "", "x", " ", "\u{7f}", "Bearer abc"];
    // Half the requests are well-formed HTTP, so that most of them reach the handlers.
    if rng.below(2) == 0 {
        let method = rng.pick(&["GET", "POST", "POST", "POST"]);
        let mut out = format!(
            "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        );
        if rng.below(2) == 0 {
            out.push_str(&format!("x-kharbaga-token: {}\r\n", rng.pick(&tokens)));
        }
        out.push_str(&format!(
            "Content-Length: {}\r\nConnection: close\r\n\r\n",
            body.len()
        ));
        let mut out = out.into_bytes();
        out.extend_from_slice(&body);
        return out;
    }
    let mut out = Vec::new();
    out.extend_from_slice(
        format!(
            "{} {} {}\r\n",
            rng.pick(&methods),
            path,
            rng.pick(&versions)
        )
        .as_bytes(),
    );
    if rng.below(5) != 0 {
        out.extend_from_slice(b"Host: 127.0.0.1\r\n");
    }
    if rng.below(2) == 0 {
        out.extend_from_slice(format!("x-kharbaga-token: {}\r\n", rng.pick(&tokens)).as_bytes());
    }
    let types = [
        "application/json",
        "text/plain",
        "",
        "application/json; charset=latin1",
    ];
    if rng.below(3) != 0 {
        out.extend_from_slice(format!("Content-Type: {}\r\n", rng.pick(&types)).as_bytes());
    }
    let lengths = [
        body.len().to_string(),
        "0".to_string(),
        (body.len() + 10).to_string(),
        "-1".to_string(),
        "99999999999999999999".to_string(),
        "abc".to_string(),
    ];
    match rng.below(8) {
        0 => {}
        1 => out.extend_from_slice(b"Transfer-Encoding: chunked\r\n"),
        2 => out
            .extend_from_slice(format!("Content-Length: {}\r\n", lengths[rng.below(6)]).as_bytes()),
        _ => out.extend_from_slice(format!("Content-Length: {}\r\n", body.len()).as_bytes()),
    }
    if rng.below(6) == 0 {
        let mut garbage = rng.bytes(200);
        garbage.retain(|b| *b != b'\n');
        out.extend_from_slice(&garbage);
        out.extend_from_slice(b"\r\n");
    }
    out.extend_from_slice(b"Connection: close\r\n\r\n");
    out.extend_from_slice(&body);
    if rng.below(10) == 0 {
        out.truncate(rng.below(out.len() + 1));
    }
    out
}

/// Sends the bytes, closes the writing half, and reads the status line's code (None if the
/// server closed without answering, as it may for broken HTTP). Blocking, with timeouts.
fn exchange(addr: &str, bytes: &[u8]) -> Option<u16> {
    let mut stream = TcpStream::connect(addr).expect("the server accepts");
    let patience = Some(Duration::from_secs(30));
    stream.set_read_timeout(patience).unwrap();
    stream.set_write_timeout(patience).unwrap();
    // The server may answer and close before reading everything: a write error is fine.
    let _ = stream.write_all(bytes);
    let _ = stream.shutdown(Shutdown::Write);
    let mut head = Vec::new();
    let mut buf = [0u8; 1024];
    loop {
        match stream.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => {
                head.extend_from_slice(&buf[..n]);
                if head.windows(2).any(|w| w == b"\r\n") {
                    break;
                }
            }
            Err(e) if e.kind() == ErrorKind::WouldBlock || e.kind() == ErrorKind::TimedOut => {
                panic!("the server neither answers nor closes within 30 s")
            }
            Err(_) => break,
        }
    }
    let line = String::from_utf8_lossy(&head);
    let code = line.strip_prefix("HTTP/1.")?.get(2..5)?;
    Some(code.parse().expect("a status code"))
}

/// The stored state of a game, without what changes on its own.
fn stored(mut state: Value) -> Value {
    if let Some(map) = state.as_object_mut() {
        map.remove("thinking");
    }
    state
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_strangers_traffic_gets_no_5xx_and_changes_no_game() {
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        PANICS.fetch_add(1, Ordering::SeqCst);
        default_hook(info);
    }));
    let config = kharbaga_server::Config {
        max_engine_time: Duration::from_millis(20),
        default_engine_time: Duration::from_millis(5),
        ..test_config(fresh_dir("stranger"))
    };
    let api = Api::start_with(config).await;
    let victim = api.create(json!({})).await;
    let other = api.create(json!({})).await;
    let (_, before) = api.get(&format!("/api/games/{}", victim.id)).await;
    let addr = api.server.base.strip_prefix("http://").unwrap().to_string();
    // KHARBAGA_STRANGER_SEED replays a run (with the same number of clients).
    let seed = setting(
        "KHARBAGA_STRANGER_SEED",
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos() as u64
            | 1,
    );
    let traffic = Duration::from_secs(setting("KHARBAGA_STRANGER_SECS", TRAFFIC_SECS));
    let clients = setting("KHARBAGA_STRANGER_CLIENTS", CLIENTS).max(1);
    println!("seed {seed}, {clients} clients, {traffic:?}");
    let start = Instant::now();
    let strangers: Vec<_> = (0..clients)
        .map(|i| {
            let (addr, victim, token, other) = (
                addr.clone(),
                victim.id.clone(),
                victim.token.clone(),
                other.id.clone(),
            );
            // Client i's generator: the run's seed moved on by i.
            let mut rng = Rng(seed.wrapping_add(i.wrapping_mul(0x9E37_79B9_7F4A_7C15)) | 1);
            tokio::task::spawn_blocking(move || {
                let (mut sent, mut answered) = (0u64, 0u64);
                let mut codes = std::collections::BTreeMap::new();
                while start.elapsed() < traffic {
                    let bytes = request(&mut rng, &victim, &token, &other);
                    sent += 1;
                    if let Some(code) = exchange(&addr, &bytes) {
                        answered += 1;
                        *codes.entry(code).or_insert(0u64) += 1;
                        assert!(
                            code < 500,
                            "seed {seed}, client {i}: {code} for {:?}",
                            String::from_utf8_lossy(&bytes[..bytes.len().min(500)])
                        );
                    }
                }
                (sent, answered, codes)
            })
        })
        .collect();
    let (mut sent, mut answered) = (0, 0);
    let mut codes = std::collections::BTreeMap::new();
    for stranger in strangers {
        let (s, a, c) = stranger.await.expect("a stranger's checks hold");
        sent += s;
        answered += a;
        for (code, n) in c {
            *codes.entry(code).or_insert(0) += n;
        }
    }
    println!("{sent} requests sent, {answered} answered: {codes:?}");
    assert!(answered > 0);
    assert_eq!(PANICS.load(Ordering::SeqCst), 0, "seed {seed}: a panic");
    let (_, after) = api.get(&format!("/api/games/{}", victim.id)).await;
    assert_eq!(
        stored(before),
        stored(after),
        "seed {seed}: the victim changed"
    );
}
