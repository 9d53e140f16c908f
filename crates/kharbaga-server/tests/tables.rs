//! The server with endgame tables (the standard ones of up to 3 pieces, built here): the game
//! state's `tables` in covered positions only and only under the tables' rules, values from
//! the side to move's view, and hints from the tables.

mod common;

use common::{fresh_dir, test_config, TestServer, TestTables};
use kharbaga_server::Config;
use reqwest::{Client, StatusCode};
use serde_json::{json, Value};

const TOKEN: &str = "x-kharbaga-token";

struct Game {
    id: String,
    token: String,
    state: Value,
}

async fn post(http: &Client, url: String, token: Option<&str>, body: Value) -> (StatusCode, Value) {
    let mut req = http.post(url).json(&body);
    if let Some(t) = token {
        req = req.header(TOKEN, t);
    }
    let res = req.send().await.unwrap();
    let status = res.status();
    (status, res.json().await.unwrap())
}

async fn create(server: &TestServer, http: &Client, body: Value) -> Game {
    let (status, v) = post(http, format!("{}/api/games", server.base), None, body).await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    Game {
        id: v["id"].as_str().unwrap().to_string(),
        token: v["token"].as_str().unwrap().to_string(),
        state: v["state"].clone(),
    }
}

async fn play(server: &TestServer, http: &Client, g: &Game, mv: &str) -> Value {
    let url = format!("{}/api/games/{}/moves", server.base, g.id);
    let (status, v) = post(http, url, Some(&g.token), json!({ "move": mv })).await;
    assert_eq!(status, StatusCode::OK, "{mv}: {v}");
    v
}

fn legal_moves(state: &Value) -> Vec<String> {
    let mut v: Vec<String> = state["legal"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["move"].as_str().unwrap().to_string())
        .collect();
    v.sort();
    v
}

/// The tables' moves of a state, in their order, with their values.
fn table_moves(state: &Value) -> Vec<(String, String)> {
    state["tables"]["moves"]
        .as_array()
        .unwrap_or_else(|| panic!("no table moves in {state}"))
        .iter()
        .map(|m| {
            (
                m["move"].as_str().unwrap().to_string(),
                m["value"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

/// `win N` / `loss N` / `draw` as a number to compare: larger is better for the mover.
fn preference(value: &str) -> i64 {
    match value.split_once(' ') {
        Some(("win", n)) => 100_000 - n.parse::<i64>().unwrap(),
        Some(("loss", n)) => -100_000 + n.parse::<i64>().unwrap(),
        _ if value == "draw" => 0,
        _ => panic!("not a table value: {value}"),
    }
}

async fn server_with(tables: &TestTables) -> TestServer {
    TestServer::start_with(Config {
        tables: Some(tables.tables.clone()),
        ..test_config(fresh_dir("tables-api"))
    })
    .await
}

/// One test, so that the tables are built once (half a minute in a debug build).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn table_values_in_the_game_state() {
    let tables = TestTables::build(3).await;
    let server = server_with(&tables).await;
    let http = Client::new();
    covered_positions_show_the_table_values(&server, &http).await;
    uncovered_positions_and_other_rules_show_no_table_value(&server, &http).await;
}

async fn covered_positions_show_the_table_values(server: &TestServer, http: &Client) {
    // The Mullah on e5 takes the man on c3 at once, landing on b2 or a1: Black wins in 1.
    let g = create(server, http, json!({ "position": "B:BKe5:Wc3" })).await;
    assert_eq!(g.state["tables"]["value"], "win 1", "{}", g.state);
    let mut moves = table_moves(&g.state);
    moves.sort();
    assert_eq!(
        moves,
        [
            ("e5xa1".to_string(), "win 1".to_string()),
            ("e5xb2".to_string(), "win 1".to_string())
        ]
    );
    // The same read back; once the game is over there is nothing to show.
    let state: Value = http
        .get(format!("{}/api/games/{}", server.base, g.id))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(state["tables"], g.state["tables"]);
    let after = play(server, http, &g, "e5xb2").await;
    assert_eq!(after["outcome"]["winner"], "black", "{after}");
    assert!(after["tables"].is_null(), "{after}");

    // Two White men: every legal move is listed, best first, the position's value is its
    // best move's, and after that move the value is the same seen from the other side.
    let g = create(server, http, json!({ "position": "B:BKe5:Wc3,g7" })).await;
    let moves = table_moves(&g.state);
    let mut names: Vec<String> = moves.iter().map(|(m, _)| m.clone()).collect();
    names.sort();
    assert_eq!(names, legal_moves(&g.state));
    assert!(moves
        .windows(2)
        .all(|w| preference(&w[0].1) >= preference(&w[1].1)));
    let (best, value) = &moves[0];
    assert_eq!(g.state["tables"]["value"], value.as_str());
    let after = play(server, http, &g, best).await;
    let expected = match value.split_once(' ') {
        Some(("win", n)) => format!("loss {}", n.parse::<u32>().unwrap() - 1),
        Some(("loss", n)) => format!("win {}", n.parse::<u32>().unwrap() - 1),
        _ => "draw".to_string(),
    };
    assert_eq!(after["tables"]["value"], expected.as_str(), "{after}");
    assert_eq!(after["turn"], "white");

    // A hint at level 10 is the tables' move, with the tables' score.
    let g = create(server, http, json!({ "position": "B:BKe5:Wc3" })).await;
    let url = format!("{}/api/games/{}/hint", server.base, g.id);
    let (status, v) = post(http, url, Some(&g.token), json!({})).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(
        v["search"]["score"],
        json!({"kind": "tb-win", "value": 1, "side": "black"})
    );
    let best = v["search"]["best"].as_str().unwrap();
    assert!(best == "e5xa1" || best == "e5xb2", "{v}");
}

async fn uncovered_positions_and_other_rules_show_no_table_value(
    server: &TestServer,
    http: &Client,
) {
    // The start position: 40 pieces.
    let g = create(server, http, json!({})).await;
    assert!(g.state["tables"].is_null(), "{}", g.state);
    // Four pieces: more than the tables hold.
    let g = create(server, http, json!({ "position": "B:BKe5,a1:Wc7,g7" })).await;
    assert!(g.state["tables"].is_null(), "{}", g.state);
    // Other moves (pieces removed at once): the tables do not apply.
    let body = json!({ "position": "B:BKe5:Wc3", "options": {"removal": "immediate"} });
    let g = create(server, http, body).await;
    assert!(g.state["tables"].is_null(), "{}", g.state);
    // Only the no-progress rule changed: the same moves, the tables apply.
    let body = json!({ "position": "B:BKe5:Wc3", "options": {"no-progress": "off"} });
    let g = create(server, http, body).await;
    assert_eq!(g.state["tables"]["value"], "win 1", "{}", g.state);
}

#[tokio::test]
async fn a_server_without_tables_shows_none() {
    let server = TestServer::start("no-tables").await;
    let http = Client::new();
    let g = create(&server, &http, json!({ "position": "B:BKe5:Wc3" })).await;
    assert!(g.state["tables"].is_null(), "{}", g.state);
}
