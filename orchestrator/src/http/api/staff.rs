//! `/api/staff/session`: sign in, who am I, sign out.

use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::{Json, Router};
use events::pii::PiiKind;
use serde::Deserialize;
use serde_json::json;

use crate::error::ApiError;
use crate::http::client_ip::ClientIp;
use crate::http::state::AppState;
use crate::staff::accounts::{valid_email, Accounts};
use crate::staff::auth::{same_origin, Staff};
use crate::staff::{audit, password, second_factor, sessions, throttle};

pub fn router() -> Router<AppState> {
    Router::new().route("/api/staff/session", post(sign_in).get(current).delete(sign_out))
}

#[derive(Deserialize)]
struct SignIn {
    email: String,
    password: String,
    /// The second factor: six TOTP digits or a recovery code, asked for once the password is right.
    #[serde(default)]
    code: Option<String>,
}

async fn sign_in(
    State(state): State<AppState>,
    ip: ClientIp,
    headers: HeaderMap,
    body: Result<crate::http::json::Json<SignIn>, ApiError>,
) -> Result<Response, ApiError> {
    // A sign-in form posted from another site would sign the browser into our console.
    if headers.contains_key(axum::http::header::ORIGIN) && !same_origin(&headers) {
        return Err(ApiError::StaffForbidden);
    }
    let crate::http::json::Json(body) =
        body.map_err(|e| crate::http::json::or_invalid(e, crate::texts::SIGN_IN_MALFORMED))?;
    if body.email.len() > 254
        || body.password.len() > password::MAX_LEN
        || body.password.is_empty()
        || body.code.as_ref().is_some_and(|c| c.len() > 64)
    {
        return Err(ApiError::Invalid(crate::texts::SIGN_IN_MALFORMED.into()));
    }
    let email_hash = state.vault.lookup_hash(PiiKind::StaffEmail, &body.email);
    let hash_hex = hex::encode(&email_hash);
    let accounts = Accounts { db: &state.db, vault: &state.vault };
    let found = if valid_email(&body.email) { accounts.credentials(&body.email).await? } else { None };
    // The address is counted as a keyed hash (`Vault::tag`): never kept in clear.
    let ip_hash = state.vault.tag(throttle::IP_TAG, ip.limit_key().unwrap_or("unknown"));
    if let Some(wait) = throttle::reserve(&state.db, &email_hash, &ip_hash).await? {
        // Counted, not appended: a refusal before any check must not grow the event log.
        state.metrics.staff_sign_in_refused("paused");
        return Err(ApiError::SignInsPaused(wait));
    }
    let known = found.as_ref().map(|f| f.id);
    let typed = body.password.clone();
    let _slot = password::hashing_slot().await;
    let matched = match &found {
        Some(account) => {
            let phc = account.password_hash.clone();
            tokio::task::spawn_blocking(move || password::verify(&typed, &phc)).await.map_err(anyhow::Error::from)?
                && !account.disabled
        }
        None => {
            tokio::task::spawn_blocking(move || password::verify_nobody(&typed)).await.map_err(anyhow::Error::from)?;
            false
        }
    };
    // The try was counted as a failure when it took its place; the right password forgets it.
    let Some(account) = found.filter(|_| matched) else {
        // A member's failures are audited in their stream (the throttle bounds them); tries
        // for an e-mail nobody has are only counted.
        match known {
            Some(id) => {
                let payload = json!({ "email_hash": hash_hex, "reason": "credentials" });
                audit::record(&state.store, Some(id), audit::SIGN_IN_REFUSED, payload).await?;
            }
            None => state.metrics.staff_sign_in_refused("credentials"),
        }
        return Err(ApiError::BadCredentials);
    };
    second_factor(&state, account.id, account.role, body.code.as_deref(), &hash_hex).await?;
    throttle::clear(&state.db, &email_hash).await?;
    let (token, csrf) = sessions::create(&state.db, account.id).await?;
    audit::record(&state.store, Some(account.id), audit::SIGNED_IN, json!({ "role": account.role })).await?;
    let email = events::pii::PiiKind::StaffEmail.normalize(&body.email);
    let mut response = Json(json!({ "email": email, "role": account.role, "csrf_token": csrf })).into_response();
    let (name, value) = sessions::set_cookie(&token);
    response.headers_mut().insert(name, value);
    Ok(response)
}

/// Passes when the member needs no second factor or typed a good one; the refusal says what
/// to type. Wrong codes stay counted by the throttle, as wrong passwords are.
async fn second_factor(
    state: &AppState,
    id: uuid::Uuid,
    role: crate::staff::Role,
    code: Option<&str>,
    hash_hex: &str,
) -> Result<(), ApiError> {
    let enrolled = second_factor::enrolled(&state.db, id).await?;
    let refusal = match (enrolled, code.map(str::trim).filter(|c| !c.is_empty())) {
        (false, _) if second_factor::required_for(role) => Some(("not_enrolled", crate::texts::CODE_NOT_ENROLLED)),
        (false, _) => None,
        (true, None) => Some(("code_required", crate::texts::CODE_REQUIRED)),
        (true, Some(code)) => match second_factor::check(&state.db, &state.vault, id, code).await? {
            second_factor::Checked::Accepted => None,
            second_factor::Checked::Refused => Some(("code_wrong", crate::texts::CODE_WRONG)),
        },
    };
    let Some((reason, message)) = refusal else { return Ok(()) };
    if reason != "code_required" {
        let payload = json!({ "email_hash": hash_hex, "reason": reason });
        audit::record(&state.store, Some(id), audit::SIGN_IN_REFUSED, payload).await?;
    }
    Err(ApiError::SecondFactor(message))
}

async fn current(staff: Staff) -> Json<serde_json::Value> {
    Json(json!({ "email": staff.email, "role": staff.role, "csrf_token": staff.csrf_token }))
}

async fn sign_out(State(state): State<AppState>, staff: Staff) -> Result<Response, ApiError> {
    sessions::end(&state.db, &staff.token).await?;
    audit::record(&state.store, Some(staff.id), audit::SIGNED_OUT, json!({})).await?;
    let mut response = StatusCode::NO_CONTENT.into_response();
    let (name, value) = sessions::clear_cookie();
    response.headers_mut().insert(name, value);
    Ok(response)
}
