//! The step runner against a real PostgreSQL: once-only execution, due times, two runners,
//! resume after a runner dies mid-call, retries, and the faults of issue 14: panics, outcomes
//! the database refuses, crashes that never report, outages longer than a few seconds, and
//! fencing (re-plans, newer schedules, running leases, renewal).

use std::collections::HashSet;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use events::{EventStore, ExpectedVersion, Metadata, NewEvent, RecordedEvent, StreamId};
use orchestrator::runner::worker::Tick;
use orchestrator::runner::{
    CallLog, Plan, PlannedStep, RetryPolicy, Runner, RunnerConfig, StepError, StepFlow, StepOutput,
};
use orchestrator::write_path::schedule_in_tx;
use orchestrator::write_path::secrets::Stored;
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
    /// The n-th call (from 1) signals `entered` and never returns.
    hang_call: Option<usize>,
    /// The first n calls fail (an upstream's 503).
    fail_first: usize,
    entered: Notify,
    always_fail: bool,
    delay: Duration,
    /// Every call panics.
    panics: bool,
    /// The outcome carries a `\u0000`, which PostgreSQL refuses in `jsonb`.
    nul_outcome: bool,
    /// Calls fail until this instant (an outage).
    fail_until: Option<std::time::Instant>,
    /// During each call, a visitor's command lands on the stream (appended and re-planned).
    poke_during_call: Option<PgPool>,
    /// Calls running now, and the most that ever ran at once.
    running: AtomicUsize,
    peak: AtomicUsize,
    /// After `call`, a second step, `follow_up`, falls due at once.
    follow_up: bool,
    /// The names of the attempt's secrets each call was handed with its claim.
    secrets_seen: Mutex<Vec<Vec<String>>>,
    /// When set, each call returns only once `released` is notified.
    hold: bool,
    released: Notify,
}

#[async_trait]
impl StepFlow for DemoFlow {
    fn category(&self) -> &'static str {
        "demo"
    }

    fn plan(&self, events: &[RecordedEvent]) -> Result<Plan, StepError> {
        let open = |next| Ok(Plan { next, outcome: events::flow::Outcome::Open });
        let seen = |kind: &str| events.iter().find(|e| e.event_type == kind);
        if seen("step.gave_up").is_some() || seen("demo.followed").is_some() {
            return open(None);
        }
        if let Some(called) = seen("demo.called") {
            let due_at = called.recorded_at;
            return open(self.follow_up.then(|| PlannedStep { name: "follow_up".into(), due_at }));
        }
        let Some(started) = events.iter().find(|e| e.event_type == "demo.started") else {
            return open(None);
        };
        let due_at: DateTime<Utc> = serde_json::from_value(started.payload["run_at"].clone())
            .map_err(|e| StepError::Transient(e.to_string()))?;
        open(Some(PlannedStep { name: "call".into(), due_at }))
    }

    async fn run(
        &self,
        stream: &StreamId,
        _events: &[RecordedEvent],
        step: &PlannedStep,
        key: &str,
        calls: &CallLog,
        stored: &Stored,
    ) -> Result<StepOutput, StepError> {
        self.secrets_seen.lock().expect("lock").push(stored.names());
        let nth = {
            let mut calls = self.calls.lock().expect("lock");
            calls.push((stream.as_str().to_string(), key.to_string()));
            calls.len()
        };
        let first = nth == 1;
        if !self.in_flight.lock().expect("lock").insert(stream.as_str().to_string()) {
            *self.overlaps.lock().expect("lock") += 1;
        }
        if (self.hang_first && first) || self.hang_call == Some(nth) {
            self.entered.notify_one();
            std::future::pending::<()>().await;
        }
        self.entered.notify_one();
        if self.panics {
            self.in_flight.lock().expect("lock").remove(stream.as_str());
            panic!("a bug in the step");
        }
        if let Some(db) = &self.poke_during_call {
            poke(db, stream).await;
        }
        let timer = calls.start("demo.call");
        let now = self.running.fetch_add(1, Ordering::SeqCst) + 1;
        self.peak.fetch_max(now, Ordering::SeqCst);
        tokio::time::sleep(self.delay).await;
        if self.hold {
            self.released.notified().await;
        }
        self.running.fetch_sub(1, Ordering::SeqCst);
        self.in_flight.lock().expect("lock").remove(stream.as_str());
        let outage = self.fail_until.is_some_and(|until| std::time::Instant::now() < until);
        if self.always_fail || outage || nth <= self.fail_first {
            timer.record(Some(503), Some("HTTP 503"));
            return Err(StepError::Transient("upstream unavailable".into()));
        }
        timer.record(Some(201), None);
        if self.nul_outcome {
            return Ok(vec![event("demo.called", json!({ "key": key, "text": "bad\u{0}byte" }))].into());
        }
        let kind = if step.name == "follow_up" { "demo.followed" } else { "demo.called" };
        Ok(vec![event(kind, json!({ "key": key }))].into())
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
        .append_in(
            &mut tx,
            &stream,
            ExpectedVersion::NoStream,
            vec![event("demo.started", json!({ "run_at": run_at }))],
        )
        .await
        .expect("append");
    tx.commit().await.expect("commit");
    let events = store.read_stream(&stream).await.expect("read");
    let step = flow.plan(&events).expect("plan").next;
    let mut tx = db.begin().await.expect("tx");
    schedule_in_tx(&mut tx, stream.as_str(), "demo", step.as_ref(), 1).await.expect("schedule");
    tx.commit().await.expect("commit");
    store.announce(&[&stream]).await;
    stream
}

/// A visitor's command: an event appended and the stream's plan written with it, as the
/// command service does.
async fn poke(db: &PgPool, stream: &StreamId) {
    let store = EventStore::new(db.clone());
    let events = store.read_stream(stream).await.expect("read");
    let version = events.last().map(|e| e.version).unwrap_or(0);
    let mut tx = db.begin().await.expect("tx");
    store
        .append_in(&mut tx, stream, ExpectedVersion::Exact(version), vec![event("demo.poked", json!({}))])
        .await
        .expect("append");
    let step = PlannedStep { name: "call".into(), due_at: Utc::now() };
    schedule_in_tx(&mut tx, stream.as_str(), "demo", Some(&step), version + 1).await.expect("schedule");
    tx.commit().await.expect("commit");
    store.announce(&[stream]).await;
}

