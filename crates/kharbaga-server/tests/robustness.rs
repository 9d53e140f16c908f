//! Requests that must be refused or made harmless: engine moves asked for twice at once or
//! for a person's side, bodies that are JSON arrays, game ids that are not ids; and a forced
//! move, which the engine plays at once.

mod common;

use common::client::{assert_error, Api, Created};
use common::{fresh_dir, test_config};
use reqwest::StatusCode;
use serde_json::{json, Value};
use std::time::{Duration, Instant};

/// A game of a person (Black) against the engine at `level` (White), White to move.
async fn engine_to_move(api: &Api, level: u8) -> Created {
    api.create(json!({
        "black": {"kind": "human"},
        "white": {"kind": "engine", "level": level},
        "first": "white"
    }))
    .await
}

#[tokio::test]
async fn engine_requests_at_once_play_one_move() {
    let api = Api::start("engine-twice").await;
    // Several games, so that the requests of at least some of them really overlap.
    for round in 0..4 {
        let g = engine_to_move(&api, 3).await;
        let game = format!("/api/games/{}", g.id);
        // Open connections first, so that the requests go out together.
        let _ = tokio::join!(api.get(&game), api.get(&game), api.get(&game));
        let path = format!("{game}/engine");
        let body = json!({"movetime_ms": 300});
        let (a, b, c) = tokio::join!(
            api.post(&path, Some(&g.token), body.clone()),
            api.post(&path, Some(&g.token), body.clone()),
            api.post(&path, Some(&g.token), body.clone()),
        );
        let mut answers = [a, b, c];
        answers.sort_by_key(|(status, _)| *status);
        let [(ok, moved), refused @ ..] = answers;
        assert_eq!(ok, StatusCode::OK, "round {round}: {moved}");
        for (status, error) in refused {
            assert_eq!(status, StatusCode::CONFLICT, "round {round}: {error}");
            let code = error["code"].as_str().unwrap();
            assert!(
                ["thinking", "stale", "human_turn"].contains(&code),
                "round {round}: {error}"
            );
            assert!(!error["error"].as_str().unwrap().is_empty());
        }
        let (_, s) = api.get(&game).await;
        assert_eq!(s["ply"], 1, "round {round}: one move, by the engine: {s}");
        assert_eq!(s["history"][0]["color"], "white");
    }
}

#[tokio::test]
async fn the_engine_does_not_move_for_a_person() {
    let api = Api::start("engine-person").await;
    let g = engine_to_move(&api, 2).await;
    let path = format!("/api/games/{}/engine", g.id);
    let t = Some(g.token.as_str());
    let (status, v) = api.post(&path, t, json!({"movetime_ms": 50})).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["state"]["turn"], "black");
    // Black is a person: no engine move for Black, with or without the right ply.
    for body in [json!({}), json!({"ply": 1}), json!({"level": 10})] {
        let (status, v) = api.post(&path, t, body).await;
        assert_error(
            status,
            &v,
            StatusCode::CONFLICT,
            "human_turn",
            &["Black", "person"],
        );
    }
    // A game of two people: the engine plays neither side.
    let g = api.create(json!({})).await;
    let (status, v) = api
        .post(
            &format!("/api/games/{}/engine", g.id),
            Some(&g.token),
            json!({}),
        )
        .await;
    assert_error(status, &v, StatusCode::CONFLICT, "human_turn", &[]);
    let (_, s) = api.get(&format!("/api/games/{}", g.id)).await;
    assert_eq!(s["ply"], 0);
}

