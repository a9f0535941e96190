//! The download manager: serves the installer behind the URL `av-desktop-url` granted, as an
//! attachment named `antivirus-installer.exe` (spec section 9), for one hour.

use axum::extract::{Path, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;

use super::intercept::tracked;
use super::records::tokens::{TokenError, TokenKind};
use super::state::SandboxState;

pub const FILE_NAME: &str = "antivirus-installer.exe";

pub fn routes(state: &SandboxState) -> Router<SandboxState> {
    Router::new().route("/files/{token}/{file}", tracked(state, "download-manager.installer", get(installer)))
}

async fn installer(State(state): State<SandboxState>, Path((token, file)): Path<(String, String)>) -> Response {
    if file != FILE_NAME {
        return (StatusCode::NOT_FOUND, "arquivo não encontrado").into_response();
    }
    let now = state.now();
    match state.with(|w| w.check_token(&token, &[TokenKind::Download], now)) {
        Ok(claims) => {
            let os = claims.subject.unwrap_or_default();
            (
                [
                    (header::CONTENT_TYPE, "application/octet-stream".to_string()),
                    (header::CONTENT_DISPOSITION, format!("attachment; filename=\"{FILE_NAME}\"")),
                ],
                body(&os),
            )
                .into_response()
        }
        Err(TokenError::Unknown) => (StatusCode::NOT_FOUND, "link de download inválido").into_response(),
        Err(TokenError::Expired) => (StatusCode::GONE, "link de download expirado").into_response(),
    }
}

/// A small stand-in: the DOS header magic, then a line saying what it is.
fn body(os: &str) -> Vec<u8> {
    let mut bytes = vec![b'M', b'Z', 0x90, 0x00, 0x03, 0x00, 0x00, 0x00];
    bytes.extend_from_slice(
        format!("\r\nEXA Antivirus - instalador de teste do sandbox ({os}). Nao e um programa real.\r\n").as_bytes(),
    );
    bytes
}
