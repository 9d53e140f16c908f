//! Games against a person elsewhere, through the API: the invitation and its seat, each
//! token moving its own side only, draw offers, resigning, aborting, the rematch, and the
//! clocks with their flag, with every change sent to watchers.

mod common;

use common::client::{assert_error, Api, Created};
use common::events::Events;
use reqwest::StatusCode;
use serde_json::{json, Value};

/// A game against a person: the owner's game, and the invitation's secret.
async fn invite(api: &Api, body: Value) -> (Created, String) {
    let (status, v) = api.post("/api/games", None, body).await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    let id = v["id"].as_str().unwrap().to_string();
    let code = v["invite"].as_str().expect("an invitation").to_string();
    assert_eq!(v["invite_url"], format!("/game/{id}#join={code}"));
    let game = Created {
        id,
        token: v["token"].as_str().unwrap().to_string(),
        state: v["state"].clone(),
    };
    (game, code)
}

/// Takes the seat of the invitation: the guest's game (with the guest's token).
async fn join(api: &Api, game: &Created, code: &str) -> Created {
    let (status, v) = api
        .post(
            &format!("/api/games/{}/join", game.id),
            None,
            json!({ "invite": code }),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    Created {
        id: game.id.clone(),
        token: v["token"].as_str().unwrap().to_string(),
        state: v["state"].clone(),
    }
}

/// A game between Black (the owner) and White (the guest), both seated.
async fn seated(api: &Api, clock: Option<&str>) -> (Created, Created) {
    let mut body = json!({ "white": { "kind": "person" } });
    if let Some(c) = clock {
        body["clock"] = json!(c);
    }
    let (owner, code) = invite(api, body).await;
    let guest = join(api, &owner, &code).await;
    (owner, guest)
}

async fn act(api: &Api, g: &Created, what: &str) -> (StatusCode, Value) {
    api.post(
        &format!("/api/games/{}/{what}", g.id),
        Some(&g.token),
        json!({}),
    )
    .await
}

/// Plays the first legal move of the position.
async fn play_any(api: &Api, g: &Created) -> Value {
    let (_, state) = api.get(&format!("/api/games/{}", g.id)).await;
    let mv = state["legal"][0]["move"].as_str().unwrap().to_string();
    api.play(g, &mv).await
}

#[tokio::test]
async fn the_first_to_open_the_invitation_takes_the_seat_and_plays_its_side_only() {
    let api = Api::start("people-seat").await;
    let (owner, code) = invite(&api, json!({ "white": { "kind": "person" } })).await;
    assert_eq!(owner.state["status"], "waiting");
    assert_eq!(
        owner.state["person"],
        json!({ "side": "white", "joined": false })
    );
    assert_eq!(owner.state["players"]["white"]["kind"], "person");
    let first = owner.state["legal"][0]["move"]
        .as_str()
        .unwrap()
        .to_string();
    let path = format!("/api/games/{}/moves", owner.id);
    let (s, v) = api
        .post(&path, Some(&owner.token), json!({ "move": first }))
        .await;
    assert_error(s, &v, StatusCode::CONFLICT, "waiting", &["invitation"]);

    let join_path = format!("/api/games/{}/join", owner.id);
    let (s, v) = api
        .post(&join_path, None, json!({ "invite": "0123" }))
        .await;
    assert_error(s, &v, StatusCode::FORBIDDEN, "forbidden", &["invitation"]);
    let (s, v) = api.post(&join_path, None, json!({})).await;
    assert_error(s, &v, StatusCode::BAD_REQUEST, "bad_request", &["invite"]);

    let mut watcher = Events::open(&api, &owner.id).await;
    assert_eq!(watcher.next().await["status"], "waiting");
    let guest = join(&api, &owner, &code).await;
    assert_ne!(guest.token, owner.token);
    assert_eq!(guest.state["status"], "playing");
    let seen = watcher.next().await;
    assert_eq!(
        seen["person"],
        json!({ "side": "white", "joined": true }),
        "the join is sent live"
    );

    // A second opener is refused and may watch.
    let (s, v) = api.post(&join_path, None, json!({ "invite": code })).await;
    assert_error(s, &v, StatusCode::CONFLICT, "seat_taken", &["watch"]);

    // Each token moves its own side only.
    let (s, v) = api
        .post(&path, Some(&guest.token), json!({ "move": first }))
        .await;
    assert_error(
        s,
        &v,
        StatusCode::FORBIDDEN,
        "wrong_side",
        &["Black's move", "White"],
    );
    let after = api.play(&owner, &first).await;
    assert_eq!(watcher.next().await["ply"], 1, "the move is sent live");
    let reply = after["legal"][0]["move"].as_str().unwrap().to_string();
    let (s, v) = api
        .post(&path, Some(&owner.token), json!({ "move": reply }))
        .await;
    assert_error(
        s,
        &v,
        StatusCode::FORBIDDEN,
        "wrong_side",
        &["White's move", "Black"],
    );
    let (s, v) = api
        .post(&path, Some("0123456789abcdef"), json!({ "move": reply }))
        .await;
    assert_error(s, &v, StatusCode::FORBIDDEN, "forbidden", &["token"]);
    let (s, v) = api.post(&path, None, json!({ "move": reply })).await;
    assert_error(s, &v, StatusCode::UNAUTHORIZED, "unauthorized", &["token"]);
    api.play(&guest, &reply).await;

    // No take-backs, hints or engine moves between people; the guest is not the owner.
    let (s, v) = act(&api, &owner, "undo").await;
    assert_error(s, &v, StatusCode::CONFLICT, "no_takebacks", &["person"]);
    let (s, v) = act(&api, &guest, "undo").await;
    assert_error(s, &v, StatusCode::FORBIDDEN, "forbidden", &["creator"]);
    let (s, v) = act(&api, &owner, "hint").await;
    assert_error(s, &v, StatusCode::CONFLICT, "no_hints", &["person"]);
    let (s, v) = act(&api, &owner, "engine").await;
    assert_error(s, &v, StatusCode::CONFLICT, "human_turn", &["person"]);
}

#[tokio::test]
async fn games_against_a_person_are_checked_at_creation() {
    let api = Api::start("people-create").await;
    for (body, words) in [
        (json!({ "clock": "5+3" }), "person elsewhere"),
        (
            json!({ "white": { "kind": "person" }, "black": { "kind": "engine", "level": 3 } }),
            "human",
        ),
        (
            json!({ "white": { "kind": "person" }, "black": { "kind": "person" } }),
            "human",
        ),
        (
            json!({ "white": { "kind": "person" }, "clock": "0+3" }),
            "no time",
        ),
        (
            json!({ "white": { "kind": "person" }, "clock": "fast" }),
            "MIN+INC",
        ),
    ] {
        let (s, v) = api.post("/api/games", None, body.clone()).await;
        assert_error(s, &v, StatusCode::BAD_REQUEST, "bad_request", &[words]);
    }
    // Without a person there is no seat to take, no draw offer, no rematch.
    let plain = api.create(json!({})).await;
    let (s, v) = api
        .post(
            &format!("/api/games/{}/join", plain.id),
            None,
            json!({ "invite": "00" }),
        )
        .await;
    assert_error(
        s,
        &v,
        StatusCode::CONFLICT,
        "not_against_a_person",
        &["invitation"],
    );
    let (s, v) = act(&api, &plain, "draw/offer").await;
    assert_error(
        s,
        &v,
        StatusCode::CONFLICT,
        "not_against_a_person",
        &["draw"],
    );
    // A game with clocks shows them, not running before the second move.
    let (owner, _) = invite(
        &api,
        json!({ "black": { "kind": "person" }, "clock": "5+3" }),
    )
    .await;
    assert_eq!(
        owner.state["clock"],
        json!({ "control": "5+3", "base_ms": 300000, "increment_ms": 3000,
                "black_ms": 300000, "white_ms": 300000, "running": null })
    );
}

#[tokio::test]
async fn draw_offers_are_made_declined_lapse_and_accepted() {
    let api = Api::start("people-draw").await;
    let (black, white) = seated(&api, None).await;
    let (s, v) = act(&api, &black, "draw/accept").await;
    assert_error(s, &v, StatusCode::CONFLICT, "no_offer", &["Black"]);
    let (s, v) = act(&api, &black, "draw/offer").await;
    assert_eq!(
        (s, &v["draw_offer"]),
        (StatusCode::OK, &json!("black")),
        "{v}"
    );
    let (s, v) = act(&api, &black, "draw/offer").await;
    assert_error(s, &v, StatusCode::CONFLICT, "already_offered", &["Black"]);
    let (s, v) = act(&api, &black, "draw/accept").await;
    assert_error(s, &v, StatusCode::CONFLICT, "no_offer", &["Black"]);
    let (s, v) = act(&api, &white, "draw/decline").await;
    assert_eq!((s, &v["draw_offer"]), (StatusCode::OK, &Value::Null), "{v}");
    // An offer lapses when its side moves.
    act(&api, &black, "draw/offer").await;
    let after = play_any(&api, &black).await;
    assert_eq!(after["draw_offer"], Value::Null);
    // Offered by White, accepted by Black: a draw by agreement.
    let mut watcher = Events::open(&api, &black.id).await;
    watcher.next().await;
    act(&api, &white, "draw/offer").await;
    assert_eq!(
        watcher.next().await["draw_offer"],
        "white",
        "the offer is sent live"
    );
    let (s, v) = act(&api, &black, "draw/accept").await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["status"], "over");
    assert_eq!(v["outcome"]["reason"], "agreement");
    assert_eq!(v["outcome"]["result"], "1/2-1/2");
    assert_eq!(watcher.next().await["outcome"]["reason"], "agreement");
    // Over: nothing more.
    let (s, v) = act(&api, &white, "resign").await;
    assert_error(s, &v, StatusCode::CONFLICT, "game_over", &["agreement"]);
    let (_, state) = api.get(&format!("/api/games/{}", black.id)).await;
    let mv = state["legal"].get(0).map(|m| m["move"].clone());
    assert!(mv.is_none(), "no legal moves once over: {state}");
}

