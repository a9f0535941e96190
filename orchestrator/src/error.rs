//! One error type for every handler, mapped to an HTTP answer in one place.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::json;

#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// The flow refused a command (a field's rule or the attempt's state); the message is the
    /// spec's Portuguese text.
    #[error("rejected: {0:?}")]
    Rejected(events::flow::Rejection),
    #[error("not found")]
    NotFound,
    #[error("forbidden")]
    Forbidden,
    /// No staff session (or it expired).
    #[error("unauthorized")]
    Unauthorized,
    /// Wrong e-mail or password (the message never says which).
    #[error("bad credentials")]
    BadCredentials,
    /// A staff member's role or a missing CSRF token / foreign origin.
    #[error("staff forbidden")]
    StaffForbidden,
    /// Too many failed sign-ins for this e-mail or address: try again after the wait.
    #[error("sign-ins paused for {0:?}")]
    SignInsPaused(std::time::Duration),
    /// The password was right and the second factor is missing, wrong or not enrolled: the
    /// Portuguese message, about the `code` field.
    #[error("second factor: {0}")]
    SecondFactor(&'static str),
    /// Bad input to a staff route: the Portuguese message to show.
    #[error("invalid: {0}")]
    Invalid(String),
    /// A bad field in a staff query (the funnel page's question): 400 naming the field.
    #[error("bad {field}: {message}")]
    BadField { field: &'static str, message: String },
    /// An abuse limit refused the request (docs/abuse.md): 429 with the rule's Portuguese
    /// message and `Retry-After` when known; 403 when the proof of work was missing or bad.
    #[error("limited by {}", .0.rule)]
    Limited(Limited),
    /// Too many event streams open for the attempt or the server.
    #[error("too many event streams")]
    TooManyStreams,
    /// The request took longer than the server's request time-out.
    #[error("request timed out")]
    TimedOut,
    /// Someone else changed the attempt first; the client should reload and retry.
    #[error("conflict: {0}")]
    Conflict(String),
    /// A body that could not be read: too large (413) or not JSON (415), with the message.
    #[error("body refused: {0}")]
    Body(StatusCode, &'static str),
    /// Admission control refused a new attempt: the portal is past capacity (issue 30).
    #[error("past capacity ({})", .0.by)]
    Busy(crate::admission::Busy),
    #[error("database: {0}")]
    Database(#[from] sqlx::Error),
    #[error(transparent)]
    Internal(#[from] anyhow::Error),
}

/// The answer to a request an abuse limit refused (`crate::abuse::Refusal::answer`).
#[derive(Debug, Clone, PartialEq)]
pub struct Limited {
    /// The rule's name, as `abuse.limited` events and metrics carry it.
    pub rule: &'static str,
    /// The rule's Portuguese message.
    pub message: &'static str,
    /// Sent as `Retry-After` when known.
    pub retry_after: Option<std::time::Duration>,
    /// 403 (the proof of work was missing or bad) rather than 429.
    pub forbidden: bool,
}

impl From<events::StoreError> for ApiError {
    fn from(error: events::StoreError) -> Self {
        match error {
            events::StoreError::Database(error) if events::database_unavailable(&error) => ApiError::Database(error),
            error => ApiError::Internal(error.into()),
        }
    }
}

/// How long a visitor is asked to wait when the database could not serve the request.
const POOL_RETRY_AFTER_SECS: u32 = 2;

/// Why the database could not serve a request, however deep in it that happened.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Unavailable {
    /// No pooled connection came within `DATABASE_ACQUIRE_TIMEOUT_MS`: an overload to wait out.
    Busy,
    /// The connection broke or the server cannot serve now (a failover, a restart): the pool
    /// opens new connections through the proxy, to the new primary once it is promoted.
    Switching,
}

fn unavailable_cause(error: &sqlx::Error) -> Option<Unavailable> {
    match error {
        sqlx::Error::PoolTimedOut => Some(Unavailable::Busy),
        error if events::database_unavailable(error) => Some(Unavailable::Switching),
        _ => None,
    }
}

impl ApiError {
    /// Whether the request failed because the database could not serve it (503, not 500).
    fn database_unavailable(&self) -> Option<Unavailable> {
        match self {
            ApiError::Database(error) => unavailable_cause(error),
            ApiError::Internal(error) => error.chain().find_map(|cause| {
                cause.downcast_ref::<sqlx::Error>().and_then(unavailable_cause).or_else(|| {
                    match cause.downcast_ref::<events::StoreError>() {
                        Some(events::StoreError::Database(error)) => unavailable_cause(error),
                        _ => None,
                    }
                })
            }),
            _ => None,
        }
    }
}

/// A 503 the visitor is asked to wait out, with `Retry-After`.
fn unavailable(message: &str, retry_after_secs: u64) -> Response {
    unavailable_with(json!({ "message": message, "field": null }), retry_after_secs)
}

fn unavailable_with(body: serde_json::Value, retry_after_secs: u64) -> Response {
    let mut response = (StatusCode::SERVICE_UNAVAILABLE, Json(body)).into_response();
    response.headers_mut().insert(axum::http::header::RETRY_AFTER, retry_after_secs.max(1).into());
    response
}

/// A start refused past capacity: the 503 with, when the visitor has a place in the waiting
/// line, how many are ahead (`ahead`) and the ticket's cookie.
fn in_line(busy: &crate::admission::Busy) -> Response {
    let mut body = json!({ "message": crate::texts::PAST_CAPACITY, "field": null });
    if let Some(ahead) = busy.ahead {
        body["ahead"] = ahead.into();
    }
    let mut response = unavailable_with(body, busy.retry_after.as_secs());
    if let Some(ticket) = &busy.ticket {
        let (name, value) = crate::admission::tickets::set_cookie(&ticket.value, ticket.lifetime);
        response.headers_mut().append(name, value);
    }
    response
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        match self.database_unavailable() {
            Some(Unavailable::Busy) => {
                tracing::warn!(error = %self, "no database connection in time; answered 503");
                return unavailable(crate::texts::DATABASE_BUSY, POOL_RETRY_AFTER_SECS.into());
            }
            Some(Unavailable::Switching) => {
                tracing::warn!(error = %self, "the database could not serve the request; answered 503");
                return unavailable(crate::texts::DATABASE_UNAVAILABLE, POOL_RETRY_AFTER_SECS.into());
            }
            None => {}
        }
        let (status, body) = match &self {
            ApiError::Rejected(rejection) => {
                (StatusCode::UNPROCESSABLE_ENTITY, json!({ "message": rejection.message, "field": rejection.field }))
            }
            ApiError::NotFound => (StatusCode::NOT_FOUND, json!({ "message": crate::texts::NOT_FOUND })),
            ApiError::Forbidden => (StatusCode::FORBIDDEN, json!({ "message": crate::texts::NOT_YOUR_ATTEMPT })),
            ApiError::Unauthorized => (StatusCode::UNAUTHORIZED, json!({ "message": crate::texts::STAFF_SIGNED_OUT })),
            ApiError::BadCredentials => (StatusCode::UNAUTHORIZED, json!({ "message": crate::texts::BAD_CREDENTIALS })),
            ApiError::StaffForbidden => (StatusCode::FORBIDDEN, json!({ "message": crate::texts::STAFF_FORBIDDEN })),
            ApiError::SignInsPaused(wait) => {
                let body = json!({ "message": crate::texts::SIGN_INS_PAUSED });
                let mut response = (StatusCode::TOO_MANY_REQUESTS, Json(body)).into_response();
                // Rounded up: a client that waits what it was told is not refused again.
                let secs = wait.as_secs() + u64::from(wait.subsec_nanos() > 0);
                response.headers_mut().insert(axum::http::header::RETRY_AFTER, secs.max(1).into());
                return response;
            }
            ApiError::SecondFactor(message) => {
                (StatusCode::UNAUTHORIZED, json!({ "message": message, "field": "code" }))
            }
            ApiError::Body(status, message) => (*status, json!({ "message": message, "field": null })),
            ApiError::Invalid(message) => (StatusCode::UNPROCESSABLE_ENTITY, json!({ "message": message })),
            ApiError::BadField { field, message } => {
                (StatusCode::BAD_REQUEST, json!({ "message": message, "field": field }))
            }
            ApiError::Limited(limited) => {
                let status = if limited.forbidden { StatusCode::FORBIDDEN } else { StatusCode::TOO_MANY_REQUESTS };
                let body = json!({ "message": limited.message, "field": null, "rule": limited.rule });
                let mut response = (status, Json(body)).into_response();
                if let Some(after) = limited.retry_after {
                    response.headers_mut().insert(axum::http::header::RETRY_AFTER, after.as_secs().max(1).into());
                }
                return response;
            }
            ApiError::TooManyStreams => {
                (StatusCode::TOO_MANY_REQUESTS, json!({ "message": crate::texts::TOO_MANY_STREAMS }))
            }
            ApiError::Busy(busy) => return in_line(busy),
            ApiError::TimedOut => (StatusCode::SERVICE_UNAVAILABLE, json!({ "message": crate::texts::TIMED_OUT })),
            ApiError::Conflict(_) => (StatusCode::CONFLICT, json!({ "message": crate::texts::CHANGED_MEANWHILE })),
            ApiError::Database(_) | ApiError::Internal(_) => {
                // 500s are logged with their cause and hidden from the visitor.
                tracing::error!(error = %self, "request failed");
                (StatusCode::INTERNAL_SERVER_ERROR, json!({ "message": crate::texts::GENERIC }))
            }
        };
        (status, Json(body)).into_response()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reset() -> sqlx::Error {
        sqlx::Error::Io(std::io::Error::new(std::io::ErrorKind::ConnectionReset, "connection reset by peer"))
    }

    async fn answer(error: ApiError) -> (StatusCode, Option<String>, serde_json::Value) {
        let response = error.into_response();
        let status = response.status();
        let retry_after = response
            .headers()
            .get(axum::http::header::RETRY_AFTER)
            .and_then(|value| value.to_str().ok())
            .map(str::to_string);
        let body = axum::body::to_bytes(response.into_body(), 1 << 16).await.unwrap_or_default();
        (status, retry_after, serde_json::from_slice(&body).unwrap_or_default())
    }

    #[tokio::test]
    async fn a_connection_lost_in_a_failover_is_503_with_retry_after_wherever_it_surfaced() {
        let store: ApiError = events::StoreError::Database(reset()).into();
        let internal =
            ApiError::Internal(anyhow::Error::new(events::StoreError::Database(reset())).context("appending"));
        for error in [ApiError::Database(reset()), store, internal] {
            let (status, retry_after, body) = answer(error).await;
            assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
            assert_eq!(retry_after.as_deref(), Some("2"));
            assert_eq!(body["message"], crate::texts::DATABASE_UNAVAILABLE);
        }
    }

    #[tokio::test]
    async fn no_connection_in_time_is_still_the_busy_503() {
        let (status, retry_after, body) = answer(ApiError::Database(sqlx::Error::PoolTimedOut)).await;
        assert_eq!((status, retry_after.as_deref()), (StatusCode::SERVICE_UNAVAILABLE, Some("2")));
        assert_eq!(body["message"], crate::texts::DATABASE_BUSY);
    }

    #[tokio::test]
    async fn other_database_errors_stay_500() {
        let store: ApiError = events::StoreError::Database(sqlx::Error::RowNotFound).into();
        for error in [ApiError::Database(sqlx::Error::RowNotFound), store] {
            let (status, retry_after, body) = answer(error).await;
            assert_eq!((status, retry_after), (StatusCode::INTERNAL_SERVER_ERROR, None));
            assert_eq!(body["message"], crate::texts::GENERIC);
        }
    }
}
