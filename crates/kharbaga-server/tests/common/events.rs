//! A game's live event stream, read as a client reads it.

// Each test file compiles this module; not all of them use it.
#![allow(dead_code)]

use super::client::Api;
use reqwest::StatusCode;
use serde_json::Value;
use std::time::Duration;

/// A game's event stream.
pub struct Events {
    res: reqwest::Response,
    buf: Vec<u8>,
}

impl Events {
    pub async fn open(api: &Api, id: &str) -> Events {
        let res = api
            .http
            .get(api.url(&format!("/api/games/{id}/events")))
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), StatusCode::OK);
        let ctype = res.headers()["content-type"].to_str().unwrap();
        assert!(ctype.starts_with("text/event-stream"), "{ctype}");
        Events {
            res,
            buf: Vec::new(),
        }
    }

    /// The game state of the next `state` event (comments and other events are skipped).
    pub async fn next(&mut self) -> Value {
        loop {
            if let Some(end) = self.buf.windows(2).position(|w| w == b"\n\n") {
                let block: Vec<u8> = self.buf.drain(..end + 2).collect();
                let block = String::from_utf8(block).expect("UTF-8 events");
                let mut event = "message";
                let mut data = String::new();
                for line in block.lines() {
                    if let Some(v) = line.strip_prefix("event:") {
                        event = v.trim();
                    } else if let Some(v) = line.strip_prefix("data:") {
                        data.push_str(v.strip_prefix(' ').unwrap_or(v));
                    }
                }
                if event == "state" {
                    return serde_json::from_str(&data).expect("a JSON game state");
                }
                continue;
            }
            let chunk = tokio::time::timeout(Duration::from_secs(10), self.res.chunk())
                .await
                .expect("an event within 10 s")
                .expect("the stream reads")
                .expect("the stream goes on");
            self.buf.extend_from_slice(&chunk);
        }
    }

    /// Expects no event for a while.
    pub async fn quiet(&mut self) {
        let more = tokio::time::timeout(Duration::from_millis(300), self.next()).await;
        assert!(more.is_err(), "no event expected: {:?}", more.ok());
    }
}
