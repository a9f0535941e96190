//! The antivirus API (v1): a desktop user's partners, devices, the installer URL, and device
//! removal. Every call carries the phone-auth user token in `X-User-Token`.

use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{delete, get};
use axum::{Json, Router};
use serde_json::{json, Value};

use super::br_ids;
use super::error::{Refusal, Style};
use super::headers;
use super::intercept::tracked;
use super::records::tokens::{Claims, TokenKind};
use super::scenarios::{DesktopAccount, Device, Seat};
use super::state::{SandboxState, World};
use super::urls;

const STYLE: Style = Style::Antivirus;
/// `X-Os` values of the spec (section 9).
const VALID_OS: [&str; 2] = ["win_pc", "mac"];

pub fn routes(state: &SandboxState) -> Router<SandboxState> {
    Router::new()
        .route("/v1/user/partners", tracked(state, "antivirus.partners", get(partners)))
        .route("/v1/user/devices", tracked(state, "antivirus.devices", get(devices)))
        .route("/v1/fs/av-desktop-url", tracked(state, "antivirus.av-desktop-url", get(av_desktop_url)))
        .route(
            "/v1/user/remove-user-device",
            tracked(state, "antivirus.remove-user-device", delete(remove_user_device)),
        )
        .route("/logos/{file}", tracked(state, "antivirus.logo", get(logo)))
}

/// The national digits of the user behind `X-User-Token`.
fn user(state: &SandboxState, headers: &HeaderMap) -> Result<String, Refusal> {
    let token = headers::required(headers, headers::USER_TOKEN, STYLE)?;
    let now = state.now();
    let claims = state.with(|w| w.claims(token, &[TokenKind::PhoneUser], now, STYLE))?;
    let Claims { msisdn: Some(msisdn), .. } = claims else {
        return Err(Refusal::new(STYLE, StatusCode::UNAUTHORIZED, "INVALID_TOKEN", "token has no phone"));
    };
    br_ids::msisdn_national(&msisdn)
        .map(str::to_string)
        .ok_or_else(|| Refusal::new(STYLE, StatusCode::UNAUTHORIZED, "INVALID_TOKEN", "token has no phone"))
}

fn seat_mut<'w>(world: &'w mut World, national: &str, subscription_id: &str) -> Result<&'w mut Seat, Refusal> {
    world
        .desktop
        .get_mut(national)
        .and_then(|account| account.seats.iter_mut().find(|seat| seat.subscription_id == subscription_id))
        .ok_or_else(|| {
            Refusal::new(STYLE, StatusCode::NOT_FOUND, "SUBSCRIPTION_NOT_FOUND", "subscription not found for this user")
        })
}

async fn partners(State(state): State<SandboxState>, headers: HeaderMap) -> Result<Json<Value>, Refusal> {
    let national = user(&state, &headers)?;
    let account: Option<DesktopAccount> = state.with(|w| w.desktop.get(&national).cloned());
    let Some(account) = account else {
        return Ok(Json(json!([])));
    };
    if account.partners_fail {
        return Err(Refusal::new(
            STYLE,
            StatusCode::INTERNAL_SERVER_ERROR,
            "INTERNAL_ERROR",
            "partner service unavailable",
        ));
    }
    let base = urls::public_base(&headers);
    let partners: Vec<Value> = account
        .seats
        .iter()
        .map(|seat| {
            json!({
                "id": seat.partner_id,
                "name": seat.partner_name,
                "logotype": if seat.has_logo {
                    format!("{base}{}/logos/{}.svg", urls::ANTIVIRUS, seat.partner_id)
                } else {
                    String::new()
                },
                "prioritySubscriptionId": seat.subscription_id,
            })
        })
        .collect();
    Ok(Json(Value::Array(partners)))
}

fn device_json(device: &Device) -> Value {
    json!({
        "id": device.id,
        "device_name": device.device_name,
        "first_login": { "seconds": device.first_login },
        "last_login": { "seconds": device.last_login },
        "os_type": device.os_type,
        "os_version": device.os_version,
        "country": device.country,
    })
}

