//! The SMS code: send (and resend) it, then validate what the visitor typed.

use events::flows::activation::{ActivationEvent, ActivationState, ActivationStep, CodeRefusal, Refused};
use reqwest::Method;
use serde_json::json;

use super::client::{url, Auth, Call};
use super::{brand, failed, get_secret, open, put_secret, secret, MINUTES_15};
use crate::runner::StepContext;
use crate::runner::StepError;

/// `POST /authentication/v1/send`; the transaction id stays server-side.
pub async fn send(ctx: &StepContext, state: &ActivationState, key: &str) -> Result<ActivationEvent, StepError> {
    let msisdn = open(ctx, state.phone.as_ref(), "phone").await?;
    let target = url(&ctx.upstreams.urls.partner_api, "/authentication/v1/send")?;
    let answer = Call::new(&ctx.http, &ctx.upstreams, Method::POST, target, Auth::Partner, brand(state))
        .idempotent(key)
        .json(&json!({ "msisdn": msisdn }))
        .send()
        .await?;
    match answer.text("/transaction_id") {
        Some(transaction) if answer.ok() => {
            put_secret(ctx, secret::TRANSACTION_ID, &transaction, MINUTES_15).await?;
            Ok(ActivationEvent::CodeSent { resend: state.resending })
        }
        _ => Ok(ActivationEvent::CodeSendFailed(Refused { status: Some(answer.status) })),
    }
}

/// Spec section 8: 403 invalid or expired, 406 too many attempts, anything else wrong.
pub fn refusal_for(status: u16) -> CodeRefusal {
    match status {
        403 => CodeRefusal::Expired,
        406 => CodeRefusal::Locked,
        _ => CodeRefusal::Wrong,
    }
}

/// `POST /authentication/v1/validate`; the `fs-custom-token` stays server-side.
pub async fn validate(ctx: &StepContext, state: &ActivationState, key: &str) -> Result<ActivationEvent, StepError> {
    let Some(field) = state.pincode.as_ref() else {
        return Ok(failed(ActivationStep::ValidateCode, None));
    };
    let pincode = ctx.reveal(field).await?;
    let pincode = pincode.as_str();
    // The transaction lived 15 minutes, like its code: past that the code is expired.
    let Some(transaction) = get_secret(ctx, secret::TRANSACTION_ID).await? else {
        return Ok(ActivationEvent::CodeRejected { reason: CodeRefusal::Expired, status: None });
    };
    let target = url(&ctx.upstreams.urls.partner_api, "/authentication/v1/validate")?;
    let answer = Call::new(&ctx.http, &ctx.upstreams, Method::POST, target, Auth::Partner, brand(state))
        .idempotent(key)
        .json(&json!({ "transaction_id": transaction, "pincode": pincode }))
        .send()
        .await?;
    if !answer.ok() {
        return Ok(ActivationEvent::CodeRejected { reason: refusal_for(answer.status), status: Some(answer.status) });
    }
    match answer.text("/fs-custom-token") {
        Some(token) => {
            put_secret(ctx, secret::FS_CUSTOM_TOKEN, &token, MINUTES_15).await?;
            Ok(ActivationEvent::CodeValidated {})
        }
        None => Ok(failed(ActivationStep::ValidateCode, Some(answer.status))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn code_statuses_map_to_the_spec_reasons() {
        assert_eq!(refusal_for(403), CodeRefusal::Expired);
        assert_eq!(refusal_for(406), CodeRefusal::Locked);
        assert_eq!(refusal_for(404), CodeRefusal::Wrong);
        assert_eq!(refusal_for(400), CodeRefusal::Wrong);
        assert_eq!(refusal_for(500), CodeRefusal::Wrong);
    }
}
