//! A load test: many games played at once through the API of a server on 127.0.0.1.
//!
//! `cargo run --release -p kharbaga-server --example load -- --games 50 --seconds 20`
//!
//! Starts its own server on an ephemeral port of 127.0.0.1 over a fresh data folder (or
//! uses `--url http://127.0.0.1:PORT` of a running one; only loopback addresses are
//! accepted). Each client creates a two-person game and plays random legal moves (as
//! paths, the way the page sends them) until the game ends or the time is up, starting a new
//! game when one ends; with `--engine-every N`, every Nth game has White played by the
//! engine (level 1, 20 ms a move). At the end every game's stored history is compared with
//! the moves the client sent, and the sustained moves per second is printed. The run is
//! bounded: at most `--games` clients, `--seconds` seconds, `--max-moves` moves per client.

use reqwest::{Client, StatusCode};
use serde_json::{json, Value};
use std::time::{Duration, Instant};

struct Args {
    games: usize,
    seconds: u64,
    max_moves: usize,
    engine_every: usize,
    url: Option<String>,
}

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        games: 50,
        seconds: 20,
        max_moves: 100_000,
        engine_every: 0,
        url: None,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = || it.next().ok_or(format!("{flag} needs a value"));
        let number = |v: String| v.parse::<u64>().map_err(|e| format!("{flag}: {e}"));
        match flag.as_str() {
            "--games" => args.games = number(value()?)?.clamp(1, 1000) as usize,
            "--seconds" => args.seconds = number(value()?)?.clamp(1, 600),
            "--max-moves" => args.max_moves = number(value()?)? as usize,
            "--engine-every" => args.engine_every = number(value()?)? as usize,
            "--url" => args.url = Some(value()?),
            _ => return Err(format!("unknown flag {flag} (see the file's doc comment)")),
        }
    }
    if let Some(url) = &args.url {
        let authority = url
            .strip_prefix("http://")
            .and_then(|r| r.split('/').next())
            .unwrap_or("");
        let host = if authority.starts_with("[::1]") {
            "[::1]"
        } else {
            authority.split(':').next().unwrap_or("")
        };
        if !(host == "localhost" || host == "[::1]" || host.starts_with("127.")) {
            return Err(format!(
                "{url}: the load test only targets 127.0.0.1 / localhost"
            ));
        }
    }
    Ok(args)
}

/// What one client did.
#[derive(Default)]
struct Tally {
    moves: usize,
    engine_moves: usize,
    games: usize,
    errors: Vec<String>,
}

struct Client1 {
    http: Client,
    base: String,
}

impl Client1 {
    async fn call(
        &self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Value,
    ) -> Result<Value, String> {
        let mut req = self
            .http
            .request(method.parse().unwrap(), format!("{}{path}", self.base))
            .timeout(Duration::from_secs(30));
        if let Some(t) = token {
            req = req.header("x-kharbaga-token", t);
        }
        if method == "POST" {
            req = req.json(&body);
        }
        let res = req
            .send()
            .await
            .map_err(|e| format!("{method} {path}: {e}"))?;
        let status = res.status();
        let v: Value = res
            .json()
            .await
            .map_err(|e| format!("{method} {path}: {e}"))?;
        if status == StatusCode::OK || status == StatusCode::CREATED {
            Ok(v)
        } else {
            Err(format!("{method} {path}: {status} {v}"))
        }
    }

