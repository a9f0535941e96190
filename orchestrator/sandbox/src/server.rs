//! The sandbox's own accept loop. It exists for one reason: a "dropped connection" fault must
//! close the socket without any answer, which needs a handle on each connection.

use std::net::SocketAddr;
use std::sync::Arc;

use axum::body::Body;
use axum::Router;
use hyper::body::Incoming;
use hyper_util::rt::TokioIo;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Notify;
use tokio::task::JoinHandle;
use tower::ServiceExt;

use super::config::SandboxConfig;
use super::state::SandboxState;
use super::{router, upstream_urls, UpstreamUrls};

/// Put in every request's extensions; cutting it closes that request's connection at once.
#[derive(Clone, Default)]
pub struct ConnectionCut(Arc<Notify>);

impl ConnectionCut {
    pub fn cut(&self) {
        // notify_one keeps the permit if the connection task is not waiting yet.
        self.0.notify_one();
    }
}

/// Serves the sandbox on `listener` until the task is dropped.
pub async fn serve(listener: TcpListener, config: SandboxConfig) -> anyhow::Result<()> {
    let app = router(SandboxState::new(config));
    if let Ok(addr) = listener.local_addr() {
        tracing::info!(%addr, "sandbox upstreams listening");
    }
    loop {
        match listener.accept().await {
            Ok((stream, _peer)) => {
                tokio::spawn(serve_connection(stream, app.clone()));
            }
            // Running out of descriptors is passing; wait a little instead of spinning.
            Err(error) => {
                tracing::warn!(%error, "sandbox accept failed");
                tokio::time::sleep(std::time::Duration::from_millis(50)).await;
            }
        }
    }
}

async fn serve_connection(stream: TcpStream, app: Router) {
    let cut = ConnectionCut::default();
    let handle = cut.clone();
    let service = hyper::service::service_fn(move |request: hyper::Request<Incoming>| {
        let mut request = request.map(Body::new);
        request.extensions_mut().insert(handle.clone());
        app.clone().oneshot(request)
    });
    let connection = hyper::server::conn::http1::Builder::new().serve_connection(TokioIo::new(stream), service);
    tokio::select! {
        result = connection => {
            if let Err(error) = result {
                tracing::debug!(%error, "sandbox connection ended with an error");
            }
        }
        // Dropping the connection future closes the socket with no answer written.
        () = cut.0.notified() => {}
    }
}

/// A sandbox running in the background on an ephemeral loopback port (for tests and tools).
pub struct SandboxHandle {
    addr: SocketAddr,
    task: JoinHandle<anyhow::Result<()>>,
}

impl SandboxHandle {
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// `http://127.0.0.1:<port>`
    pub fn base_url(&self) -> String {
        format!("http://{}", self.addr)
    }

    pub fn urls(&self) -> UpstreamUrls {
        upstream_urls(&self.base_url())
    }
}

impl Drop for SandboxHandle {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// Starts a sandbox on `127.0.0.1:0`; it stops when the handle is dropped.
pub async fn spawn_on_loopback(config: SandboxConfig) -> anyhow::Result<SandboxHandle> {
    let listener = TcpListener::bind("127.0.0.1:0").await?;
    let addr = listener.local_addr()?;
    let task = tokio::spawn(serve(listener, config));
    Ok(SandboxHandle { addr, task })
}
