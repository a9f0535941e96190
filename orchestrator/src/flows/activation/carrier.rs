//! The carrier flow: client-credentials token, CPF/CNPJ authorization before the code; after
//! it, authorize with the auth and merge tokens, sign in with the identity provider, packs.

use std::time::Duration;

use events::flows::activation::{ActivationEvent, ActivationState, ActivationStep, Brand, DocumentKind, Products, Refused};
use reqwest::{Method, Url};
use secrecy::ExposeSecret;
use serde_json::{json, Value};

use super::client::{url, Auth, Call};
use super::{bff_base, brand, failed, get_secret, open, put_secret, secret, HOUR, MINUTES_15};
use crate::runner::StepContext;
use crate::runner::StepError;

/// `POST /auth/v1/token` (client credentials in the body); the access token stays server-side.
pub async fn token(ctx: &StepContext, state: &ActivationState, key: &str) -> Result<ActivationEvent, StepError> {
    let target = url(&ctx.upstreams.urls.sso, "/auth/v1/token")?;
    let body = json!({
        "clientId": ctx.upstreams.client_id,
        "clientSecret": ctx.upstreams.client_secret.expose_secret(),
        "grantType": "client_credentials",
    });
    let answer = Call::new(&ctx.http, &ctx.upstreams, Method::POST, target, Auth::Caller, brand(state))
        .idempotent(key)
        .json(&body)
        .send()
        .await?;
    match answer.text("/accessToken") {
        Some(token) if answer.ok() => {
            let seconds = answer.body.get("expiresIn").and_then(Value::as_u64).unwrap_or(3600).clamp(60, 86_400);
            put_secret(ctx, secret::ACCESS_TOKEN, &token, Duration::from_secs(seconds)).await?;
            Ok(ActivationEvent::CarrierTokenObtained {})
        }
        _ => Ok(failed(ActivationStep::CarrierToken, Some(answer.status))),
    }
}

/// `POST /authorization/api/v1/authorize/cpf` or `/cnpj`; a refusal is the spec's authorize error.
pub async fn authorize_document(ctx: &StepContext, state: &ActivationState, key: &str) -> Result<ActivationEvent, StepError> {
    let Some(kind) = state.document_kind else {
        return Ok(failed(ActivationStep::AuthorizeDocument, None));
    };
    let Some(access) = get_secret(ctx, secret::ACCESS_TOKEN).await? else {
        return Ok(failed(ActivationStep::AuthorizeDocument, None));
    };
    let document = open(ctx, state.document.as_ref(), "CPF/CNPJ").await?;
    let (path, body) = match kind {
        DocumentKind::Cpf => ("/authorization/api/v1/authorize/cpf", json!({ "cpf": document })),
        DocumentKind::Cnpj => ("/authorization/api/v1/authorize/cnpj", json!({ "cnpj": document })),
    };
    let target = url(&ctx.upstreams.urls.partner_api, path)?;
    let answer = Call::new(&ctx.http, &ctx.upstreams, Method::POST, target, Auth::Partner, brand(state))
        .bearer(&access)
        .idempotent(key)
        .json(&body)
        .send()
        .await?;
    if answer.status == 401 {
        // Our access token was refused: not the visitor's document.
        return Ok(failed(ActivationStep::AuthorizeDocument, Some(401)));
    }
    match answer.text("/fs-auth-token") {
        Some(token) if answer.ok() => {
            put_secret(ctx, secret::FS_AUTH_TOKEN, &token, MINUTES_15).await?;
            Ok(ActivationEvent::DocumentAuthorized { kind })
        }
        _ if !answer.ok() => Ok(ActivationEvent::DocumentRefused(Refused { status: Some(answer.status) })),
        _ => Ok(failed(ActivationStep::AuthorizeDocument, Some(answer.status))),
    }
}

