//! `GET /api/attempts/{id}/installer`: the browser saves the installer the antivirus API
//! granted, under the spec's file name, without ever seeing the granted URL (it stays in
//! the attempt's secrets). Only the browser that started the attempt may fetch it.

use std::sync::OnceLock;
use std::time::Duration;

use axum::body::Body;
use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use events::flow::{fold, Flow};
use events::flows::download::{DownloadFlow, INSTALLER_FILE_NAME};
use serde_json::json;

use crate::flows::download::steps::secret::INSTALLER_URL;

use crate::attempts::session;
use crate::error::ApiError;
use crate::http::state::AppState;
use crate::write_path::Secrets;

pub fn router() -> Router<AppState> {
    Router::new().route("/api/attempts/{id}/installer", get(installer))
}

/// Longest a whole installer download may take (a 100 MB file at 1.5 Mbit/s fits).
pub const DOWNLOAD_DEADLINE: Duration = Duration::from_secs(10 * 60);

/// Downloads of one attempt's installer at once (a double click, a second tab), and in all.
pub const DOWNLOAD_CAPS: crate::attempts::streams::StreamCaps =
    crate::attempts::streams::StreamCaps { per_attempt: 2, total: 200 };

/// Redirects an installer download follows, each within the download manager's host.
const MAX_REDIRECTS: usize = 5;

/// Whether `next` has `first`'s scheme, host and port.
fn same_origin(first: &reqwest::Url, next: &reqwest::Url) -> bool {
    first.scheme() == next.scheme()
        && first.host_str() == next.host_str()
        && first.port_or_known_default() == next.port_or_known_default()
}

/// One client for every installer download: a bounded connect and read here, and the whole
/// download bounded by [`DOWNLOAD_DEADLINE`]. The granted URL is the download manager's (the
/// step kept it only so); a redirect is followed only to the same scheme, host and port, so the
/// manager's answer cannot make the portal fetch another host (an internal one included). A
/// redirect elsewhere is answered as the manager's refusal.
fn http() -> &'static reqwest::Client {
    static CLIENT: OnceLock<reqwest::Client> = OnceLock::new();
    CLIENT.get_or_init(|| {
        let policy = reqwest::redirect::Policy::custom(|attempt| {
            let within = attempt.previous().first().is_some_and(|first| same_origin(first, attempt.url()));
            if within && attempt.previous().len() <= MAX_REDIRECTS {
                attempt.follow()
            } else {
                attempt.stop()
            }
        });
        // Without its settings the client would follow any redirect: better none at all.
        reqwest::Client::builder()
            .connect_timeout(Duration::from_secs(10))
            .read_timeout(Duration::from_secs(30))
            .redirect(policy)
            .build()
            .unwrap_or_else(|_| {
                reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build().unwrap_or_default()
            })
    })
}

/// What the installer route records once the file went out whole.
struct Served {
    state: AppState,
    stream: events::StreamId,
}

impl Served {
    /// `installer.served`, once per grant (a second download of one grant adds nothing).
    async fn record(self) {
        let state = &self.state;
        let service = state.attempts();
        let Some(flow) = state.flows.get(DownloadFlow::CATEGORY) else { return };
        let event = ("installer.served".to_string(), json!({}));
        let wanted = |history: &[events::RecordedEvent]| {
            let folded = fold::<DownloadFlow>(history);
            folded.served < folded.downloads
        };
        if let Err(error) = service.record_fact(&self.stream, flow, event, "portal", wanted).await {
            tracing::warn!(stream = %self.stream, %error, "recording the served installer failed");
        }
    }
}

fn message(status: StatusCode, text: &str) -> Response {
    (status, Json(json!({ "message": text }))).into_response()
}