async fn devices(State(state): State<SandboxState>, headers: HeaderMap) -> Result<Json<Value>, Refusal> {
    let national = user(&state, &headers)?;
    let subscription = headers::required(&headers, headers::SUBSCRIPTION_ID, STYLE)?;
    let devices = state.with(|w| seat_mut(w, &national, subscription).map(|seat| seat.devices.clone()))?;
    Ok(Json(Value::Array(devices.iter().map(device_json).collect())))
}

async fn av_desktop_url(State(state): State<SandboxState>, headers: HeaderMap) -> Result<Json<Value>, Refusal> {
    let national = user(&state, &headers)?;
    let subscription = headers::required(&headers, headers::SUBSCRIPTION_ID, STYLE)?;
    // The detected browser's name: required, not checked further.
    headers::required(&headers, headers::DEVICE_ID, STYLE)?;
    let os = headers::required(&headers, headers::OS, STYLE)?;
    if !VALID_OS.contains(&os) {
        return Err(Refusal::bad_request(STYLE, "INVALID_OS", "X-Os must be win_pc or mac"));
    }
    let now = state.now();
    let token = state.with(|w| {
        let seat = seat_mut(w, &national, subscription)?;
        if seat.download_fails {
            return Err(Refusal::new(
                STYLE,
                StatusCode::INTERNAL_SERVER_ERROR,
                "INTERNAL_ERROR",
                "download service unavailable",
            ));
        }
        if !seat.sdk_allowed {
            return Err(Refusal::new(
                STYLE,
                StatusCode::FORBIDDEN,
                "SDK_NOT_ALLOWED_FOR_SUBSCRIPTION",
                "this subscription does not include the desktop antivirus",
            ));
        }
        if seat.devices.len() >= seat.licences {
            return Err(Refusal::new(
                STYLE,
                StatusCode::FORBIDDEN,
                "NO_FREE_LICENSE",
                format!("all {} licences are in use", seat.licences),
            ));
        }
        let claims = Claims { subject: Some(os.to_string()), ..Claims::default() };
        Ok(w.issue_token(TokenKind::Download, claims, now))
    })?;
    let url =
        format!("{}{}/files/{token}/antivirus-installer.exe", urls::public_base(&headers), urls::DOWNLOAD_MANAGER);
    Ok(Json(json!({ "url": url })))
}

async fn remove_user_device(State(state): State<SandboxState>, headers: HeaderMap) -> Result<StatusCode, Refusal> {
    let national = user(&state, &headers)?;
    let subscription = headers::required(&headers, headers::SUBSCRIPTION_ID, STYLE)?;
    let device_id = headers::required(&headers, headers::DEVICE_ID, STYLE)?;
    state.with(|w| {
        let seat = seat_mut(w, &national, subscription)?;
        if seat.removal_fails {
            return Err(Refusal::new(
                STYLE,
                StatusCode::INTERNAL_SERVER_ERROR,
                "DEVICE_REMOVAL_FAILED",
                "the device could not be removed",
            ));
        }
        let before = seat.devices.len();
        seat.devices.retain(|device| device.id != device_id);
        if seat.devices.len() == before {
            return Err(Refusal::new(
                STYLE,
                StatusCode::NOT_FOUND,
                "DEVICE_NOT_FOUND",
                "no such device on this subscription",
            ));
        }
        Ok(StatusCode::NO_CONTENT)
    })
}

/// The partners' logotypes the partner list links to.
async fn logo(Path(file): Path<String>) -> Response {
    let (initials, color) = match file.as_str() {
        "operadora-parceira.svg" => ("OP", "#5b2ee0"),
        _ => return StatusCode::NOT_FOUND.into_response(),
    };
    let svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"120\" height=\"48\" viewBox=\"0 0 120 48\" role=\"img\" \
         aria-label=\"Operadora Parceira\"><rect width=\"120\" height=\"48\" rx=\"8\" fill=\"{color}\"/>\
         <text x=\"60\" y=\"31\" font-family=\"sans-serif\" font-size=\"20\" fill=\"#fff\" text-anchor=\"middle\">{initials}</text></svg>"
    );
    ([(header::CONTENT_TYPE, "image/svg+xml")], svg).into_response()
}
