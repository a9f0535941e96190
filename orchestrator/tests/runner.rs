//! The step runner against a real PostgreSQL: once-only execution, due times, two runners,
//! resume after a runner dies mid-call, retries.

use std::collections::HashSet;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use events::{EventStore, ExpectedVersion, Metadata, NewEvent, RecordedEvent, StreamId};
use orchestrator::runner::{schedule_in_tx, PlannedStep, Runner, RunnerConfig, StepError, StepFlow};
use orchestrator::runner::worker::Tick;
use serde_json::json;
use sqlx::PgPool;
use tokio::sync::Notify;

/// A flow with one step, `call`, due at the `run_at` of `demo.started`.
#[derive(Default)]
struct DemoFlow {
    /// (stream, idempotency key) of every call, in order.
    calls: Mutex<Vec<(String, String)>>,
    in_flight: Mutex<HashSet<String>>,
    overlaps: Mutex<u32>,
    /// When set, the first call signals `entered` and never returns.
    hang_first: bool,
    entered: Notify,
    always_fail: bool,
    delay: Duration,
}

#[async_trait]
impl StepFlow for DemoFlow {
    fn category(&self) -> &'static str {
        "demo"
    }

    fn next_step(&self, events: &[RecordedEvent]) -> Result<Option<PlannedStep>, StepError> {
        if events.iter().any(|e| e.event_type == "demo.called") {
            return Ok(None);
        }
        let Some(started) = events.iter().find(|e| e.event_type == "demo.started") else {
            return Ok(None);
        };
        let due_at: DateTime<Utc> = serde_json::from_value(started.payload["run_at"].clone())
            .map_err(|e| StepError::Transient(e.to_string()))?;
        Ok(Some(PlannedStep { name: "call".into(), due_at }))
    }

    async fn run(
        &self,
        stream: &StreamId,
        _events: &[RecordedEvent],
        _step: &PlannedStep,
        key: &str,
    ) -> Result<Vec<NewEvent>, StepError> {
        let first = {
            let mut calls = self.calls.lock().expect("lock");
            calls.push((stream.as_str().to_string(), key.to_string()));
            calls.len() == 1
        };
        if !self.in_flight.lock().expect("lock").insert(stream.as_str().to_string()) {
            *self.overlaps.lock().expect("lock") += 1;
        }
        if self.hang_first && first {
            self.entered.notify_one();
            std::future::pending::<()>().await;
        }
        tokio::time::sleep(self.delay).await;
        self.in_flight.lock().expect("lock").remove(stream.as_str());
        if self.always_fail {
            return Err(StepError::Transient("upstream unavailable".into()));
        }
        Ok(vec![event("demo.called", json!({ "key": key }))])
    }
}

fn event(event_type: &str, payload: serde_json::Value) -> NewEvent {
    NewEvent {
        event_type: event_type.into(),
        schema_version: 1,
        payload,
        metadata: Metadata {
            correlation_id: uuid::Uuid::new_v4(),
            causation_id: None,
            actor: "test".into(),
            client: None,
        },
    }
}

/// Starts a demo attempt whose step falls due at `run_at`, scheduled as the API would.
async fn start_attempt(db: &PgPool, store: &EventStore, flow: &DemoFlow, run_at: DateTime<Utc>) -> StreamId {
    let stream = StreamId::new("demo").expect("stream id");
    let mut tx = db.begin().await.expect("tx");
    store
        .append_in_tx(&mut tx, &stream, ExpectedVersion::NoStream, vec![event("demo.started", json!({ "run_at": run_at }))])
        .await
        .expect("append");
    tx.commit().await.expect("commit");
    let events = store.read_stream(&stream).await.expect("read");
    let step = flow.next_step(&events).expect("plan");
    let mut tx = db.begin().await.expect("tx");
    schedule_in_tx(&mut tx, stream.as_str(), "demo", step.as_ref()).await.expect("schedule");
    tx.commit().await.expect("commit");
    stream
}