#[tokio::test]
async fn a_resignation_ends_the_game_and_the_rematch_swaps_the_colours() {
    let api = Api::start("people-rematch").await;
    let (black, white) = seated(&api, Some("1+1")).await;
    let (s, v) = act(&api, &white, "rematch").await;
    assert_error(s, &v, StatusCode::CONFLICT, "not_over", &["goes on"]);
    play_any(&api, &black).await;
    let (s, v) = act(&api, &white, "resign").await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["outcome"]["winner"], "black");
    assert_eq!(v["outcome"]["reason"], "resignation");
    assert_eq!(v["clock"]["running"], Value::Null);

    let (s, v) = act(&api, &white, "rematch").await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    let id = v["id"].as_str().unwrap().to_string();
    assert_eq!(v["state"]["rematch_of"], black.id);
    assert_eq!(v["state"]["players"]["black"]["kind"], "person");
    assert_eq!(v["state"]["players"]["white"]["kind"], "human");
    assert_eq!(v["state"]["status"], "playing", "both keep their seats");
    assert_eq!(v["state"]["clock"]["control"], "1+1");
    let (s, again) = act(&api, &black, "rematch").await;
    assert_eq!(
        (s, &again["id"]),
        (StatusCode::OK, &json!(id)),
        "one rematch"
    );
    let (_, old) = api.get(&format!("/api/games/{}", black.id)).await;
    assert_eq!(old["rematch"], id);
    // The colours are swapped: the guest's token now plays Black, who moves first.
    let new_white = Created {
        id: id.clone(),
        ..black
    };
    let new_black = Created { id, ..white };
    let first = v["state"]["legal"][0]["move"].as_str().unwrap();
    let (s, e) = api
        .post(
            &format!("/api/games/{}/moves", new_white.id),
            Some(&new_white.token),
            json!({ "move": first }),
        )
        .await;
    assert_error(
        s,
        &e,
        StatusCode::FORBIDDEN,
        "wrong_side",
        &["Black's move"],
    );
    api.play(&new_black, first).await;
}

