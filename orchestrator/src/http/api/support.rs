//! `/api/support/...`: look-up (and its CSV export), one attempt, its history download, its
//! live changes, the audited reveal of one field and the erasure of a person.

use std::convert::Infallible;
use std::time::Duration;

use axum::extract::{Path, State};
use axum::http::header::{CONTENT_DISPOSITION, CONTENT_TYPE};
use axum::response::sse::{Event, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use chrono::Utc;
use events::pii::{Opened, PiiKind};
use events::{RecordedEvent, StreamId};
use futures::Stream;
use serde::Deserialize;
use serde_json::{json, Value};

use crate::error::ApiError;
use crate::http::state::AppState;
use crate::staff::audit;
use crate::staff::auth::{AdminStaff, SupportStaff};
use crate::support::lookup::{self, Sources};
use crate::support::query::{self, PAGE_SIZE};
use crate::support::summary::with_due_step;
use crate::support::{csv, detail, erase, masking};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/support/attempts/search", post(search))
        .route("/api/support/attempts/export", post(export))
        .route("/api/support/attempts/{id}", get(open))
        .route("/api/support/attempts/{id}/history", get(history))
        .route("/api/support/attempts/{id}/stream", get(stream))
        .route("/api/support/attempts/{id}/reveal", post(reveal))
        .route("/api/support/erase", post(erase_person))
}

/// The attempt `id` with its flow and history; 404 for anything else.
async fn load(state: &AppState, id: &str) -> Result<(StreamId, Vec<RecordedEvent>), ApiError> {
    let stream = StreamId::parse(id).map_err(|_| ApiError::NotFound)?;
    if state.flows.get(stream.category()).is_none() {
        return Err(ApiError::NotFound);
    }
    let history = state.store.read_stream(&stream).await?;
    if history.is_empty() {
        return Err(ApiError::NotFound);
    }
    Ok((stream, history))
}

/// The look-up is a POST with the search in its JSON body: a phone, CPF or e-mail in a URL
/// would stay in browser history and proxy and access logs (issue 26).
async fn search(
    State(state): State<AppState>,
    SupportStaff(staff): SupportStaff,
    body: Result<crate::http::json::Json<serde_json::Map<String, Value>>, ApiError>,
) -> Result<Json<Value>, ApiError> {
    let unreadable = || ApiError::Invalid(crate::texts::SEARCH_UNREADABLE.into());
    let crate::http::json::Json(body) = body.map_err(|_| unreadable())?;
    let params = query::from_body(body).ok_or_else(unreadable)?;
    let (key, filters) = query::parse(&params)?;
    let sources = read_sources(&state);
    let (summaries, looked_up) = lookup::summaries(&sources, &key, &filters).await?;
    let lag = state.reads.lag_seconds().await?;
    audit::record(&state.store, Some(staff.id), audit::LOOKED_UP, looked_up).await?;
    let total = summaries.len();
    let pages = total.div_ceil(PAGE_SIZE).max(1);
    let page: Vec<_> = summaries.into_iter().skip((filters.page - 1) * PAGE_SIZE).take(PAGE_SIZE).collect();
    Ok(Json(json!({
        "query": query::echo(&key, &filters),
        "total": total,
        "page": filters.page,
        "pages": pages,
        "attempts": page,
        "read_lag_seconds": lag,
    })))
}

/// The look-up reads where the read side is (a standby when there is one); its audit is
/// written on the primary.
fn read_sources(state: &AppState) -> Sources<'_> {
    Sources { db: &state.reads.db, store: &state.reads.store, vault: &state.reads.vault, flows: &state.flows }
}