async fn claims(db: &PgPool) -> i32 {
    sqlx::query_scalar("SELECT claims FROM due_steps").fetch_one(db).await.expect("claims")
}

async fn skip_back_off(db: &PgPool) {
    sqlx::query("UPDATE due_steps SET due_at = now()").execute(db).await.expect("skip the back-off");
}

fn retrying(max_attempts: i32) -> RunnerConfig {
    RunnerConfig { retry: RetryPolicy { max_attempts, ..RetryPolicy::default() }, ..RunnerConfig::default() }
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
    assert_eq!(types(&events), ["demo.started", "step.started", "step.called", "demo.called"]);
    let key = format!("{}:call:2", stream.as_str());
    assert_eq!(events[1].payload["idempotency_key"], key.as_str());
    assert_eq!(events[3].payload["key"], key.as_str());
    // What support's timeline shows of the call.
    let called = &events[2].payload;
    assert_eq!(
        (called["endpoint"].as_str(), called["status"].as_u64(), called["retries"].as_i64()),
        (Some("demo.call"), Some(201), Some(0))
    );
    assert!(called["latency_ms"].is_u64(), "{called}");
    assert_eq!(due_rows(&db).await, 0, "nothing left to do");
    assert_eq!(runner.tick().await.expect("tick"), Tick::Idle);
    assert_eq!(flow.calls.lock().expect("lock").len(), 1);
}

#[sqlx::test(migrations = "../migrations")]
async fn a_step_due_later_is_data_not_a_sleep(db: PgPool) {
    let store = EventStore::new(db.clone());
    let flow = Arc::new(DemoFlow::default());
    // Due in an hour: however slow the machine, not due at the tick.
    let run_at = Utc::now() + chrono::Duration::hours(1);
    let stream = start_attempt(&db, &store, &flow, run_at).await;
    let runner = runner(&db, flow.clone(), RunnerConfig::default());

    assert_eq!(runner.tick().await.expect("tick"), Tick::Idle, "not due yet");
    let due: DateTime<Utc> = sqlx::query_scalar("SELECT due_at FROM due_steps WHERE stream_id = $1")
        .bind(stream.as_str())
        .fetch_one(&db)
        .await
        .expect("row");
    assert_eq!(due.timestamp_millis(), run_at.timestamp_millis(), "the wait is stored as a due time");

    // Another, due in half a second: the ticks find it once it is due, not before.
    let soon_at = Utc::now() + chrono::Duration::milliseconds(500);
    let soon = start_attempt(&db, &store, &flow, soon_at).await;
    let ran = tokio::time::timeout(Duration::from_secs(20), async {
        loop {
            match runner.tick().await.expect("tick") {
                Tick::Idle => tokio::time::sleep(Duration::from_millis(20)).await,
                other => break (other, Utc::now()),
            }
        }
    })
    .await
    .expect("ran once due");
    assert_eq!(ran.0, Tick::Ran { stream_id: soon.as_str().into(), step: "call".into() });
    assert!(ran.1 >= soon_at, "ran at {} before its due time {soon_at}", ran.1);
    assert_eq!(flow.calls.lock().expect("lock").len(), 1, "the step due in an hour still waits");
}

