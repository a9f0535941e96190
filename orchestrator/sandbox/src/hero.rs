//! The telecom partner's API: log in by e-mail (token and customer id), then read the account's
//! plan id, which the activation passes to `subscribe-by-hash` as its hash.

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{json, Value};

use super::credentials;
use super::error::{json_body, Refusal, Style};
use super::headers;
use super::intercept::tracked;
use super::records::partners::HeroCustomer;
use super::records::tokens::{Claims, TokenKind};
use super::scenarios;
use super::state::SandboxState;

const STYLE: Style = Style::Partner;

pub fn routes(state: &SandboxState) -> Router<SandboxState> {
    Router::new()
        .route("/api/hero/auth/login", tracked(state, "hero.login", post(login)))
        .route("/api/hero/accounts/info", tracked(state, "hero.account-info", get(account_info)))
}

fn check_api_key(headers: &HeaderMap) -> Result<(), Refusal> {
    if headers::required(headers, headers::API_KEY, STYLE)? == credentials::HERO_API_KEY {
        Ok(())
    } else {
        Err(Refusal::new(STYLE, StatusCode::UNAUTHORIZED, "INVALID_API_KEY", "X-Api-Key is not valid"))
    }
}

fn is_email(text: &str) -> bool {
    match text.split_once('@') {
        Some((local, domain)) => {
            !local.is_empty() && domain.contains('.') && !domain.starts_with('.') && !text.contains(char::is_whitespace)
        }
        None => false,
    }
}

#[derive(Deserialize)]
struct Login {
    login: String,
}

async fn login(State(state): State<SandboxState>, headers: HeaderMap, body: Bytes) -> Result<Json<Value>, Refusal> {
    check_api_key(&headers)?;
    let Login { login } = json_body(STYLE, &headers, &body)?;
    let email = login.trim().to_lowercase();
    if !is_email(&email) {
        return Err(Refusal::bad_request(STYLE, "INVALID_LOGIN", "login must be an e-mail address"));
    }
    if scenarios::is_without_subscription(&email) {
        return Err(Refusal::new(
            STYLE,
            StatusCode::NOT_FOUND,
            "SUBSCRIPTION_NOT_FOUND",
            "Não identificamos uma assinatura ativa para este e-mail.",
        ));
    }
    let now = state.now();
    let (token, customer_id) = state.with(|w| {
        let customer = match w.hero_customers.get(&email) {
            Some(customer) => customer.clone(),
            None => {
                let customer = HeroCustomer {
                    customer_id: format!("AGL-{}", w.digits(8)),
                    email: email.clone(),
                    plan_id: w.token("plan-"),
                };
                w.hero_customers.insert(email.clone(), customer.clone());
                customer
            }
        };
        let claims = Claims { subject: Some(email.clone()), ..Claims::default() };
        (w.issue_token(TokenKind::Hero, claims, now), customer.customer_id)
    });
    Ok(Json(json!({ "token": token, "customer_id": customer_id })))
}

async fn account_info(State(state): State<SandboxState>, headers: HeaderMap) -> Result<Json<Value>, Refusal> {
    check_api_key(&headers)?;
    let token = headers::required_bearer(&headers, STYLE)?;
    let now = state.now();
    let customer = state.with(|w| {
        let claims = w.claims(token, &[TokenKind::Hero], now, STYLE)?;
        claims
            .subject
            .and_then(|email| w.hero_customers.get(&email).cloned())
            .ok_or_else(|| Refusal::new(STYLE, StatusCode::UNAUTHORIZED, "INVALID_TOKEN", "token has no customer"))
    })?;
    Ok(Json(json!({
        "customer_id": customer.customer_id,
        "email": customer.email,
        "plan": { "id": customer.plan_id, "name": "EXA Segurança" },
    })))
}

#[cfg(test)]
mod tests {
    use super::is_email;

    #[test]
    fn e_mail_shape() {
        assert!(is_email("ana@exemplo.test"));
        assert!(!is_email("ana"));
        assert!(!is_email("@exemplo.test"));
        assert!(!is_email("ana@exemplo"));
        assert!(!is_email("a na@exemplo.test"));
    }
}