async fn installer(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let service = state.attempts();
    let (stream, _) = service.authorize(&id, session::from_headers(&headers)).await?;
    if stream.category() != DownloadFlow::CATEGORY {
        return Err(ApiError::NotFound);
    }
    let history = state.store.read_stream(&stream).await.map_err(|e| ApiError::Internal(e.into()))?;
    if fold::<DownloadFlow>(&history).downloads == 0 {
        return Ok(message(StatusCode::GONE, crate::texts::INSTALLER_LINK_EXPIRED));
    }
    let Some(url) =
        Secrets::new(state.db.clone(), state.vault.secret_box(), stream.as_str()).get(INSTALLER_URL).await?
    else {
        return Ok(message(StatusCode::GONE, crate::texts::INSTALLER_LINK_EXPIRED));
    };
    // Held until the body is sent or dropped.
    let Ok(place) = state.downloads.enter(stream.as_str()) else {
        return Ok(message(StatusCode::TOO_MANY_REQUESTS, crate::texts::INSTALLER_BUSY));
    };
    let deadline = tokio::time::Instant::now() + DOWNLOAD_DEADLINE;

    let upstream = match tokio::time::timeout_at(deadline, http().get(&url).send()).await {
        Ok(Ok(response)) => response,
        Ok(Err(error)) => {
            tracing::warn!(stream = %stream, timeout = error.is_timeout(), "installer download failed");
            return Ok(message(StatusCode::BAD_GATEWAY, crate::texts::INSTALLER_UNAVAILABLE));
        }
        Err(_) => {
            tracing::warn!(stream = %stream, "installer download timed out before its answer");
            return Ok(message(StatusCode::BAD_GATEWAY, crate::texts::INSTALLER_UNAVAILABLE));
        }
    };
    match upstream.status().as_u16() {
        200 => {}
        404 | 410 => return Ok(message(StatusCode::GONE, crate::texts::INSTALLER_LINK_EXPIRED)),
        status => {
            tracing::warn!(stream = %stream, status, "download manager refused the installer");
            return Ok(message(StatusCode::BAD_GATEWAY, crate::texts::INSTALLER_UNAVAILABLE));
        }
    }
    let length = upstream.content_length();
    // Streamed chunk by chunk, so a large installer never sits in memory whole.
    // The attempt's place and the deadline go with the body: both end with the download,
    // and a download that ends whole is recorded (the funnel's "file served").
    let served = Some(Served { state: state.clone(), stream: stream.clone() });
    let body = futures::stream::unfold(Some((upstream, place, served, 0u64)), move |open| async move {
        let (mut upstream, place, mut served, sent) = open?;
        match tokio::time::timeout_at(deadline, upstream.chunk()).await {
            Ok(Ok(Some(bytes))) => {
                let sent = sent + bytes.len() as u64;
                // With a known length the server may not ask for the end of the body once it
                // has all of it: the last byte handed over is the end.
                if length.is_some_and(|length| sent >= length) {
                    if let Some(served) = served.take() {
                        tokio::spawn(served.record());
                    }
                }
                Some((Ok::<_, std::io::Error>(bytes), Some((upstream, place, served, sent))))
            }
            Ok(Ok(None)) => {
                if let Some(served) = served.take() {
                    tokio::spawn(served.record());
                }
                None
            }
            Ok(Err(error)) => Some((Err(std::io::Error::other(error.without_url())), None)),
            Err(_) => Some((Err(std::io::Error::other("installer download past its deadline")), None)),
        }
    });

    let mut response = Response::new(Body::from_stream(body));
    let out = response.headers_mut();
    out.insert(header::CONTENT_TYPE, HeaderValue::from_static("application/octet-stream"));
    out.insert(
        header::CONTENT_DISPOSITION,
        HeaderValue::from_str(&format!("attachment; filename=\"{INSTALLER_FILE_NAME}\""))
            .unwrap_or(HeaderValue::from_static("attachment")),
    );
    out.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    out.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    if let Some(length) = length {
        out.insert(header::CONTENT_LENGTH, HeaderValue::from(length));
    }
    Ok(response)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two loopback servers: the download manager at `127.0.0.1:a`, whose `/elsewhere` redirects
    /// to another host (`127.0.0.1:b`) and `/moved` to its own `/file`.
    async fn servers() -> (String, tokio::task::JoinHandle<()>, tokio::task::JoinHandle<()>) {
        let serve = |app: Router| async move {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
            let addr = listener.local_addr().expect("addr");
            (addr, tokio::spawn(async move { axum::serve(listener, app).await.expect("serve") }))
        };
        // Test-only routes: their paths are not literals, so the OpenAPI check does not list them.
        let (internal, file, moved, elsewhere) = ("/internal", "/file", "/moved", "/elsewhere");
        let (other, other_task) = serve(Router::new().route(internal, get(|| async { "secret" }))).await;
        let manager = Router::new()
            .route(file, get(|| async { "installer" }))
            .route(moved, get(|| async { axum::response::Redirect::temporary("/file") }))
            .route(
                elsewhere,
                get(move || async move { axum::response::Redirect::temporary(&format!("http://{other}/internal")) }),
            );
        let (manager, manager_task) = serve(manager).await;
        (format!("http://{manager}"), manager_task, other_task)
    }

    /// Issue 26: the installer proxy followed any redirect the download manager's answer gave,
    /// so a redirect could make the portal fetch (and hand the visitor) another host's content,
    /// an internal address's included. It follows redirects only within the manager's host.
    #[tokio::test]
    async fn the_installer_proxy_follows_redirects_only_within_the_download_managers_host() {
        let (manager, a, b) = servers().await;
        let moved = http().get(format!("{manager}/moved")).send().await.expect("moved");
        assert_eq!(moved.status().as_u16(), 200);
        assert_eq!(moved.text().await.expect("text"), "installer");
        let elsewhere = http().get(format!("{manager}/elsewhere")).send().await.expect("elsewhere");
        assert!(elsewhere.status().is_redirection(), "not followed: {}", elsewhere.status());
        a.abort();
        b.abort();
    }
}
