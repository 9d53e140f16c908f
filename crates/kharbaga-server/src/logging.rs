//! The server's log, with the `tracing` crates: one line per answered request (method,
//! path, client, status, time taken), errors with their cause, written to standard error.

use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::Request;
use axum::Router;
use std::io::IsTerminal;
use std::net::SocketAddr;
use tower_http::trace::{DefaultOnFailure, DefaultOnResponse, TraceLayer};
use tower_http::LatencyUnit;
use tracing::{Level, Span};
use tracing_subscriber::EnvFilter;

/// Sends the log to standard error, keeping what `filter` says: a level (`error`, `warn`,
/// `info`, `debug`, `trace`) or `tracing` directives (`kharbaga_server=debug,info`). With
/// no filter, `RUST_LOG` says, else `info`. Does nothing if a logger is already set (a
/// program embedding the server sets its own). An unreadable filter is an error.
pub fn init_logging(filter: Option<&str>) -> Result<(), String> {
    let filter = match filter {
        Some(f) => EnvFilter::try_new(f).map_err(|e| format!("bad log filter '{f}': {e}"))?,
        None => EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info")),
    };
    // An error here only means that a logger was set before.
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(std::io::stderr().is_terminal())
        .try_init();
    Ok(())
}

/// `router` with every request logged: a span per request (method, path, client address;
/// never the headers, which carry game tokens), its answer at `info`, a 5xx at `error`.
pub(crate) fn log_requests(router: Router) -> Router {
    router.layer(
        TraceLayer::new_for_http()
            .make_span_with(request_span)
            .on_response(
                DefaultOnResponse::new()
                    .level(Level::INFO)
                    .latency_unit(LatencyUnit::Millis),
            )
            .on_failure(DefaultOnFailure::new().latency_unit(LatencyUnit::Millis)),
    )
}

fn request_span(req: &Request<Body>) -> Span {
    let client = req
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map(|ConnectInfo(addr)| addr.ip());
    tracing::info_span!(
        "request",
        method = %req.method(),
        path = %req.uri().path(),
        client = client.map(tracing::field::display),
    )
}
