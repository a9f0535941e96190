//! The I/O half of a flow: runs its due steps (upstream calls) and returns outcome events,
//! which the one write path prepares in the outcome's transaction
//! ([`crate::write_path::prepare_in`]).

use std::marker::PhantomData;
use std::sync::Arc;

use async_trait::async_trait;
use events::flow::{encode, fold, support, Flow, PiiField, PlannedStep, SecretField};
use events::pii::{Opened, PiiKind, Vault};
use events::{Metadata, NewEvent, RecordedEvent, StreamId};
use secrecy::{ExposeSecret, SecretString};
use sqlx::PgPool;
use uuid::Uuid;

use super::{KeptSecrets, Plan, StepError, StepFlow, StepOutput};
use crate::upstream::calls::{strip_control, CallLog};
use crate::upstream::Upstreams;
use crate::write_path::secrets::Stored;
use crate::write_path::{prepare_in, Secrets};

/// How long [`StepContext::keep_secret_now`] waits out a database that cannot serve (a
/// failover takes a few seconds), within the step's time-out (30 s by default).
const KEEP_NOW_PATIENCE: std::time::Duration = std::time::Duration::from_secs(15);
/// Between two tries of that write.
const KEEP_NOW_PAUSE: std::time::Duration = std::time::Duration::from_millis(250);

/// What a step may use: the attempt's identity, its secrets, the vault, HTTP and the upstreams.
pub struct StepContext {
    pub stream: StreamId,
    /// Sent upstream as the correlation id of the attempt's calls.
    pub correlation_id: Uuid,
    pub vault: Vault,
    pub secrets: Secrets,
    pub http: reqwest::Client,
    pub upstreams: Arc<Upstreams>,
    /// Where the step's client records its upstream calls (status, latency).
    pub calls: CallLog,
    /// The tokens this try kept, written with its outcome ([`StepContext::keep_secret`]).
    kept: KeptSecrets,
}

impl StepContext {
    /// The clear text of a personal-data field of the attempt (a licence or a serial of an
    /// event written before they were sealed is a plain string: that text).
    pub async fn open(&self, field: &PiiField) -> Result<String, StepError> {
        if let Some(clear) = field.in_clear() {
            return Ok(clear.to_string());
        }
        match self.vault.open(field.value()).await {
            Ok(Opened::Clear(text)) => Ok(text),
            Ok(Opened::Erased) => Err(StepError::Transient("personal data was erased".into())),
            Err(error) => Err(StepError::Transient(format!("opening personal data: {error}"))),
        }
    }

    /// One of the attempt's secrets (named `<flow>.<name>` in the flow's `secret` module): the
    /// one this try kept, else the stored one if it is there and has not expired (as the claim
    /// read it, else asked of the database); a store that cannot be read is worth another try.
    pub async fn secret(&self, name: &str) -> Result<Option<SecretString>, StepError> {
        if let Some(kept) = self.kept.get(name) {
            return Ok(Some(kept));
        }
        Ok(self.secrets.get(name).await.map_err(secrets_error)?.map(SecretString::from))
    }

    /// Keeps `value` as the attempt's secret `name` for `ttl`, written in the transaction that
    /// appends this try's outcome (issue 24); later calls of the try read it at once. A try
    /// that fails keeps nothing: its retry asks the upstream again.
    pub fn keep_secret(&self, name: &str, value: &SecretString, ttl: std::time::Duration) {
        self.kept.keep(name, value, ttl);
    }

