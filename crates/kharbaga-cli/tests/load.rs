//! Load and fault test of `kharbaga serve`, run as its own process: many games played at
//! once through its HTTP API (the figures are printed), then, with games still being
//! played, the server is killed with SIGKILL and started again on the same data folder:
//! every move the server acknowledged (answered 2xx) must still be there, in order.
//!
//! `cargo test -p kharbaga-cli --test load -- --nocapture` prints the figures.

mod common;

use common::temp_dir;
use reqwest::{Client, StatusCode};
use serde_json::{json, Value};
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

/// Games played at once.
const CLIENTS: usize = 32;

/// Moves per game in the load part (fewer when the game ends first).
const LOAD_MOVES: usize = 40;

/// Moves acknowledged in the fault part before the server is killed.
const MOVES_BEFORE_KILL: usize = 300;

/// Every client's White is the engine in one game out of this many.
const ENGINE_EVERY: usize = 4;

/// The longest any wait may take (a debug build on a busy machine).
const DEADLINE: Duration = Duration::from_secs(60);

/// A `kharbaga serve` process on an ephemeral port of 127.0.0.1.
struct Server {
    child: Child,
    base: String,
}

impl Server {
    /// Starts the server on `data` and waits for it to say where it listens. Its log goes
    /// to `log` (appended).
    fn start(data: &Path, log: &Path) -> Server {
        let log_file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(log)
            .unwrap();
        let mut child = Command::new(env!("CARGO_BIN_EXE_kharbaga"))
            .args(["serve", "--port", "0", "--data"])
            .arg(data)
            .args(["--games-per-minute", "0", "--search-queue", "1000"])
            .args(["--log", "warn"])
            .env("XDG_DATA_HOME", data.join("no-tables"))
            .stdout(Stdio::piped())
            .stderr(log_file)
            .spawn()
            .expect("kharbaga serve starts");
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                let _ = tx.send(line);
            }
        });
        let first = rx
            .recv_timeout(DEADLINE)
            .expect("the server says where it listens");
        let base = first
            .strip_prefix("Kharbaga is at ")
            .unwrap_or_else(|| panic!("unexpected first line: {first}"))
            .trim_end_matches('/')
            .to_string();
        Server { child, base }
    }

    /// Kills the process at once (SIGKILL: no chance to finish anything).
    fn kill_9(&mut self) {
        self.child.kill().expect("the server is killed");
        self.child.wait().expect("the server is reaped");
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One game as a client played it.
struct Played {
    id: String,
    token: String,
    /// The moves of the server's last 2xx answer: every one was acknowledged.
    acked: Vec<String>,
    over: bool,
    /// White is the engine.
    engine: bool,
}

/// What one client did.
#[derive(Default)]
struct Tally {
    games: Vec<Played>,
    /// The time of each acknowledged move request of a person (not the engine's).
    latencies: Vec<Duration>,
    /// Answers that were not 2xx.
    errors: Vec<String>,
    /// The server stopped answering (it was killed).
    cut: bool,
}

fn moves_of(state: &Value) -> Vec<String> {
    state["history"]
        .as_array()
        .map(|h| {
            h.iter()
                .map(|m| m["move"].as_str().unwrap().to_string())
                .collect()
        })
        .unwrap_or_default()
}

/// A POST with a JSON body; `Err` when the server did not answer at all.
async fn post(
    http: &Client,
    url: String,
    token: Option<&str>,
    body: Value,
) -> Result<(StatusCode, Value), reqwest::Error> {
    let mut req = http.post(url).json(&body).timeout(DEADLINE);
    if let Some(t) = token {
        req = req.header("x-kharbaga-token", t);
    }
    let res = req.send().await?;
    let status = res.status();
    Ok((status, res.json().await?))
}

/// Plays games on `base`: a new game when one ends, until `moves_per_game` moves in one game
/// (then it stops), `stop` is set, or the server no longer answers. Counts acknowledged
/// moves in `acked`.
async fn client(
    index: usize,
    base: String,
    moves_per_game: usize,
    stop: Arc<AtomicBool>,
    acked: Arc<AtomicUsize>,
) -> Tally {
    let http = Client::new();
    let mut tally = Tally::default();
    let mut rng = (index as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    while !stop.load(Ordering::Relaxed) {
        let engine = (index + tally.games.len()) % ENGINE_EVERY == 0;
        let white = if engine {
            json!({"kind": "engine", "level": 1})
        } else {
            json!({"kind": "human"})
        };
        let created = match post(
            &http,
            format!("{base}/api/games"),
            None,
            json!({"white": white}),
        )
        .await
        {
            Ok((StatusCode::CREATED, v)) => v,
            Ok((status, v)) => {
                tally.errors.push(format!("create: {status} {v}"));
                return tally;
            }
            Err(_) => {
                tally.cut = true;
                return tally;
            }
        };
        let mut game = Played {
            id: created["id"].as_str().unwrap().to_string(),
            token: created["token"].as_str().unwrap().to_string(),
            acked: Vec::new(),
            over: false,
            engine,
        };
        let mut state = created["state"].clone();
        while !stop.load(Ordering::Relaxed)
            && state["outcome"].is_null()
            && game.acked.len() < moves_per_game
        {
            let ply = game.acked.len();
            let engine_turn = engine && state["turn"] == "white";
            let (url, body) = if engine_turn {
                (
                    format!("{base}/api/games/{}/engine", game.id),
                    json!({"ply": ply, "movetime_ms": 10}),
                )
            } else {
                let legal = state["legal"].as_array().unwrap();
                rng ^= rng << 13;
                rng ^= rng >> 7;
                rng ^= rng << 17;
                let mv = &legal[(rng % legal.len() as u64) as usize];
                (
                    format!("{base}/api/games/{}/moves", game.id),
                    json!({"move": mv["move"], "ply": ply}),
                )
            };
            let sent = Instant::now();
            match post(&http, url, Some(&game.token), body).await {
                Ok((StatusCode::OK, answer)) => {
                    if !engine_turn {
                        tally.latencies.push(sent.elapsed());
                    }
                    state = if engine_turn {
                        answer["state"].clone()
                    } else {
                        answer
                    };
                    game.acked = moves_of(&state);
                    acked.fetch_add(1, Ordering::Relaxed);
                }
                Ok((status, v)) => {
                    tally.errors.push(format!("game {}: {status} {v}", game.id));
                    break;
                }
                Err(_) => {
                    tally.cut = true;
                    break;
                }
            }
        }
        game.over = !state["outcome"].is_null();
        let full = game.acked.len() >= moves_per_game;
        tally.games.push(game);
        if tally.cut || full || !tally.errors.is_empty() {
            break;
        }
    }
    tally
}

/// Runs `CLIENTS` clients at once on `base` until they finish; `stop` and `acked` as in
/// [`client`].
fn spawn_clients(
    base: &str,
    moves_per_game: usize,
    stop: &Arc<AtomicBool>,
    acked: &Arc<AtomicUsize>,
) -> Vec<tokio::task::JoinHandle<Tally>> {
    (0..CLIENTS)
        .map(|i| {
            tokio::spawn(client(
                i,
                base.to_string(),
                moves_per_game,
                Arc::clone(stop),
                Arc::clone(acked),
            ))
        })
        .collect()
}

async fn join(tasks: Vec<tokio::task::JoinHandle<Tally>>) -> Vec<Tally> {
    let mut tallies = Vec::new();
    for t in tasks {
        tallies.push(
            tokio::time::timeout(DEADLINE, t)
                .await
                .expect("a client ends")
                .unwrap(),
        );
    }
    tallies
}

/// The stored moves of game `id`.
async fn stored_moves(http: &Client, base: &str, id: &str) -> Vec<String> {
    let res = http
        .get(format!("{base}/api/games/{id}"))
        .timeout(DEADLINE)
        .send()
        .await
        .expect("the server answers");
    assert_eq!(res.status(), StatusCode::OK, "game {id}");
    moves_of(&res.json().await.unwrap())
}

fn millis(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn many_games_then_kill_9_and_restart_lose_no_acknowledged_move() {
    let dir = temp_dir("load", "serve");
    let data = dir.join("data");
    let log = dir.join("server.log");
    let http = Client::new();
    let mut server = Server::start(&data, &log);

    // Load: every client plays one game of up to LOAD_MOVES moves, all at once.
    let started = Instant::now();
    let acked = Arc::new(AtomicUsize::new(0));
    let never = Arc::new(AtomicBool::new(false));
    let load = join(spawn_clients(&server.base, LOAD_MOVES, &never, &acked)).await;
    let elapsed = started.elapsed();
    assert!(load.iter().all(|t| !t.cut), "the server stopped answering");
    let moves = acked.load(Ordering::Relaxed);
    let games: Vec<&Played> = load.iter().flat_map(|t| &t.games).collect();
    for g in &games {
        assert_eq!(stored_moves(&http, &server.base, &g.id).await, g.acked);
    }
    let mut latencies: Vec<Duration> = load.iter().flat_map(|t| t.latencies.clone()).collect();
    latencies.sort();
    let at = |q: f64| millis(latencies[((latencies.len() - 1) as f64 * q) as usize]);
    println!(
        "load: {CLIENTS} clients at once, {} games, {moves} moves in {:.2} s = {:.0} moves/s; \
         a person's move answered in {:.1} ms (median), {:.1} ms (95%), {:.1} ms (max)",
        games.len(),
        elapsed.as_secs_f64(),
        moves as f64 / elapsed.as_secs_f64(),
        at(0.5),
        at(0.95),
        at(1.0)
    );

    // Fault: new games are being played when the server is killed.
    let acked = Arc::new(AtomicUsize::new(0));
    let stop = Arc::new(AtomicBool::new(false));
    let playing = spawn_clients(&server.base, usize::MAX, &stop, &acked);
    let waited = Instant::now();
    while acked.load(Ordering::Relaxed) < MOVES_BEFORE_KILL {
        assert!(waited.elapsed() < DEADLINE, "the games do not go on");
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    server.kill_9();
    let fault = join(playing).await;
    assert!(fault.iter().any(|t| t.cut), "no client saw the server go");

    // Restarted on the same data: every acknowledged move is there, in order; at most the
    // one move in flight at the kill was stored beyond them.
    let server = Server::start(&data, &log);
    let mut checked = (0, 0, 0);
    for g in load.iter().chain(&fault).flat_map(|t| &t.games) {
        let stored = stored_moves(&http, &server.base, &g.id).await;
        assert!(
            stored.len() >= g.acked.len() && stored[..g.acked.len()] == g.acked[..],
            "game {}: acknowledged {:?}, stored {:?}",
            g.id,
            g.acked,
            stored
        );
        assert!(stored.len() <= g.acked.len() + 1, "game {}", g.id);
        checked.0 += 1;
        checked.1 += g.acked.len();
        checked.2 += stored.len() - g.acked.len();
    }
    println!(
        "fault: kill -9 after {} moves acknowledged; after restart {} games and all {} of \
         their acknowledged moves found; moves in flight at the kill and stored too: {}",
        acked.load(Ordering::Relaxed),
        checked.0,
        checked.1,
        checked.2
    );
    // And the games go on: one more move in an unfinished game the kill interrupted.
    let g = fault
        .iter()
        .flat_map(|t| &t.games)
        .find(|g| !g.over && !g.engine)
        .expect("an interrupted game between two people");
    let res = http
        .get(format!("{}/api/games/{}", server.base, g.id))
        .send()
        .await
        .unwrap();
    let state: Value = res.json().await.unwrap();
    let (status, v) = post(
        &http,
        format!("{}/api/games/{}/moves", server.base, g.id),
        Some(&g.token),
        json!({"move": state["legal"][0]["move"], "ply": state["ply"]}),
    )
    .await
    .unwrap();
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["ply"], state["ply"].as_u64().unwrap() + 1);
    drop(server);
    let log_text = std::fs::read_to_string(&log).unwrap();
    assert!(!log_text.contains("panicked"), "{log_text}");
    let _ = std::fs::remove_dir_all(&dir);
}