#[tokio::test]
async fn a_game_is_aborted_before_its_second_move_only() {
    let api = Api::start("people-abort").await;
    // Before anyone joined, the owner may call it off.
    let (lonely, code) = invite(&api, json!({ "white": { "kind": "person" } })).await;
    let (s, v) = act(&api, &lonely, "abort").await;
    assert_eq!(
        (s, &v["status"]),
        (StatusCode::OK, &json!("aborted")),
        "{v}"
    );
    let (s, v) = api
        .post(
            &format!("/api/games/{}/join", lonely.id),
            None,
            json!({ "invite": code }),
        )
        .await;
    assert_error(s, &v, StatusCode::CONFLICT, "game_over", &["aborted"]);

    let (black, white) = seated(&api, None).await;
    play_any(&api, &black).await;
    let (s, v) = act(&api, &white, "abort").await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["status"], "aborted");
    assert_eq!(v["outcome"], Value::Null, "no result");
    let (s, v) = api
        .post(
            &format!("/api/games/{}/moves", white.id),
            Some(&white.token),
            json!({ "move": v["legal"][0]["move"] }),
        )
        .await;
    assert_error(s, &v, StatusCode::CONFLICT, "game_over", &["aborted"]);

    let (black, white) = seated(&api, None).await;
    play_any(&api, &black).await;
    play_any(&api, &white).await;
    let (s, v) = act(&api, &black, "abort").await;
    assert_error(
        s,
        &v,
        StatusCode::CONFLICT,
        "too_late",
        &["2 moves", "resign"],
    );
}

