//! The server's limits on what one client may ask: games created per minute, and searches
//! waiting for the engine.

mod common;

use common::client::{assert_error, Api, TOKEN};
use common::{fresh_dir, test_config};
use reqwest::StatusCode;
use serde_json::{json, Value};
use std::time::{Duration, Instant};

#[tokio::test]
async fn a_client_creating_too_many_games_is_refused_for_a_while() {
    let api = Api::start_with(kharbaga_server::Config {
        max_games_per_minute: 3,
        ..test_config(fresh_dir("quota"))
    })
    .await;
    let first = api.create(json!({})).await;
    for _ in 0..2 {
        api.create(json!({})).await;
    }
    // A refused body does not count: it created nothing.
    let (status, _) = api
        .post("/api/games", None, json!({"rules": "nonsense"}))
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let res = api
        .http
        .post(api.url("/api/games"))
        .json(&json!({}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::TOO_MANY_REQUESTS);
    let retry: u64 = res.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=60).contains(&retry), "Retry-After: {retry}");
    let v: Value = res.json().await.unwrap();
    assert_error(
        StatusCode::TOO_MANY_REQUESTS,
        &v,
        StatusCode::TOO_MANY_REQUESTS,
        "rate_limited",
        &["at most 3 a minute"],
    );
    // Playing the games created is not limited.
    let legal = first.state["legal"][0]["move"].as_str().unwrap();
    let state = api.play(&first, legal).await;
    assert_eq!(state["ply"], 1);
}

#[tokio::test]
async fn searches_beyond_the_queue_get_503_with_retry_after() {
    let api = Api::start_with(kharbaga_server::Config {
        max_engine_searches: 1,
        max_waiting_searches: 0,
        max_engine_time: Duration::from_secs(3),
        ..test_config(fresh_dir("search-queue"))
    })
    .await;
    let g = api.create(json!({})).await;
    let hint = format!("/api/games/{}/hint", g.id);
    let search = |movetime_ms: u64| {
        api.http
            .post(api.url(&hint))
            .header(TOKEN, &g.token)
            .json(&json!({ "movetime_ms": movetime_ms }))
            .send()
    };
    // A long search takes the one slot; once it runs, a short one finds no slot and no room
    // to wait. (The long one may itself be refused if it comes while a short one runs: then
    // again.)
    let deadline = Instant::now() + Duration::from_secs(30);
    let refused = loop {
        assert!(Instant::now() < deadline, "no search was refused");
        let long = tokio::spawn(search(3000));
        let mut refused = None;
        while refused.is_none() && !long.is_finished() {
            let res = search(10).await.unwrap();
            if res.status() != StatusCode::OK {
                refused = Some(res);
            }
        }
        let long = long.await.unwrap().unwrap();
        match refused {
            Some(res) if long.status() == StatusCode::OK => break res,
            _ => continue,
        }
    };
    assert_eq!(refused.status(), StatusCode::SERVICE_UNAVAILABLE);
    assert!(refused.headers().contains_key("retry-after"));
    let v: Value = refused.json().await.unwrap();
    assert_eq!(v["code"], "busy", "{v}");
    // The slot is free again.
    let (status, v) = api
        .post(&hint, Some(&g.token), json!({"movetime_ms": 10}))
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
}

#[tokio::test]
async fn a_rematch_counts_as_a_game_created() {
    let api = Api::start_with(kharbaga_server::Config {
        max_games_per_minute: 2,
        ..test_config(fresh_dir("quota-rematch"))
    })
    .await;
    // A game against a person, whom the invitation seats; the owner moves, the guest resigns.
    let (status, v) = api
        .post("/api/games", None, json!({"white": {"kind": "person"}}))
        .await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    let id = v["id"].as_str().unwrap().to_string();
    let owner = v["token"].as_str().unwrap().to_string();
    let (status, joined) = api
        .post(
            &format!("/api/games/{id}/join"),
            None,
            json!({"invite": v["invite"]}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{joined}");
    let guest = joined["token"].as_str().unwrap().to_string();
    let first = v["state"]["legal"][0]["move"].clone();
    let (status, moved) = api
        .post(
            &format!("/api/games/{id}/moves"),
            Some(&owner),
            json!({"move": first}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{moved}");
    let (status, over) = api
        .post(&format!("/api/games/{id}/resign"), Some(&guest), json!({}))
        .await;
    assert_eq!(status, StatusCode::OK, "{over}");
    // The second game of the minute...
    api.create(json!({})).await;
    // ...so the rematch, a third, is refused.
    let (status, v) = api
        .post(&format!("/api/games/{id}/rematch"), Some(&guest), json!({}))
        .await;
    assert_error(
        status,
        &v,
        StatusCode::TOO_MANY_REQUESTS,
        "rate_limited",
        &["at most 2 a minute"],
    );
}
