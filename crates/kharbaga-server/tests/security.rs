//! What protects a server that a browser can reach: security headers on every answer, the
//! Host check against DNS rebinding, and no game created or changed by another site's page.

mod common;

use common::client::{assert_error, Api, TOKEN};
use common::{fresh_dir, test_config};
use reqwest::{RequestBuilder, StatusCode};
use serde_json::{json, Value};

/// The answer's status, headers and body read as JSON (null when it is not JSON).
async fn send(req: RequestBuilder) -> (StatusCode, reqwest::header::HeaderMap, Value) {
    let res = req.send().await.expect("an answer");
    let (status, headers) = (res.status(), res.headers().clone());
    let text = res.text().await.expect("a body");
    (
        status,
        headers,
        serde_json::from_str(&text).unwrap_or(Value::Null),
    )
}

#[tokio::test]
async fn every_answer_has_the_security_headers() {
    let api = Api::start("headers").await;
    let g = api.create(json!({})).await;
    let paths = [
        ("GET", "/".to_string()),
        ("GET", format!("/game/{}", g.id)),
        ("GET", "/rules".to_string()),
        ("GET", "/assets/style.css".to_string()),
        ("GET", "/api/meta".to_string()),
        ("GET", format!("/api/games/{}", g.id)),
        ("GET", "/nowhere".to_string()),
        ("GET", "/api/games/abcdefghij".to_string()),
        ("DELETE", "/api/meta".to_string()),
        ("POST", format!("/api/games/{}/moves", g.id)),
    ];
    for (method, path) in paths {
        let req = api.http.request(method.parse().unwrap(), api.url(&path));
        let (status, headers, _) = send(req).await;
        let header = |name: &str| {
            headers
                .get(name)
                .unwrap_or_else(|| panic!("{method} {path} ({status}): no {name}"))
                .to_str()
                .unwrap()
                .to_string()
        };
        let csp = header("content-security-policy");
        for part in [
            "default-src 'self'",
            "script-src 'self'",
            "frame-ancestors 'none'",
        ] {
            assert!(csp.contains(part), "{path}: {csp}");
        }
        assert!(!csp.contains("unsafe-inline"), "{csp}");
        assert_eq!(header("x-content-type-options"), "nosniff");
        assert_eq!(header("x-frame-options"), "DENY");
        assert_eq!(header("referrer-policy"), "no-referrer");
    }
}

#[tokio::test]
async fn only_local_names_and_allowed_hosts_are_answered() {
    let api = Api::start_with(kharbaga_server::Config {
        allowed_hosts: vec!["Kharbaga.example".to_string()],
        ..test_config(fresh_dir("hosts"))
    })
    .await;
    let port = api.server.base.rsplit(':').next().unwrap().to_string();
    let get = |host: String| api.http.get(api.url("/api/meta")).header("host", host);
    for host in [
        format!("localhost:{port}"),
        format!("127.0.0.1:{port}"),
        "kharbaga.example".to_string(),
        format!("KHARBAGA.example:{port}"),
    ] {
        let (status, _, v) = send(get(host.clone())).await;
        assert_eq!(status, StatusCode::OK, "{host}: {v}");
    }
    // A page of another name whose address was rebound to this server.
    for host in [
        format!("evil.example:{port}"),
        "localhost.evil.example".to_string(),
        "www.kharbaga.example".to_string(),
    ] {
        let (status, _, v) = send(get(host.clone())).await;
        assert_error(
            status,
            &v,
            StatusCode::MISDIRECTED_REQUEST,
            "unknown_host",
            &["--allowed-host"],
        );
        // Nor may it create a game.
        let req = api
            .http
            .post(api.url("/api/games"))
            .header("host", host)
            .json(&json!({}));
        let (status, _, _) = send(req).await;
        assert_eq!(status, StatusCode::MISDIRECTED_REQUEST);
    }
}

#[tokio::test]
async fn another_sites_page_cannot_create_or_change_a_game() {
    let api = Api::start("cross-site").await;
    let g = api.create(json!({})).await;
    let moves = format!("/api/games/{}/moves", g.id);
    // A form or a `text/plain` fetch needs no preflight, so a browser sends it cross-site.
    for (path, content_type) in [
        ("/api/games", "text/plain"),
        ("/api/games", "application/x-www-form-urlencoded"),
        ("/api/games", "multipart/form-data; boundary=x"),
        (moves.as_str(), "text/plain;charset=UTF-8"),
    ] {
        let req = api
            .http
            .post(api.url(path))
            .header(TOKEN, &g.token)
            .header("content-type", content_type)
            .body(r#"{"move": "e3-e5"}"#);
        let (status, _, v) = send(req).await;
        assert_error(
            status,
            &v,
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "unsupported_media_type",
            &["application/json"],
        );
    }
    // With no type at all.
    let req = api.http.post(api.url(&moves)).body(r#"{"move": "e3-e5"}"#);
    assert_eq!(send(req).await.0, StatusCode::UNSUPPORTED_MEDIA_TYPE);
    // A bodiless post (no type needed) or a JSON one, from another site's page.
    for origin in ["http://evil.example", "null", "http://127.0.0.1:1"] {
        let req = api
            .http
            .post(api.url("/api/games"))
            .header("origin", origin);
        let (status, _, v) = send(req).await;
        assert_error(status, &v, StatusCode::FORBIDDEN, "cross_origin", &[origin]);
        let req = api
            .http
            .post(api.url(&moves))
            .header("origin", origin)
            .header(TOKEN, &g.token)
            .json(&json!({"move": "e3-e5"}));
        assert_eq!(send(req).await.0, StatusCode::FORBIDDEN, "{origin}");
    }
    let req = api
        .http
        .post(api.url("/api/games"))
        .header("sec-fetch-site", "cross-site");
    assert_eq!(send(req).await.0, StatusCode::FORBIDDEN);
    // The game is as it was.
    let (_, state) = api.get(&format!("/api/games/{}", g.id)).await;
    assert_eq!(state["ply"], 0, "{state}");
    // The page's own requests: same origin, JSON.
    let req = api
        .http
        .post(api.url(&moves))
        .header("origin", api.server.base.as_str())
        .header("sec-fetch-site", "same-origin")
        .header(TOKEN, &g.token)
        .json(&json!({"move": "e3-e5"}));
    let (status, _, v) = send(req).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["ply"], 1);
    let req = api
        .http
        .post(api.url("/api/games"))
        .header("origin", api.server.base.as_str());
    assert_eq!(send(req).await.0, StatusCode::CREATED);
}