    /// [`StepContext::keep_secret`] written at once, whatever becomes of the try: for a token
    /// its retry could not ask for again (an OAuth code is exchanged once).
    pub async fn keep_secret_now(
        &self,
        name: &str,
        value: &SecretString,
        ttl: std::time::Duration,
    ) -> Result<(), StepError> {
        // One value a name: a stale one kept earlier in the try must not shadow this one.
        self.kept.forget(name);
        // The token cannot be asked for again, so a database that cannot serve for a moment (a
        // failover) is waited out rather than failing the try with the token lost.
        let patience = tokio::time::Instant::now() + KEEP_NOW_PATIENCE;
        loop {
            match self.secrets.put(name, value.expose_secret(), ttl).await {
                Ok(()) => return Ok(()),
                Err(error) if events::database_unavailable(&error) && tokio::time::Instant::now() < patience => {
                    tracing::warn!(stream = %self.stream, %error, "keeping a one-time token: the database cannot serve; trying again");
                    tokio::time::sleep(KEEP_NOW_PAUSE).await;
                }
                Err(error) => return Err(secrets_error(error)),
            }
        }
    }

    /// Forgets every secret of the attempt but `keep`, the stored ones and the ones this try kept.
    pub async fn forget_secrets_except(&self, keep: &[&str]) -> Result<(), StepError> {
        self.kept.forget_except(keep);
        self.secrets.clear_except(keep).await.map_err(secrets_error)
    }

    /// Keeps `value` in the attempt's secrets sealed under the attempt's own key, for what
    /// must neither enter an event nor rest in clear (a partner's customer id).
    pub async fn put_sealed(
        &self,
        name: &str,
        kind: PiiKind,
        value: &str,
        ttl: std::time::Duration,
    ) -> Result<(), StepError> {
        let sealed = async {
            let link = self.vault.attempt_subject(&self.stream).await?;
            self.vault.seal_linked(link, kind, value).await
        };
        let sealed = sealed.await.map_err(|e| StepError::Transient(format!("sealing a secret: {e}")))?;
        self.secrets
            .put(name, &sealed.to_value().to_string(), ttl)
            .await
            .map_err(|e| StepError::Transient(format!("storing a secret: {e}")))
    }

    /// The clear value of a secret [`StepContext::put_sealed`] kept; `None` once it expired.
    pub async fn get_sealed(&self, name: &str) -> Result<Option<String>, StepError> {
        let Some(stored) =
            self.secrets.get(name).await.map_err(|e| StepError::Transient(format!("reading a secret: {e}")))?
        else {
            return Ok(None);
        };
        let sealed: serde_json::Value =
            serde_json::from_str(&stored).map_err(|e| StepError::Transient(format!("malformed sealed secret: {e}")))?;
        match self.vault.open(&sealed).await {
            Ok(Opened::Clear(text)) => Ok(Some(text)),
            Ok(Opened::Erased) => Ok(None),
            Err(error) => Err(StepError::Transient(format!("opening a sealed secret: {error}"))),
        }
    }

    /// The value of a one-time secret field (an SMS code, an OAuth code) of the attempt.
    pub async fn reveal(&self, field: &SecretField) -> Result<String, StepError> {
        if let Some(clear) = field.clear_text() {
            return Ok(clear.to_string());
        }
        let name = field.stash_name().ok_or_else(|| StepError::Transient("malformed secret field".into()))?;
        self.secrets
            .get(name)
            .await
            .map_err(|e| StepError::Transient(format!("reading a secret: {e}")))?
            .ok_or_else(|| StepError::Transient("the secret expired".into()))
    }
}

/// A flow's upstream calls.
#[async_trait]
pub trait FlowSteps: Send + Sync + 'static {
    type F: Flow;

    /// Whether the attempt's tokens are forgotten when it completes. The runner deletes them
    /// in the transaction that records the completion, not the step before it: a try that
    /// dies after its call (a killed process, a lost lease) must find them on its retry.
    const FORGETS_SECRETS_WHEN_COMPLETED: bool = false;

    /// Runs `step`; upstream refusals are outcome events, `StepError` only for trouble
    /// worth retrying. `idempotency_key` is the same on every retry of this step.
    async fn run(
        &self,
        ctx: &StepContext,
        state: &<Self::F as Flow>::State,
        step: &PlannedStep,
        idempotency_key: &str,
    ) -> Result<Vec<<Self::F as Flow>::Event>, StepError>;
}