#[tokio::test]
async fn json_arrays_are_not_request_bodies() {
    let api = Api::start("arrays").await;
    let g = api.create(json!({})).await;
    let t = Some(g.token.as_str());
    let id = &g.id;
    // serde reads a struct from an array of its fields in order: each of these would be
    // taken as the request it spells.
    let cases = [
        ("/api/games".to_string(), r#"["standard", {}, null, null]"#),
        (format!("/api/games/{id}/moves"), r#"["e3-e5", null, 0]"#),
        (format!("/api/games/{id}/moves"), r#"[null, ["e3", "e5"]]"#),
        (format!("/api/games/{id}/undo"), "[1]"),
        (format!("/api/games/{id}/engine"), "[1, 50, 0]"),
        (format!("/api/games/{id}/hint"), "[1, 50]"),
        ("/api/games".to_string(), r#"{"black": ["engine", 5]}"#),
        ("/api/games".to_string(), r#""standard""#),
        ("/api/games".to_string(), "5"),
    ];
    for (path, body) in cases {
        let (status, v) = api.post_raw(&path, t, body).await;
        assert_error(
            status,
            &v,
            StatusCode::BAD_REQUEST,
            "bad_request",
            &["object"],
        );
    }
    let (_, s) = api.get(&format!("/api/games/{id}")).await;
    assert_eq!(s["ply"], 0, "no move was made: {s}");
    // Objects are still fine, and an empty body still counts as {}.
    let (status, v) = api
        .post_raw(&format!("/api/games/{id}/moves"), t, r#"{"move": "e3-e5"}"#)
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let (status, v) = api.post_raw("/api/games", None, "  ").await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    let (status, v) = api
        .post_raw(
            "/api/games",
            None,
            r#"{"white": {"kind": "engine", "level": 4}}"#,
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    assert_eq!(v["state"]["players"]["white"]["level"], 4);
}

#[tokio::test]
async fn bad_game_ids_are_not_found() {
    let api = Api::start("bad-ids").await;
    let g = api.create(json!({})).await;
    let long = "a".repeat(60_000);
    for id in [long.as_str(), "ABCDEFGHJK", "abc", "abcdefghij"] {
        for (method, end) in [
            ("GET", ""),
            ("GET", "/record"),
            ("GET", "/events"),
            ("POST", "/moves"),
            ("POST", "/engine"),
            ("POST", "/undo"),
            ("POST", "/hint"),
        ] {
            let path = format!("/api/games/{id}{end}");
            let body = (method == "POST").then(|| json!({}));
            let (status, v) = api.send(method, &path, Some(&g.token), body).await;
            assert_error(status, &v, StatusCode::NOT_FOUND, "not_found", &[]);
            let msg = v["error"].as_str().unwrap();
            assert!(msg.len() < 100, "the message is short: {msg}");
        }
    }
}

#[tokio::test]
async fn a_forced_move_is_played_at_once() {
    let api = Api::start_with(kharbaga_server::Config {
        max_engine_time: Duration::from_secs(3),
        ..test_config(fresh_dir("forced"))
    })
    .await;
    let g = api
        .create(json!({"black": {"kind": "human"}, "white": {"kind": "engine", "level": 10}}))
        .await;
    // After d4-e5, f6xd4 is White's only move (docs/rules.md).
    let s = api.play(&g, "d4-e5").await;
    assert_eq!(s["legal"].as_array().unwrap().len(), 1);
    let path = format!("/api/games/{}/engine", g.id);
    let started = Instant::now();
    let (status, v) = api
        .post(
            &path,
            Some(&g.token),
            json!({"movetime_ms": 3000, "ply": 1}),
        )
        .await;
    let took = started.elapsed();
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["search"]["best"], "f6xd4");
    assert!(
        took < Duration::from_millis(1000),
        "a forced move took {took:?}: {}",
        v["search"]
    );
    assert!(v["search"]["time_ms"].as_u64().unwrap() < 500, "{v}");
    // A move with a choice still gets its time.
    let g = engine_to_move(&api, 10).await;
    assert!(g.state["legal"].as_array().unwrap().len() > 1);
    let started = Instant::now();
    let (status, v): (StatusCode, Value) = api
        .post(
            &format!("/api/games/{}/engine", g.id),
            Some(&g.token),
            json!({"movetime_ms": 600}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert!(started.elapsed() >= Duration::from_millis(300), "{v}");
}
