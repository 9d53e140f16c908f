//! What handlers take from a request (a JSON body, the game id of the address), with
//! errors as JSON.

use super::errors::{no_such_game, ApiError};
use super::ids::is_game_id;
use super::AppState;
use axum::extract::{ConnectInfo, FromRequest, FromRequestParts, Path, Request};
use axum::http::request::Parts;
use axum::http::{header, HeaderMap, StatusCode};
use serde::de::{DeserializeOwned, MapAccess, Visitor};
use serde::{Deserialize, Deserializer};
use std::convert::Infallible;
use std::fmt;
use std::marker::PhantomData;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

/// A JSON request body, which must be an object; an empty body reads as the default value.
/// A body that is not empty must be sent as `Content-Type: application/json` (a cross-site
/// form or `text/plain` post cannot be), and must arrive within the server's read timeout
/// (else 408). Errors are JSON too.
pub(super) struct Body<T>(pub(super) T);

impl<T: DeserializeOwned + Default> FromRequest<Arc<AppState>> for Body<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, app: &Arc<AppState>) -> Result<Body<T>, ApiError> {
        let json = is_json(req.headers());
        let timeout = app.config.read_timeout;
        let bytes = tokio::time::timeout(timeout, axum::body::Bytes::from_request(req, app))
            .await
            .map_err(|_| {
                ApiError::new(
                    StatusCode::REQUEST_TIMEOUT,
                    "timeout",
                    format!(
                        "the request body did not arrive within {} ms",
                        timeout.as_millis()
                    ),
                )
            })?
            .map_err(|e| {
                let code = if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
                    "too_large"
                } else {
                    "bad_request"
                };
                ApiError::new(e.status(), code, e.body_text())
            })?;
        if bytes.iter().all(u8::is_ascii_whitespace) {
            return Ok(Body(T::default()));
        }
        if !json {
            return Err(ApiError::new(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "unsupported_media_type",
                "a request body must be JSON sent with Content-Type: application/json",
            ));
        }
        serde_json::from_slice(&bytes)
            .map(|Object(value)| Body(value))
            .map_err(|e| ApiError::bad_request(format!("bad JSON body: {e}")))
    }
}

/// Whether the request says its body is JSON (`application/json`, parameters allowed).
fn is_json(headers: &HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|media| media.trim().eq_ignore_ascii_case("application/json"))
}

/// A value that must be written as a JSON object. serde reads a struct from an array of its
/// fields too (`["e3-e5", null, 0]` would be a move); request bodies and the structs in them
/// are read through this.
pub(super) struct Object<T>(pub(super) T);

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Object<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Object<T>, D::Error> {
        struct ObjectVisitor<T>(PhantomData<T>);

        impl<'de, T: Deserialize<'de>> Visitor<'de> for ObjectVisitor<T> {
            type Value = T;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a JSON object")
            }

            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<T, A::Error> {
                T::deserialize(serde::de::value::MapAccessDeserializer::new(map))
            }
        }

        deserializer
            .deserialize_map(ObjectVisitor(PhantomData))
            .map(Object)
    }
}

/// The game id of the address, checked before anything is done with it: one that is not a
/// game id answers 404 at once. A malformed address is a JSON error too.
pub(super) struct GameId(pub(super) String);

impl<S: Send + Sync> FromRequestParts<S> for GameId {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<GameId, ApiError> {
        let Path(id) = Path::<String>::from_request_parts(parts, state)
            .await
            .map_err(|e| ApiError::new(e.status(), "bad_request", e.body_text()))?;
        if is_game_id(&id) {
            Ok(GameId(id))
        } else {
            Err(no_such_game(&id))
        }
    }
}

/// The client's IP address, when the request came through the server's own connections
/// (not when the router is called directly).
pub(super) struct ClientIp(pub(super) Option<IpAddr>);

impl<S: Send + Sync> FromRequestParts<S> for ClientIp {
    type Rejection = Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<ClientIp, Infallible> {
        Ok(ClientIp(
            parts
                .extensions
                .get::<ConnectInfo<SocketAddr>>()
                .map(|ConnectInfo(addr)| addr.ip()),
        ))
    }
}
