//! Requests that must be refused or made harmless: bodies that are JSON arrays, game ids
//! that are not ids.

mod common;

use common::client::{assert_error, Api};
use reqwest::StatusCode;
use serde_json::json;

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
