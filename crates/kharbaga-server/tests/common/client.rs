//! A JSON client of a test server: requests, created games, and checks of error answers.

// Each test file compiles this module; not all of them use all of it.
#![allow(dead_code)]

use super::TestServer;
use reqwest::{Client, StatusCode};
use serde_json::{json, Value};

pub const TOKEN: &str = "x-kharbaga-token";

pub struct Api {
    pub server: TestServer,
    pub http: Client,
}

/// A created game: its id and token.
pub struct Created {
    pub id: String,
    pub token: String,
    pub state: Value,
}

impl Api {
    pub async fn start(label: &str) -> Api {
        Api {
            server: TestServer::start(label).await,
            http: Client::new(),
        }
    }

    pub async fn start_with(config: kharbaga_server::Config) -> Api {
        Api {
            server: TestServer::start_with(config).await,
            http: Client::new(),
        }
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.server.base)
    }

    pub async fn send(
        &self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<Value>,
    ) -> (StatusCode, Value) {
        let mut req = self.http.request(method.parse().unwrap(), self.url(path));
        if let Some(t) = token {
            req = req.header(TOKEN, t);
        }
        if let Some(b) = body {
            req = req.json(&b);
        }
        let res = req.send().await.unwrap();
        let status = res.status();
        let text = res.text().await.unwrap();
        let value = serde_json::from_str(&text)
            .unwrap_or_else(|e| panic!("{method} {path}: not JSON ({e}): {text}"));
        (status, value)
    }

    /// Posts `body` as it is (not necessarily JSON), said to be JSON.
    pub async fn post_raw(
        &self,
        path: &str,
        token: Option<&str>,
        body: &str,
    ) -> (StatusCode, Value) {
        let mut req = self
            .http
            .post(self.url(path))
            .header("content-type", "application/json")
            .body(body.to_string());
        if let Some(t) = token {
            req = req.header(TOKEN, t);
        }
        let res = req.send().await.unwrap();
        let status = res.status();
        let text = res.text().await.unwrap();
        let value = serde_json::from_str(&text)
            .unwrap_or_else(|e| panic!("POST {path}: not JSON ({e}): {text}"));
        (status, value)
    }

    pub async fn get(&self, path: &str) -> (StatusCode, Value) {
        self.send("GET", path, None, None).await
    }

    pub async fn post(&self, path: &str, token: Option<&str>, body: Value) -> (StatusCode, Value) {
        self.send("POST", path, token, Some(body)).await
    }

    pub async fn create(&self, body: Value) -> Created {
        let (status, v) = self.post("/api/games", None, body).await;
        assert_eq!(status, StatusCode::CREATED, "{v}");
        Created {
            id: v["id"].as_str().unwrap().to_string(),
            token: v["token"].as_str().unwrap().to_string(),
            state: v["state"].clone(),
        }
    }

    pub async fn play(&self, g: &Created, mv: &str) -> Value {
        let (status, v) = self
            .post(
                &format!("/api/games/{}/moves", g.id),
                Some(&g.token),
                json!({ "move": mv }),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{mv}: {v}");
        v
    }
}

pub fn moves_of(state: &Value) -> Vec<String> {
    let mut v: Vec<String> = state["legal"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["move"].as_str().unwrap().to_string())
        .collect();
    v.sort();
    v
}

pub fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap().to_string())
        .collect()
}

pub fn assert_error(status: StatusCode, v: &Value, want: StatusCode, code: &str, words: &[&str]) {
    assert_eq!(status, want, "{v}");
    assert_eq!(v["code"], code, "{v}");
    let msg = v["error"].as_str().expect("an error message");
    for w in words {
        assert!(msg.contains(w), "'{msg}' should mention '{w}'");
    }
}
