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
    /// Too many failed sign-ins for this e-mail or address.
    #[error("too many requests")]
    TooManyRequests,
    /// Bad input to a staff route: the Portuguese message to show.
    #[error("invalid: {0}")]
    Invalid(String),
    /// Someone else changed the attempt first; the client should reload and retry.
    #[error("conflict: {0}")]
    Conflict(String),
    #[error("database: {0}")]
    Database(#[from] sqlx::Error),
    #[error(transparent)]
    Internal(#[from] anyhow::Error),
}

/// Shown to the visitor when something on our side failed; details go to the log only.
pub const GENERIC_MESSAGE: &str = "Ops, ocorreu um erro. Tente novamente em instantes.";

/// Shown when sign-ins are refused for a while; never says whether the e-mail exists.
pub const TOO_MANY_MESSAGE: &str =
    "Muitas tentativas de entrada. Por segurança, aguarde 15 minutos e tente de novo.";

impl From<events::StoreError> for ApiError {
    fn from(error: events::StoreError) -> Self {
        ApiError::Internal(error.into())
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let (status, body) = match &self {
            ApiError::Rejected(rejection) => (
                StatusCode::UNPROCESSABLE_ENTITY,
                json!({ "message": rejection.message, "field": rejection.field }),
            ),
            ApiError::NotFound => (
                StatusCode::NOT_FOUND,
                json!({ "message": "Não encontramos o que você procurou." }),
            ),
            ApiError::Forbidden => (
                StatusCode::FORBIDDEN,
                json!({ "message": "Você não tem acesso a esta tentativa." }),
            ),
            ApiError::Unauthorized => (
                StatusCode::UNAUTHORIZED,
                json!({ "message": "Sua sessão terminou. Entre de novo." }),
            ),
            ApiError::BadCredentials => (
                StatusCode::UNAUTHORIZED,
                json!({ "message": "E-mail ou senha incorretos." }),
            ),
            ApiError::StaffForbidden => (
                StatusCode::FORBIDDEN,
                json!({ "message": "Você não tem permissão para esta ação." }),
            ),
            ApiError::TooManyRequests => (
                StatusCode::TOO_MANY_REQUESTS,
                json!({ "message": TOO_MANY_MESSAGE }),
            ),
            ApiError::Invalid(message) => (StatusCode::UNPROCESSABLE_ENTITY, json!({ "message": message })),
            ApiError::Conflict(_) => (
                StatusCode::CONFLICT,
                json!({ "message": "Sua solicitação mudou enquanto era processada. Tente novamente." }),
            ),
            ApiError::Database(_) | ApiError::Internal(_) => {
                // 500s are logged with their cause and hidden from the visitor.
                tracing::error!(error = %self, "request failed");
                (StatusCode::INTERNAL_SERVER_ERROR, json!({ "message": GENERIC_MESSAGE }))
            }
        };
        (status, Json(body)).into_response()
    }
}
