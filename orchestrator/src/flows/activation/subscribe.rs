//! After a valid code: subscribe by serial (standard, insurance, partner portal) or by the
//! partner's hash (broadband and telecom partners). Both carry the step's idempotency key, so a
//! retry never subscribes twice.

use events::flows::activation::{ActivationEvent, ActivationState, ActivationStep, Refused, Variant};
use reqwest::Method;
use serde_json::json;

use super::client::{url, Auth, Call};
use super::{bff_base, brand, failed, open};
use crate::config::PartnerConfig;
use crate::runner::StepContext;
use crate::runner::StepError;

/// `POST /bff/api/v2/subscription/subscribe-serial`; 404 is the spec's "serial not found".
pub async fn by_serial(ctx: &StepContext, state: &ActivationState, key: &str) -> Result<ActivationEvent, StepError> {
    let Some(serial) = state.serial.as_deref() else {
        return Ok(failed(ActivationStep::SubscribeSerial, None));
    };
    let msisdn = open(ctx, state.phone.as_ref(), "phone").await?;
    let target = url(bff_base(ctx, state), "/bff/api/v2/subscription/subscribe-serial")?;
    let answer = Call::new(&ctx.http, &ctx.upstreams, Method::POST, target, Auth::Partner, brand(state))
        .idempotent(key)
        .json(&json!({ "serial": serial, "msisdn": msisdn }))
        .send()
        .await?;
    Ok(match answer.status {
        _ if answer.ok() => ActivationEvent::Subscribed {},
        404 => ActivationEvent::SerialNotFound(Refused { status: Some(404) }),
        status => failed(ActivationStep::SubscribeSerial, Some(status)),
    })
}

/// `POST /bff/api/v2/subscription/subscribe-by-hash`: the broadband partner's fixed plan hash
/// and customer id, or the telecom partner's plan id, customer id and e-mail.
pub async fn by_hash(ctx: &StepContext, state: &ActivationState, partners: &PartnerConfig, key: &str) -> Result<ActivationEvent, StepError> {
    let Some(customer_id) = state.customer_id.as_deref() else {
        return Ok(failed(ActivationStep::SubscribeByHash, None));
    };
    let msisdn = open(ctx, state.phone.as_ref(), "phone").await?;
    let body = match state.variant {
        Some(Variant::Telecom) => {
            let Some(plan_id) = state.plan_id.as_deref() else {
                return Ok(failed(ActivationStep::SubscribeByHash, None));
            };
            let email = open(ctx, state.email.as_ref(), "e-mail").await?;
            json!({
                "partner": partners.telecom_partner,
                "msisdn": msisdn,
                "hash": plan_id,
                "subscription_id": customer_id,
                "email": email,
            })
        }
        _ => json!({
            "partner": partners.broadband_partner,
            "msisdn": msisdn,
            "hash": partners.broadband_plan_hash,
            "subscription_id": customer_id,
        }),
    };
    let target = url(bff_base(ctx, state), "/bff/api/v2/subscription/subscribe-by-hash")?;
    let answer = Call::new(&ctx.http, &ctx.upstreams, Method::POST, target, Auth::Partner, brand(state))
        .idempotent(key)
        .json(&body)
        .send()
        .await?;
    Ok(if answer.ok() { ActivationEvent::Subscribed {} } else { failed(ActivationStep::SubscribeByHash, Some(answer.status)) })
}
