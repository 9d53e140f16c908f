//! `POST /api/games/<id>/analysis`: the engine's evaluation and best line, and the endgame
//! tables' value, of the position after any number of a game's moves; anyone may analyse a
//! finished game, a game in play only its owner.

mod common;

use common::client::{assert_error, Api};
use common::{fresh_dir, test_config, TestTables};
use reqwest::StatusCode;
use serde_json::json;

#[tokio::test]
async fn analysis_of_a_game_step_by_step() {
    let tables = TestTables::build(2).await;
    let api = Api::start_with(kharbaga_server::Config {
        tables: Some(tables.tables.clone()),
        ..test_config(fresh_dir("analysis"))
    })
    .await;
    // The Mullah on e5 takes the last man at once.
    let g = api.create(json!({"position": "B:BKe5:Wc3"})).await;
    let path = format!("/api/games/{}/analysis", g.id);

    // In play: only with the token.
    let (status, v) = api.post(&path, None, json!({"ply": 0})).await;
    assert_error(
        status,
        &v,
        StatusCode::UNAUTHORIZED,
        "unauthorized",
        &["token"],
    );
    let (status, v) = api.post(&path, Some(&g.token), json!({})).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["ply"], 0);

    api.play(&g, "e5xa1").await;
    // Over: anyone may analyse it, at any ply.
    let (status, v) = api
        .post(&path, None, json!({"ply": 0, "movetime_ms": 50}))
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["ply"], 0);
    assert_eq!(v["position"], "B:BKe5:Wc3");
    let best = v["search"]["best"].as_str().unwrap();
    assert!(best == "e5xa1" || best == "e5xb2", "{v}");
    assert_eq!(v["search"]["pv"][0], best);
    assert_eq!(v["tables"]["value"], "win 1", "{v}");
    assert_eq!(v["tables"]["moves"].as_array().unwrap().len(), 2, "{v}");

    // The final position: the game is over there, nothing to search; the tables do not
    // value a finished game.
    let (status, v) = api.post(&path, None, json!({"ply": 1})).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["search"], serde_json::Value::Null);
    assert_eq!(v["tables"], serde_json::Value::Null);
    assert_eq!(v["position"], "W:BKa1:W");

    // Out of range, bad fields, bad level.
    let (status, v) = api.post(&path, None, json!({"ply": 2})).await;
    assert_error(
        status,
        &v,
        StatusCode::BAD_REQUEST,
        "bad_request",
        &["ply 2", "1 moves"],
    );
    let (status, v) = api.post(&path, None, json!({"plies": 0})).await;
    assert_error(
        status,
        &v,
        StatusCode::BAD_REQUEST,
        "bad_request",
        &["plies"],
    );
    let (status, v) = api.post(&path, None, json!({"level": 11})).await;
    assert_error(
        status,
        &v,
        StatusCode::BAD_REQUEST,
        "bad_request",
        &["level 11"],
    );
    let (status, v) = api
        .post("/api/games/nosuchgame/analysis", None, json!({}))
        .await;
    assert_error(
        status,
        &v,
        StatusCode::NOT_FOUND,
        "not_found",
        &["nosuchgame"],
    );
}

#[tokio::test]
async fn analysis_without_tables_gives_the_engine_alone() {
    let api = Api::start("analysis-no-tables").await;
    let g = api.create(json!({})).await;
    api.play(&g, "d4-e5").await;
    api.play(&g, "f6xd4").await;
    let path = format!("/api/games/{}/analysis", g.id);
    let (status, v) = api
        .post(&path, Some(&g.token), json!({"ply": 1, "movetime_ms": 50}))
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    // After d4-e5 White's only move is f6xd4.
    assert_eq!(v["search"]["best"], "f6xd4");
    assert_eq!(v["search"]["score"]["side"], "white");
    assert_eq!(v["tables"], serde_json::Value::Null);
    // The game itself is unchanged.
    let (_, state) = api.get(&format!("/api/games/{}", g.id)).await;
    assert_eq!(state["ply"], 2);
}