#[tokio::test]
async fn a_clock_that_runs_out_ends_the_game_and_watchers_see_it() {
    let api = Api::start("people-flag").await;
    // 0.6 s each: untimed first moves, then Black's clock runs.
    let (black, white) = seated(&api, Some("0.01+0")).await;
    let one = play_any(&api, &black).await;
    assert_eq!(one["clock"]["running"], Value::Null);
    let two = play_any(&api, &white).await;
    assert_eq!(two["clock"]["running"], "black");
    let mut watcher = Events::open(&api, &black.id).await;
    let over = loop {
        let state = watcher.next().await;
        if state["status"] == "over" {
            break state;
        }
    };
    assert_eq!(over["outcome"]["reason"], "time");
    assert_eq!(over["outcome"]["winner"], "white");
    assert_eq!(over["clock"]["black_ms"], 0);
    assert_eq!(over["clock"]["running"], Value::Null);
    let (s, v) = api
        .post(
            &format!("/api/games/{}/moves", black.id),
            Some(&black.token),
            json!({ "move": two["legal"][0]["move"] }),
        )
        .await;
    assert_error(
        s,
        &v,
        StatusCode::CONFLICT,
        "game_over",
        &["ran out of time"],
    );
    let (_, record) = api
        .send("GET", &format!("/api/games/{}", black.id), None, None)
        .await;
    assert_eq!(record["outcome"]["result"], "0-1");
}

#[tokio::test]
async fn a_watcher_who_comes_mid_turn_gets_the_clocks_as_they_are_then() {
    let api = Api::start("people-late-watcher").await;
    let (black, white) = seated(&api, Some("1+0")).await;
    play_any(&api, &black).await;
    play_any(&api, &white).await;
    // One watcher from the start of Black's turn, another half a second into it.
    let mut early = Events::open(&api, &black.id).await;
    assert!(early.next().await["clock"]["black_ms"].as_i64().unwrap() > 59_500);
    // Waiting here is not synchronisation: the time that passes is what is measured.
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    let mut late = Events::open(&api, &black.id).await;
    let left = late.next().await["clock"]["black_ms"].as_i64().unwrap();
    assert!(
        left <= 59_500,
        "the late watcher's clock was read when it came: {left}"
    );
}
