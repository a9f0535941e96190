//! What wraps every upstream endpoint: the call log, injected faults and idempotent replay.
//!
//! Order for one call: log it; apply the fault's latency; a `before` fault answers in place of
//! the contract; a repeated `Idempotency-Key` gets the stored answer without running the
//! contract again; otherwise the contract runs (its 2xx answer is stored under the key); an
//! `after` fault then replaces, holds or drops the answer.

use std::time::Duration as StdDuration;

use axum::body::{to_bytes, Body, Bytes};
use axum::extract::{OriginalUri, Request};
use axum::http::{header, HeaderValue, Method, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::MethodRouter;
use axum::Json;
use chrono::SecondsFormat;
use serde_json::json;

use super::headers;
use super::records::admin::{CallRecord, Outcome, Reply};
use super::records::faults::{Effect, Fault, Phase};
use super::server::ConnectionCut;
use super::state::SandboxState;

pub use upstream_contract::endpoints::ENDPOINTS;

/// Request and response bodies kept for idempotent replay are small JSON documents.
const MAX_BODY_BYTES: usize = 1 << 20;
/// Marks an answer given from the idempotency store.
pub const REPLAYED_HEADER: &str = "idempotent-replayed";

/// Wraps `route` so its calls are logged, faultable and idempotent under `endpoint`.
pub fn tracked(
    state: &SandboxState,
    endpoint: &'static str,
    route: MethodRouter<SandboxState>,
) -> MethodRouter<SandboxState> {
    // Faults and docs are keyed by ENDPOINTS: a name missing there could never be faulted.
    debug_assert!(ENDPOINTS.contains(&endpoint), "{endpoint} missing from ENDPOINTS");
    let state = state.clone();
    route.route_layer(middleware::from_fn(move |request: Request, next: Next| {
        let state = state.clone();
        async move { intercept(state, endpoint, request, next).await }
    }))
}

async fn intercept(state: SandboxState, endpoint: &'static str, request: Request, next: Next) -> Response {
    let (key, record) = {
        let header_text = |name: &str| request.headers().get(name).and_then(|v| v.to_str().ok()).map(str::to_string);
        let writes = !matches!(*request.method(), Method::GET | Method::HEAD);
        let key = header_text(headers::IDEMPOTENCY_KEY).filter(|_| writes);
        let record = CallRecord {
            seq: 0,
            endpoint,
            method: request.method().to_string(),
            // Nested routers strip their prefix from the URI; the log shows the full path.
            path: request
                .extensions()
                .get::<OriginalUri>()
                .map_or_else(|| request.uri().path().to_string(), |original| original.path().to_string()),
            idempotency_key: key.clone(),
            correlation_id: header_text(headers::CORRELATION_ID),
            at: state.now().to_rfc3339_opts(SecondsFormat::Millis, true),
            status: None,
            outcome: Outcome::Pending,
            fault_id: None,
        };
        (key, record)
    };
    let (seq, fault) = state.admin(|admin| (admin.log(record), admin.faults.take(endpoint)));
    let call = Call { state: state.clone(), seq, cut: request.extensions().get::<ConnectionCut>().cloned() };

    // A write with a key whose contract runs: the latency is the upstream's own work, done
    // after the key is taken (see `idempotent`).
    let slow_work = |fault: &Fault| key.is_some() && !matches!((fault.phase, &fault.effect), (Phase::Before, Some(_)));
    let mut work_latency = StdDuration::ZERO;
    if let Some(fault) = &fault {
        if fault.latency_ms > 0 {
            if slow_work(fault) {
                work_latency = StdDuration::from_millis(fault.latency_ms);
            } else {
                state.latency(StdDuration::from_millis(fault.latency_ms)).await;
            }
        }
        if let (Phase::Before, Some(effect)) = (fault.phase, &fault.effect) {
            return call.apply(fault.id, effect).await;
        }
    }

    let (response, outcome) = match key {
        Some(key) => idempotent(&state, endpoint, key, request, next, work_latency).await,
        None => (next.run(request).await, Outcome::Answered),
    };

    let fault_id = fault.as_ref().map(|fault| fault.id);
    match fault {
        Some(Fault { id, phase: Phase::After, effect: Some(effect), .. }) => call.apply(id, &effect).await,
        _ => {
            let status = response.status().as_u16();
            state.admin(|admin| admin.finish(seq, Some(status), outcome, fault_id));
            response
        }
    }
}

/// Runs the contract once per key: a repeat with the same body gets the stored answer
/// ([`Outcome::Replayed`]), the same key with another body 422, a repeat while the first call
/// still runs 409. Only 2xx answers are stored, so a refused call can be retried. `latency` is
/// the upstream's work time, spent after the key is taken.
async fn idempotent(
    state: &SandboxState,
    endpoint: &'static str,
    key: String,
    request: Request,
    next: Next,
    latency: StdDuration,
) -> (Response, Outcome) {
    let (parts, body) = request.into_parts();
    let Ok(body) = to_bytes(body, MAX_BODY_BYTES).await else {
        return (local(StatusCode::PAYLOAD_TOO_LARGE, "BODY_TOO_LARGE", "request body too large"), Outcome::Answered);
    };
    let slot = (endpoint, key);
    let known = state.admin(|admin| match admin.replies.get(&slot) {
        None => {
            admin.replies.insert(slot.clone(), Reply::InFlight { request: body.clone() });
            None
        }
        Some(Reply::InFlight { request }) | Some(Reply::Done { request, .. }) if *request != body => Some(local(
            StatusCode::UNPROCESSABLE_ENTITY,
            "IDEMPOTENCY_KEY_REUSED",
            "this Idempotency-Key was used with another body",
        )),
        Some(Reply::InFlight { .. }) => Some(local(
            StatusCode::CONFLICT,
            "IDEMPOTENCY_KEY_IN_USE",
            "a call with this Idempotency-Key is still running",
        )),
        Some(Reply::Done { status, content_type, body, .. }) => {
            Some(rebuild(*status, content_type.clone(), body.clone(), true))
        }
    });
    if let Some(response) = known {
        let replayed = response.headers().contains_key(REPLAYED_HEADER);
        return (response, if replayed { Outcome::Replayed } else { Outcome::Answered });
    }

    // The work runs on its own task, as a real upstream's does: a caller that gives up (its
    // time-out) does not stop it, and its answer is stored for the retry. Meanwhile the key is
    // in flight, and a retry answers 409 IDEMPOTENCY_KEY_IN_USE.
    let state = state.clone();
    let work = tokio::spawn(async move {
        // If the work itself fails, the slot must not stay "in flight" forever.
        let guard = InFlightGuard { state, slot: Some(slot) };
        if !latency.is_zero() {
            guard.state.latency(latency).await;
        }
        let response = next.run(Request::from_parts(parts, Body::from(body.clone()))).await;
        let status = response.status();
        if !status.is_success() {
            return (response, Outcome::Answered);
        }
        let content_type = response.headers().get(header::CONTENT_TYPE).cloned();
        let Ok(answer) = to_bytes(response.into_body(), MAX_BODY_BYTES).await else {
            return (
                local(StatusCode::INTERNAL_SERVER_ERROR, "BODY_TOO_LARGE", "answer too large to store"),
                Outcome::Answered,
            );
        };
        guard.store(Reply::Done { request: body, status, content_type: content_type.clone(), body: answer.clone() });
        (rebuild(status, content_type, answer, false), Outcome::Answered)
    });
    match work.await {
        Ok(answered) => answered,
        Err(_) => (
            local(StatusCode::INTERNAL_SERVER_ERROR, "SANDBOX_PANIC", "the sandbox failed on this call"),
            Outcome::Answered,
        ),
    }
}

/// An answer the sandbox gives itself rather than the contract.
fn local(status: StatusCode, code: &str, message: &str) -> Response {
    (status, Json(json!({ "error": { "code": code, "message": message } }))).into_response()
}

struct InFlightGuard {
    state: SandboxState,
    slot: Option<(&'static str, String)>,
}

impl InFlightGuard {
    fn store(mut self, reply: Reply) {
        if let Some(slot) = self.slot.take() {
            self.state.admin(|admin| admin.replies.insert(slot, reply));
        }
    }
}

impl Drop for InFlightGuard {
    fn drop(&mut self) {
        if let Some(slot) = self.slot.take() {
            self.state.admin(|admin| {
                if matches!(admin.replies.get(&slot), Some(Reply::InFlight { .. })) {
                    admin.replies.remove(&slot);
                }
            });
        }
    }
}

fn rebuild(status: StatusCode, content_type: Option<HeaderValue>, body: Bytes, replayed: bool) -> Response {
    let mut response = Response::new(Body::from(body));
    *response.status_mut() = status;
    if let Some(content_type) = content_type {
        response.headers_mut().insert(header::CONTENT_TYPE, content_type);
    }
    if replayed {
        response.headers_mut().insert(REPLAYED_HEADER, HeaderValue::from_static("true"));
    }
    response
}

struct Call {
    state: SandboxState,
    seq: u64,
    cut: Option<ConnectionCut>,
}

impl Call {
    /// The fault's effect in place of the contract's answer.
    async fn apply(&self, fault_id: u64, effect: &Effect) -> Response {
        let fault = Some(fault_id);
        match effect {
            Effect::Status { status, body } => {
                let status = StatusCode::from_u16(*status).unwrap_or(StatusCode::SERVICE_UNAVAILABLE);
                self.state.admin(|admin| admin.finish(self.seq, Some(status.as_u16()), Outcome::Fault, fault));
                let body = body.clone().unwrap_or_else(|| default_fault_body(status));
                (status, Json(body)).into_response()
            }
            Effect::Timeout { hold_ms } => {
                // Logged now: the caller gives up long before the hold ends.
                self.state.admin(|admin| admin.finish(self.seq, None, Outcome::Timeout, fault));
                tokio::time::sleep(StdDuration::from_millis(*hold_ms)).await;
                (StatusCode::GATEWAY_TIMEOUT, Json(default_fault_body(StatusCode::GATEWAY_TIMEOUT))).into_response()
            }
            Effect::Drop => {
                self.state.admin(|admin| admin.finish(self.seq, None, Outcome::Dropped, fault));
                match &self.cut {
                    Some(cut) => {
                        cut.cut();
                        // The connection task drops this future with the socket.
                        std::future::pending::<Response>().await
                    }
                    None => broken_body(),
                }
            }
        }
    }
}

/// Served through `router` without [`super::serve`] there is no connection handle: send the
/// head and break the body, the closest a handler can get to a dropped connection.
fn broken_body() -> Response {
    let stream = futures::stream::once(async {
        Err::<Bytes, std::io::Error>(std::io::Error::new(
            std::io::ErrorKind::ConnectionReset,
            "sandbox dropped the connection",
        ))
    });
    let mut response = Response::new(Body::from_stream(stream));
    response.headers_mut().insert(header::CONTENT_LENGTH, HeaderValue::from_static("64"));
    response
}

/// Readable by every style of caller: a `message`, a `status` and an `error` code.
fn default_fault_body(status: StatusCode) -> serde_json::Value {
    json!({
        "status": "error",
        "code": "SANDBOX_FAULT",
        "message": format!("Falha simulada pelo sandbox (HTTP {}).", status.as_u16()),
    })
}

/// Calls of one endpoint, oldest first (for `GET /admin/calls`).
pub fn calls_of(state: &SandboxState, endpoint: Option<&str>) -> Vec<CallRecord> {
    state.admin(|admin| admin.calls(endpoint))
}

#[cfg(test)]
mod tests {
    use super::ENDPOINTS;

    #[test]
    fn endpoint_names_are_unique_and_prefixed_by_their_upstream() {
        let mut names = ENDPOINTS.to_vec();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), ENDPOINTS.len());
        assert!(ENDPOINTS
            .iter()
            .all(|name| name.split_once('.').is_some_and(|(up, ep)| !up.is_empty() && !ep.is_empty())));
    }
}
