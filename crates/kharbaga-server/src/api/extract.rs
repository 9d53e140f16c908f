//! What handlers take from a request (a JSON body, the game id of the address), with
//! errors as JSON.

use super::errors::{no_such_game, ApiError};
use super::ids::is_game_id;
use axum::extract::{FromRequest, FromRequestParts, Path, Request};
use axum::http::request::Parts;
use axum::http::StatusCode;
use serde::de::{DeserializeOwned, MapAccess, Visitor};
use serde::{Deserialize, Deserializer};
use std::fmt;
use std::marker::PhantomData;

/// A JSON request body, which must be an object; an empty body reads as the default value.
/// Errors are JSON too.
pub(super) struct Body<T>(pub(super) T);

impl<S: Send + Sync, T: DeserializeOwned + Default> FromRequest<S> for Body<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Body<T>, ApiError> {
        let bytes = axum::body::Bytes::from_request(req, state)
            .await
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
        serde_json::from_slice(&bytes)
            .map(|Object(value)| Body(value))
            .map_err(|e| ApiError::bad_request(format!("bad JSON body: {e}")))
    }
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
