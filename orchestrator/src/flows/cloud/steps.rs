//! The cloud flow's runner steps: each due step is one call to the cloud functions, its
//! outcome an event. Tokens go to the attempt's secrets, never into an event.

use std::time::Duration;

use async_trait::async_trait;
use events::flow::PlannedStep;
use events::flows::cloud::{CloudEvent, CloudFlow, CloudState, CloudStep, GENERIC_ERROR};
use secrecy::{ExposeSecret, SecretString};

use super::client::{CallError, CloudClient};
use crate::runner::StepError;
use crate::runner::{FlowSteps, StepContext};

/// Names of the attempt's secrets (`<flow>.<name>`, as in every flow).
pub mod secret {
    pub const FS_CUSTOM_TOKEN: &str = "cloud.fs_custom_token";
    pub const CUSTOM_TOKEN: &str = "cloud.custom_token";
    /// The upstream's id of the code it sent (never in an event: it would reach the browser).
    pub const TRANSACTION_ID: &str = "cloud.transaction_id";
}
use secret::{CUSTOM_TOKEN, FS_CUSTOM_TOKEN, TRANSACTION_ID};

/// The upstream's `fs_custom_token` lives 15 minutes; ours no longer.
const FS_TOKEN_TTL: Duration = Duration::from_secs(15 * 60);
const CUSTOM_TOKEN_TTL: Duration = Duration::from_secs(15 * 60);

pub struct CloudSteps;

/// What a refusal or a retry becomes: the message for the visitor (the upstream's, or the
/// flow's generic error when it gave none), or a runner retry.
fn refused_or_retry(error: CallError) -> Result<String, StepError> {
    match error {
        CallError::Refused { message, .. } => Ok(message.unwrap_or_else(|| GENERIC_ERROR.to_string())),
        CallError::Transient(reason) => Err(StepError::Transient(reason)),
    }
}

fn missing(what: &str) -> StepError {
    StepError::Transient(format!("the attempt has no {what}"))
}

impl CloudSteps {
    async fn msisdn(ctx: &StepContext, state: &CloudState) -> Result<String, StepError> {
        let phone = state.phone.as_ref().ok_or_else(|| missing("phone"))?;
        ctx.open(phone).await
    }
}

#[async_trait]
impl FlowSteps for CloudSteps {
    type F = CloudFlow;

    // Activated: nothing later needs a token.
    const FORGETS_SECRETS_WHEN_COMPLETED: bool = true;

    async fn run(
        &self,
        ctx: &StepContext,
        state: &CloudState,
        step: &PlannedStep,
        key: &str,
    ) -> Result<Vec<CloudEvent>, StepError> {
        let client = CloudClient::new(
            ctx.http.clone(),
            &ctx.upstreams.urls.cloud_functions,
            ctx.upstreams.timeout,
            ctx.calls.clone(),
        );
        let step_kind = CloudStep::from_name(&step.name)
            .ok_or_else(|| StepError::Transient(format!("unknown step {}", step.name)))?;
        let event = match step_kind {
            CloudStep::CheckPhone => match client.check_phone(&Self::msisdn(ctx, state).await?, key).await {
                Ok(()) => CloudEvent::PhoneChecked {},
                Err(error) => CloudEvent::PhoneRefused { message: refused_or_retry(error)? },
            },
            CloudStep::SendCode => match client.send_code(&Self::msisdn(ctx, state).await?, key).await {
                Ok(transaction_id) => {
                    ctx.keep_secret(TRANSACTION_ID, &SecretString::from(transaction_id), FS_TOKEN_TTL);
                    CloudEvent::CodeSent { transaction_id: None }
                }
                Err(error) => CloudEvent::CodeSendFailed { message: refused_or_retry(error)? },
            },
            CloudStep::ResendCode => match client.send_code(&Self::msisdn(ctx, state).await?, key).await {
                Ok(transaction_id) => {
                    ctx.keep_secret(TRANSACTION_ID, &SecretString::from(transaction_id), FS_TOKEN_TTL);
                    CloudEvent::CodeResent { transaction_id: None }
                }
                Err(error) => CloudEvent::ResendFailed { message: refused_or_retry(error)? },
            },
            CloudStep::ValidateCode => {
                // Kept in the secrets; attempts from before that carry it in their events.
                let transaction_id = match ctx.secret(TRANSACTION_ID).await? {
                    Some(kept) => kept.expose_secret().to_string(),
                    None => state.transaction_id.clone().ok_or_else(|| missing("transaction"))?,
                };
                let transaction_id = transaction_id.as_str();
                let pincode = ctx.reveal(state.pincode.as_ref().ok_or_else(|| missing("code"))?).await?;
                let pincode = pincode.as_str();
                match client.validate_code(transaction_id, pincode, key).await {
                    Ok(token) => {
                        ctx.keep_secret(FS_CUSTOM_TOKEN, &token, FS_TOKEN_TTL);
                        CloudEvent::CodeValidated {}
                    }
                    Err(error) => CloudEvent::CodeRejected { message: refused_or_retry(error)? },
                }
            }
            CloudStep::RegisterSerial => {
                let serial = ctx.open(state.serial.as_ref().ok_or_else(|| missing("serial"))?).await?;
                match client.register_serial(&serial, &Self::msisdn(ctx, state).await?, key).await {
                    Ok(()) => CloudEvent::SerialRegistered {},
                    Err(error) => CloudEvent::SerialRejected { message: refused_or_retry(error)? },
                }
            }
            CloudStep::GetCustomToken => {
                let Some(fs_token) = ctx.secret(FS_CUSTOM_TOKEN).await? else {
                    return Ok(vec![CloudEvent::CustomTokenFailed {
                        message: crate::texts::CLOUD_SESSION_LOST.into(),
                    }]);
                };
                match client.get_custom_token(&fs_token, key).await {
                    Ok(token) => {
                        ctx.keep_secret(CUSTOM_TOKEN, &token, CUSTOM_TOKEN_TTL);
                        CloudEvent::CustomTokenObtained {}
                    }
                    // Still provisioning: the wait was too short for the upstream's clock.
                    Err(CallError::Refused { code: Some(code), .. }) if code == "SERIAL_PROVISIONING" => {
                        return Err(StepError::Transient("serial still provisioning".into()));
                    }
                    Err(error) => CloudEvent::CustomTokenFailed { message: refused_or_retry(error)? },
                }
            }
            CloudStep::SignIn => {
                let Some(custom_token) = ctx.secret(CUSTOM_TOKEN).await? else {
                    return Ok(vec![CloudEvent::SignInFailed { message: crate::texts::CLOUD_SESSION_LOST.into() }]);
                };
                match client.sign_in_with_token(&custom_token, key).await {
                    // Activated: the id token is not kept at all, and the runner forgets the
                    // attempt's secrets with this outcome (FORGETS_SECRETS_WHEN_COMPLETED).
                    Ok(_id_token) => return Ok(vec![CloudEvent::SignedIn {}, CloudEvent::Activated {}]),
                    Err(error) => CloudEvent::SignInFailed { message: refused_or_retry(error)? },
                }
            }
        };
        Ok(vec![event])
    }
}
