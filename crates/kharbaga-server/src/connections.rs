//! Accepting and serving connections (HTTP/1.1): each connection must send a request's
//! headers within the read timeout or it is closed (this covers idle keep-alive connections
//! too), each request carries its client's address (`ConnectInfo`), and on shutdown the
//! open connections are given a short time to finish.

use axum::extract::ConnectInfo;
use axum::Router;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use std::future::Future;
use std::time::Duration;
use tokio::net::TcpListener;
use tower::ServiceExt;

/// How long open connections (a live event stream, say) may go on after a shutdown begins.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(5);

/// How long to wait before accepting again after an accept error (out of file
/// descriptors, typically): the error would otherwise repeat at once.
const ACCEPT_BACKOFF: Duration = Duration::from_millis(100);

/// Serves `router` on `listener` until `shutdown` completes, then lets the open connections
/// finish for at most [`SHUTDOWN_GRACE`].
pub(crate) async fn serve(
    listener: TcpListener,
    router: Router,
    read_timeout: Duration,
    shutdown: impl Future<Output = ()> + Send + 'static,
) {
    let graceful = GracefulShutdown::new();
    let mut builder = http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(read_timeout);
    tokio::pin!(shutdown);
    loop {
        let (stream, remote) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(pair) => pair,
                Err(e) => {
                    tracing::warn!(error = %e, "cannot accept a connection");
                    tokio::time::sleep(ACCEPT_BACKOFF).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let router = router.clone();
        let service = hyper::service::service_fn(move |mut req: hyper::Request<Incoming>| {
            req.extensions_mut().insert(ConnectInfo(remote));
            router.clone().oneshot(req)
        });
        let conn = graceful.watch(builder.serve_connection(TokioIo::new(stream), service));
        tokio::spawn(async move {
            if let Err(e) = conn.await {
                tracing::debug!(client = %remote, error = %e, "connection ended with an error");
            }
        });
    }
    drop(listener);
    if tokio::time::timeout(SHUTDOWN_GRACE, graceful.shutdown())
        .await
        .is_err()
    {
        tracing::info!("connections still open at shutdown were dropped");
    }
}
