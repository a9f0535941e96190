//! A refusal from a sandbox upstream, shaped like that upstream's own error bodies.

use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::de::DeserializeOwned;
use serde_json::{json, Value};

/// How an upstream writes its errors (each real service has its own habit).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    /// Partner API, SSO, BFF, telecom partner: `{"error": {"code", "message"}}`.
    Partner,
    /// Antivirus API: `{"code", "message"}`.
    Antivirus,
    /// Phone auth, document database, identity provider: `{"error": {"code": <status>,
    /// "message": <CODE>, "status": <canonical>, "details": <text>}}`.
    Google,
    /// Cloud functions: `{"status": "error", "message": <Portuguese text>, "code"}`.
    Cloud,
    /// OAuth provider (RFC 6749): `{"error": <code>, "error_description"}`.
    OAuth,
}

#[derive(Debug, Clone, thiserror::Error)]
#[error("{status} {code}: {message}")]
pub struct Refusal {
    pub style: Style,
    pub status: StatusCode,
    pub code: &'static str,
    pub message: String,
}

impl Refusal {
    pub fn new(style: Style, status: StatusCode, code: &'static str, message: impl Into<String>) -> Self {
        Self { style, status, code, message: message.into() }
    }

    pub fn bad_request(style: Style, code: &'static str, message: impl Into<String>) -> Self {
        Self::new(style, StatusCode::BAD_REQUEST, code, message)
    }

    pub fn body(&self) -> Value {
        match self.style {
            Style::Partner => json!({ "error": { "code": self.code, "message": self.message } }),
            Style::Antivirus => json!({ "code": self.code, "message": self.message }),
            Style::Google => json!({ "error": {
                "code": self.status.as_u16(),
                "message": self.code,
                "status": google_status(self.status),
                "details": self.message,
            } }),
            Style::Cloud => {
                json!({ "status": "error", "message": self.message, "code": self.code })
            }
            Style::OAuth => json!({ "error": self.code, "error_description": self.message }),
        }
    }
}

fn google_status(status: StatusCode) -> &'static str {
    match status.as_u16() {
        400 => "INVALID_ARGUMENT",
        401 => "UNAUTHENTICATED",
        403 => "PERMISSION_DENIED",
        404 => "NOT_FOUND",
        406 | 429 => "RESOURCE_EXHAUSTED",
        500..=599 => "INTERNAL",
        _ => "FAILED_PRECONDITION",
    }
}

impl IntoResponse for Refusal {
    fn into_response(self) -> Response {
        (self.status, Json(self.body())).into_response()
    }
}

/// Parses a JSON body the way the upstreams do: `Content-Type: application/json` required,
/// malformed or incomplete bodies refused with 400 in the upstream's style.
pub fn json_body<T: DeserializeOwned>(style: Style, headers: &HeaderMap, body: &[u8]) -> Result<T, Refusal> {
    let is_json = headers
        .get(header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .is_some_and(|value| value.trim_start().to_ascii_lowercase().starts_with("application/json"));
    if !is_json {
        return Err(Refusal::new(
            style,
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "UNSUPPORTED_MEDIA_TYPE",
            "Content-Type must be application/json",
        ));
    }
    serde_json::from_slice(body)
        .map_err(|error| Refusal::bad_request(style, "INVALID_REQUEST", format!("invalid JSON body: {error}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_style_shapes_its_body() {
        let refusal = |style| Refusal::new(style, StatusCode::FORBIDDEN, "NO_FREE_LICENSE", "cheio");
        assert_eq!(refusal(Style::Antivirus).body(), json!({"code": "NO_FREE_LICENSE", "message": "cheio"}));
        assert_eq!(refusal(Style::Partner).body(), json!({"error": {"code": "NO_FREE_LICENSE", "message": "cheio"}}));
        assert_eq!(refusal(Style::Google).body()["error"]["code"], json!(403));
        assert_eq!(refusal(Style::Google).body()["error"]["status"], json!("PERMISSION_DENIED"));
        assert_eq!(refusal(Style::Cloud).body()["status"], json!("error"));
        assert_eq!(refusal(Style::OAuth).body()["error_description"], json!("cheio"));
    }

    #[test]
    fn json_body_requires_the_content_type() {
        let mut headers = HeaderMap::new();
        let refused = json_body::<Value>(Style::Partner, &headers, b"{}").unwrap_err();
        assert_eq!(refused.status, StatusCode::UNSUPPORTED_MEDIA_TYPE);
        headers.insert(header::CONTENT_TYPE, "application/json; charset=utf-8".parse().unwrap());
        assert!(json_body::<Value>(Style::Partner, &headers, b"{}").is_ok());
        assert_eq!(json_body::<Value>(Style::Partner, &headers, b"{").unwrap_err().code, "INVALID_REQUEST");
    }
}
