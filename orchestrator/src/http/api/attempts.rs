//! The public attempt API: start, command, read, and a server-sent-event stream.

use std::convert::Infallible;
use std::time::Duration;

use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::sse::{Event, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};

use crate::http::json::Json as Body;
use events::RecordedEvent;
use futures::Stream;
use serde::Deserialize;
use serde_json::Value;

use crate::abuse;
use crate::admission;
use crate::attempts::notifier::Next;
use crate::attempts::service::{open_for_owner, reply, AttemptService, MAX_KEY_CHARS};
use crate::attempts::streams::Client;
use crate::attempts::{client_info, session};
use crate::error::ApiError;
use crate::http::client_ip::ClientIp;
use crate::http::state::AppState;
use crate::texts::KEY_TOO_LONG;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/attempts", post(start))
        .route("/api/attempts/{id}", get(load))
        .route("/api/attempts/{id}/commands", post(command))
        .route("/api/attempts/{id}/stream", get(stream))
}

fn service(state: &AppState) -> AttemptService<'_> {
    state.attempts()
}

#[derive(Deserialize)]
struct StartBody {
    flow: String,
    command: Value,
}

/// What the abuse limits read from a request: its proof of work and the client's address (the
/// session is the attempt's owner, set by the command path once it checked the cookie).
fn abuse_request<'a>(headers: &'a HeaderMap, ip: &'a ClientIp) -> abuse::Request<'a> {
    abuse::Request {
        proof: headers.get(abuse::proof::HEADER).and_then(|v| v.to_str().ok()),
        ip: ip.limit_key(),
        session: None,
    }
}

async fn start(
    State(state): State<AppState>,
    ip: ClientIp,
    headers: HeaderMap,
    Body(body): Body<StartBody>,
) -> Result<Response, ApiError> {
    // Past capacity a new attempt waits its turn in line; started ones keep their pace (issue 30).
    // The line counts a client's tickets by a keyed hash of its address, never the address.
    let address = || ip.limit_key().map(|key| state.vault.tag("line:address", key));
    let ticket = admission::tickets::from_headers(&headers);
    let entry = match state.admission.enter(&state.db, ticket, address).await {
        Ok(entry) => entry,
        Err(busy) => {
            state.metrics.admission.refused(busy.by);
            return Err(ApiError::Busy(busy));
        }
    };
    // The OAuth return only to the portal's own origin (the flow checks the page's path).
    if let Some(url) = body.command.get(events::flows::activation::RETURN_URL_FIELD).and_then(Value::as_str) {
        if !state.site.return_origins.allows(url) {
            return Err(ApiError::Rejected(events::flow::Rejection::field(
                events::flows::activation::RETURN_URL_FIELD,
                events::flows::activation::RETURN_URL_REFUSED,
            )));
        }
    }
    let (answer, token) = service(&state)
        .start(
            &body.flow,
            body.command,
            session::from_headers(&headers),
            client_info::from_headers(&headers),
            abuse_request(&headers, &ip),
            entry.ticket.as_deref(),
        )
        .await?;
    let mut response = with_session((StatusCode::CREATED, Json(answer)).into_response(), &token);
    if entry.ticket.is_some() {
        let (name, value) = admission::tickets::clear_cookie();
        response.headers_mut().append(name, value);
    }
    Ok(response)
}

/// The answer with the session cookie set again: a new session, or a reused one whose
/// `Max-Age` starts again.
fn with_session(mut response: Response, token: &str) -> Response {
    let (name, value) = session::set_cookie(token);
    response.headers_mut().insert(name, value);
    response
}

async fn command(
    State(state): State<AppState>,
    Path(id): Path<String>,
    ip: ClientIp,
    headers: HeaderMap,
    Body(command): Body<Value>,
) -> Result<Response, ApiError> {
    let key = idempotency_key(&headers)?;
    let token = session::from_headers(&headers);
    let answer = service(&state)
        .command(&id, token.clone(), key, command, client_info::from_headers(&headers), abuse_request(&headers, &ip))
        .await?;
    // Only the attempt's owner gets here, so the token is a known session.
    Ok(match token {
        Some(token) => with_session(Json(answer).into_response(), &token),
        None => Json(answer).into_response(),
    })
}

/// The `Idempotency-Key` header: refused when over the limit (cutting it could make two
/// different keys one).
fn idempotency_key(headers: &HeaderMap) -> Result<Option<String>, ApiError> {
    let Some(value) = headers.get("idempotency-key") else { return Ok(None) };
    let key = value.to_str().map_err(|_| ApiError::Invalid(KEY_TOO_LONG.to_string()))?;
    if key.chars().count() > MAX_KEY_CHARS || key.is_empty() {
        return Err(ApiError::Invalid(KEY_TOO_LONG.to_string()));
    }
    Ok(Some(key.to_string()))
}

