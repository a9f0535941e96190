//! The broadband partner's OAuth provider: a consent page that sends the visitor back to the
//! portal with `?code=&state=`, the code-for-token exchange (PKCE S256 required, RFC 7636), and
//! the customer information.

use axum::extract::rejection::FormRejection;
use axum::extract::{Query, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Form, Json, Router};
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use chrono::{DateTime, Duration, Utc};
use reqwest::Url;
use serde::Deserialize;
use serde_json::{json, Value};
use sha2::{Digest, Sha256};

use super::credentials;
use super::error::{Refusal, Style};
use super::headers;
use super::html::{escape, page};
use super::intercept::tracked;
use super::records::partners::{BroadbandCustomer, OAuthGrant};
use super::records::tokens::{Claims, TokenKind};
use super::state::{SandboxState, World};

const STYLE: Style = Style::OAuth;
/// Authorization codes live ten minutes (RFC 6749 recommends at most that).
const CODE_TTL_MINUTES: i64 = 10;

pub fn routes(state: &SandboxState) -> Router<SandboxState> {
    Router::new()
        .route("/authorize", tracked(state, "oauth.authorize", get(authorize)))
        .route("/approve", tracked(state, "oauth.approve", get(approve)))
        .route("/token", tracked(state, "oauth.token", post(token)))
        .route("/customer", tracked(state, "oauth.customer", get(customer)))
}

impl World {
    /// The customer behind an unexpired code. The BFF's look-up may repeat for the same code:
    /// it keeps what the exchange gave it.
    pub fn customer_for_code(&self, code: &str, now: DateTime<Utc>) -> Option<BroadbandCustomer> {
        let grant = self.oauth_grants.get(code).filter(|grant| now < grant.expires_at)?;
        self.broadband_customers.get(&grant.customer_id).cloned()
    }
}

/// The S256 challenge of a PKCE verifier: BASE64URL(SHA-256(verifier)), unpadded.
pub fn pkce_challenge(verifier: &str) -> String {
    URL_SAFE_NO_PAD.encode(Sha256::digest(verifier.as_bytes()))
}

#[derive(Deserialize)]
struct AuthorizeParams {
    client_id: Option<String>,
    redirect_uri: Option<String>,
    response_type: Option<String>,
    scope: Option<String>,
    state: Option<String>,
    code_challenge: Option<String>,
    code_challenge_method: Option<String>,
    /// Only on `/approve`: which button the visitor pressed.
    customer: Option<String>,
}

struct Checked {
    redirect: Url,
    redirect_uri: String,
    state: String,
    code_challenge: String,
}

/// What a real provider checks before showing its consent page.
fn check(params: &AuthorizeParams) -> Result<Checked, &'static str> {
    if params.client_id.as_deref() != Some(credentials::OAUTH_CLIENT_ID) {
        return Err("Aplicativo desconhecido (client_id inválido).");
    }
    let redirect_uri = params.redirect_uri.clone().unwrap_or_default();
    let redirect = Url::parse(&redirect_uri)
        .ok()
        .filter(|url| matches!(url.scheme(), "http" | "https") && url.fragment().is_none())
        .ok_or("Endereço de retorno inválido (redirect_uri).")?;
    // The spec names response type token, yet the portal reads ?code=: both are accepted and
    // both answer with a code in the query.
    if !matches!(params.response_type.as_deref(), Some("code" | "token")) {
        return Err("Tipo de resposta não suportado (response_type).");
    }
    if !params.scope.as_deref().unwrap_or_default().split(' ').any(|scope| scope == "offline") {
        return Err("Escopo inválido: o portal deve pedir scope=offline.");
    }
    let state = params.state.clone().filter(|state| !state.is_empty()).ok_or("Parâmetro state ausente.")?;
    // PKCE is required of this public-facing client, and only the S256 method.
    let code_challenge = params
        .code_challenge
        .clone()
        .filter(|c| (43..=128).contains(&c.len()))
        .ok_or("Parâmetro code_challenge ausente ou inválido (PKCE).")?;
    if params.code_challenge_method.as_deref() != Some("S256") {
        return Err("Método de PKCE não suportado: use code_challenge_method=S256.");
    }
    Ok(Checked { redirect, redirect_uri, state, code_challenge })
}

fn error_page(message: &str) -> Response {
    let body = format!("<h1>Não foi possível continuar</h1>\n<p>{}</p>", escape(message));
    (StatusCode::BAD_REQUEST, page("Parceiro de banda larga", "", &body)).into_response()
}

async fn authorize(Query(params): Query<AuthorizeParams>) -> Response {
    if let Err(message) = check(&params) {
        return error_page(message);
    }
    let hidden: String = [
        ("client_id", &params.client_id),
        ("redirect_uri", &params.redirect_uri),
        ("response_type", &params.response_type),
        ("scope", &params.scope),
        ("state", &params.state),
        ("code_challenge", &params.code_challenge),
        ("code_challenge_method", &params.code_challenge_method),
    ]
    .iter()
    .map(|(name, value)| {
        format!("<input type=\"hidden\" name=\"{name}\" value=\"{}\">\n", escape(value.as_deref().unwrap_or_default()))
    })
    .collect();
    let body = format!(
        "<h1>Parceiro de banda larga</h1>\n\
         <p>O portal EXA quer confirmar a sua assinatura de internet para ativar o EXA Segurança.</p>\n\
         <p>Ambiente de testes: escolha o cliente com que deseja continuar.</p>\n\
         <form method=\"get\" action=\"approve\">\n{hidden}\
         <button type=\"submit\" name=\"customer\" value=\"com-cobertura\">Autorizar e continuar</button>\n\
         <button type=\"submit\" name=\"customer\" value=\"sem-cobertura\" class=\"secondary\">\
         Continuar como cliente sem cobertura</button>\n</form>"
    );
    page("Autorizar acesso - Parceiro de banda larga", "", &body).into_response()
}

