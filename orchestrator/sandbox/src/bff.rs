//! The back-for-front-end (`/bff/api/v2/...`): subscribe by serial or by partner hash, the
//! broadband customer look-up, and the packs of an identity. Mounted once per brand family.

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{json, Value};

use super::authn::msisdn;
use super::credentials;
use super::error::{json_body, Refusal, Style};
use super::headers;
use super::intercept::tracked;
use super::records::codes::Channel;
use super::records::subscriptions::Subscription;
use super::records::tokens::TokenKind;
use super::scenarios;
use super::state::{SandboxState, World};

const STYLE: Style = Style::Partner;
/// Spec section 9: licence / serial max length.
const SERIAL_MAX_LEN: usize = 21;

pub fn routes(state: &SandboxState) -> Router<SandboxState> {
    Router::new()
        .route(
            "/bff/api/v2/subscription/subscribe-serial",
            tracked(state, "bff.subscribe-serial", post(subscribe_serial)),
        )
        .route(
            "/bff/api/v2/subscription/subscribe-by-hash",
            tracked(state, "bff.subscribe-by-hash", post(subscribe_by_hash)),
        )
        .route("/bff/api/v2/brisanet/customer/about/{code}", tracked(state, "bff.customer-about", get(customer_about)))
        .route("/bff/api/v2/packs", tracked(state, "bff.packs", get(packs)))
}

impl World {
    /// Records a new subscription under a fresh id and returns the id.
    pub fn subscribe(&mut self, mut subscription: Subscription) -> String {
        subscription.subscription_id = format!("sub-{}", self.uuid());
        let id = subscription.subscription_id.clone();
        self.subscriptions.push(subscription);
        id
    }

    /// The subscription of `kind` for `serial`, if any.
    pub fn serial_subscription(&self, kind: &str, serial: &str) -> Option<&Subscription> {
        self.subscriptions.iter().find(|s| s.kind == kind && s.serial.as_deref() == Some(serial))
    }

    fn hash_subscription(&self, partner: &str, partner_subscription_id: &str, msisdn: &str) -> Option<&Subscription> {
        self.subscriptions.iter().find(|s| {
            s.kind == "hash"
                && s.partner.as_deref() == Some(partner)
                && s.partner_subscription_id.as_deref() == Some(partner_subscription_id)
                && s.msisdn == msisdn
        })
    }
}

/// Subscribing needs a phone that confirmed an activation code.
fn require_verified(world: &World, msisdn: &str) -> Result<(), Refusal> {
    if world.is_verified(Channel::Activation, msisdn) {
        Ok(())
    } else {
        Err(Refusal::new(STYLE, StatusCode::FORBIDDEN, "MSISDN_NOT_VERIFIED", "this msisdn has not validated a code"))
    }
}

#[derive(Deserialize)]
struct BySerial {
    serial: String,
    msisdn: String,
}