async fn load(State(state): State<AppState>, Path(id): Path<String>, headers: HeaderMap) -> Result<Response, ApiError> {
    let token = session::from_headers(&headers);
    let answer = service(&state).load(&id, token.clone()).await?;
    Ok(match token {
        Some(token) => with_session(Json(answer).into_response(), &token),
        None => Json(answer).into_response(),
    })
}

/// How long the event stream waits before reading the attempt again after a failed read.
const READ_RETRY: Duration = Duration::from_secs(1);
/// How often an open event stream looks for new events without a notification (one lost to
/// a dropped listener connection); notifications are what feed it.
const FALLBACK_POLL: Duration = Duration::from_secs(5);

/// Pushes `{version, events, view}` whenever the attempt changes (runner steps finishing).
/// Wakes on NOTIFY, or on this process's own commits with their events in hand (no read);
/// re-reads every FALLBACK_POLL in case a notification was lost. Capped per
/// attempt, session, address and in all, and ends after its lifetime (issue 26).
async fn stream(
    State(state): State<AppState>,
    Path(id): Path<String>,
    ip: ClientIp,
    headers: HeaderMap,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, ApiError> {
    let token = session::from_headers(&headers);
    let (stream_id, _) = service(&state).authorize(&id, token.clone()).await?;
    // Held while the stream is open: dropped with the stream's state when it ends. Counted
    // against the attempt, the session (by its hash) and the address; a refused page reads
    // the attempt on a timer instead (web/src/lib/attempts/api.ts).
    let session = token.map(|t| hex::encode(session::hash(&t)));
    let client = Client { session: session.as_deref(), address: ip.limit_key() };
    let place = state.streams.enter_for(stream_id.as_str(), client).map_err(|_| ApiError::TooManyStreams)?;
    let receiver = state.notifier.subscribe(stream_id.as_str());
    // The stream keeps the attempt's history (at most MAX_EVENTS_PER_ATTEMPT events), opened
    // for its owner, and reads only the events after it, when a notification names the attempt or, should one be
    // lost, every FALLBACK_POLL (issue 15).
    let notifier = state.notifier.clone();
    let initial = (state, stream_id, receiver, None::<Vec<RecordedEvent>>);
    let events = futures::stream::unfold(initial, |(state, stream_id, mut receiver, held)| async move {
        {
            let mut held = held;
            loop {
                let seen = held.as_ref().and_then(|h| h.last()).map_or(0, |e| e.version);
                // Events this process committed come handed over; anything else is read.
                let next = if held.is_some() {
                    let wait = crate::attempts::notifier::next_after(&mut receiver, seen);
                    tokio::time::timeout(FALLBACK_POLL, wait).await.unwrap_or(Next::Read)
                } else {
                    Next::Read
                };
                let read = async {
                    let new = match next {
                        Next::Events(events) => events,
                        Next::Read => state.store.read_stream_after(&stream_id, seen).await?,
                    };
                    let now = crate::clock::current(&state.db, &new).await?;
                    Ok::<_, ApiError>((new, now))
                };
                let (new, now) = match read.await {
                    Ok(read) => read,
                    Err(error) => {
                        tracing::warn!(%error, "attempt stream read failed");
                        // Before the first frame there is no wait above: without this pause a
                        // failing read would be retried in a tight loop.
                        tokio::time::sleep(READ_RETRY).await;
                        continue;
                    }
                };
                if held.is_some() && new.is_empty() {
                    continue;
                }
                let flow = state.flows.get(stream_id.category())?;
                // The history held is opened for its owner already: only the new events are.
                let mut history = held.take().unwrap_or_default();
                let from = history.len();
                history.extend(new);
                let opened = open_for_owner(&state.vault, &mut history[from..]).await;
                let answer = match opened.map(|()| reply(flow, &stream_id, &history, from, now)) {
                    Ok(answer) => answer,
                    Err(error) => {
                        tracing::warn!(%error, "attempt stream could not be opened for its owner");
                        history.truncate(from);
                        held = (from > 0).then_some(history);
                        tokio::time::sleep(READ_RETRY).await;
                        continue;
                    }
                };
                let event = Event::default().json_data(&answer).unwrap_or_else(|_| Event::default().data("{}"));
                return Some((event, (state, stream_id, receiver, Some(history))));
            }
        }
    });
    Ok(crate::http::sse::bounded(events, place, notifier))
}
