//! The runner loop: claim a due step, run it, append its start with its outcome (or failure).
//!
//! Every claim ends in exactly one of: the outcome appended, a re-plan (the stream moved on;
//! not counted as a try), a retry later (counted), a give-up (`step.gave_up`, after the retry
//! budget), or the claim lost to another runner. A panic or an error anywhere in between is a
//! counted failure like an upstream's, never a claim left to expire (docs/reliability.md).

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use events::{EventStore, Hears, RecordedEvent, StoreError};
use sqlx::postgres::PgListener;
use sqlx::PgPool;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio::task::JoinSet;

use super::claim::{self, Claimed};
use super::flow::StepFlow;
use super::policy::RetryPolicy;
use crate::metrics::Metrics;
use crate::write_path::handoff::Handed;
use crate::write_path::{schedule, Handoff, Histories};

/// The event type appended when a step ran out of its retry budget.
pub const STEP_GAVE_UP: &str = "step.gave_up";

#[derive(Debug, Clone)]
pub struct RunnerConfig {
    /// Names this runner in leases and in the events it writes.
    pub id: String,
    /// How long a claim holds a step without renewal; renewed every third of it while the
    /// step runs, so only a runner that stopped (or lost the database) lets it expire.
    pub lease: Duration,
    /// Upper bound of one claim's whole work: reads, the upstream call and the writes.
    pub step_timeout: Duration,
    /// Fallback wake-up when a notification is lost (a pooler may drop them).
    pub poll: Duration,
    /// When a failed step is tried again, and when the runner stops trying.
    pub retry: RetryPolicy,
    /// Steps this runner runs at once (each its own task; most of a step is waiting on an
    /// upstream, so one loop keeps many in flight).
    pub concurrency: usize,
}