/// Shared dependencies of every flow's steps.
#[derive(Clone)]
pub struct StepDeps {
    pub db: PgPool,
    pub vault: Vault,
    pub http: reqwest::Client,
    pub upstreams: Arc<Upstreams>,
}

fn secrets_error(error: sqlx::Error) -> StepError {
    StepError::Transient(format!("attempt secrets: {error}"))
}

/// Adapts a [`FlowSteps`] to the runner's [`StepFlow`].
pub struct FlowRunner<S: FlowSteps> {
    steps: S,
    deps: StepDeps,
    _flow: PhantomData<fn() -> S::F>,
}

impl<S: FlowSteps> FlowRunner<S> {
    pub fn new(steps: S, deps: StepDeps) -> Self {
        Self { steps, deps, _flow: PhantomData }
    }
}

#[async_trait]
impl<S: FlowSteps> StepFlow for FlowRunner<S> {
    fn category(&self) -> &'static str {
        S::F::CATEGORY
    }

    fn plan(&self, events: &[RecordedEvent]) -> Result<Plan, StepError> {
        // Support cancelled the attempt: nothing more is run for it.
        if support::cancelled_at(events).is_some() {
            return Ok(Plan { next: None, outcome: support::cancelled_outcome() });
        }
        let state = fold::<S::F>(events);
        Ok(Plan { next: S::F::next_step(&state), outcome: S::F::outcome(&state) })
    }

    fn forgets_secrets_when_completed(&self) -> bool {
        S::FORGETS_SECRETS_WHEN_COMPLETED
    }

    async fn run(
        &self,
        stream: &StreamId,
        events: &[RecordedEvent],
        step: &PlannedStep,
        idempotency_key: &str,
        calls: &CallLog,
        stored: &Stored,
    ) -> Result<StepOutput, StepError> {
        let correlation_id = events.first().map(|e| e.metadata.correlation_id).unwrap_or_else(Uuid::new_v4);
        let ctx = StepContext {
            stream: stream.clone(),
            correlation_id,
            vault: self.deps.vault.clone(),
            secrets: Secrets::claimed(
                self.deps.db.clone(),
                self.deps.vault.secret_box(),
                stream.as_str(),
                stored.clone(),
            ),
            http: self.deps.http.clone(),
            upstreams: self.deps.upstreams.clone(),
            calls: calls.clone(),
            kept: KeptSecrets::default(),
        };
        let state = fold::<S::F>(events);
        let outcome = self.steps.run(&ctx, &state, step, idempotency_key).await?;
        let mut decided = outcome
            .iter()
            .map(encode::<S::F>)
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| StepError::Transient(format!("encoding event: {e}")))?;
        // Upstream text (a refusal's message) may carry bytes PostgreSQL refuses to store.
        decided.iter_mut().for_each(|(_, payload)| strip_control(payload));
        let metadata =
            Metadata { correlation_id, causation_id: None, actor: format!("step:{}", step.name), client: None };
        let events = decided
            .into_iter()
            .map(|(event_type, payload)| NewEvent {
                event_type,
                schema_version: 1,
                payload,
                metadata: metadata.clone(),
            })
            .collect();
        Ok(StepOutput { events, kept: ctx.kept })
    }

    async fn prepare_in(
        &self,
        conn: &mut sqlx::PgConnection,
        stream: &StreamId,
        output: StepOutput,
    ) -> Result<Vec<NewEvent>, StepError> {
        let StepOutput { events, kept } = output;
        let secrets = Secrets::new(self.deps.db.clone(), self.deps.vault.secret_box(), stream.as_str());
        kept.write_in(&mut *conn, &secrets).await.map_err(secrets_error)?;
        let Some(metadata) = events.first().map(|e| e.metadata.clone()) else { return Ok(events) };
        let decided = events.into_iter().map(|e| (e.event_type, e.payload)).collect();
        prepare_in(conn, &self.deps.vault, &secrets, stream, decided, &metadata)
            .await
            .map_err(|e| StepError::Transient(e.to_string()))
    }
}
