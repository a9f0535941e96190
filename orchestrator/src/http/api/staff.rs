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
use crate::staff::{audit, password, sessions, throttle};

pub fn router() -> Router<AppState> {
    Router::new().route("/api/staff/session", post(sign_in).get(current).delete(sign_out))
}

#[derive(Deserialize)]
struct SignIn {
    email: String,
    password: String,
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
    if body.email.len() > 254 || body.password.len() > password::MAX_LEN || body.password.is_empty() {
        return Err(ApiError::Invalid(crate::texts::SIGN_IN_MALFORMED.into()));
    }
    let email_hash = state.vault.lookup_hash(PiiKind::Email, &body.email);
    let hash_hex = hex::encode(&email_hash);
    let accounts = Accounts { db: &state.db, vault: &state.vault };
    let found = if valid_email(&body.email) { accounts.credentials(&body.email).await? } else { None };
    // The address is counted as a keyed hash (`Vault::tag`): never kept in clear.
    let ip_hash = state.vault.tag(throttle::IP_TAG, ip.limit_key().unwrap_or("unknown"));
    if !throttle::reserve(&state.db, &email_hash, &ip_hash).await? {
        audit::record(
            &state.store,
            found.as_ref().map(|f| f.id),
            audit::SIGN_IN_REFUSED,
            json!({ "email_hash": hash_hex, "reason": "locked" }),
        )
        .await?;
        return Err(ApiError::TooManyRequests);
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
        audit::record(
            &state.store,
            known,
            audit::SIGN_IN_REFUSED,
            json!({ "email_hash": hash_hex, "reason": "credentials" }),
        )
        .await?;
        return Err(ApiError::BadCredentials);
    };
    throttle::clear(&state.db, &email_hash).await?;
    let (token, csrf) = sessions::create(&state.db, account.id).await?;
    audit::record(&state.store, Some(account.id), audit::SIGNED_IN, json!({ "role": account.role })).await?;
    let email = events::pii::PiiKind::Email.normalize(&body.email);
    let mut response = Json(json!({ "email": email, "role": account.role, "csrf_token": csrf })).into_response();
    let (name, value) = sessions::set_cookie(&token);
    response.headers_mut().insert(name, value);
    Ok(response)
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