/// The look-up's results (every page, at most [`csv::MAX_ROWS`]) as a CSV download; the same
/// body as the look-up, audited like it.
async fn export(
    State(state): State<AppState>,
    SupportStaff(staff): SupportStaff,
    body: Result<crate::http::json::Json<serde_json::Map<String, Value>>, ApiError>,
) -> Result<Response, ApiError> {
    let unreadable = || ApiError::Invalid(crate::texts::SEARCH_UNREADABLE.into());
    let crate::http::json::Json(body) = body.map_err(|_| unreadable())?;
    let params = query::from_body(body).ok_or_else(unreadable)?;
    let (key, filters) = query::parse(&params)?;
    let sources = read_sources(&state);
    let (summaries, mut looked_up) = lookup::summaries(&sources, &key, &filters).await?;
    looked_up["rows"] = json!(summaries.len().min(csv::MAX_ROWS));
    audit::record(&state.store, Some(staff.id), audit::EXPORTED, looked_up).await?;
    let name = format!("tentativas-{}.csv", Utc::now().format("%Y%m%d-%H%M%S"));
    Ok((
        [
            (CONTENT_TYPE, "text/csv; charset=utf-8".to_string()),
            (CONTENT_DISPOSITION, format!("attachment; filename=\"{name}\"")),
        ],
        csv::to_csv(&summaries),
    )
        .into_response())
}

async fn open(
    State(state): State<AppState>,
    SupportStaff(staff): SupportStaff,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let (stream, history) = load(&state, &id).await?;
    let flow = state.flows.get(stream.category()).ok_or(ApiError::NotFound)?;
    audit::record(&state.store, Some(staff.id), audit::OPENED_ATTEMPT, json!({ "attempt": stream.as_str() })).await?;
    let due = !with_due_step(&state.db, &[stream.as_str().to_string()]).await?.is_empty();
    Ok(Json(detail::detail(&state.db, &state.vault, flow, &history, due, Utc::now()).await?))
}

async fn history(
    State(state): State<AppState>,
    SupportStaff(staff): SupportStaff,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let (stream, history) = load(&state, &id).await?;
    audit::record(&state.store, Some(staff.id), audit::DOWNLOADED_HISTORY, json!({ "attempt": stream.as_str() }))
        .await?;
    let events: Vec<Value> = history
        .iter()
        .map(|e| {
            let mut item = detail::entry(e);
            item["correlation_id"] = json!(e.metadata.correlation_id);
            item["schema_version"] = json!(e.schema_version);
            item
        })
        .collect();
    let body = serde_json::to_vec_pretty(&json!({ "attempt": stream.as_str(), "events": events }))
        .map_err(anyhow::Error::from)?;
    Ok((
        [
            (CONTENT_TYPE, "application/json".to_string()),
            (CONTENT_DISPOSITION, format!("attachment; filename=\"{}.json\"", stream.as_str())),
        ],
        body,
    )
        .into_response())
}

#[derive(Deserialize)]
struct RevealBody {
    field: String,
    reason: String,
}

async fn reveal(
    State(state): State<AppState>,
    SupportStaff(staff): SupportStaff,
    Path(id): Path<String>,
    body: Result<crate::http::json::Json<RevealBody>, ApiError>,
) -> Result<Json<Value>, ApiError> {
    let crate::http::json::Json(body) =
        body.map_err(|e| crate::http::json::or_invalid(e, crate::texts::REVEAL_MALFORMED))?;
    let reason = super::support_actions::reason_of(&body.reason)?;
    if body.field.len() > 64 {
        return Err(ApiError::Invalid(crate::texts::REASON_TOO_LONG.into()));
    }
    let (stream, history) = load(&state, &id).await?;
    let field = masking::fields(&history)
        .into_iter()
        .find(|f| f.name == body.field)
        .ok_or_else(|| ApiError::Invalid(crate::texts::FIELD_ABSENT.into()))?;
    // Audited before it is opened: no reveal without its trace. The reason is sealed beside the
    // field, under its person's key: erased with them (issue 26).
    let reason = match state.vault.seal_beside(&field.sealed, PiiKind::StaffReason, &reason).await? {
        Some(sealed) => sealed.to_value(),
        None => json!({ events::pii::ERASED_MARKER: true }),
    };
    audit::record(
        &state.store,
        Some(staff.id),
        audit::REVEALED,
        json!({ "attempt": stream.as_str(), "field": field.name, "reason": reason }),
    )
    .await?;
    let value = match state.vault.open(&field.sealed).await? {
        Opened::Clear(value) => value,
        Opened::Erased => masking::ERASED_TEXT.to_string(),
    };
    Ok(Json(json!({ "field": field.name, "value": value })))
}

/// The console's event streams open at once for one attempt and in this process.
pub const STREAM_CAPS: crate::attempts::streams::StreamCaps =
    crate::attempts::streams::StreamCaps { per_attempt: 8, total: 200 };