async fn approve(State(state): State<SandboxState>, Query(params): Query<AuthorizeParams>) -> Response {
    let checked = match check(&params) {
        Ok(checked) => checked,
        Err(message) => return error_page(message),
    };
    let covered = params.customer.as_deref() != Some("sem-cobertura");
    let now = state.now();
    let code = state.with(|w| issue_grant(w, &checked, covered, now));
    let mut location = checked.redirect;
    location.query_pairs_mut().append_pair("code", &code).append_pair("state", &checked.state);
    (StatusCode::FOUND, [(header::LOCATION, location.to_string())]).into_response()
}

fn issue_grant(world: &mut World, checked: &Checked, covered: bool, now: DateTime<Utc>) -> String {
    let digits = world.digits(8);
    let customer = BroadbandCustomer {
        customer_id: format!("BRS-{digits}"),
        name: format!("Cliente Banda Larga {}", &digits[..4]),
        email: format!("cliente{digits}@banda-larga.test"),
        covered,
    };
    let code = world.token("oc-");
    world.oauth_grants.insert(
        code.clone(),
        OAuthGrant {
            customer_id: customer.customer_id.clone(),
            redirect_uri: checked.redirect_uri.clone(),
            expires_at: now + Duration::minutes(CODE_TTL_MINUTES),
            exchanged: false,
            code_challenge: checked.code_challenge.clone(),
        },
    );
    world.broadband_customers.insert(customer.customer_id.clone(), customer);
    code
}

#[derive(Deserialize)]
struct TokenForm {
    grant_type: Option<String>,
    code: Option<String>,
    redirect_uri: Option<String>,
    client_id: Option<String>,
    client_secret: Option<String>,
    code_verifier: Option<String>,
}

async fn token(
    State(state): State<SandboxState>,
    form: Result<Form<TokenForm>, FormRejection>,
) -> Result<Json<Value>, Refusal> {
    let Form(form) = form.map_err(|rejection| Refusal::bad_request(STYLE, "invalid_request", rejection.body_text()))?;
    if form.client_id.as_deref() != Some(credentials::OAUTH_CLIENT_ID)
        || form.client_secret.as_deref() != Some(credentials::OAUTH_CLIENT_SECRET)
    {
        return Err(Refusal::new(STYLE, StatusCode::UNAUTHORIZED, "invalid_client", "client authentication failed"));
    }
    if form.grant_type.as_deref() != Some("authorization_code") {
        return Err(Refusal::bad_request(STYLE, "unsupported_grant_type", "grant_type must be authorization_code"));
    }
    let now = state.now();
    let code = form.code.unwrap_or_default();
    let (access_token, refresh_token) = state.with(|w| {
        let invalid = || {
            Refusal::bad_request(
                STYLE,
                "invalid_grant",
                "code is invalid, expired, already used, for another redirect_uri or its code_verifier does not match",
            )
        };
        let grant = w.oauth_grants.get_mut(&code).ok_or_else(invalid)?;
        let verifier_matches =
            form.code_verifier.as_deref().is_some_and(|verifier| pkce_challenge(verifier) == grant.code_challenge);
        if grant.exchanged
            || now >= grant.expires_at
            || form.redirect_uri.as_deref() != Some(grant.redirect_uri.as_str())
            || !verifier_matches
        {
            return Err(invalid());
        }
        grant.exchanged = true;
        let claims = Claims { subject: Some(grant.customer_id.clone()), ..Claims::default() };
        Ok((w.issue_token(TokenKind::OAuthAccess, claims, now), w.token("sbx-oauth-refresh-")))
    })?;
    Ok(Json(json!({
        "access_token": access_token,
        "token_type": "Bearer",
        "expires_in": TokenKind::OAuthAccess.ttl().num_seconds(),
        "refresh_token": refresh_token,
        "scope": "offline",
    })))
}

async fn customer(State(state): State<SandboxState>, headers: HeaderMap) -> Result<Json<Value>, Refusal> {
    let token = headers::required_bearer(&headers, STYLE)?;
    let now = state.now();
    let customer = state.with(|w| {
        let claims = w.claims(token, &[TokenKind::OAuthAccess], now, STYLE)?;
        claims
            .subject
            .and_then(|id| w.broadband_customers.get(&id).cloned())
            .ok_or_else(|| Refusal::new(STYLE, StatusCode::UNAUTHORIZED, "invalid_token", "token has no customer"))
    })?;
    if !customer.covered {
        return Err(Refusal::new(
            STYLE,
            StatusCode::NOT_FOUND,
            "not_eligible",
            "this subscription has no EXA Segurança coverage",
        ));
    }
    Ok(Json(json!({ "customer_id": customer.customer_id, "name": customer.name, "email": customer.email })))
}
