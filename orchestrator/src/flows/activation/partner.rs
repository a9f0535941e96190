//! Before the form: the broadband partner's OAuth link and customer look-up, the telecom
//! partner's login and account.

use std::time::Duration;

use events::flows::activation::{ActivationEvent, ActivationState, ActivationStep, Refused};
use rand::RngCore;
use reqwest::{Method, Url};
use serde_json::json;

use super::client::{url, Auth, Call};
use super::{bff_base, brand, failed, get_secret, open, put_secret, secret, HOUR};
use crate::runner::StepContext;
use crate::runner::StepError;

/// Builds the partner OAuth authorization URL (client id, return page, scope offline, a random
/// state kept in the attempt's secrets).
pub async fn prepare_login(ctx: &StepContext, state: &ActivationState) -> Result<ActivationEvent, StepError> {
    let Some(return_url) = state.return_url.as_deref() else {
        return Ok(failed(ActivationStep::PreparePartnerLogin, None));
    };
    let mut nonce = [0u8; 16];
    rand::rngs::OsRng.fill_bytes(&mut nonce);
    let nonce = hex::encode(nonce);
    put_secret(ctx, secret::OAUTH_STATE, &nonce, Duration::from_secs(30 * 60)).await?;
    let base = url(&ctx.upstreams.urls.oauth, "/authorize")?;
    let authorize = Url::parse_with_params(
        base.as_str(),
        [
            ("client_id", ctx.upstreams.oauth_client_id.as_str()),
            ("redirect_uri", return_url),
            // The portal reads `?code=` on its way back (docs/activation-flow.md).
            ("response_type", "code"),
            ("scope", "offline"),
            ("state", nonce.as_str()),
        ],
    )
    .map_err(|e| StepError::Transient(format!("authorization URL: {e}")))?;
    Ok(ActivationEvent::PartnerLoginPrepared { authorize_url: authorize.to_string() })
}

/// `GET /bff/api/v2/brisanet/customer/about/{code}`: any refusal is the spec's look-up failure.
pub async fn look_up_customer(ctx: &StepContext, state: &ActivationState) -> Result<ActivationEvent, StepError> {
    let Some(field) = state.partner_code.as_ref() else {
        return Ok(failed(ActivationStep::LookUpCustomer, None));
    };
    let code = ctx.reveal(field).await?;
    let code = code.as_str();
    let mut target = url(bff_base(ctx, state), "/bff/api/v2/brisanet/customer/about/")?;
    target
        .path_segments_mut()
        .map_err(|_| StepError::Transient("BFF base URL cannot take a path".into()))?
        .pop_if_empty()
        .push(code);
    let answer = Call::new(&ctx.http, &ctx.upstreams, Method::GET, target, Auth::Partner, brand(state)).send().await?;
    match answer.text("/customer_id") {
        Some(customer_id) if answer.ok() => Ok(ActivationEvent::CustomerFound { customer_id }),
        _ => Ok(ActivationEvent::CustomerNotFound(Refused { status: Some(answer.status) })),
    }
}

/// `POST /api/hero/auth/login` with the e-mail; the token stays server-side.
pub async fn log_in(ctx: &StepContext, state: &ActivationState, key: &str) -> Result<ActivationEvent, StepError> {
    let email = open(ctx, state.email.as_ref(), "e-mail").await?;
    let target = url(&ctx.upstreams.urls.hero, "/api/hero/auth/login")?;
    let answer = Call::new(&ctx.http, &ctx.upstreams, Method::POST, target, Auth::ApiKey, brand(state))
        .idempotent(key)
        .json(&json!({ "login": email }))
        .send()
        .await?;
    if !answer.ok() {
        return Ok(ActivationEvent::PartnerLoginRefused(Refused { status: Some(answer.status) }));
    }
    match (answer.text("/token"), answer.text("/customer_id")) {
        (Some(token), Some(customer_id)) => {
            put_secret(ctx, secret::HERO_TOKEN, &token, HOUR).await?;
            Ok(ActivationEvent::PartnerLoggedIn { customer_id })
        }
        _ => Ok(failed(ActivationStep::PartnerLogin, Some(answer.status))),
    }
}

/// `GET /api/hero/accounts/info`: the plan id the subscription uses as its hash.
pub async fn fetch_account(ctx: &StepContext, state: &ActivationState) -> Result<ActivationEvent, StepError> {
    let Some(token) = get_secret(ctx, secret::HERO_TOKEN).await? else {
        return Ok(failed(ActivationStep::FetchAccount, None));
    };
    let target = url(&ctx.upstreams.urls.hero, "/api/hero/accounts/info")?;
    let answer = Call::new(&ctx.http, &ctx.upstreams, Method::GET, target, Auth::ApiKey, brand(state))
        .bearer(&token)
        .send()
        .await?;
    match answer.text("/plan/id") {
        Some(plan_id) if answer.ok() => Ok(ActivationEvent::PartnerPlanFound { plan_id }),
        _ => Ok(failed(ActivationStep::FetchAccount, Some(answer.status))),
    }
}