fn runner(db: &PgPool, flow: Arc<DemoFlow>, config: RunnerConfig) -> Runner {
    Runner::new(db.clone(), EventStore::new(db.clone()), config).with_flow(flow)
}

fn types(events: &[RecordedEvent]) -> Vec<&str> {
    events.iter().map(|e| e.event_type.as_str()).collect()
}

async fn due_rows(db: &PgPool) -> i64 {
    sqlx::query_scalar("SELECT count(*) FROM due_steps").fetch_one(db).await.expect("count")
}

#[sqlx::test(migrations = "../migrations")]
async fn a_due_step_runs_once_and_its_outcome_is_appended(db: PgPool) {
    let store = EventStore::new(db.clone());
    let flow = Arc::new(DemoFlow::default());
    let stream = start_attempt(&db, &store, &flow, Utc::now()).await;
    let runner = runner(&db, flow.clone(), RunnerConfig::default());

    let tick = runner.tick().await.expect("tick");

    assert_eq!(tick, Tick::Ran { stream_id: stream.as_str().into(), step: "call".into() });
    let events = store.read_stream(&stream).await.expect("read");
    assert_eq!(types(&events), ["demo.started", "step.started", "demo.called"]);
    let key = format!("{}:call:2", stream.as_str());
    assert_eq!(events[1].payload["idempotency_key"], key.as_str());
    assert_eq!(events[2].payload["key"], key.as_str());
    assert_eq!(due_rows(&db).await, 0, "nothing left to do");
    assert_eq!(runner.tick().await.expect("tick"), Tick::Idle);
    assert_eq!(flow.calls.lock().expect("lock").len(), 1);
}

#[sqlx::test(migrations = "../migrations")]
async fn a_step_due_later_is_data_not_a_sleep(db: PgPool) {
    let store = EventStore::new(db.clone());
    let flow = Arc::new(DemoFlow::default());
    let run_at = Utc::now() + chrono::Duration::milliseconds(600);
    let stream = start_attempt(&db, &store, &flow, run_at).await;
    let runner = runner(&db, flow.clone(), RunnerConfig::default());

    assert_eq!(runner.tick().await.expect("tick"), Tick::Idle, "not due yet");
    let due: DateTime<Utc> = sqlx::query_scalar("SELECT due_at FROM due_steps WHERE stream_id = $1")
        .bind(stream.as_str())
        .fetch_one(&db)
        .await
        .expect("row");
    assert_eq!(due.timestamp_millis(), run_at.timestamp_millis(), "the wait is stored as a due time");

    tokio::time::sleep(Duration::from_millis(700)).await;
    assert_eq!(runner.tick().await.expect("tick"), Tick::Ran { stream_id: stream.as_str().into(), step: "call".into() });
}

