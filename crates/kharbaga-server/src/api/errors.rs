//! Error answers: a status with `{"error": message, "code": code}`, also for unknown
//! addresses and wrong methods.

use axum::http::{header, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Serialize;

/// An error answer: a status and `{"error": message, "code": code}`.
#[derive(Debug)]
pub(crate) struct ApiError {
    status: StatusCode,
    code: &'static str,
    message: String,
    /// When to try again, in seconds (a `Retry-After` header).
    retry_after: Option<u64>,
}

impl ApiError {
    pub(crate) fn new(
        status: StatusCode,
        code: &'static str,
        message: impl Into<String>,
    ) -> ApiError {
        ApiError {
            status,
            code,
            message: message.into(),
            retry_after: None,
        }
    }

    /// The same error, telling the client to try again in `seconds` (at least 1).
    pub(crate) fn retry_after(self, seconds: u64) -> ApiError {
        ApiError {
            retry_after: Some(seconds.max(1)),
            ..self
        }
    }

    pub(crate) fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, "bad_request", message)
    }

    pub(crate) fn conflict(code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::CONFLICT, code, message)
    }

    pub(crate) fn internal(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "internal", message)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        #[derive(Serialize)]
        struct Body<'a> {
            error: &'a str,
            code: &'a str,
        }
        if self.status.is_server_error() {
            tracing::error!(code = self.code, error = %self.message, "request failed");
        } else {
            tracing::debug!(code = self.code, error = %self.message, "request refused");
        }
        let body = Body {
            error: &self.message,
            code: self.code,
        };
        let mut response = (self.status, Json(body)).into_response();
        if let Some(seconds) = self.retry_after {
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, header::HeaderValue::from(seconds));
        }
        response
    }
}

/// The start of `text`, for a message: at most `n` characters, then `...`.
fn shortened(text: &str, n: usize) -> String {
    match text.char_indices().nth(n) {
        Some((end, _)) => format!("{}...", &text[..end]),
        None => text.to_string(),
    }
}

pub(super) fn no_such_game(id: &str) -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        "not_found",
        format!("there is no game '{}'", shortened(id, 40)),
    )
}

/// The answer to an unknown address: JSON under `/api/`, a short page elsewhere.
pub(crate) async fn not_found(uri: Uri) -> Response {
    if uri.path().starts_with("/api/") {
        ApiError::new(
            StatusCode::NOT_FOUND,
            "not_found",
            format!("no such API endpoint: {}", shortened(uri.path(), 80)),
        )
        .into_response()
    } else {
        (
            StatusCode::NOT_FOUND,
            [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
            "<!doctype html><title>Not found</title><p>Nothing here. <a href=\"/\">Play Kharbaga</a>.</p>",
        )
            .into_response()
    }
}

/// The answer to a known address with the wrong method.
pub(crate) async fn method_not_allowed(uri: Uri) -> ApiError {
    ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        "method_not_allowed",
        format!("{} does not take this method", shortened(uri.path(), 80)),
    )
}