    /// Plays games until `deadline`; checks each against the server's stored history.
    async fn run(self, index: usize, args: &Args, deadline: Instant) -> Tally {
        let mut tally = Tally::default();
        let mut rng = 0x9E37_79B9_7F4A_7C15u64 ^ (index as u64).wrapping_mul(0x2545_F491_4F6C_DD1D);
        while Instant::now() < deadline && tally.moves < args.max_moves {
            let engine = args.engine_every > 0 && (index + tally.games) % args.engine_every == 0;
            let white = if engine {
                json!({"kind": "engine", "level": 1})
            } else {
                json!({"kind": "human"})
            };
            let created = match self
                .call("POST", "/api/games", None, json!({"white": white}))
                .await
            {
                Ok(v) => v,
                Err(e) => {
                    tally.errors.push(e);
                    break;
                }
            };
            tally.games += 1;
            let id = created["id"].as_str().unwrap_or_default().to_string();
            let token = created["token"].as_str().unwrap_or_default().to_string();
            let mut state = created["state"].clone();
            let mut sent: Vec<String> = Vec::new();
            while Instant::now() < deadline
                && state["outcome"].is_null()
                && tally.moves < args.max_moves
            {
                let ply = sent.len();
                let result = if engine && state["turn"] == "white" {
                    self.call(
                        "POST",
                        &format!("/api/games/{id}/engine"),
                        Some(&token),
                        json!({"ply": ply, "movetime_ms": 20}),
                    )
                    .await
                    .map(|v| {
                        tally.engine_moves += 1;
                        v["state"].clone()
                    })
                } else {
                    let legal = state["legal"].as_array().cloned().unwrap_or_default();
                    if legal.is_empty() {
                        tally
                            .errors
                            .push(format!("game {id}: no legal move and no outcome"));
                        break;
                    }
                    rng ^= rng << 13;
                    rng ^= rng >> 7;
                    rng ^= rng << 17;
                    let mv = &legal[(rng % legal.len() as u64) as usize];
                    let mut path = vec![mv["from"].clone()];
                    path.extend(mv["path"].as_array().cloned().unwrap_or_default());
                    self.call(
                        "POST",
                        &format!("/api/games/{id}/moves"),
                        Some(&token),
                        json!({"path": path, "ply": ply}),
                    )
                    .await
                };
                match result {
                    Ok(next) => {
                        let Some(played) =
                            next["history"].get(ply).and_then(|h| h["move"].as_str())
                        else {
                            tally.errors.push(format!(
                                "game {id}: move {} missing from the answer",
                                ply + 1
                            ));
                            break;
                        };
                        sent.push(played.to_string());
                        tally.moves += 1;
                        state = next;
                    }
                    Err(e) => {
                        tally.errors.push(e);
                        break;
                    }
                }
            }
            // No move lost: the stored game has exactly the moves sent, in order.
            match self
                .call("GET", &format!("/api/games/{id}"), None, Value::Null)
                .await
            {
                Ok(stored) => {
                    let history: Vec<String> = stored["history"]
                        .as_array()
                        .map(|h| {
                            h.iter()
                                .map(|m| m["move"].as_str().unwrap_or("").to_string())
                                .collect()
                        })
                        .unwrap_or_default();
                    if history != sent {
                        tally.errors.push(format!(
                            "game {id}: stored {} moves, sent {}; first difference at {:?}",
                            history.len(),
                            sent.len(),
                            history.iter().zip(&sent).position(|(a, b)| a != b)
                        ));
                    }
                }
                Err(e) => tally.errors.push(e),
            }
        }
        tally
    }
}

fn main() {
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("load: {e}");
            std::process::exit(2);
        }
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    let failed = runtime.block_on(async move {
        let data_dir = std::env::temp_dir().join(format!("kharbaga-load-{}", std::process::id()));
        let base = match &args.url {
            Some(url) => url.trim_end_matches('/').to_string(),
            None => {
                let _ = std::fs::remove_dir_all(&data_dir);
                let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
                    .await
                    .expect("a port");
                let base = format!("http://{}", listener.local_addr().unwrap());
                let config = kharbaga_server::Config {
                    data_dir: data_dir.clone(),
                    // Every client here is 127.0.0.1.
                    max_games_per_minute: 0,
                    ..kharbaga_server::Config::default()
                };
                tokio::spawn(async move {
                    if let Err(e) = kharbaga_server::serve_on(listener, config).await {
                        eprintln!("load: server: {e}");
                    }
                });
                base
            }
        };
        println!(
            "load: {} games at once for {} s against {base}{}",
            args.games,
            args.seconds,
            if args.engine_every > 0 {
                format!(", engine in every {}th game", args.engine_every)
            } else {
                String::new()
            }
        );
        let http = Client::builder()
            .pool_max_idle_per_host(args.games)
            .build()
            .expect("a client");
        let start = Instant::now();
        let deadline = start + Duration::from_secs(args.seconds);
        let args = std::sync::Arc::new(args);
        let tasks: Vec<_> = (0..args.games)
            .map(|i| {
                let client = Client1 {
                    http: http.clone(),
                    base: base.clone(),
                };
                let args = std::sync::Arc::clone(&args);
                tokio::spawn(async move { client.run(i, &args, deadline).await })
            })
            .collect();
        let mut total = Tally::default();
        for t in tasks {
            match t.await {
                Ok(t) => {
                    total.moves += t.moves;
                    total.engine_moves += t.engine_moves;
                    total.games += t.games;
                    total.errors.extend(t.errors);
                }
                Err(e) => total.errors.push(format!("a client panicked: {e}")),
            }
        }
        let secs = start.elapsed().as_secs_f64();
        println!(
            "load: {} moves ({} by the engine) in {} games, {:.1} s: {:.0} moves/s sustained",
            total.moves,
            total.engine_moves,
            total.games,
            secs,
            total.moves as f64 / secs
        );
        if args.url.is_none() {
            let _ = std::fs::remove_dir_all(&data_dir);
        }
        if total.errors.is_empty() {
            println!("load: every game's stored history matches the moves sent");
            false
        } else {
            for e in total.errors.iter().take(20) {
                eprintln!("load: error: {e}");
            }
            eprintln!("load: {} errors", total.errors.len());
            true
        }
    });
    if failed {
        std::process::exit(1);
    }
}