#[sqlx::test(migrations = "../migrations")]
async fn two_runners_never_run_one_step_at_once(db: PgPool) {
    let store = EventStore::new(db.clone());
    let flow = Arc::new(DemoFlow { delay: Duration::from_millis(15), ..DemoFlow::default() });
    let mut streams = Vec::new();
    for _ in 0..30 {
        streams.push(start_attempt(&db, &store, &flow, Utc::now()).await);
    }
    let (stop_tx, _) = tokio::sync::broadcast::channel::<()>(1);
    let mut handles = Vec::new();
    for name in ["runner-a", "runner-b"] {
        let config = RunnerConfig { id: name.into(), poll: Duration::from_millis(50), ..RunnerConfig::default() };
        let runner = runner(&db, flow.clone(), config);
        let mut stop = stop_tx.subscribe();
        handles.push(tokio::spawn(async move {
            runner.run_until(async move {
                let _ = stop.recv().await;
            })
            .await
        }));
    }

    let done = tokio::time::timeout(Duration::from_secs(30), async {
        loop {
            let called: i64 = sqlx::query_scalar("SELECT count(*) FROM events WHERE event_type = 'demo.called'")
                .fetch_one(&db)
                .await
                .expect("count");
            if called >= 30 {
                break;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    })
    .await;
    let _ = stop_tx.send(());
    for handle in handles {
        handle.await.expect("join").expect("runner");
    }

    assert!(done.is_ok(), "all 30 steps finished");
    assert_eq!(*flow.overlaps.lock().expect("lock"), 0, "no step ran in two runners at once");
    assert_eq!(flow.calls.lock().expect("lock").len(), 30, "each step called exactly once");
    let actors: Vec<String> = sqlx::query_scalar(
        "SELECT DISTINCT metadata->>'actor' FROM events WHERE event_type = 'step.started' ORDER BY 1",
    )
    .fetch_all(&db)
    .await
    .expect("actors");
    assert_eq!(actors, ["runner-a", "runner-b"], "both runners took part");
    for stream in &streams {
        let events = store.read_stream(stream).await.expect("read");
        assert_eq!(types(&events), ["demo.started", "step.started", "demo.called"]);
    }
}

#[sqlx::test(migrations = "../migrations")]
async fn a_runner_stopped_mid_step_is_resumed_with_the_same_key(db: PgPool) {
    let store = EventStore::new(db.clone());
    let flow = Arc::new(DemoFlow { hang_first: true, ..DemoFlow::default() });
    let stream = start_attempt(&db, &store, &flow, Utc::now()).await;
    let lease = Duration::from_millis(400);
    let first = runner(&db, flow.clone(), RunnerConfig { id: "first".into(), lease, ..RunnerConfig::default() });

    // The first runner enters the call and is then stopped dead, as a crash would.
    let entered = flow.entered.notified();
    let crashed = tokio::spawn(async move { first.tick().await });
    entered.await;
    crashed.abort();
    let _ = crashed.await;

    let second = runner(&db, flow.clone(), RunnerConfig { id: "second".into(), lease, ..RunnerConfig::default() });
    assert_eq!(second.tick().await.expect("tick"), Tick::Idle, "the first runner's lease still holds");
    tokio::time::sleep(lease + Duration::from_millis(100)).await;
    assert_eq!(second.tick().await.expect("tick"), Tick::Ran { stream_id: stream.as_str().into(), step: "call".into() });

    let calls = flow.calls.lock().expect("lock").clone();
    assert_eq!(calls.len(), 2, "the call was repeated once");
    assert_eq!(calls[0].1, calls[1].1, "with the same idempotency key");
    let events = store.read_stream(&stream).await.expect("read");
    assert_eq!(types(&events), ["demo.started", "step.started", "demo.called"], "started is recorded once");
}

#[sqlx::test(migrations = "../migrations")]
async fn a_step_that_keeps_failing_is_retried_then_given_up(db: PgPool) {
    let store = EventStore::new(db.clone());
    let flow = Arc::new(DemoFlow { always_fail: true, ..DemoFlow::default() });
    let stream = start_attempt(&db, &store, &flow, Utc::now()).await;
    let runner = runner(&db, flow.clone(), RunnerConfig { max_claims: 2, ..RunnerConfig::default() });

    assert_eq!(runner.tick().await.expect("tick"), Tick::Retrying { stream_id: stream.as_str().into(), step: "call".into() });
    assert_eq!(runner.tick().await.expect("tick"), Tick::Idle, "backing off");
    sqlx::query("UPDATE due_steps SET due_at = now()").execute(&db).await.expect("skip the back-off");
    assert_eq!(runner.tick().await.expect("tick"), Tick::GaveUp { stream_id: stream.as_str().into(), step: "call".into() });

    let events = store.read_stream(&stream).await.expect("read");
    assert_eq!(types(&events), ["demo.started", "step.started", "step.gave_up"]);
    assert_eq!(events[2].payload["reason"], "transient: upstream unavailable");
    assert_eq!(due_rows(&db).await, 0);
    let calls = flow.calls.lock().expect("lock");
    assert_eq!(calls.len(), 2);
    assert_eq!(calls[0].1, calls[1].1, "retries reuse the key");
}
