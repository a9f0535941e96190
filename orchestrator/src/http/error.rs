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
