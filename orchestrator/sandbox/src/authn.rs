//! The partner API's authentication (send and validate an SMS code) and authorization
//! (authorize, by CPF, by CNPJ), and the SSO's client-credentials token.

use axum::body::Bytes;
use axum::extract::{Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::routing::post;
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{json, Value};

use super::br_ids;
use super::codes;
use super::credentials;
use super::error::{json_body, Refusal, Style};
use super::headers::{self, Brand};
use super::intercept::tracked;
use super::records::codes::Channel;
use super::records::tokens::{Claims, TokenKind};
use super::scenarios;
use super::state::SandboxState;

const STYLE: Style = Style::Partner;

pub fn partner_api_routes(state: &SandboxState) -> Router<SandboxState> {
    Router::new()
        .route("/authentication/v1/send", tracked(state, "partner-api.authentication-send", post(send)))
        .route("/authentication/v1/validate", tracked(state, "partner-api.authentication-validate", post(validate)))
        .route("/authorization/api/v1/authorize", tracked(state, "partner-api.authorize", post(authorize)))
        .route("/authorization/api/v1/authorize/cpf", tracked(state, "partner-api.authorize-cpf", post(authorize_cpf)))
        .route(
            "/authorization/api/v1/authorize/cnpj",
            tracked(state, "partner-api.authorize-cnpj", post(authorize_cnpj)),
        )
}

pub fn sso_routes(state: &SandboxState) -> Router<SandboxState> {
    Router::new().route("/auth/v1/token", tracked(state, "sso.token", post(token)))
}

/// A valid `55DDNNNNNNNNN`, or 400 `INVALID_MSISDN`; returns the national digits.
pub fn msisdn(value: &str, style: Style) -> Result<&str, Refusal> {
    br_ids::msisdn_national(value)
        .ok_or_else(|| Refusal::bad_request(style, "INVALID_MSISDN", "msisdn must be 55 + DDD + a mobile number"))
}

#[derive(Deserialize)]
struct Send {
    msisdn: String,
}

async fn send(State(state): State<SandboxState>, headers: HeaderMap, body: Bytes) -> Result<Json<Value>, Refusal> {
    headers::client(&headers)?;
    let request: Send = json_body(STYLE, &headers, &body)?;
    let national = msisdn(&request.msisdn, STYLE)?;
    if national == scenarios::SEND_CODE_FAILS {
        return Err(Refusal::new(
            STYLE,
            StatusCode::INTERNAL_SERVER_ERROR,
            "SMS_PROVIDER_ERROR",
            "the SMS could not be sent",
        ));
    }
    let now = state.now();
    let transaction_id = state.with(|w| w.send_code(Channel::Activation, &request.msisdn, now));
    Ok(Json(json!({ "transaction_id": transaction_id })))
}

#[derive(Deserialize)]
struct Validate {
    transaction_id: String,
    pincode: String,
}

async fn validate(State(state): State<SandboxState>, headers: HeaderMap, body: Bytes) -> Result<Json<Value>, Refusal> {
    let brand = headers::client(&headers)?;
    let request: Validate = json_body(STYLE, &headers, &body)?;
    let now = state.now();
    let msisdn = codes::verify(&state, Channel::Activation, &request.transaction_id, &request.pincode, now, STYLE)?;
    let claims = Claims { msisdn: Some(msisdn), brand: Some(brand), subject: None };
    let token = state.with(|w| w.issue_token(TokenKind::FsCustom, claims, now));
    Ok(Json(json!({ "fs-custom-token": token })))
}

#[derive(Deserialize)]
struct AuthorizeQuery {
    extref_fixo: Option<String>,
    data_validated: Option<String>,
}

fn flag(value: Option<&str>, name: &str) -> Result<bool, Refusal> {
    match value {
        Some("true") => Ok(true),
        Some("false") => Ok(false),
        _ => Err(Refusal::bad_request(STYLE, "INVALID_QUERY", format!("query {name} must be true or false"))),
    }
}

#[derive(Deserialize)]
struct Authorize {
    #[serde(rename = "fs-auth-token")]
    auth_token: String,
    #[serde(rename = "fs-merge-token")]
    merge_token: Option<String>,
}

async fn authorize(
    State(state): State<SandboxState>,
    Query(query): Query<AuthorizeQuery>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Json<Value>, Refusal> {
    let brand = headers::client(&headers)?;
    // Both flags are part of the contract; the sandbox's answer does not depend on them.
    flag(query.extref_fixo.as_deref(), "extref_fixo")?;
    flag(query.data_validated.as_deref(), "data_validated")?;
    let request: Authorize = json_body(STYLE, &headers, &body)?;
    let now = state.now();
    let custom_token = state.with(|w| {
        let auth = w.claims(&request.auth_token, &[TokenKind::FsCustom, TokenKind::FsAuth], now, STYLE)?;
        // The merge token is the phone's own proof: the code just validated.
        let merge = match &request.merge_token {
            Some(token) => Some(w.claims(token, &[TokenKind::FsCustom], now, STYLE)?),
            None => None,
        };
        let msisdn = merge.and_then(|claims| claims.msisdn).or(auth.msisdn);
        let national = msisdn.as_deref().and_then(br_ids::msisdn_national);
        if national == Some(scenarios::AUTHORIZE_REFUSED) {
            return Err(Refusal::new(
                STYLE,
                StatusCode::FORBIDDEN,
                "PRODUCT_NOT_REGISTERED",
                "no product registered for this customer",
            ));
        }
        let claims = Claims { msisdn, brand: Some(brand), subject: auth.subject };
        Ok(w.issue_token(TokenKind::Custom, claims, now))
    })?;
    Ok(Json(json!({ "authorization": { "custom_token": custom_token } })))
}

#[derive(Deserialize)]
struct ByCpf {
    cpf: String,
}

#[derive(Deserialize)]
struct ByCnpj {
    cnpj: String,
}

/// The carrier's calls also carry the SSO access token as bearer.
fn carrier_access(state: &SandboxState, headers: &HeaderMap) -> Result<Brand, Refusal> {
    let brand = headers::client(headers)?;
    let token = headers::required_bearer(headers, STYLE)?;
    let now = state.now();
    state.with(|w| w.claims(token, &[TokenKind::Access], now, STYLE))?;
    Ok(brand)
}

async fn authorize_cpf(
    State(state): State<SandboxState>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Json<Value>, Refusal> {
    let brand = carrier_access(&state, &headers)?;
    let ByCpf { cpf } = json_body(STYLE, &headers, &body)?;
    if !br_ids::is_valid_cpf(&cpf) {
        return Err(Refusal::bad_request(STYLE, "INVALID_CPF", "cpf must be 11 digits with valid check digits"));
    }
    if cpf == scenarios::CPF_REFUSED {
        return Err(Refusal::new(STYLE, StatusCode::FORBIDDEN, "CPF_NOT_AUTHORIZED", "this CPF has no active plan"));
    }
    Ok(Json(json!({ "fs-auth-token": document_token(&state, brand, cpf) })))
}

async fn authorize_cnpj(
    State(state): State<SandboxState>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Json<Value>, Refusal> {
    let brand = carrier_access(&state, &headers)?;
    let ByCnpj { cnpj } = json_body(STYLE, &headers, &body)?;
    if !br_ids::is_valid_cnpj(&cnpj) {
        return Err(Refusal::bad_request(STYLE, "INVALID_CNPJ", "cnpj must be 14 digits with valid check digits"));
    }
    Ok(Json(json!({ "fs-auth-token": document_token(&state, brand, cnpj) })))
}

fn document_token(state: &SandboxState, brand: Brand, document: String) -> String {
    let now = state.now();
    let claims = Claims { msisdn: None, brand: Some(brand), subject: Some(document) };
    state.with(|w| w.issue_token(TokenKind::FsAuth, claims, now))
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct TokenRequest {
    client_id: String,
    client_secret: String,
    grant_type: String,
}

async fn token(State(state): State<SandboxState>, headers: HeaderMap, body: Bytes) -> Result<Json<Value>, Refusal> {
    let brand = headers::caller(&headers)?;
    let request: TokenRequest = json_body(STYLE, &headers, &body)?;
    if request.grant_type != "client_credentials" {
        return Err(Refusal::bad_request(STYLE, "UNSUPPORTED_GRANT_TYPE", "grantType must be client_credentials"));
    }
    if request.client_id != credentials::CLIENT_ID || request.client_secret != credentials::CLIENT_SECRET {
        return Err(Refusal::new(
            STYLE,
            StatusCode::UNAUTHORIZED,
            "INVALID_CLIENT",
            "client credentials are not valid",
        ));
    }
    let now = state.now();
    let claims = Claims { brand: Some(brand), ..Claims::default() };
    let access_token = state.with(|w| w.issue_token(TokenKind::Access, claims, now));
    Ok(Json(json!({
        "tokenType": "Bearer",
        "expiresIn": TokenKind::Access.ttl().num_seconds(),
        "accessToken": access_token,
    })))
}
