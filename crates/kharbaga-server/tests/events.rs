//! `GET /api/games/<id>/events`: the game state as Server-Sent Events, first as it is, then
//! after each change (a move, the engine starting to think and moving, a take-back), to
//! anyone watching.

mod common;

use common::client::{Api, Created};
use common::events::Events;
use reqwest::StatusCode;
use serde_json::{json, Value};

fn moves(state: &Value) -> Vec<&str> {
    state["history"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["move"].as_str().unwrap())
        .collect()
}

#[tokio::test]
async fn watchers_see_every_move_and_take_back() {
    let api = Api::start("events").await;
    let g = api.create(json!({})).await;
    // Two watchers (no token needed).
    let mut first = Events::open(&api, &g.id).await;
    let s = first.next().await;
    assert_eq!(
        (s["id"].as_str(), s["ply"].as_u64()),
        (Some(&*g.id), Some(0))
    );
    assert_eq!(s["legal"], g.state["legal"], "the full game state");
    first.quiet().await;
    let mut second = Events::open(&api, &g.id).await;
    assert_eq!(second.next().await["ply"], 0);

    api.play(&g, "d4-e5").await;
    for w in [&mut first, &mut second] {
        let s = w.next().await;
        assert_eq!(moves(&s), ["d4-e5"]);
        assert_eq!(s["turn"], "white");
    }
    api.play(&g, "f6xd4").await;
    assert_eq!(moves(&first.next().await), ["d4-e5", "f6xd4"]);
    assert_eq!(moves(&second.next().await), ["d4-e5", "f6xd4"]);
    let (status, s) = api
        .post(
            &format!("/api/games/{}/undo", g.id),
            Some(&g.token),
            json!({"count": 1}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{s}");
    assert_eq!(moves(&first.next().await), ["d4-e5"]);
    // A refused request changes nothing and sends nothing.
    let (status, _) = api
        .post(
            &format!("/api/games/{}/moves", g.id),
            Some(&g.token),
            json!({"move": "a1-a2"}),
        )
        .await;
    assert_ne!(status, StatusCode::OK);
    first.quiet().await;
    // A watcher that comes (back) later starts from the game as it is.
    drop(second);
    let mut third = Events::open(&api, &g.id).await;
    assert_eq!(moves(&third.next().await), ["d4-e5"]);
}

#[tokio::test]
async fn watchers_see_the_engine_think_and_move() {
    let api = Api::start("events-engine").await;
    let g: Created = api
        .create(json!({
            "black": {"kind": "human"},
            "white": {"kind": "engine", "level": 2},
            "first": "white"
        }))
        .await;
    let mut events = Events::open(&api, &g.id).await;
    let s = events.next().await;
    assert_eq!(
        (s["ply"].as_u64(), s["thinking"].as_bool()),
        (Some(0), Some(false))
    );
    let engine = {
        let http = api.http.clone();
        let url = api.url(&format!("/api/games/{}/engine", g.id));
        let token = g.token.clone();
        tokio::spawn(async move {
            let res = http
                .post(url)
                .header("x-kharbaga-token", token)
                .json(&json!({"movetime_ms": 300}))
                .send()
                .await
                .unwrap();
            assert_eq!(res.status(), StatusCode::OK);
            res.json::<Value>().await.unwrap()
        })
    };
    let s = events.next().await;
    assert_eq!(
        (s["ply"].as_u64(), s["thinking"].as_bool()),
        (Some(0), Some(true))
    );
    let s = events.next().await;
    assert_eq!(
        (s["ply"].as_u64(), s["thinking"].as_bool()),
        (Some(1), Some(false))
    );
    assert_eq!(s["history"][0]["color"], "white");
    let answer = engine.await.unwrap();
    assert_eq!(answer["state"]["history"], s["history"]);
}

#[tokio::test]
async fn an_unknown_game_has_no_events() {
    let api = Api::start("events-unknown").await;
    let (status, v) = api.get("/api/games/abcdefghij/events").await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{v}");
    assert_eq!(v["code"], "not_found");
}
