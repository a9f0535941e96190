//! The activation's upstream calls (spec section 7, "Security activation"; contracts in
//! `docs/upstreams.md`), run by the step runner for the pure flow in
//! `events::flows::activation`. Tokens go to the attempt's secrets, never into an event.

pub mod carrier;
pub mod client;
pub mod code;
pub mod partner;
pub mod subscribe;

use std::time::Duration;

use async_trait::async_trait;
use events::flow::{PiiField, PlannedStep};
use events::flows::activation::{ActivationEvent, ActivationFlow, ActivationState, ActivationStep, Brand, StepFailed};

use crate::config::PartnerConfig;
use crate::runner::{FlowSteps, StepContext};
use crate::runner::StepError;

/// Names of the attempt's secrets.
pub mod secret {
    pub const OAUTH_STATE: &str = "oauth_state";
    pub const HERO_TOKEN: &str = "hero_token";
    pub const ACCESS_TOKEN: &str = "access_token";
    pub const FS_AUTH_TOKEN: &str = "fs_auth_token";
    pub const TRANSACTION_ID: &str = "transaction_id";
    pub const FS_CUSTOM_TOKEN: &str = "fs_custom_token";
    pub const CUSTOM_TOKEN: &str = "custom_token";
    pub const ID_TOKEN: &str = "id_token";
}

/// The activation's step executor.
pub struct ActivationSteps {
    pub partners: PartnerConfig,
}

impl ActivationSteps {
    pub fn new(partners: PartnerConfig) -> Self {
        Self { partners }
    }
}

#[async_trait]
impl FlowSteps for ActivationSteps {
    type F = ActivationFlow;

    async fn run(
        &self,
        ctx: &StepContext,
        state: &ActivationState,
        step: &PlannedStep,
        idempotency_key: &str,
    ) -> Result<Vec<ActivationEvent>, StepError> {
        let Some(which) = ActivationStep::from_name(&step.name) else {
            return Err(StepError::Transient(format!("unknown activation step {}", step.name)));
        };
        tracing::info!(stream = %ctx.stream, correlation = %ctx.correlation_id, step = which.name(), "activation step");
        let event = match which {
            ActivationStep::PreparePartnerLogin => partner::prepare_login(ctx, state).await?,
            ActivationStep::LookUpCustomer => partner::look_up_customer(ctx, state).await?,
            ActivationStep::PartnerLogin => partner::log_in(ctx, state, idempotency_key).await?,
            ActivationStep::FetchAccount => partner::fetch_account(ctx, state).await?,
            ActivationStep::CarrierToken => carrier::token(ctx, state, idempotency_key).await?,
            ActivationStep::AuthorizeDocument => carrier::authorize_document(ctx, state, idempotency_key).await?,
            ActivationStep::SendCode => code::send(ctx, state, idempotency_key).await?,
            ActivationStep::ValidateCode => code::validate(ctx, state, idempotency_key).await?,
            ActivationStep::Authorize => carrier::authorize(ctx, state, idempotency_key).await?,
            ActivationStep::VerifyToken => carrier::verify_token(ctx, state, idempotency_key).await?,
            ActivationStep::FetchPacks => carrier::fetch_packs(ctx, state).await?,
            ActivationStep::SubscribeSerial => subscribe::by_serial(ctx, state, idempotency_key).await?,
            ActivationStep::SubscribeByHash => subscribe::by_hash(ctx, state, &self.partners, idempotency_key).await?,
        };
        // The attempt is over: its tokens are no longer needed.
        if matches!(event, ActivationEvent::Subscribed {} | ActivationEvent::PacksFetched { .. }) {
            ctx.secrets.clear().await.map_err(db)?;
        }
        Ok(vec![event])
    }
}

pub(crate) fn db(error: sqlx::Error) -> StepError {
    StepError::Transient(format!("attempt secrets: {error}"))
}

pub(crate) fn brand(state: &ActivationState) -> Brand {
    state.variant.map(|v| v.brand()).unwrap_or(Brand::Default)
}

/// The step's outcome when the upstream answered something the flow has no branch for.
pub(crate) fn failed(step: ActivationStep, status: Option<u16>) -> ActivationEvent {
    ActivationEvent::StepFailed(StepFailed { step: step.name().to_string(), status })
}

/// The clear text of a personal-data field the state must hold at this step.
pub(crate) async fn open(ctx: &StepContext, field: Option<&PiiField>, what: &str) -> Result<String, StepError> {
    let field = field.ok_or_else(|| StepError::Transient(format!("{what} missing from the attempt")))?;
    ctx.open(field).await
}

pub(crate) async fn put_secret(ctx: &StepContext, name: &str, value: &str, ttl: Duration) -> Result<(), StepError> {
    ctx.secrets.put(name, value, ttl).await.map_err(db)
}

pub(crate) async fn get_secret(ctx: &StepContext, name: &str) -> Result<Option<String>, StepError> {
    ctx.secrets.get(name).await.map_err(db)
}

/// The back-for-front-end of the attempt's brand (the carrier has its own).
pub(crate) fn bff_base<'a>(ctx: &'a StepContext, state: &ActivationState) -> &'a str {
    match brand(state) {
        Brand::Tim => &ctx.upstreams.urls.bff_tim,
        Brand::Default | Brand::Agility => &ctx.upstreams.urls.bff_default,
    }
}

pub(crate) const MINUTES_15: Duration = Duration::from_secs(15 * 60);
pub(crate) const HOUR: Duration = Duration::from_secs(3600);
