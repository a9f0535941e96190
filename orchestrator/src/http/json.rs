//! Our JSON body extractor: axum's, with its rejection turned into [`ApiError`], so a malformed,
//! oversized or non-JSON body gets a JSON answer with a Portuguese message instead of axum's
//! English plain text. Every public handler that reads a body uses this one.

use axum::extract::{FromRequest, Request};
use axum::http::StatusCode;
use serde::de::DeserializeOwned;

use crate::error::ApiError;
use crate::texts::{METHOD_NOT_ALLOWED, NOT_FOUND, NOT_JSON, TOO_LARGE};

/// A JSON body, or an [`ApiError`]: 413 and 415 with their own messages, anything else that
/// could not be read (bad syntax, wrong shape) the flows' "malformed command" 422.
#[derive(Debug, Clone)]
pub struct Json<T>(pub T);

impl<T, S> FromRequest<S> for Json<T>
where
    T: DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<Self, Self::Rejection> {
        match axum::Json::<T>::from_request(request, state).await {
            Ok(axum::Json(value)) => Ok(Json(value)),
            Err(rejection) => Err(body_error(rejection.status())),
        }
    }
}

/// The error for a body refused with `status` by axum.
pub fn body_error(status: StatusCode) -> ApiError {
    match status {
        StatusCode::PAYLOAD_TOO_LARGE => ApiError::Body(StatusCode::PAYLOAD_TOO_LARGE, TOO_LARGE),
        StatusCode::UNSUPPORTED_MEDIA_TYPE => ApiError::Body(StatusCode::UNSUPPORTED_MEDIA_TYPE, NOT_JSON),
        _ => ApiError::Rejected(events::flow::Rejection::general(events::flow::MALFORMED_COMMAND)),
    }
}

/// The last line of defence for `/api/…`: any 4xx answer that is not JSON (a route's method
/// refused, a path that could not be decoded) becomes JSON with a Portuguese message.
pub async fn json_client_errors(request: Request, next: axum::middleware::Next) -> axum::response::Response {
    use axum::response::IntoResponse;
    let api = request.uri().path().starts_with("/api/");
    let response = next.run(request).await;
    let status = response.status();
    if !api || !status.is_client_error() {
        return response;
    }
    let is_json = response
        .headers()
        .get(axum::http::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    if is_json {
        return response;
    }
    let message = match status {
        StatusCode::NOT_FOUND => NOT_FOUND,
        StatusCode::METHOD_NOT_ALLOWED => METHOD_NOT_ALLOWED,
        StatusCode::PAYLOAD_TOO_LARGE => TOO_LARGE,
        StatusCode::UNSUPPORTED_MEDIA_TYPE => NOT_JSON,
        _ => events::flow::MALFORMED_COMMAND,
    };
    let mut replaced = (status, axum::Json(serde_json::json!({ "message": message, "field": null }))).into_response();
    // Headers that describe the request's handling (Allow, Retry-After, request id) are kept.
    for (name, value) in response.headers() {
        if name != axum::http::header::CONTENT_TYPE && name != axum::http::header::CONTENT_LENGTH {
            replaced.headers_mut().insert(name.clone(), value.clone());
        }
    }
    replaced
}

/// A handler's own message for a body it could not read, keeping 413 and 415 as they are.
pub fn or_invalid(error: ApiError, message: &str) -> ApiError {
    match error {
        ApiError::Body(..) => error,
        _ => ApiError::Invalid(message.to_string()),
    }
}
