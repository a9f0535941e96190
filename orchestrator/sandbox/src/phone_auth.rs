//! The desktop flow's phone-authentication service: send an SMS code to `+55...` behind a bot
//! check, confirm it, and get the user token that the document database and the antivirus
//! API accept.

use axum::body::Bytes;
use axum::extract::{Query, State};
use axum::http::HeaderMap;
use axum::routing::post;
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{json, Value};

use super::br_ids;
use super::codes;
use super::credentials;
use super::error::{json_body, Refusal, Style};
use super::intercept::tracked;
use super::records::codes::Channel;
use super::records::tokens::{Claims, TokenKind};
use super::state::SandboxState;

const STYLE: Style = Style::Google;

pub fn routes(state: &SandboxState) -> Router<SandboxState> {
    Router::new()
        .route("/v1/send-code", tracked(state, "phone-auth.send-code", post(send_code)))
        .route("/v1/confirm-code", tracked(state, "phone-auth.confirm-code", post(confirm_code)))
}

#[derive(Deserialize)]
pub struct KeyQuery {
    key: Option<String>,
}

fn check_key(query: &KeyQuery) -> Result<(), Refusal> {
    if query.key.as_deref() == Some(credentials::PHONE_AUTH_API_KEY) {
        Ok(())
    } else {
        Err(Refusal::bad_request(STYLE, "API_KEY_INVALID", "API key not valid. Please pass a valid API key."))
    }
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct SendCode {
    phone_number: String,
    #[serde(default)]
    recaptcha_token: String,
}

async fn send_code(
    State(state): State<SandboxState>,
    Query(query): Query<KeyQuery>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Json<Value>, Refusal> {
    check_key(&query)?;
    let request: SendCode = json_body(STYLE, &headers, &body)?;
    // The invisible bot check's token: any non-empty value passes in the sandbox.
    if request.recaptcha_token.trim().is_empty() {
        return Err(Refusal::bad_request(STYLE, "MISSING_RECAPTCHA_TOKEN", "recaptchaToken is required"));
    }
    let national = br_ids::e164_national(&request.phone_number)
        .ok_or_else(|| Refusal::bad_request(STYLE, "INVALID_PHONE_NUMBER", "phoneNumber must be +55 DD 9NNNN-NNNN"))?;
    let now = state.now();
    let session = state.with(|w| w.send_code(Channel::Desktop, &format!("55{national}"), now));
    Ok(Json(json!({ "sessionInfo": session })))
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct ConfirmCode {
    session_info: String,
    code: String,
}

async fn confirm_code(
    State(state): State<SandboxState>,
    Query(query): Query<KeyQuery>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Json<Value>, Refusal> {
    check_key(&query)?;
    let request: ConfirmCode = json_body(STYLE, &headers, &body)?;
    let now = state.now();
    let msisdn = codes::verify(&state, Channel::Desktop, &request.session_info, &request.code, now, STYLE)?;
    let (id_token, refresh_token) = state.with(|w| {
        let claims = Claims { msisdn: Some(msisdn.clone()), ..Claims::default() };
        (w.issue_token(TokenKind::PhoneUser, claims, now), w.token("sbx-refresh-"))
    });
    Ok(Json(json!({
        "idToken": id_token,
        "refreshToken": refresh_token,
        "expiresIn": TokenKind::PhoneUser.ttl().num_seconds().to_string(),
        "localId": format!("uid-{msisdn}"),
        "phoneNumber": format!("+{msisdn}"),
        "isNewUser": false,
    })))
}
