//! The request id: the client's `X-Request-Id` is kept only when it is a UUID. Anything else
//! (a forged id of another request, text meant for the logs) is dropped before the id layer,
//! which then makes a fresh one; the id is in every log line of the request and in its answer.

use axum::extract::Request;
use axum::http::HeaderName;
use axum::middleware::Next;
use axum::response::Response;

pub const REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");

/// Whether the client's id may stand: one header, holding a UUID.
pub fn acceptable(request: &Request) -> bool {
    let mut ids = request.headers().get_all(&REQUEST_ID).iter();
    match (ids.next(), ids.next()) {
        (None, _) => true,
        (Some(id), None) => id.to_str().ok().is_some_and(|id| uuid::Uuid::try_parse(id).is_ok()),
        (Some(_), Some(_)) => false,
    }
}

/// Drops a client's `X-Request-Id` that is not a UUID (see the module's text).
pub async fn keep_uuids_only(mut request: Request, next: Next) -> Response {
    if !acceptable(&request) {
        request.headers_mut().remove(&REQUEST_ID);
    }
    next.run(request).await
}