/// Issue 30: a step's claim brings the attempt's live secrets, so its reads need no statement
/// each; a step chained on the one before (claimed by that step's outcome) gets them too.
#[sqlx::test(migrations = "../migrations")]
async fn a_claim_hands_the_step_the_attempts_live_secrets(db: PgPool) {
    let store = EventStore::new(db.clone());
    let flow = Arc::new(DemoFlow { follow_up: true, ..DemoFlow::default() });
    let stream = start_attempt(&db, &store, &flow, Utc::now()).await;
    for (name, expires) in [("demo.token", "1 hour"), ("demo.spent", "-1 second")] {
        sqlx::query(
            "INSERT INTO attempt_secrets (stream_id, name, value, expires_at) VALUES ($1, $2, 'sealed', now() + $3::interval)",
        )
        .bind(stream.as_str())
        .bind(name)
        .bind(expires)
        .execute(&db)
        .await
        .expect("secret");
    }
    let config = RunnerConfig { poll: Duration::from_millis(50), ..RunnerConfig::default() };
    let running = tokio::spawn(runner(&db, flow.clone(), config).run_until(std::future::pending()));

    let both_ran = tokio::time::timeout(Duration::from_secs(20), async {
        while flow.secrets_seen.lock().expect("lock").len() < 2 {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
    .await;
    running.abort();

    assert!(both_ran.is_ok(), "the step and its follow-up ran");
    let live = vec!["demo.token".to_string()];
    assert_eq!(*flow.secrets_seen.lock().expect("lock"), [live.clone(), live], "the expired one is left out");
}

/// Issue 15: one runner keeps `concurrency` steps in flight, never more, each step once.
#[sqlx::test(migrations = "../migrations")]
async fn one_runner_runs_up_to_its_concurrency_at_once(db: PgPool) {
    let store = EventStore::new(db.clone());
    let flow = Arc::new(DemoFlow { delay: Duration::from_millis(300), ..DemoFlow::default() });
    for _ in 0..12 {
        start_attempt(&db, &store, &flow, Utc::now()).await;
    }
    let config = RunnerConfig { concurrency: 4, poll: Duration::from_millis(50), ..RunnerConfig::default() };
    let runner = runner(&db, flow.clone(), config);
    let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
    let running = tokio::spawn(runner.run_until(async move {
        let _ = stop_rx.await;
    }));
    let done = tokio::time::timeout(Duration::from_secs(30), async {
        while flow.calls.lock().expect("lock").len() < 12 || flow.running.load(Ordering::SeqCst) > 0 {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
    .await;
    let _ = stop_tx.send(());
    running.await.expect("join").expect("runner");
    assert!(done.is_ok(), "all 12 steps ran");
    assert_eq!(flow.peak.load(Ordering::SeqCst), 4, "four steps at once, never more");
    let streams: HashSet<String> = flow.calls.lock().expect("lock").iter().map(|(s, _)| s.clone()).collect();
    assert_eq!((flow.calls.lock().expect("lock").len(), streams.len()), (12, 12), "each step called once");
    assert_eq!(due_rows(&db).await, 0, "nothing left planned");
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
        // Fewer slots than due steps, so that one runner cannot claim them all in one go.
        let config = RunnerConfig {
            id: name.into(),
            poll: Duration::from_millis(50),
            concurrency: 8,
            ..RunnerConfig::default()
        };
        let runner = runner(&db, flow.clone(), config);
        let mut stop = stop_tx.subscribe();
        handles.push(tokio::spawn(async move {
            runner
                .run_until(async move {
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
        assert_eq!(types(&events), ["demo.started", "step.started", "step.called", "demo.called"]);
    }
}

#[sqlx::test(migrations = "../migrations")]
async fn a_runner_stopped_mid_step_is_resumed_with_the_same_key(db: PgPool) {
    let store = EventStore::new(db.clone());
    let flow = Arc::new(DemoFlow { hang_first: true, ..DemoFlow::default() });
    let stream = start_attempt(&db, &store, &flow, Utc::now()).await;
    // Long enough that no machine is too slow to check it before it expires; the test then
    // expires it in the database rather than waiting it out.
    let lease = Duration::from_secs(600);
    let first = runner(&db, flow.clone(), RunnerConfig { id: "first".into(), lease, ..RunnerConfig::default() });

    // The first runner enters the call and is then stopped dead, as a crash would.
    let entered = flow.entered.notified();
    let crashed = tokio::spawn(async move { first.tick().await });
    entered.await;
    crashed.abort();
    let _ = crashed.await;

    let second = runner(&db, flow.clone(), RunnerConfig { id: "second".into(), lease, ..RunnerConfig::default() });
    assert_eq!(second.tick().await.expect("tick"), Tick::Idle, "the first runner's lease still holds");
    sqlx::query("UPDATE due_steps SET lease_until = now() - interval '1 second'").execute(&db).await.expect("expire");
    assert_eq!(
        second.tick().await.expect("tick"),
        Tick::Ran { stream_id: stream.as_str().into(), step: "call".into() }
    );

    let calls = flow.calls.lock().expect("lock").clone();
    assert_eq!(calls.len(), 2, "the call was repeated once");
    assert_eq!(calls[0].1, calls[1].1, "with the same idempotency key");
    assert_eq!(calls[0].1, format!("{}:call:2", stream.as_str()), "named after the version both claims read");
    // Issue 24: the try that died wrote nothing (its start goes in with its result), so the
    // second claim read the stream the first one read, and derived the key again.
    let events = store.read_stream(&stream).await.expect("read");
    assert_eq!(types(&events), ["demo.started", "step.started", "step.called", "demo.called"]);
    assert_eq!(events[1].payload["idempotency_key"], calls[1].1.as_str());
    assert_eq!(events[1].payload["claim"].as_i64(), Some(2), "the second claim's try");
}

/// Issue 24: a retry that dies mid-call leaves the first try's start as the run's; the repeat
/// after the lease carries the first try's key, and the budget runs from the first try's claim.
#[sqlx::test(migrations = "../migrations")]
async fn a_retry_stopped_mid_call_is_repeated_under_the_first_tries_key(db: PgPool) {
    let store = EventStore::new(db.clone());
    let flow = Arc::new(DemoFlow { fail_first: 1, hang_call: Some(2), ..DemoFlow::default() });
    let stream = start_attempt(&db, &store, &flow, Utc::now()).await;
    // Long enough that no machine is too slow for either runner to finish inside it; the
    // crashed claim's lease is expired in the database rather than waited out.
    let lease = Duration::from_secs(600);
    let first = runner(&db, flow.clone(), RunnerConfig { id: "first".into(), lease, ..RunnerConfig::default() });
    assert_eq!(
        first.tick().await.expect("tick"),
        Tick::Retrying { stream_id: stream.as_str().into(), step: "call".into() }
    );
    skip_back_off(&db).await;
    // The failed call left its signal behind; the next one to wait for is the second call's.
    flow.entered.notified().await;
    let entered = flow.entered.notified();
    let crashed = tokio::spawn(async move { first.tick().await });
    entered.await;
    crashed.abort();
    let _ = crashed.await;
    sqlx::query("UPDATE due_steps SET lease_until = now() - interval '1 second'").execute(&db).await.expect("expire");

    let second = runner(&db, flow.clone(), RunnerConfig { id: "second".into(), lease, ..RunnerConfig::default() });
    assert_eq!(
        second.tick().await.expect("tick"),
        Tick::Ran { stream_id: stream.as_str().into(), step: "call".into() }
    );
    let calls = flow.calls.lock().expect("lock").clone();
    assert_eq!(calls.len(), 3);
    assert!(calls.iter().all(|(_, key)| *key == format!("{}:call:2", stream.as_str())), "{calls:?}");
    let events = store.read_stream(&stream).await.expect("read");
    assert_eq!(
        types(&events),
        ["demo.started", "step.started", "step.called", "step.started", "step.called", "demo.called"]
    );
    assert_eq!(events[3].payload["claim"].as_i64(), Some(3), "the try that died was counted");
    let started_at = |e: &RecordedEvent| serde_json::from_value::<DateTime<Utc>>(e.payload["started_at"].clone());
    assert!(started_at(&events[1]).expect("the claim's time") < started_at(&events[3]).expect("the claim's time"));
}

/// Issue 24: a try writes nothing before its call; its `step.started`, `step.called` and the
/// outcome are one transaction (one transaction id, one time), and `started_at` is the claim's.
#[sqlx::test(migrations = "../migrations")]
async fn a_try_is_written_in_one_transaction_with_its_outcome(db: PgPool) {
    let store = EventStore::new(db.clone());
    let flow = Arc::new(DemoFlow { delay: Duration::from_millis(300), ..DemoFlow::default() });
    let stream = start_attempt(&db, &store, &flow, Utc::now()).await;
    let runner = runner(&db, flow.clone(), RunnerConfig::default());

    let entered = flow.entered.notified();
    let running = tokio::spawn(async move { runner.tick().await });
    entered.await;
    let during = store.read_stream(&stream).await.expect("read");
    assert_eq!(types(&during), ["demo.started"], "nothing is written before the call");
    assert_eq!(
        running.await.expect("join").expect("tick"),
        Tick::Ran { stream_id: stream.as_str().into(), step: "call".into() }
    );

    let events = store.read_stream(&stream).await.expect("read");
    assert_eq!(types(&events), ["demo.started", "step.started", "step.called", "demo.called"]);
    let tries: HashSet<(i64, DateTime<Utc>)> = events[1..].iter().map(|e| (e.tx_id, e.recorded_at)).collect();
    assert_eq!(tries.len(), 1, "one transaction: {tries:?}");
    assert_ne!(events[0].tx_id, events[1].tx_id);
    let started_at: DateTime<Utc> =
        serde_json::from_value(events[1].payload["started_at"].clone()).expect("the claim's time");
    let took = events[1].recorded_at - started_at;
    assert!(took >= chrono::Duration::milliseconds(300), "started at the claim, before the call: {took}");
}

#[sqlx::test(migrations = "../migrations")]
async fn a_step_that_keeps_failing_is_retried_then_given_up(db: PgPool) {
    let store = EventStore::new(db.clone());
    let flow = Arc::new(DemoFlow { always_fail: true, ..DemoFlow::default() });
    let stream = start_attempt(&db, &store, &flow, Utc::now()).await;
    let runner = runner(&db, flow.clone(), retrying(2));

    assert_eq!(
        runner.tick().await.expect("tick"),
        Tick::Retrying { stream_id: stream.as_str().into(), step: "call".into() }
    );
    assert_eq!(runner.tick().await.expect("tick"), Tick::Idle, "backing off");
    skip_back_off(&db).await;
    assert_eq!(
        runner.tick().await.expect("tick"),
        Tick::GaveUp { stream_id: stream.as_str().into(), step: "call".into() }
    );

    let events = store.read_stream(&stream).await.expect("read");
    assert_eq!(types(&events), ["demo.started", "step.started", "step.called", "step.started", "step.gave_up"]);
    // Each try's start is written with its failure, in one transaction.
    assert_eq!((events[1].tx_id, events[3].tx_id), (events[2].tx_id, events[4].tx_id));
    assert_eq!(events[1].payload["idempotency_key"], events[3].payload["idempotency_key"]);
    let failed = &events[2].payload;
    assert_eq!((failed["status"].as_u64(), failed["kind"].as_str()), (Some(503), Some("upstream")));
    assert!(
        failed["retry_in_ms"].as_u64().is_some_and(|ms| ms <= 1000),
        "the first retry waits at most the base: {failed}"
    );
    let gave_up = &events[4].payload;
    assert_eq!(gave_up["reason"], "upstream: upstream unavailable");
    assert_eq!((gave_up["claims"].as_i64(), gave_up["retries"].as_i64()), (Some(2), Some(1)));
    assert_eq!(due_rows(&db).await, 0);
    let calls = flow.calls.lock().expect("lock");
    assert_eq!(calls.len(), 2);
    assert_eq!(calls[0].1, calls[1].1, "retries reuse the key");
}

/// Issue 14, defect 1: a panic inside a step was not caught; the runner task died with the
/// lease held, and the step was claimed again every lease for ever.
#[sqlx::test(migrations = "../migrations")]
async fn a_panicking_step_is_caught_counted_and_given_up(db: PgPool) {
    let store = EventStore::new(db.clone());
    let flow = Arc::new(DemoFlow { panics: true, ..DemoFlow::default() });
    let stream = start_attempt(&db, &store, &flow, Utc::now()).await;
    let runner = runner(&db, flow.clone(), retrying(2));

    assert_eq!(
        runner.tick().await.expect("tick"),
        Tick::Retrying { stream_id: stream.as_str().into(), step: "call".into() }
    );
    skip_back_off(&db).await;
    assert_eq!(
        runner.tick().await.expect("tick"),
        Tick::GaveUp { stream_id: stream.as_str().into(), step: "call".into() }
    );

    let events = store.read_stream(&stream).await.expect("read");
    assert_eq!(types(&events), ["demo.started", "step.started", "step.called", "step.started", "step.gave_up"]);
    assert_eq!(events[2].payload["kind"], "panic");
    assert_eq!(events[4].payload["reason"], "panic: the step panicked: a bug in the step");
    assert_eq!(due_rows(&db).await, 0, "the attempt ended");
}

/// Issue 14, defect 1: an outcome PostgreSQL refuses (a `\u0000` in a payload) made the runner
/// return with the lease held, so the step was claimed and called again every lease, for ever.
#[sqlx::test(migrations = "../migrations")]
async fn an_outcome_the_database_refuses_is_counted_and_given_up(db: PgPool) {
    let store = EventStore::new(db.clone());
    let flow = Arc::new(DemoFlow { nul_outcome: true, ..DemoFlow::default() });
    let stream = start_attempt(&db, &store, &flow, Utc::now()).await;
    let runner = runner(&db, flow.clone(), retrying(2));

    assert_eq!(
        runner.tick().await.expect("tick"),
        Tick::Retrying { stream_id: stream.as_str().into(), step: "call".into() }
    );
    let lease: Option<DateTime<Utc>> =
        sqlx::query_scalar("SELECT lease_until FROM due_steps").fetch_one(&db).await.expect("lease");
    assert_eq!(lease, None, "the lease is given back, not left to expire");
    skip_back_off(&db).await;
    assert_eq!(
        runner.tick().await.expect("tick"),
        Tick::GaveUp { stream_id: stream.as_str().into(), step: "call".into() }
    );
    let events = store.read_stream(&stream).await.expect("read");
    assert_eq!(
        events.last().map(|e| e.payload["reason"].as_str().unwrap_or_default().starts_with("internal: ")),
        Some(true)
    );
    assert_eq!(due_rows(&db).await, 0);
}

/// Issue 14, defect 1: tries that never report (the process died mid-call) were not counted,
/// so a step that crashes its runner was called again after every lease, for ever.
#[sqlx::test(migrations = "../migrations")]
async fn claims_that_never_reported_spend_the_budget_without_another_call(db: PgPool) {
    let store = EventStore::new(db.clone());
    let flow = Arc::new(DemoFlow { hang_first: true, ..DemoFlow::default() });
    let stream = start_attempt(&db, &store, &flow, Utc::now()).await;
    // Long enough that the second runner's finish never meets an expired lease of its own (a
    // 300 ms lease lost it on a busy CI machine); the crashed claim's lease is expired in the
    // database rather than waited out.
    let lease = Duration::from_secs(600);
    let config = RunnerConfig { lease, ..retrying(1) };
    let first = runner(&db, flow.clone(), RunnerConfig { id: "first".into(), ..config.clone() });
    let entered = flow.entered.notified();
    let crashed = tokio::spawn(async move { first.tick().await });
    entered.await;
    crashed.abort();
    let _ = crashed.await;
    sqlx::query("UPDATE due_steps SET lease_until = now() - interval '1 second'").execute(&db).await.expect("expire");

    let second = runner(&db, flow.clone(), RunnerConfig { id: "second".into(), ..config });
    assert_eq!(
        second.tick().await.expect("tick"),
        Tick::GaveUp { stream_id: stream.as_str().into(), step: "call".into() }
    );
    assert_eq!(flow.calls.lock().expect("lock").len(), 1, "no call past the budget");
    let events = store.read_stream(&stream).await.expect("read");
    assert_eq!(
        events.last().map(|e| e.payload["reason"].clone()),
        Some(json!("unfinished: the step's earlier tries never finished"))
    );
}

/// Issue 14, defect 2: five claims with 0.4 to 3.2 s between them turned a 6 s outage into a
/// failed attempt. With full jitter up to a 10 s cap inside a 60 s budget, it is ridden out.
#[sqlx::test(migrations = "../migrations")]
async fn a_seven_second_outage_is_ridden_out(db: PgPool) {
    let store = EventStore::new(db.clone());
    let outage = Duration::from_secs(7);
    let flow = Arc::new(DemoFlow { fail_until: Some(std::time::Instant::now() + outage), ..DemoFlow::default() });
    let stream = start_attempt(&db, &store, &flow, Utc::now()).await;
    let config = RunnerConfig { poll: Duration::from_millis(50), ..RunnerConfig::default() };
    let runner = runner(&db, flow.clone(), config);
    let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
    let running = tokio::spawn(runner.run_until(async move {
        let _ = stop_rx.await;
    }));

    let finished = tokio::time::timeout(Duration::from_secs(40), async {
        loop {
            let events = store.read_stream(&stream).await.expect("read");
            if events.iter().any(|e| e.event_type == "demo.called" || e.event_type == "step.gave_up") {
                return events;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    })
    .await
    .expect("the step ends within the budget");
    let _ = stop_tx.send(());
    running.await.expect("join").expect("runner");

    assert_eq!(finished.last().map(|e| e.event_type.as_str()), Some("demo.called"), "{:?}", types(&finished));
    let failures = finished.iter().filter(|e| e.event_type == "step.called" && e.payload["kind"] == "upstream").count();
    assert!(failures >= 1, "the outage was met");
    let calls = flow.calls.lock().expect("lock");
    assert!(calls.iter().all(|(_, key)| *key == calls[0].1), "every try carried the same key");
}

/// Issue 14, defect 4: a step planned again under the same name (a visitor's command) kept the
/// claims of its earlier plan, so re-plans were counted as retries.
#[sqlx::test(migrations = "../migrations")]
async fn a_new_plan_of_the_same_step_starts_its_count_again(db: PgPool) {
    let store = EventStore::new(db.clone());
    let flow = Arc::new(DemoFlow { always_fail: true, ..DemoFlow::default() });
    let stream = start_attempt(&db, &store, &flow, Utc::now()).await;
    let runner = runner(&db, flow.clone(), retrying(2));

    assert_eq!(
        runner.tick().await.expect("tick"),
        Tick::Retrying { stream_id: stream.as_str().into(), step: "call".into() }
    );
    poke(&db, &stream).await;
    assert_eq!(claims(&db).await, 0, "the new plan is not a retry of the old one");
    assert_eq!(
        runner.tick().await.expect("tick"),
        Tick::Retrying { stream_id: stream.as_str().into(), step: "call".into() }
    );
    let calls = flow.calls.lock().expect("lock");
    assert_ne!(calls[0].1, calls[1].1, "the new plan is a new call, with its own key");
}

/// Issue 14, defect 4: giving up ignored a conflicting append and deleted the schedule, even
/// when a command had planned a newer step meanwhile.
#[sqlx::test(migrations = "../migrations")]
async fn giving_up_never_deletes_a_newer_plan(db: PgPool) {
    let store = EventStore::new(db.clone());
    let flow = Arc::new(DemoFlow { always_fail: true, poke_during_call: Some(db.clone()), ..DemoFlow::default() });
    let stream = start_attempt(&db, &store, &flow, Utc::now()).await;
    let runner = runner(&db, flow.clone(), retrying(1));

    assert_eq!(runner.tick().await.expect("tick"), Tick::Replanned { stream_id: stream.as_str().into() });
    let events = store.read_stream(&stream).await.expect("read");
    // The failed try's start went with its failure, which the command's append refused.
    assert_eq!(types(&events), ["demo.started", "demo.poked"], "no give-up over the command");
    assert_eq!(due_rows(&db).await, 1, "the command's plan stands");
    let leased: Option<String> =
        sqlx::query_scalar("SELECT claimed_by FROM due_steps").fetch_one(&db).await.expect("row");
    assert_eq!(leased, None, "and is free to be claimed");
}

/// Issue 14, defect 4: a command's re-plan cleared the lease of a step still running, so a
/// second runner could start the stream's next step during the first one's call.
#[sqlx::test(migrations = "../migrations")]
async fn a_command_keeps_the_lease_of_a_running_step(db: PgPool) {
    let store = EventStore::new(db.clone());
    let flow = Arc::new(DemoFlow { delay: Duration::from_millis(800), ..DemoFlow::default() });
    let stream = start_attempt(&db, &store, &flow, Utc::now()).await;
    let first = runner(&db, flow.clone(), RunnerConfig { id: "first".into(), ..RunnerConfig::default() });
    let second = runner(&db, flow.clone(), RunnerConfig { id: "second".into(), ..RunnerConfig::default() });

    let entered = flow.entered.notified();
    let running = tokio::spawn(async move { first.tick().await });
    entered.await;
    poke(&db, &stream).await;
    assert_eq!(second.tick().await.expect("tick"), Tick::Idle, "the running step's lease holds");
    assert_eq!(running.await.expect("join").expect("tick"), Tick::Replanned { stream_id: stream.as_str().into() });
    assert_eq!(*flow.overlaps.lock().expect("lock"), 0);
    assert_eq!(
        second.tick().await.expect("tick"),
        Tick::Ran { stream_id: stream.as_str().into(), step: "call".into() }
    );
}

/// Issue 14, defect 4: the lease was never renewed, so a step slower than its lease was
/// claimed and run a second time while the first call still ran.
#[sqlx::test(migrations = "../migrations")]
async fn a_slow_step_keeps_its_lease(db: PgPool) {
    let store = EventStore::new(db.clone());
    // The call runs until the test has seen its lease renewed twice (every third of a lease),
    // with a second runner ticking all along. The lease is long, so a renewal late by up to 4 s
    // on a loaded machine cannot lose the claim: a lease of 900 ms lost it once in CI.
    let lease = Duration::from_secs(6);
    let flow = Arc::new(DemoFlow { hold: true, ..DemoFlow::default() });
    let stream = start_attempt(&db, &store, &flow, Utc::now()).await;
    let first = runner(&db, flow.clone(), RunnerConfig { id: "first".into(), lease, ..RunnerConfig::default() });
    let second = runner(&db, flow.clone(), RunnerConfig { id: "second".into(), lease, ..RunnerConfig::default() });

    let entered = flow.entered.notified();
    let running = tokio::spawn(async move { first.tick().await });
    entered.await;
    let lease_until = || async {
        sqlx::query_scalar::<_, Option<DateTime<Utc>>>("SELECT lease_until FROM due_steps")
            .fetch_one(&db)
            .await
            .expect("lease")
    };
    let mut leases = vec![lease_until().await];
    while leases.len() < 3 {
        assert_eq!(second.tick().await.expect("tick"), Tick::Idle, "the lease is renewed while the call runs");
        tokio::time::sleep(Duration::from_millis(200)).await;
        let now = lease_until().await;
        if leases.last().is_some_and(|last| now > *last) {
            leases.push(now);
        }
    }
    assert!(!running.is_finished(), "the call is still held");
    flow.released.notify_one();
    assert_eq!(
        running.await.expect("join").expect("tick"),
        Tick::Ran { stream_id: stream.as_str().into(), step: "call".into() }
    );
    assert_eq!(flow.calls.lock().expect("lock").len(), 1);
}

/// Issue 14, defect 10: each runner's LISTEN held one of the pool's connections for good, so a
/// pool no larger than the number of runners had none left for anything else.
#[sqlx::test(migrations = "../migrations")]
async fn listening_runners_leave_the_pool_to_the_work(db: PgPool) {
    let small = sqlx::postgres::PgPoolOptions::new()
        .max_connections(2)
        .acquire_timeout(Duration::from_secs(2))
        .connect_with((*db.connect_options()).clone())
        .await
        .expect("pool");
    let (stop_tx, _) = tokio::sync::broadcast::channel::<()>(1);
    let mut handles = Vec::new();
    for n in 0..3 {
        let config =
            RunnerConfig { id: format!("listener-{n}"), poll: Duration::from_secs(5), ..RunnerConfig::default() };
        let runner = runner(&small, Arc::new(DemoFlow::default()), config);
        let mut stop = stop_tx.subscribe();
        handles.push(tokio::spawn(runner.run_until(async move {
            let _ = stop.recv().await;
        })));
    }
    tokio::time::sleep(Duration::from_millis(800)).await;
    let free = small.acquire().await;
    let _ = stop_tx.send(());
    for handle in handles {
        handle.await.expect("join").expect("runner");
    }
    assert!(free.is_ok(), "a connection is free for the work: {:?}", free.err());
}

/// Issue 15: a runner woken by every append claims as many due steps as it has free slots in
/// one statement, and the same statement says when the next step falls due when fewer were
/// due than asked for (it used to ask twice each time, once for each).
#[sqlx::test(migrations = "../migrations")]
async fn one_claim_takes_up_to_its_limit_and_says_when_the_next_step_falls_due(db: PgPool) {
    for (stream, due_in_secs) in [("demo-a", -3.0), ("demo-b", -2.0), ("demo-c", -1.0), ("demo-later", 10.0)] {
        sqlx::query(
            "INSERT INTO due_steps (stream_id, flow, step, due_at, stream_version)
             VALUES ($1, 'demo', 'call', now() + make_interval(secs => $2), 1)",
        )
        .bind(stream)
        .bind(due_in_secs)
        .execute(&db)
        .await
        .expect("plan");
    }
    let flows = vec!["demo".to_string()];
    let lease = Duration::from_secs(30);
    let claim = |limit| orchestrator::runner::claim::claim_due(&db, &flows, "runner-1", lease, limit);

    let first = claim(2).await.expect("claim");
    let names: Vec<&str> = first.claimed.iter().map(|c| c.stream_id.as_str()).collect();
    assert_eq!(names, ["demo-a", "demo-b"], "oldest first, no more than asked");
    assert_eq!(first.next_due_in, None, "as many as asked were due: the runner asks again");
    let tokens: HashSet<_> = first.claimed.iter().map(|c| c.lease_token).collect();
    assert_eq!(tokens.len(), 2, "each claim has a token of its own");

    let second = claim(5).await.expect("claim");
    let names: Vec<&str> = second.claimed.iter().map(|c| c.stream_id.as_str()).collect();
    assert_eq!(names, ["demo-c"]);
    let wait = second.next_due_in.expect("the later step's wait");
    assert!(wait > Duration::from_secs(8) && wait <= Duration::from_secs(10), "{wait:?}");

    let third = claim(5).await.expect("claim");
    assert!(third.claimed.is_empty(), "the leased steps are not claimed again");
    let wait = third.next_due_in.expect("the later step's wait");
    assert!(wait > Duration::from_secs(8) && wait <= Duration::from_secs(10), "{wait:?}");
}

/// Issue 24: the runner's finish and next plan are one statement, fenced by the claim's token.
#[sqlx::test(migrations = "../migrations")]
async fn a_claims_finish_writes_the_next_plan_only_while_the_claim_holds(db: PgPool) {
    use orchestrator::runner::claim::{claim_due, finish_and_plan, Finished};
    let held = |finished: Finished| !matches!(finished, Finished::Lost);
    let store = EventStore::new(db.clone());
    let flow = DemoFlow::default();
    start_attempt(&db, &store, &flow, Utc::now()).await;
    let lease = Duration::from_secs(30);
    let first = claim_due(&db, &["demo".into()], "first", lease, 1).await.expect("claim").claimed.remove(0);
    // The lease runs out and a second runner takes the step over.
    sqlx::query("UPDATE due_steps SET lease_until = now() - interval '1 second'").execute(&db).await.expect("expire");
    let second = claim_due(&db, &["demo".into()], "second", lease, 1).await.expect("claim").claimed.remove(0);
    let later = PlannedStep { name: "follow_up".into(), due_at: Utc::now() + chrono::Duration::hours(1) };

    let mut tx = db.begin().await.expect("tx");
    assert!(
        !held(finish_and_plan(&mut tx, &first, Some(&later), 2, None).await.expect("finish")),
        "the first claim is lost"
    );
    assert!(!held(finish_and_plan(&mut tx, &first, None, 2, None).await.expect("finish")), "lost for a give-up too");
    tx.commit().await.expect("commit");
    let row: (String, Option<String>, i32) =
        sqlx::query_as("SELECT step, claimed_by, claims FROM due_steps").fetch_one(&db).await.expect("row");
    assert_eq!(row, ("call".into(), Some("second".into()), 2), "the lost claim wrote nothing");

    let mut tx = db.begin().await.expect("tx");
    assert!(held(finish_and_plan(&mut tx, &second, Some(&later), 2, None).await.expect("finish")));
    tx.commit().await.expect("commit");
    let row: (String, Option<String>, i32, i64) =
        sqlx::query_as("SELECT step, claimed_by, claims, stream_version FROM due_steps")
            .fetch_one(&db)
            .await
            .expect("row");
    assert_eq!(row, ("follow_up".into(), None, 0, 2), "the next plan, its lease cleared and its count new");

    // A plan of nothing deletes the row, under a claim that holds.
    sqlx::query("UPDATE due_steps SET due_at = now()").execute(&db).await.expect("due now");
    let third = claim_due(&db, &["demo".into()], "third", lease, 1).await.expect("claim").claimed.remove(0);
    let mut tx = db.begin().await.expect("tx");
    assert!(held(finish_and_plan(&mut tx, &third, None, 2, None).await.expect("finish")));
    tx.commit().await.expect("commit");
    assert_eq!(due_rows(&db).await, 0);
}

/// Issue 24: a finish that plans a step due at once claims it for the runner that asks, in the
/// same statement; a step due later, or no runner to take it, leaves the plan free as before.
#[sqlx::test(migrations = "../migrations")]
async fn a_finish_claims_a_next_step_due_at_once_for_the_runner_that_asks(db: PgPool) {
    use orchestrator::runner::claim::{claim_due, finish_and_plan, Chain, Finished};
    let store = EventStore::new(db.clone());
    start_attempt(&db, &store, &DemoFlow::default(), Utc::now()).await;
    let lease = Duration::from_secs(30);
    let chain = Some(Chain { runner_id: "chainer", lease });
    let claim = |name: &'static str| {
        let db = db.clone();
        async move { claim_due(&db, &["demo".into()], name, lease, 1).await.expect("claim").claimed.remove(0) }
    };
    let row = || async {
        sqlx::query_as::<_, (String, Option<String>, i32, i64)>(
            "SELECT step, claimed_by, claims, stream_version FROM due_steps",
        )
        .fetch_one(&db)
        .await
        .expect("row")
    };

    // Due later: planned and free, whoever asks.
    let first = claim("first").await;
    let later = PlannedStep { name: "follow_up".into(), due_at: Utc::now() + chrono::Duration::hours(1) };
    let mut tx = db.begin().await.expect("tx");
    let finished = finish_and_plan(&mut tx, &first, Some(&later), 2, chain).await.expect("finish");
    tx.commit().await.expect("commit");
    assert!(matches!(finished, Finished::Done), "{finished:?}");
    assert_eq!(row().await, ("follow_up".into(), None, 0, 2));

    // Due at once, nobody asking: planned and free.
    sqlx::query("UPDATE due_steps SET due_at = now()").execute(&db).await.expect("due now");
    let second = claim("second").await;
    let now = PlannedStep { name: "after".into(), due_at: Utc::now() - chrono::Duration::seconds(1) };
    let mut tx = db.begin().await.expect("tx");
    let finished = finish_and_plan(&mut tx, &second, Some(&now), 3, None).await.expect("finish");
    tx.commit().await.expect("commit");
    assert!(matches!(finished, Finished::Done), "{finished:?}");
    assert_eq!(row().await, ("after".into(), None, 0, 3));

    // Due at once, a runner asking: its first claim, under a new token, with the version planned.
    let third = claim("third").await;
    let next = PlannedStep { name: "last".into(), due_at: Utc::now() - chrono::Duration::seconds(1) };
    let mut tx = db.begin().await.expect("tx");
    let finished = finish_and_plan(&mut tx, &third, Some(&next), 4, chain).await.expect("finish");
    tx.commit().await.expect("commit");
    let Finished::Chained(chained) = finished else { panic!("not chained: {finished:?}") };
    assert_eq!(row().await, ("last".into(), Some("chainer".into()), 1, 4));
    assert_eq!((chained.step.as_str(), chained.claims, chained.stream_version), ("last", 1, 4));
    assert_ne!(chained.lease_token, third.lease_token, "a claim of its own fences its writes");
    assert!(chained.lease_until > chained.db_now);
    assert!(claim_due(&db, &["demo".into()], "other", lease, 1).await.expect("claim").claimed.is_empty(), "held");

    // The old claim's token no longer holds anything.
    let mut tx = db.begin().await.expect("tx");
    let finished = finish_and_plan(&mut tx, &third, Some(&next), 5, chain).await.expect("finish");
    assert!(matches!(finished, Finished::Lost), "{finished:?}");
}

/// Issue 24: a step whose result plans the next one due at once goes on with it in the same
/// runner, claimed by the result's own transaction (no claim transaction of its own).
#[sqlx::test(migrations = "../migrations")]
async fn a_next_step_due_at_once_is_claimed_by_the_transaction_of_the_result_before_it(db: PgPool) {
    let store = EventStore::new(db.clone());
    // The follow-up (the second call) hangs, so the row can be read while it holds the step.
    let flow = Arc::new(DemoFlow { follow_up: true, hang_call: Some(2), ..DemoFlow::default() });
    let stream = start_attempt(&db, &store, &flow, Utc::now()).await;
    let config = RunnerConfig { id: "chainer".into(), poll: Duration::from_millis(50), ..RunnerConfig::default() };
    let running = tokio::spawn(runner(&db, flow.clone(), config).run_until(std::future::pending()));
    let reached = tokio::time::timeout(Duration::from_secs(20), async {
        while flow.calls.lock().expect("lock").len() < 2 {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
    .await;
    let row: Option<(String, Option<String>, i32, bool)> = sqlx::query_as(
        "SELECT d.step, d.claimed_by, d.claims,
                d.xmin::text = (SELECT (tx_id::text::numeric % 4294967296)::text FROM events
                                 WHERE stream_id = d.stream_id AND event_type = 'demo.called')
           FROM due_steps d",
    )
    .fetch_optional(&db)
    .await
    .expect("row");
    running.abort();
    assert!(reached.is_ok(), "the follow-up was called");
    assert_eq!(
        row,
        Some(("follow_up".into(), Some("chainer".into()), 1, true)),
        "the follow-up's claim was written by the transaction that appended the call's result"
    );
    let events = store.read_stream(&stream).await.expect("read");
    assert_eq!(types(&events), ["demo.started", "step.started", "step.called", "demo.called"]);
}

/// Issue 24: a claim of a stream this process wrote last, still at that version, folds the
/// history kept instead of reading it; any other version is read.
#[sqlx::test(migrations = "../migrations")]
async fn a_claim_folds_the_history_kept_only_at_the_version_it_found(db: PgPool) {
    let store = EventStore::new(db.clone());
    let flow = Arc::new(DemoFlow::default());
    let stream = start_attempt(&db, &store, &flow, Utc::now()).await;
    let histories = Arc::new(orchestrator::write_path::Histories::default());
    let runner = runner(&db, flow.clone(), RunnerConfig::default()).with_histories(histories.clone());
    // Kept at the stream's version, a copy that says the step is not due for a day: the claim
    // folds it (and gives the step back re-planned) instead of reading the stream.
    let mut kept = store.read_stream(&stream).await.expect("read");
    kept[0].payload = json!({ "run_at": Utc::now() + chrono::Duration::days(1) });
    histories.keep(stream.as_str(), kept);
    assert_eq!(runner.tick().await.expect("tick"), Tick::Replanned { stream_id: stream.as_str().into() });
    assert!(flow.calls.lock().expect("lock").is_empty(), "no call on the folded copy");

    // The stream moves on (a command of another process): the copy is a version behind, so
    // the claim reads the stream and runs the step.
    poke(&db, &stream).await;
    assert_eq!(
        runner.tick().await.expect("tick"),
        Tick::Ran { stream_id: stream.as_str().into(), step: "call".into() }
    );
    assert_eq!(flow.calls.lock().expect("lock").len(), 1);
}

/// Issue 24: a runner that takes its process's hand-offs learns of that process's plans in
/// process: its own store's NOTIFYs wake no claim (the poll is an hour here), a wake-up of the
/// hand-off does, and so does another process's NOTIFY.
#[sqlx::test(migrations = "../migrations")]
async fn a_runner_with_the_hand_off_claims_on_its_wake_ups_and_on_other_processes_notifies(db: PgPool) {
    use orchestrator::write_path::Handoff;
    let store = EventStore::new(db.clone());
    let flow = Arc::new(DemoFlow::default());
    let handoff = Arc::new(Handoff::default());
    let config = RunnerConfig { poll: Duration::from_secs(3600), ..RunnerConfig::default() };
    let runner = Runner::new(db.clone(), store.clone(), config).with_flow(flow.clone()).with_handoff(handoff.clone());
    // A step due before the runner starts: its call shows the runner listened and claimed.
    let sentinel = start_attempt(&db, &store, &flow, Utc::now()).await;
    let running = tokio::spawn(runner.run_until(std::future::pending()));
    let calls = || flow.calls.lock().expect("lock").len();
    let until_called = |n: usize| async move {
        tokio::time::timeout(Duration::from_secs(20), async {
            while calls() < n {
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        })
        .await
        .is_ok()
    };
    // Listening and idle: the sentinel's step ran and ended (the claim after it finds nothing).
    assert!(until_called(1).await, "the sentinel's step ran");
    tokio::time::timeout(Duration::from_secs(20), async {
        while !types(&store.read_stream(&sentinel).await.expect("read")).contains(&"demo.called") {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
    .await
    .expect("the sentinel's step ended");
    tokio::time::sleep(Duration::from_millis(200)).await;

    // A plan announced by this process's store only: no claim.
    start_attempt(&db, &store, &flow, Utc::now()).await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    let after_own_notify = calls();
    // The hand-off's wake-up (a command left the plan free): claimed.
    handoff.wake();
    let woken = until_called(2).await;
    // Another process's store announces a plan: claimed.
    start_attempt(&db, &EventStore::new(db.clone()), &flow, Utc::now()).await;
    let foreign = until_called(3).await;
    running.abort();
    assert_eq!(after_own_notify, 1, "its own process's NOTIFY woke no claim");
    assert!(woken && foreign, "woken by the hand-off ({woken}) and by another process ({foreign})");
}