async fn subscribe_serial(
    State(state): State<SandboxState>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Json<Value>, Refusal> {
    let brand = headers::client(&headers)?;
    let request: BySerial = json_body(STYLE, &headers, &body)?;
    msisdn(&request.msisdn, STYLE)?;
    let serial = request.serial.trim().to_string();
    if serial.is_empty() || serial.chars().count() > SERIAL_MAX_LEN {
        return Err(Refusal::bad_request(STYLE, "INVALID_SERIAL", "serial must have 1 to 21 characters"));
    }
    let now = state.now();
    let id = state.with(|w| {
        require_verified(w, &request.msisdn)?;
        if scenarios::is_missing_serial(&serial) {
            return Err(Refusal::new(STYLE, StatusCode::NOT_FOUND, "SERIAL_NOT_FOUND", "serial not found"));
        }
        // A serial activates one phone; the same phone again gets its subscription back.
        match w.serial_subscription("serial", &serial) {
            Some(existing) if existing.msisdn == request.msisdn => return Ok(existing.subscription_id.clone()),
            Some(_) => {
                return Err(Refusal::new(
                    STYLE,
                    StatusCode::CONFLICT,
                    "SERIAL_IN_USE",
                    "serial already active for another phone",
                ));
            }
            None => {}
        }
        Ok(w.subscribe(Subscription {
            serial: Some(serial.clone()),
            brand: Some(brand.as_str()),
            ..Subscription::new("serial", &request.msisdn, now)
        }))
    })?;
    Ok(Json(json!({ "subscription_id": id, "status": "ACTIVE" })))
}

#[derive(Deserialize)]
struct ByHash {
    partner: String,
    msisdn: String,
    hash: String,
    subscription_id: String,
    email: Option<String>,
}

async fn subscribe_by_hash(
    State(state): State<SandboxState>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Json<Value>, Refusal> {
    let brand = headers::client(&headers)?;
    let request: ByHash = json_body(STYLE, &headers, &body)?;
    msisdn(&request.msisdn, STYLE)?;
    let now = state.now();
    let id = state.with(|w| {
        require_verified(w, &request.msisdn)?;
        let unknown_customer = || {
            Refusal::new(
                STYLE,
                StatusCode::NOT_FOUND,
                "CUSTOMER_NOT_FOUND",
                "subscription_id is not a customer of this partner",
            )
        };
        let wrong_hash = || {
            Refusal::new(STYLE, StatusCode::UNPROCESSABLE_ENTITY, "HASH_MISMATCH", "hash is not this customer's plan")
        };
        match request.partner.as_str() {
            credentials::BROADBAND_PARTNER => {
                if !w.broadband_customers.contains_key(&request.subscription_id) {
                    return Err(unknown_customer());
                }
                if request.hash != credentials::BROADBAND_PLAN_HASH {
                    return Err(wrong_hash());
                }
            }
            credentials::TELECOM_PARTNER_NAME => {
                let email = request.email.as_deref().map(str::trim).filter(|e| !e.is_empty()).ok_or_else(|| {
                    Refusal::bad_request(STYLE, "MISSING_EMAIL", "email is required for the telecom partner")
                })?;
                let customer = w
                    .hero_customers
                    .get(&email.to_lowercase())
                    .filter(|customer| customer.customer_id == request.subscription_id)
                    .ok_or_else(unknown_customer)?;
                if customer.plan_id != request.hash {
                    return Err(wrong_hash());
                }
            }
            other => {
                return Err(Refusal::bad_request(STYLE, "UNKNOWN_PARTNER", format!("partner {other:?} is not known")));
            }
        }
        if let Some(existing) = w.hash_subscription(&request.partner, &request.subscription_id, &request.msisdn) {
            return Ok(existing.subscription_id.clone());
        }
        Ok(w.subscribe(Subscription {
            partner: Some(request.partner.clone()),
            hash: Some(request.hash.clone()),
            partner_subscription_id: Some(request.subscription_id.clone()),
            email: request.email.clone(),
            brand: Some(brand.as_str()),
            ..Subscription::new("hash", &request.msisdn, now)
        }))
    })?;
    Ok(Json(json!({ "subscription_id": id, "status": "ACTIVE" })))
}

/// The broadband partner's customer behind the code its OAuth page returned.
async fn customer_about(
    State(state): State<SandboxState>,
    Path(code): Path<String>,
    headers: HeaderMap,
) -> Result<Json<Value>, Refusal> {
    headers::client(&headers)?;
    let now = state.now();
    let customer = state.with(|w| w.customer_for_code(&code, now));
    if code == scenarios::CUSTOMER_WITHOUT_COVERAGE || customer.as_ref().is_some_and(|c| !c.covered) {
        return Err(Refusal::new(
            STYLE,
            StatusCode::NOT_FOUND,
            "CUSTOMER_NOT_ELIGIBLE",
            "this subscription has no EXA Segurança coverage",
        ));
    }
    let customer = customer
        .ok_or_else(|| Refusal::new(STYLE, StatusCode::NOT_FOUND, "CUSTOMER_NOT_FOUND", "no customer for this code"))?;
    Ok(Json(json!({ "customer_id": customer.customer_id, "name": customer.name })))
}

async fn packs(State(state): State<SandboxState>, headers: HeaderMap) -> Result<Json<Value>, Refusal> {
    headers::client(&headers)?;
    let token = headers::required_bearer(&headers, STYLE)?;
    let now = state.now();
    let claims = state.with(|w| w.claims(token, &[TokenKind::Id], now, STYLE))?;
    let national = claims.msisdn.as_deref().and_then(super::br_ids::msisdn_national).unwrap_or_default();
    let products: Vec<Value> = scenarios::packs(national)
        .into_iter()
        .enumerate()
        .map(|(n, items)| {
            json!({
                "id": format!("pack-{}", n + 1),
                "name": format!("Pacote {}", n + 1),
                "items": items.iter().map(|name| json!({ "name": name, "description": describe(name) })).collect::<Vec<_>>(),
            })
        })
        .collect();
    Ok(Json(json!({ "products": products })))
}

fn describe(item: &str) -> &'static str {
    match item {
        "FS" => "EXA Segurança",
        "CL" => "EXA Cloud",
        "PAR" => "Gestão Digital (controle parental)",
        "EXAGES" => "Gestão Digital",
        _ => "",
    }
}
