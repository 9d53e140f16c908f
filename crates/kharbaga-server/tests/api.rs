//! The JSON API over HTTP, every endpoint with good and bad input. Expected values come from
//! docs/rules.md (move lists, outcomes) and docs/api.md (statuses and codes).

mod common;

use common::client::{assert_error, moves_of, strings, Api, TOKEN};
use common::{test_config, TestServer};
use reqwest::{Client, StatusCode};
use serde_json::{json, Value};

#[tokio::test]
async fn meta_lists_the_rule_sets_and_options() {
    let api = Api::start("meta").await;
    let (status, v) = api.get("/api/meta").await;
    assert_eq!(status, StatusCode::OK);
    let names: Vec<&str> = v["rule_sets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["standard", "sideways", "ludii", "dagaz"]);
    let keys: Vec<&str> = v["option_keys"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["key"].as_str().unwrap())
        .collect();
    let want: Vec<&str> = kharbaga::OPTION_KEYS.iter().map(|(k, _)| *k).collect();
    assert_eq!(keys, want);
    // The docs' table: ludii has no compulsory capture, dagaz removes at once.
    assert_eq!(v["rule_sets"][2]["options"]["compulsory"], "no");
    assert_eq!(v["rule_sets"][3]["options"]["removal"], "immediate");
    assert_eq!(v["levels"], json!([1, 10]));
}

#[tokio::test]
async fn creating_a_game_from_the_start() {
    let api = Api::start("create").await;
    let g = api.create(json!({})).await;
    assert_eq!(g.id.len(), 10);
    assert_eq!(g.token.len(), 32);
    assert!(g.token.bytes().all(|b| b.is_ascii_hexdigit()));
    let s = &g.state;
    assert_eq!(s["url"], format!("/game/{}", g.id));
    assert_eq!(s["ply"], 0);
    assert_eq!(s["turn"], "black");
    assert_eq!(s["rules"], "standard");
    // docs/rules.md: the start position string, and Black's three first moves.
    assert_eq!(
        s["position"],
        "B:Ba1,c1,e1,g1,i1,b2,d2,f2,h2,a3,c3,e3,g3,i3,b4,d4,f4,h4,g5,i5:Wa5,c5,b6,d6,f6,h6,a7,c7,e7,g7,i7,b8,d8,f8,h8,a9,c9,e9,g9,i9"
    );
    assert_eq!(moves_of(s), ["d4-e5", "e3-e5", "f4-e5"]);
    assert_eq!(s["board"].as_array().unwrap().len(), 40);
    assert!(s["board"]
        .as_array()
        .unwrap()
        .iter()
        .all(|p| p["point"] != "e5"));
    assert_eq!(s["must_capture"], false);
    assert_eq!(s["outcome"], Value::Null);
    assert_eq!(s["players"]["black"], json!({"kind": "human"}));
    // The page's addresses serve the page.
    let page = api
        .http
        .get(api.url(&format!("/game/{}", g.id)))
        .send()
        .await
        .unwrap();
    assert_eq!(page.status(), StatusCode::OK);
    assert!(page.text().await.unwrap().contains("<svg id=\"board\""));
}

#[tokio::test]
async fn creating_with_rules_options_players_and_who_starts() {
    let api = Api::start("create-options").await;
    let g = api
        .create(json!({
            "rules": "ludii",
            "options": {"majority": "yes", "no-progress": "40"},
            "black": {"kind": "engine", "level": 3},
            "white": {"kind": "human"},
            "first": "white"
        }))
        .await;
    assert_eq!(g.state["rules"], "ludii,majority=yes,no-progress=40");
    assert_eq!(g.state["rule_options"]["majority"], "yes");
    assert_eq!(
        g.state["players"]["black"],
        json!({"kind": "engine", "level": 3})
    );
    assert_eq!(g.state["turn"], "white");
    // White's first moves mirror Black's: e7-e5, d6-e5, f6-e5.
    assert_eq!(moves_of(&g.state), ["d6-e5", "e7-e5", "f6-e5"]);

    let g = api.create(json!({"first": "roll"})).await;
    let rolls = g.state["rolls"].as_array().unwrap();
    assert!(!rolls.is_empty());
    for (i, r) in rolls.iter().enumerate() {
        let (b, w) = (r["black"].as_u64().unwrap(), r["white"].as_u64().unwrap());
        assert!((1..=6).contains(&b) && (1..=6).contains(&w));
        // Ties roll again: all but the last are ties, the last is not.
        assert_eq!(b == w, i + 1 < rolls.len(), "{rolls:?}");
    }
    let last = rolls.last().unwrap();
    let starter = if last["black"].as_u64() > last["white"].as_u64() {
        "black"
    } else {
        "white"
    };
    assert_eq!(g.state["turn"], starter);

    // docs/rules.md: in B:Bc3:Wd4,f6 the capture is compulsory and chains.
    let g = api.create(json!({"position": "B:Bc3:Wd4,f6"})).await;
    assert_eq!(moves_of(&g.state), ["c3xe5xg7"]);
    assert_eq!(g.state["must_capture"], true);
    assert_eq!(g.state["legal"][0]["captured"], json!(["d4", "f6"]));
}

#[tokio::test]
async fn creating_with_bad_input_is_refused_with_the_reason() {
    let api = Api::start("create-bad").await;
    let cases = [
        (json!({"rules": "standrd"}), vec!["standrd"]),
        (
            json!({"options": {"majority": "maybe"}}),
            vec!["majority", "yes|no"],
        ),
        (json!({"options": {"colour": "red"}}), vec!["colour"]),
        (json!({"position": "B:Bz9:W"}), vec!["column"]),
        (json!({"position": "B:Ba9:Wa1"}), vec!["a9"]),
        (
            json!({"position": "B:Bc3:Wd4", "first": "white"}),
            vec!["first"],
        ),
        (
            json!({"black": {"kind": "engine", "level": 11}}),
            vec!["11"],
        ),
        (json!({"black": {"kind": "robot"}}), vec!["robot"]),
        (json!({"first": "both"}), vec!["both"]),
        (json!({"colour": "black"}), vec!["colour"]),
        (
            json!({"record": "1. d4-e5 f6-e5 *"}),
            vec!["line 1, column 10"],
        ),
        (
            json!({"record": "1. d4-e5 *", "rules": "ludii"}),
            vec!["rules"],
        ),
        (
            json!({"record": "1. d4-e5 *", "position": "B:Bc3:Wd4"}),
            vec!["position"],
        ),
    ];
    for (body, words) in cases {
        let (status, v) = api.post("/api/games", None, body.clone()).await;
        assert_error(status, &v, StatusCode::BAD_REQUEST, "bad_request", &words);
    }
    // Not JSON at all.
    let (status, v) = api.post_raw("/api/games", None, "{not json").await;
    assert_error(
        status,
        &v,
        StatusCode::BAD_REQUEST,
        "bad_request",
        &["JSON"],
    );
    // Larger than the limit (16 KiB in the test configuration).
    let big = json!({ "position": "x".repeat(20_000) });
    let (status, v) = api.post("/api/games", None, big).await;
    assert_error(status, &v, StatusCode::PAYLOAD_TOO_LARGE, "too_large", &[]);
}

#[tokio::test]
async fn a_record_can_be_loaded_and_downloaded() {
    let api = Api::start("record").await;
    let g = api
        .create(json!({"record": "[Rules \"standard\"]\n1. d4-e5 f6xd4 2. c3xe5 a5xc3 *"}))
        .await;
    assert_eq!(g.state["ply"], 4);
    let history: Vec<&str> = g.state["history"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["move"].as_str().unwrap())
        .collect();
    assert_eq!(history, ["d4-e5", "f6xd4", "c3xe5", "a5xc3"]);
    api.play(&g, "b2xd4").await;

    let res = api
        .http
        .get(api.url(&format!("/api/games/{}/record", g.id)))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    let disposition = res.headers()["content-disposition"]
        .to_str()
        .unwrap()
        .to_string();
    assert!(disposition.contains(&format!("kharbaga-{}.pdn", g.id)));
    let text = res.text().await.unwrap();
    assert!(text.contains("[Rules \"standard\"]"), "{text}");
    assert!(text.contains("[Black \"Human\"]"), "{text}");
    assert!(
        text.contains("1. d4-e5 f6xd4 2. c3xe5 a5xc3 3. b2xd4 *"),
        "{text}"
    );
    // The download reads back as the same game.
    let back = kharbaga::Record::parse(&text).unwrap();
    assert_eq!(back.game().moves().len(), 5);

    let (status, v) = api.get("/api/games/zzzzzzzzzz/record").await;
    assert_error(
        status,
        &v,
        StatusCode::NOT_FOUND,
        "not_found",
        &["zzzzzzzzzz"],
    );
}

#[tokio::test]
async fn getting_a_game() {
    let api = Api::start("get").await;
    let g = api.create(json!({})).await;
    let (status, v) = api.get(&format!("/api/games/{}", g.id)).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(v["id"], g.id);
    assert!(v.get("token").is_none(), "watchers never see the token");
    for id in [
        "abcdefghij",
        "short",
        "UPPERCASEX",
        "abc..defgh",
        "abc%2Fdefg",
    ] {
        let (status, v) = api.get(&format!("/api/games/{id}")).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{id}: {v}");
        assert_eq!(v["code"], "not_found");
    }
    // Not UTF-8 once decoded.
    let (status, v) = api.get("/api/games/%FF%FE").await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{v}");
    assert_eq!(v["code"], "bad_request");
    let (status, v) = api.get("/api/nothing").await;
    assert_error(
        status,
        &v,
        StatusCode::NOT_FOUND,
        "not_found",
        &["/api/nothing"],
    );
    let (status, v) = api.get("/api/games").await;
    assert_error(
        status,
        &v,
        StatusCode::METHOD_NOT_ALLOWED,
        "method_not_allowed",
        &[],
    );
}

#[tokio::test]
async fn moves_by_notation_and_by_path() {
    let api = Api::start("moves").await;
    let g = api.create(json!({})).await;
    let s = api.play(&g, "d4-e5").await;
    assert_eq!(s["ply"], 1);
    // docs (lib.rs example): after d4-e5 White must capture with f6xd4.
    assert_eq!(moves_of(&s), ["f6xd4"]);
    assert_eq!(s["must_capture"], true);
    let (status, s) = api
        .post(
            &format!("/api/games/{}/moves", g.id),
            Some(&g.token),
            json!({"path": ["f6", "d4"], "ply": 1}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{s}");
    let last = &s["history"][1];
    assert_eq!(last["move"], "f6xd4");
    assert_eq!(last["color"], "white");
    assert_eq!(last["captured"], json!(["e5"]));
    assert_eq!(last["position"], s["position"]);

    // A multi-capture by its full path: docs' majority example.
    let g = api.create(json!({"position": "B:Be3:Wd4,b6,Kf4"})).await;
    assert_eq!(moves_of(&g.state), ["e3xc5xa7"]);
    let (status, s) = api
        .post(
            &format!("/api/games/{}/moves", g.id),
            Some(&g.token),
            json!({"path": ["e3", "c5", "a7"]}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{s}");
    assert_eq!(s["history"][0]["captured"], json!(["d4", "b6"]));
    assert_eq!(s["history"][0]["path"], json!(["c5", "a7"]));

    // Two paths of one move: docs' delayed-removal triangle c5xe3xg5xc5 = c5xg5xe3xc5.
    let g = api.create(json!({"position": "B:Bc5:Wd4,f4,e5"})).await;
    let legal = g.state["legal"].as_array().unwrap();
    assert_eq!(legal.len(), 1, "{legal:?}");
    let mut paths: Vec<Vec<String>> = legal[0]["paths"]
        .as_array()
        .unwrap()
        .iter()
        .map(strings)
        .collect();
    paths.sort();
    assert_eq!(paths, [["e3", "g5", "c5"], ["g5", "e3", "c5"]]);
    let (status, s) = api
        .post(
            &format!("/api/games/{}/moves", g.id),
            Some(&g.token),
            json!({"path": ["c5", "g5", "e3", "c5"]}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{s}");
    // docs: the lone man takes all three and the game ends.
    assert_eq!(s["outcome"]["winner"], "black");
    assert_eq!(s["outcome"]["reason"], "no-moves");
    assert_eq!(s["outcome"]["result"], "1-0");
    assert_eq!(s["outcome"]["text"], "Black wins: White has no pieces left");
}

#[tokio::test]
async fn bad_moves_are_refused_with_the_reason() {
    let api = Api::start("moves-bad").await;
    let g = api
        .create(json!({"black": {"kind": "human"}, "white": {"kind": "engine", "level": 1}}))
        .await;
    let path = format!("/api/games/{}/moves", g.id);
    let (status, v) = api.post(&path, None, json!({"move": "e3-e5"})).await;
    assert_error(
        status,
        &v,
        StatusCode::UNAUTHORIZED,
        "unauthorized",
        &[TOKEN],
    );
    let (status, v) = api
        .post(&path, Some("0123"), json!({"move": "e3-e5"}))
        .await;
    assert_error(status, &v, StatusCode::FORBIDDEN, "forbidden", &[]);
    let t = Some(g.token.as_str());
    let (status, v) = api.post(&path, t, json!({"move": "e3-e7"})).await;
    assert_error(
        status,
        &v,
        StatusCode::UNPROCESSABLE_ENTITY,
        "illegal_move",
        &["e3-e7"],
    );
    let (status, v) = api.post(&path, t, json!({"move": "e3-e5-e7"})).await;
    assert_error(
        status,
        &v,
        StatusCode::BAD_REQUEST,
        "bad_move",
        &["e3-e5-e7"],
    );
    let (status, v) = api.post(&path, t, json!({"move": "q3-e5"})).await;
    assert_error(status, &v, StatusCode::BAD_REQUEST, "bad_move", &["q3"]);
    let (status, v) = api.post(&path, t, json!({"path": ["e3", "e7"]})).await;
    assert_error(
        status,
        &v,
        StatusCode::UNPROCESSABLE_ENTITY,
        "illegal_move",
        &["e3-e5"],
    );
    let (status, v) = api.post(&path, t, json!({"path": ["e3", "b3"]})).await;
    assert_error(
        status,
        &v,
        StatusCode::BAD_REQUEST,
        "bad_request",
        &["path[1]"],
    );
    let (status, v) = api.post(&path, t, json!({"path": ["e3"]})).await;
    assert_error(
        status,
        &v,
        StatusCode::BAD_REQUEST,
        "bad_request",
        &["landing"],
    );
    let (status, v) = api.post(&path, t, json!({})).await;
    assert_error(
        status,
        &v,
        StatusCode::BAD_REQUEST,
        "bad_request",
        &["move", "path"],
    );
    let (status, v) = api
        .post(&path, t, json!({"move": "e3-e5", "path": ["e3", "e5"]}))
        .await;
    assert_error(status, &v, StatusCode::BAD_REQUEST, "bad_request", &[]);
    let (status, v) = api.post(&path, t, json!({"move": "e3-e5", "ply": 3})).await;
    assert_error(status, &v, StatusCode::CONFLICT, "stale", &["0"]);
    // Nothing of the above changed the game.
    let (_, s) = api.get(&format!("/api/games/{}", g.id)).await;
    assert_eq!(s["ply"], 0);
    // Now it is the engine's turn: the player may not move for it.
    api.play(&g, "e3-e5").await;
    let (status, v) = api.post(&path, t, json!({"move": "e7-e5"})).await;
    assert_error(status, &v, StatusCode::CONFLICT, "engine_turn", &["White"]);

    // A finished game takes no more moves.
    let g = api.create(json!({"position": "B:Bc3:Wd4"})).await;
    api.play(&g, "c3xe5").await;
    let (status, v) = api
        .post(
            &format!("/api/games/{}/moves", g.id),
            Some(&g.token),
            json!({"move": "e5-e7"}),
        )
        .await;
    assert_error(
        status,
        &v,
        StatusCode::CONFLICT,
        "game_over",
        &["Black wins"],
    );
}

#[tokio::test]
async fn a_blocked_side_has_lost_from_the_start() {
    let api = Api::start("blocked").await;
    // docs/rules.md, end of the game: Black's man on a7 cannot move.
    let g = api.create(json!({"position": "B:Ba7:Wa9,b8,c9"})).await;
    assert_eq!(g.state["legal"], json!([]));
    assert_eq!(g.state["outcome"]["winner"], "white");
    assert_eq!(
        g.state["outcome"]["text"],
        "White wins: Black has no legal move"
    );
}

#[tokio::test]
async fn simultaneous_moves_are_played_once() {
    let api = Api::start("race").await;
    let g = api.create(json!({})).await;
    let path = format!("/api/games/{}/moves", g.id);
    let body = |m: &str| json!({"move": m, "ply": 0});
    let (a, b) = tokio::join!(
        api.post(&path, Some(&g.token), body("e3-e5")),
        api.post(&path, Some(&g.token), body("d4-e5")),
    );
    let statuses = [a.0, b.0];
    assert!(statuses.contains(&StatusCode::OK), "{statuses:?}");
    assert!(statuses.contains(&StatusCode::CONFLICT), "{statuses:?}");
    let (_, s) = api.get(&format!("/api/games/{}", g.id)).await;
    assert_eq!(s["ply"], 1);
}

#[tokio::test]
async fn take_back() {
    let api = Api::start("undo").await;
    let g = api.create(json!({})).await;
    let path = format!("/api/games/{}/undo", g.id);
    let (status, v) = api.post(&path, Some(&g.token), json!({})).await;
    assert_error(status, &v, StatusCode::BAD_REQUEST, "bad_request", &["0"]);
    for m in ["d4-e5", "f6xd4", "c3xe5"] {
        api.play(&g, m).await;
    }
    let (status, v) = api.post(&path, None, json!({})).await;
    assert_error(status, &v, StatusCode::UNAUTHORIZED, "unauthorized", &[]);
    let (status, v) = api.post(&path, Some(&g.token), json!({"count": 4})).await;
    assert_error(
        status,
        &v,
        StatusCode::BAD_REQUEST,
        "bad_request",
        &["4", "3"],
    );
    let (status, v) = api.post(&path, Some(&g.token), json!({"count": 0})).await;
    assert_error(status, &v, StatusCode::BAD_REQUEST, "bad_request", &[]);
    let (status, v) = api
        .post(&path, Some(&g.token), json!({"count": 1, "ply": 2}))
        .await;
    assert_error(status, &v, StatusCode::CONFLICT, "stale", &[]);
    let (status, s) = api
        .post(&path, Some(&g.token), json!({"count": 2, "ply": 3}))
        .await;
    assert_eq!(status, StatusCode::OK, "{s}");
    assert_eq!(s["ply"], 1);
    assert_eq!(moves_of(&s), ["f6xd4"]);
    // An empty body takes back one move.
    let res = api
        .http
        .post(api.url(&path))
        .header(TOKEN, &g.token)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    let s: Value = res.json().await.unwrap();
    assert_eq!(s["ply"], 0);
    // A finished game can be taken back and goes on.
    let g = api.create(json!({"position": "B:Bc3:Wd4"})).await;
    let s = api.play(&g, "c3xe5").await;
    assert!(s["outcome"].is_object());
    let (status, s) = api
        .post(
            &format!("/api/games/{}/undo", g.id),
            Some(&g.token),
            json!({}),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(s["outcome"], Value::Null);
    assert_eq!(moves_of(&s), ["c3xe5"]);
}

#[tokio::test]
async fn the_engine_answers_with_a_legal_move() {
    let api = Api::start("engine").await;
    let g = api
        .create(json!({"black": {"kind": "human"}, "white": {"kind": "engine", "level": 2}}))
        .await;
    let s = api.play(&g, "d4-e5").await;
    let legal_before = moves_of(&s);
    let path = format!("/api/games/{}/engine", g.id);
    let (status, v) = api.post(&path, None, json!({})).await;
    assert_error(status, &v, StatusCode::UNAUTHORIZED, "unauthorized", &[]);
    let t = Some(g.token.as_str());
    let (status, v) = api.post(&path, t, json!({"level": 0})).await;
    assert_error(
        status,
        &v,
        StatusCode::BAD_REQUEST,
        "bad_request",
        &["level 0"],
    );
    let (status, v) = api.post(&path, t, json!({"movetime_ms": 1})).await;
    assert_error(
        status,
        &v,
        StatusCode::BAD_REQUEST,
        "bad_request",
        &["movetime_ms"],
    );
    let (status, v) = api.post(&path, t, json!({"ply": 0})).await;
    assert_error(status, &v, StatusCode::CONFLICT, "stale", &[]);

    let (status, v) = api
        .post(&path, t, json!({"movetime_ms": 50, "ply": 1}))
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let s = &v["state"];
    assert_eq!(s["ply"], 2);
    assert_eq!(s["history"][1]["color"], "white");
    // The only legal answer to d4-e5 is f6xd4 (docs).
    assert_eq!(legal_before, ["f6xd4"]);
    assert_eq!(s["history"][1]["move"], "f6xd4");
    assert_eq!(v["search"]["best"], "f6xd4");
    assert_eq!(v["search"]["score"]["side"], "white");
    assert_eq!(s["thinking"], false);

    // A finished game has nothing to search.
    let g = api.create(json!({"position": "W:Bc3:Wd4,Ka9"})).await;
    let s = api.play(&g, "d4xb2").await;
    assert_eq!(s["outcome"]["winner"], "white");
    let (status, v) = api
        .post(
            &format!("/api/games/{}/engine", g.id),
            Some(&g.token),
            json!({}),
        )
        .await;
    assert_error(status, &v, StatusCode::CONFLICT, "game_over", &[]);
}

#[tokio::test]
async fn hints_do_not_change_the_game() {
    let api = Api::start("hint").await;
    // docs: the Mullah on a1 has five legal moves, each taking two pieces.
    let g = api.create(json!({"position": "B:BKa1:Wd4,g5"})).await;
    let legal = moves_of(&g.state);
    assert_eq!(
        legal,
        ["a1xe5xi5", "a1xf6xh4", "a1xf6xi3", "a1xg7xg1", "a1xg7xg3"]
    );
    let path = format!("/api/games/{}/hint", g.id);
    let (status, v) = api.post(&path, None, json!({})).await;
    assert_error(status, &v, StatusCode::UNAUTHORIZED, "unauthorized", &[]);
    let (status, v) = api.post(&path, Some(&g.token), json!({"level": 12})).await;
    assert_error(status, &v, StatusCode::BAD_REQUEST, "bad_request", &["12"]);
    let (status, v) = api
        .post(&path, Some(&g.token), json!({"movetime_ms": 80}))
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["ply"], 0);
    let best = v["search"]["best"].as_str().unwrap().to_string();
    assert!(legal.contains(&best), "{best}");
    // Black takes both White pieces with any of them and wins at once.
    assert_eq!(v["search"]["score"]["kind"], "win", "{v}");
    let pv = strings(&v["search"]["pv"]);
    assert_eq!(pv.first(), Some(&best));
    let (_, s) = api.get(&format!("/api/games/{}", g.id)).await;
    assert_eq!(s["ply"], 0);
}

#[tokio::test]
async fn games_survive_a_restart() {
    let api = Api::start("restart").await;
    let g = api
        .create(json!({"rules": "sideways", "first": "white"}))
        .await;
    for m in ["e7-e5", "e3xe7"] {
        api.play(&g, m).await;
    }
    let (_, before) = api.get(&format!("/api/games/{}", g.id)).await;
    let dir = api.server.stop_keeping_data().await;
    let server = TestServer::start_with(test_config(dir)).await;
    let http = Client::new();
    let after: Value = http
        .get(format!("{}/api/games/{}", server.base, g.id))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(after["history"], before["history"]);
    assert_eq!(after["position"], before["position"]);
    assert_eq!(after["rules"], "sideways");
    // And the token still works after the restart.
    let res = http
        .post(format!("{}/api/games/{}/moves", server.base, g.id))
        .header(TOKEN, &g.token)
        .json(&json!({"move": "f6-f4", "ply": 2}))
        .send()
        .await
        .unwrap();
    let status = res.status();
    let v: Value = res.json().await.unwrap();
    // A capture is compulsory (e9 takes e7, c5 takes d4), so the step is refused.
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
    assert!(v["error"].as_str().unwrap().contains("e9xe5"), "{v}");
    let res = http
        .post(format!("{}/api/games/{}/moves", server.base, g.id))
        .header(TOKEN, &g.token)
        .json(&json!({"move": "e9xe5", "ply": 2}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::OK);
}

#[tokio::test]
async fn the_pages_and_their_files() {
    let api = Api::start("pages").await;
    let get = |path: &'static str| {
        let http = api.http.clone();
        let url = api.url(path);
        async move {
            let res = http.get(url).send().await.unwrap();
            let status = res.status();
            let ctype = res.headers()["content-type"].to_str().unwrap().to_string();
            (status, ctype, res.text().await.unwrap())
        }
    };
    let (status, ctype, body) = get("/").await;
    assert_eq!(status, StatusCode::OK);
    assert!(ctype.starts_with("text/html"));
    assert!(body.contains("<script type=\"module\" src=\"/assets/js/main.js\">"));
    // Every module the page imports, and those they import, is served as a script.
    let mut todo = vec!["main.js".to_string()];
    let mut seen = std::collections::BTreeSet::new();
    while let Some(module) = todo.pop() {
        if !seen.insert(module.clone()) {
            continue;
        }
        let url = api.url(&format!("/assets/js/{module}"));
        let res = api.http.get(url).send().await.unwrap();
        assert_eq!(res.status(), StatusCode::OK, "{module}");
        let ctype = res.headers()["content-type"].to_str().unwrap().to_string();
        assert!(ctype.starts_with("text/javascript"), "{module}: {ctype}");
        let text = res.text().await.unwrap();
        for part in text.split(" from './").skip(1) {
            todo.push(part.split('\'').next().unwrap().to_string());
        }
    }
    assert!(seen.len() > 5, "{seen:?}");
    let (status, ctype, _) = get("/assets/style.css").await;
    assert_eq!(status, StatusCode::OK);
    assert!(ctype.starts_with("text/css"));
    let (status, _, body) = get("/rules").await;
    assert_eq!(status, StatusCode::OK);
    assert!(body.contains("<h3 id=\"majority-rule\">Majority rule</h3>"));
    assert!(body.contains("Position <code>B:Be3:Wd4,b6,Kf4</code>"));
    assert!(body.contains("<pre>"));
    assert!(body.contains("<html lang=\"en\" dir=\"ltr\">"));
    assert!(body.contains("href=\"/rules/fr\"") && body.contains("href=\"/rules/ar\""));
    // The rules in French and in Arabic (right to left), with the same notation.
    let (status, _, body) = get("/rules/fr").await;
    assert_eq!(status, StatusCode::OK);
    assert!(body.contains("<html lang=\"fr\" dir=\"ltr\">"));
    assert!(body.contains("La règle de la majorité"));
    assert!(body.contains("Position <code>B:Be3:Wd4,b6,Kf4</code>"));
    let (status, _, body) = get("/rules/ar").await;
    assert_eq!(status, StatusCode::OK);
    assert!(body.contains("<html lang=\"ar\" dir=\"rtl\">"));
    assert!(body.contains("قاعدة الأغلبية"));
    assert!(body.contains("<code>B:Be3:Wd4,b6,Kf4</code>"));
    for missing in ["/rules/en", "/rules/de", "/rules/fr/x"] {
        let (status, _, _) = get(missing).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{missing}");
    }
    let (status, ctype, _) = get("/nowhere").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(ctype.starts_with("text/html"));
}

#[tokio::test]
async fn with_the_opening_book_the_engine_plays_book_moves_and_says_so() {
    let config = kharbaga_server::Config {
        book: Some(std::sync::Arc::new(kharbaga_engine::book::Book::standard())),
        ..test_config(common::fresh_dir("book"))
    };
    let api = Api::start_with(config).await;
    let g = api
        .create(json!({"black": {"kind": "engine", "level": 10}, "white": {"kind": "human"}}))
        .await;
    let legal = moves_of(&g.state);
    let path = format!("/api/games/{}/engine", g.id);
    let (status, v) = api
        .post(
            &path,
            Some(&g.token),
            json!({"movetime_ms": 5000, "ply": 0}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let search = &v["search"];
    assert_eq!(search["book"], true, "{v}");
    assert_eq!(search["nodes"], 0, "{v}");
    let best = search["best"].as_str().unwrap().to_string();
    assert!(legal.contains(&best), "{best} in {legal:?}");
    // Out of the book (a position string no opening reaches), the engine searches.
    let g = api
        .create(json!({
            "black": {"kind": "engine", "level": 10},
            "white": {"kind": "human"},
            "position": "B:Ba1,c1:Wg9,i9"
        }))
        .await;
    let path = format!("/api/games/{}/engine", g.id);
    let (status, v) = api
        .post(&path, Some(&g.token), json!({"movetime_ms": 50, "ply": 0}))
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["search"]["book"], false, "{v}");
}