impl Default for RunnerConfig {
    fn default() -> Self {
        Self {
            id: format!("runner-{}", uuid::Uuid::new_v4()),
            lease: Duration::from_secs(45),
            step_timeout: Duration::from_secs(30),
            poll: Duration::from_secs(1),
            retry: RetryPolicy::default(),
            concurrency: 32,
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum RunnerError {
    #[error("database: {0}")]
    Database(#[from] sqlx::Error),
    #[error("event store: {0}")]
    Store(#[from] StoreError),
}

/// What one claim came to; tests read it, the loop only logs it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Tick {
    /// Nothing was due.
    Idle,
    /// The step ran and its outcome was appended.
    Ran { stream_id: String, step: String },
    /// The stream moved on (or the step is not due yet): the schedule was re-planned.
    Replanned { stream_id: String },
    /// The step failed and will be retried later.
    Retrying { stream_id: String, step: String },
    /// The step failed too often: `step.gave_up` was appended.
    GaveUp { stream_id: String, step: String },
    /// Another runner took the step over (this one's lease expired): nothing was written.
    LostClaim { stream_id: String },
}

/// One claim's steps, with their flows.
struct Batch {
    /// How many were claimed (a step of a flow this runner does not run counts, given back).
    count: usize,
    steps: Vec<(Arc<dyn StepFlow>, Claimed)>,
    next_due_in: Option<Duration>,
}

pub struct Runner {
    pub(super) db: PgPool,
    pub(super) store: EventStore,
    pub(super) flows: HashMap<String, Arc<dyn StepFlow>>,
    pub(super) config: RunnerConfig,
    pub(super) metrics: Option<Arc<Metrics>>,
    /// Where its steps in flight are counted for admission control.
    pub(super) load: Option<Arc<crate::admission::Load>>,
    /// Streams as this process last wrote them (shared with the commands): a claim of one still
    /// at that version reads nothing.
    pub(super) histories: Option<Arc<Histories>>,
    /// Set when the runner is asked to stop: its steps in flight claim no next step.
    pub(super) stopping: AtomicBool,
    /// Where this process's commands hand it the steps they plan due at once.
    pub(super) handoff: Option<Arc<Handoff>>,
}

impl Runner {
    pub fn new(db: PgPool, store: EventStore, config: RunnerConfig) -> Self {
        Self {
            db,
            store,
            flows: HashMap::new(),
            config,
            metrics: None,
            load: None,
            histories: None,
            stopping: AtomicBool::new(false),
            handoff: None,
        }
    }

    /// Keeps the histories it writes in `histories`, and reads a claimed stream from there
    /// when it is still at the version kept.
    pub fn with_histories(mut self, histories: Arc<Histories>) -> Self {
        self.histories = Some(histories);
        self
    }

    /// Takes the steps this process's commands plan due at once and claim for it in their own
    /// transactions ([`Handoff`]), in its own slots.
    pub fn with_handoff(mut self, handoff: Arc<Handoff>) -> Self {
        self.handoff = Some(handoff);
        self
    }

    /// Counts its steps in `metrics` (lag, upstream calls, retries, appends, attempts ended).
    pub fn with_metrics(mut self, metrics: Arc<Metrics>) -> Self {
        self.metrics = Some(metrics);
        self
    }

    /// Counts its steps in flight in `load` (admission control's slots signal).
    pub fn with_load(mut self, load: Arc<crate::admission::Load>) -> Self {
        self.load = Some(load);
        self
    }

    pub fn with_flow(mut self, flow: Arc<dyn StepFlow>) -> Self {
        self.flows.insert(flow.category().to_string(), flow);
        self
    }

    pub fn id(&self) -> &str {
        &self.config.id
    }

    fn flow_names(&self) -> Vec<String> {
        self.flows.keys().cloned().collect()
    }

    /// Runs due steps until `shutdown` resolves, up to `concurrency` at once, each in a task of
    /// its own; the steps in flight finish first. A lost database connection is retried, never
    /// the end of the runner.
    pub async fn run_until(self, shutdown: impl std::future::Future<Output = ()> + Send) -> Result<(), RunnerError> {
        let this = Arc::new(self);
        let slots = Arc::new(Semaphore::new(this.config.concurrency.max(1)));
        let mut handed =
            this.handoff.as_ref().map(|handoff| handoff.attach(&this.config.id, this.config.lease, slots.clone()));
        let mut running: JoinSet<()> = JoinSet::new();
        tokio::pin!(shutdown);
        let mut listener: Option<PgListener> = None;
        loop {
            if listener.is_none() {
                listener = this.listen().await;
            }
            // Claim as many due steps as there are free slots, in one statement, until fewer
            // were due than asked for; that statement also says when the next one falls due.
            let mut next_due = None;
            loop {
                let free = slots.available_permits();
                if free == 0 {
                    break;
                }
                let claims = match this.claim_due(free).await {
                    Ok(claims) => claims,
                    Err(error) => {
                        tracing::warn!(runner = %this.config.id, %error, "claiming steps failed");
                        break;
                    }
                };
                next_due = claims.next_due_in;
                let claimed = claims.count;
                for (flow, claimed) in claims.steps {
                    // It asked for no more than were free, but a command's hand-off may have
                    // taken one since: that step goes back, uncounted, for the next claim.
                    match slots.clone().try_acquire_owned() {
                        Ok(slot) => {
                            running.spawn(this.clone().run_claimed(flow, claimed, slot));
                        }
                        Err(_) => this.give_back(&claimed).await,
                    }
                }
                if claimed < free {
                    break;
                }
            }
            while running.try_join_next().is_some() {}
            // With every slot taken, only a finished step (or the stop) matters; otherwise
            // until the next due time, at most the poll interval.
            let wait = match next_due {
                Some(wait) if slots.available_permits() > 0 => {
                    wait.min(this.config.poll).max(Duration::from_millis(10))
                }
                _ => this.config.poll,
            };
            // A runner that takes this process's hand-offs learns of its plans in process
            // (handed over, or woken for a plan left free): it claims on other processes'
            // NOTIFYs only.
            let own_news = this.handoff.is_some();
            let woken = async {
                match listener.as_mut() {
                    Some(listener) if slots.available_permits() > 0 => loop {
                        let received = match listener.recv().await {
                            Ok(notification) => notification,
                            Err(error) => break Err(error),
                        };
                        let mut foreign = !(own_news && this.store.sent_here(received.payload()));
                        // Every append notifies: the ones already here are answered by the
                        // same claim.
                        while let Some(buffered) = listener.next_buffered() {
                            foreign |= !(own_news && this.store.sent_here(buffered.payload()));
                        }
                        if foreign {
                            break Ok(());
                        }
                    },
                    _ => std::future::pending().await,
                }
            };
            let planned_here = async {
                match this.handoff.as_ref() {
                    Some(handoff) if slots.available_permits() > 0 => handoff.woken().await,
                    _ => std::future::pending().await,
                }
            };
            let handed_over = async {
                match handed.as_mut() {
                    Some(handed) => handed.recv().await,
                    None => std::future::pending().await,
                }
            };
            tokio::select! {
                Some(Handed { claimed, slot }) = handed_over => {
                    match this.flows.get(&claimed.flow).cloned() {
                        Some(flow) => {
                            running.spawn(this.clone().run_claimed(flow, claimed, slot));
                        }
                        None => this.give_back(&claimed).await,
                    }
                }
                () = &mut shutdown => {
                    this.stopping.store(true, Ordering::Relaxed);
                    break;
                }
                received = woken => {
                    if let Err(error) = received {
                        tracing::warn!(runner = %this.config.id, %error, "schedule notifications lost; reconnecting");
                        listener = None;
                    }
                },
                () = planned_here => {},
                // A step finished: its slot is free and it may have planned the next one.
                Some(_) = running.join_next(), if !running.is_empty() => {},
                () = tokio::time::sleep(wait) => {},
            }
        }
        // Steps handed over and not started yet go back to the schedule for any runner.
        if let (Some(handoff), Some(mut handed)) = (this.handoff.as_ref(), handed) {
            handoff.detach(&this.config.id);
            handed.close();
            while let Some(Handed { claimed, .. }) = handed.recv().await {
                this.give_back(&claimed).await;
            }
        }
        while running.join_next().await.is_some() {}
        tracing::info!(runner = %this.config.id, "runner stopped");
        Ok(())
    }

    /// Runs a claim in `slot`, and the steps its results claim due at once after it (until
    /// the runner stops).
    async fn run_claimed(self: Arc<Self>, flow: Arc<dyn StepFlow>, claimed: Claimed, slot: OwnedSemaphorePermit) {
        let _slot = slot;
        let mut next = Some(claimed);
        while let Some(claimed) = next.take() {
            let chain = !self.stopping.load(Ordering::Relaxed);
            let (tick, chained) = self.supervise(flow.as_ref(), claimed, chain).await;
            self.log(tick);
            next = chained;
        }
    }

    /// Gives a claim back uncounted, for another runner to take.
    async fn give_back(&self, claimed: &Claimed) {
        if let Err(error) = claim::release(&self.db, claimed).await {
            tracing::warn!(runner = %self.config.id, %error, stream = %claimed.stream_id, "giving a step back failed");
        }
    }

    fn log(&self, outcome: Result<Tick, RunnerError>) {
        match outcome {
            Ok(tick) => tracing::debug!(runner = %self.config.id, ?tick, "step"),
            Err(error) => tracing::warn!(runner = %self.config.id, %error, "step failed outside its flow"),
        }
    }

    /// A listener on its own connection (not one of the pool's: a runner holds it for good).
    /// `None` while the database cannot be reached: the poll keeps the runner going.
    async fn listen(&self) -> Option<PgListener> {
        // A runner that takes this process's hand-offs learns of its plans in process: this
        // process's writers need send it no NOTIFY.
        let hears = if self.handoff.is_some() { Hears::OthersOnly } else { Hears::Notifications };
        match self.store.listener(schedule::CHANNEL, hears).await {
            Ok(listener) => Some(listener),
            Err(error) => {
                tracing::warn!(runner = %self.config.id, %error, "cannot listen for schedule notifications");
                None
            }
        }
    }

    /// Claims and processes at most one due step.
    pub async fn tick(&self) -> Result<Tick, RunnerError> {
        match self.claim_due(1).await?.steps.pop() {
            Some((flow, claimed)) => self.supervise(flow.as_ref(), claimed, false).await.0,
            None => Ok(Tick::Idle),
        }
    }

    /// Up to `limit` due steps of this runner's flows, claimed, and the wait until the next
    /// one when fewer were due. A step of a flow this runner does not run is given back.
    async fn claim_due(&self, limit: usize) -> Result<Batch, RunnerError> {
        let claims = claim::claim_due(&self.db, &self.flow_names(), &self.config.id, self.config.lease, limit).await?;
        let mut steps = Vec::with_capacity(claims.claimed.len());
        for claimed in claims.claimed.iter().cloned() {
            match self.flows.get(&claimed.flow).cloned() {
                Some(flow) => steps.push((flow, claimed)),
                None => claim::release(&self.db, &claimed).await?,
            }
        }
        Ok(Batch { count: claims.claimed.len(), steps, next_due_in: claims.next_due_in })
    }
}

pub(super) fn last_version(events: &[RecordedEvent]) -> i64 {
    events.last().map(|e| e.version).unwrap_or(0)
}

pub(super) fn elapsed(from: chrono::DateTime<chrono::Utc>, to: chrono::DateTime<chrono::Utc>) -> Duration {
    (to - from).to_std().unwrap_or_default()
}