/// Server-sent `changed` events with `{version}` whenever the attempt moves past the version
/// it had when the page connected (or past `Last-Event-ID` on a reconnection): the page has
/// just read the attempt, so nothing is sent for the state it already shows. Wakes on NOTIFY;
/// re-reads every second in case a notification was lost. Ends as soon as the staff session
/// does (sign-out, expiry, a disabled account), checked at each pass; opening it does not
/// refresh the session's idle time (`staff_auth`).
async fn stream(
    State(state): State<AppState>,
    SupportStaff(staff): SupportStaff,
    Path(id): Path<String>,
    headers: axum::http::HeaderMap,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, ApiError> {
    let (stream_id, history) = load(&state, &id).await?;
    let receiver = state.notifier.subscribe(stream_id.as_str());
    let place = state.support_streams.enter(stream_id.as_str()).map_err(|_| ApiError::TooManyStreams)?;
    let notifier = state.notifier.clone();
    let current = history.last().map(|e| e.version).unwrap_or(0);
    let last_seen = headers
        .get("last-event-id")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<i64>().ok())
        .filter(|v| (0..=current).contains(v))
        .unwrap_or(current);
    let initial = (state, stream_id, receiver, last_seen, staff.token);
    let events = futures::stream::unfold(initial, |(state, stream_id, mut receiver, seen, token)| async move {
        let mut first = true;
        loop {
            // The first pass only reports changes a reconnection missed.
            if !first {
                let wait = crate::attempts::notifier::changed(&mut receiver);
                let _ = tokio::time::timeout(Duration::from_secs(1), wait).await;
            }
            match crate::staff::sessions::alive(&state.db, &token).await {
                Ok(true) => {}
                Ok(false) => return None,
                Err(error) => tracing::warn!(%error, "staff session check failed"),
            }
            let version = match state.store.stream_version(&stream_id).await {
                Ok(version) => version,
                Err(error) => {
                    tracing::warn!(%error, "attempt version read failed");
                    tokio::time::sleep(Duration::from_secs(1)).await;
                    continue;
                }
            };
            first = false;
            if seen >= version {
                continue;
            }
            let event = Event::default()
                .event("changed")
                .id(version.to_string())
                .data(json!({ "version": version }).to_string());
            return Some((event, (state, stream_id, receiver, version, token)));
        }
    });
    Ok(crate::http::sse::bounded(events, place, notifier))
}

#[derive(Deserialize)]
struct EraseBody {
    phone: Option<String>,
    document: Option<String>,
    email: Option<String>,
    attempt: Option<String>,
    #[serde(default)]
    confirm: bool,
}

async fn erase_person(
    State(state): State<AppState>,
    AdminStaff(staff): AdminStaff,
    body: Result<crate::http::json::Json<EraseBody>, ApiError>,
) -> Result<Json<Value>, ApiError> {
    let crate::http::json::Json(body) =
        body.map_err(|e| crate::http::json::or_invalid(e, crate::texts::ERASE_MALFORMED))?;
    if !body.confirm {
        return Err(ApiError::Invalid(crate::texts::ERASE_UNCONFIRMED.into()));
    }
    let too_long = [&body.phone, &body.document, &body.email, &body.attempt]
        .iter()
        .any(|v| v.as_ref().is_some_and(|v| v.len() > 200));
    if too_long {
        return Err(ApiError::Invalid(crate::texts::SEARCH_TOO_LONG.into()));
    }
    let named = if let Some(phone) = &body.phone {
        let phone =
            query::normalize_phone(phone).ok_or_else(|| ApiError::Invalid(crate::texts::PHONE_INVALID.into()))?;
        erase::Named::Person(PiiKind::Phone, phone)
    } else if let Some(document) = &body.document {
        erase::Named::Person(PiiKind::CpfCnpj, document.clone())
    } else if let Some(email) = &body.email {
        erase::Named::Person(PiiKind::Email, email.clone())
    } else if let Some(attempt) = &body.attempt {
        erase::Named::Attempt(load(&state, attempt).await?.0)
    } else {
        return Err(ApiError::Invalid(crate::texts::ERASE_WHOM.into()));
    };
    let erased = erase::erase_named(&state.db, &state.store, &state.vault, &named, Some(staff.id)).await?;
    Ok(Json(json!(erased)))
}
