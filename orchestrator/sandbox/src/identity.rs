//! The identity provider's `verifyCustomToken`: exchanges an authorization custom token for
//! an id token. The key in the query picks the project, and a token only signs in to the
//! project of the brand it was issued for.

use axum::body::Bytes;
use axum::extract::{Query, State};
use axum::http::HeaderMap;
use axum::routing::post;
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{json, Value};

use super::credentials;
use super::error::{json_body, Refusal, Style};
use super::intercept::tracked;
use super::records::tokens::{TokenError, TokenKind};
use super::state::SandboxState;

const STYLE: Style = Style::Google;

pub fn routes(state: &SandboxState) -> Router<SandboxState> {
    Router::new()
        .route("/v1/verifyCustomToken", tracked(state, "identity.verify-custom-token", post(verify_custom_token)))
}

#[derive(Deserialize)]
struct KeyQuery {
    key: Option<String>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Verify {
    token: String,
    return_secure_token: bool,
}

async fn verify_custom_token(
    State(state): State<SandboxState>,
    Query(query): Query<KeyQuery>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Json<Value>, Refusal> {
    let key = query.key.unwrap_or_default();
    if key != credentials::IDENTITY_KEY_DEFAULT && key != credentials::IDENTITY_KEY_TIM {
        return Err(Refusal::bad_request(STYLE, "API_KEY_INVALID", "API key not valid. Please pass a valid API key."));
    }
    let request: Verify = json_body(STYLE, &headers, &body)?;
    if !request.return_secure_token {
        return Err(Refusal::bad_request(STYLE, "INVALID_ARGUMENT", "returnSecureToken must be true"));
    }
    let now = state.now();
    let claims =
        state.with(|w| w.check_token(&request.token, &[TokenKind::Custom], now)).map_err(|error| match error {
            TokenError::Unknown => {
                Refusal::bad_request(STYLE, "INVALID_CUSTOM_TOKEN", "custom token not issued for this provider")
            }
            TokenError::Expired => Refusal::bad_request(STYLE, "TOKEN_EXPIRED", "custom token expired"),
        })?;
    if claims.brand.map(|brand| brand.identity_key()) != Some(key.as_str()) {
        return Err(Refusal::bad_request(STYLE, "CREDENTIAL_MISMATCH", "custom token belongs to another project"));
    }
    let (id_token, refresh_token) =
        state.with(|w| (w.issue_token(TokenKind::Id, claims, now), w.token("sbx-refresh-")));
    Ok(Json(json!({
        "kind": "identitytoolkit#VerifyCustomTokenResponse",
        "idToken": id_token,
        "refreshToken": refresh_token,
        "expiresIn": TokenKind::Id.ttl().num_seconds().to_string(),
    })))
}