/// `POST /authorization/api/v1/authorize` with the CPF/CNPJ's token and the validated phone's
/// (merge) token. `extref_fixo` is true for a fixed-line brand only; none of ours is.
pub async fn authorize(ctx: &StepContext, state: &ActivationState, key: &str) -> Result<ActivationEvent, StepError> {
    let merge = get_secret(ctx, secret::FS_CUSTOM_TOKEN).await?;
    let auth = get_secret(ctx, secret::FS_AUTH_TOKEN).await?;
    let (Some(merge), Some(auth)) = (merge, auth) else {
        return Ok(failed(ActivationStep::Authorize, None));
    };
    let mut target = url(&ctx.upstreams.urls.partner_api, "/authorization/api/v1/authorize")?;
    target.query_pairs_mut().append_pair("extref_fixo", "false").append_pair("data_validated", "true");
    let answer = Call::new(&ctx.http, &ctx.upstreams, Method::POST, target, Auth::Partner, brand(state))
        .idempotent(key)
        .json(&json!({ "fs-auth-token": auth, "fs-merge-token": merge }))
        .send()
        .await?;
    match answer.text("/authorization/custom_token") {
        Some(token) if answer.ok() => {
            put_secret(ctx, secret::CUSTOM_TOKEN, &token, HOUR).await?;
            Ok(ActivationEvent::AuthorizationGranted {})
        }
        _ if !answer.ok() => Ok(ActivationEvent::AuthorizationRefused(Refused { status: Some(answer.status) })),
        _ => Ok(failed(ActivationStep::Authorize, Some(answer.status))),
    }
}

/// The identity provider's `verifyCustomToken`, with the key of the attempt's brand.
pub async fn verify_token(ctx: &StepContext, state: &ActivationState, key: &str) -> Result<ActivationEvent, StepError> {
    let Some(custom) = get_secret(ctx, secret::CUSTOM_TOKEN).await? else {
        return Ok(failed(ActivationStep::VerifyToken, None));
    };
    let api_key = match brand(state) {
        Brand::Tim => ctx.upstreams.identity_key_tim.expose_secret(),
        Brand::Default | Brand::Agility => ctx.upstreams.identity_key_default.expose_secret(),
    };
    let base = url(&ctx.upstreams.urls.identity, "/v1/verifyCustomToken")?;
    let target = Url::parse_with_params(base.as_str(), [("key", api_key)])
        .map_err(|e| StepError::Transient(format!("identity URL: {e}")))?;
    let answer = Call::new(&ctx.http, &ctx.upstreams, Method::POST, target, Auth::None, brand(state))
        .idempotent(key)
        .json(&json!({ "token": custom, "returnSecureToken": true }))
        .send()
        .await?;
    match answer.text("/idToken") {
        Some(id_token) if answer.ok() => {
            put_secret(ctx, secret::ID_TOKEN, &id_token, HOUR).await?;
            Ok(ActivationEvent::IdentityVerified {})
        }
        _ => Ok(failed(ActivationStep::VerifyToken, Some(answer.status))),
    }
}

/// Item names of `products[].items[].name`.
pub fn item_names(body: &Value) -> Vec<String> {
    body.get("products")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|pack| pack.get("items").and_then(Value::as_array))
        .flatten()
        .filter_map(|item| item.get("name").and_then(Value::as_str))
        .map(str::to_string)
        .collect()
}

/// `GET /bff/api/v2/packs` with the id token: the products the plan grants.
pub async fn fetch_packs(ctx: &StepContext, state: &ActivationState) -> Result<ActivationEvent, StepError> {
    let Some(id_token) = get_secret(ctx, secret::ID_TOKEN).await? else {
        return Ok(failed(ActivationStep::FetchPacks, None));
    };
    let target = url(bff_base(ctx, state), "/bff/api/v2/packs")?;
    let answer = Call::new(&ctx.http, &ctx.upstreams, Method::GET, target, Auth::Partner, brand(state))
        .bearer(&id_token)
        .send()
        .await?;
    if !answer.ok() {
        return Ok(failed(ActivationStep::FetchPacks, Some(answer.status)));
    }
    let items = item_names(&answer.body);
    let products = Products::from_item_names(items.iter().map(String::as_str));
    Ok(ActivationEvent::PacksFetched { items, products })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pack_items_are_read_from_every_pack() {
        let body = json!({"products": [
            {"items": [{"name": "FS"}, {"name": "CL"}]},
            {"items": [{"name": "EXAGES"}]},
            {"name": "no items"}
        ]});
        assert_eq!(item_names(&body), vec!["FS", "CL", "EXAGES"]);
        assert!(item_names(&json!({})).is_empty());
    }
}
