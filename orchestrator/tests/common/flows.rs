//! Shared by the flow tests (activation, cloud, download): the portal's API on port 0, a sandbox
//! on port 0, runners pointed at that sandbox, and a visitor's browser (its cookie) driving an
//! attempt. Each flow's support module adds its own constructor and form helpers in an
//! `impl World` of its own (one test binary holds one flow's module, so the names never clash).

use std::sync::Arc;
use std::time::Duration;

use events::pii::{Keys, Vault};
use orchestrator::runner::StepDeps;
use orchestrator::runner::{RetryPolicy, Runner, RunnerConfig, StepFlow};
use orchestrator::upstream::Upstreams;
use sandbox::{spawn_on_loopback, SandboxConfig, SandboxHandle};
use serde_json::{json, Value};
use sqlx::PgPool;

use orchestrator::config::ServeConfig;

use super::{spawn_app, spawn_app_configured, TestApp};

pub struct World {
    pub db: PgPool,
    pub app: TestApp,
    pub sandbox: SandboxHandle,
    pub http: reqwest::Client,
    /// The runner `serving` started; stops with the world.
    background: Option<Background>,
}

/// A visitor's attempt: its id and the browser's session cookie.
pub struct Visitor {
    pub id: String,
    pub cookie: String,
}

impl World {
    /// The portal and a sandbox seeded with `seed`; steps run only when the test ticks a
    /// runner of its own (see [`World::runner_with`]), so the portal's upstreams stay unset.
    pub async fn with_sandbox(db: PgPool, seed: u64) -> Self {
        let sandbox = spawn_on_loopback(SandboxConfig { seed }).await.expect("sandbox");
        let app = spawn_app(db.clone()).await;
        Self { db, app, sandbox, http: reqwest::Client::new(), background: None }
    }

    /// The portal with its upstreams at a sandbox seeded with `seed` and a runner over every
    /// flow's steps working in the background, as `orchestrator serve` runs. Its client
    /// follows no redirect (the OAuth hops are part of what the tests check).
    pub async fn serving(db: PgPool, seed: u64) -> Self {
        Self::serving_configured(db, seed, |_| {}).await
    }

    /// [`World::serving`] with the portal's configuration changed by `configure`.
    pub async fn serving_configured(db: PgPool, seed: u64, configure: impl FnOnce(&mut ServeConfig)) -> Self {
        let sandbox = spawn_on_loopback(SandboxConfig { seed }).await.expect("sandbox");
        let (app, steps) = spawn_app_configured(db.clone(), &sandbox.base_url(), configure).await;
        let config = RunnerConfig { poll: Duration::from_millis(100), ..RunnerConfig::default() };
        // As `orchestrator serve` runs it: the commands hand it the steps they plan due at once.
        let runner =
            Runner::new(db.clone(), events::EventStore::new(db.clone()), config).with_handoff(app.handoff.clone());
        let runner = steps.iter().fold(runner, |r, f| r.with_flow(Arc::clone(f)));
        let http = reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build().expect("client");
        let background = Background::spawn(runner);
        // The world is ready when the runner takes hand-offs (the first command's included).
        let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
        while !app.handoff.is_attached() {
            assert!(tokio::time::Instant::now() < deadline, "the runner never started");
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        Self { db, app, sandbox, http, background: Some(background) }
    }

    /// Stops the portal's HTTP server and starts a new one on the same database.
    pub async fn restart_app(&mut self) {
        self.app = spawn_app(self.db.clone()).await;
    }

    /// A runner of one flow's steps (built by `flow` from deps aimed at this world's sandbox).
    pub fn runner_with(&self, id: &str, max_claims: i32, flow: impl FnOnce(StepDeps) -> Arc<dyn StepFlow>) -> Runner {
        let deps = StepDeps {
            db: self.db.clone(),
            vault: Vault::new(self.db.clone(), Keys::insecure_dev()),
            http: reqwest::Client::new(),
            upstreams: Arc::new(Upstreams::sandbox(&self.sandbox.base_url())),
        };
        let config = RunnerConfig {
            id: id.to_string(),
            poll: Duration::from_millis(100),
            lease: Duration::from_secs(20),
            step_timeout: Duration::from_secs(10),
            retry: RetryPolicy { max_attempts: max_claims, ..RetryPolicy::default() },
            concurrency: 1,
        };
        Runner::new(self.db.clone(), events::EventStore::new(self.db.clone()), config).with_flow(flow(deps))
    }

    /// `POST /api/attempts` for `flow`: the status, the visitor (when the attempt was opened
    /// and the cookie set) and the body.
    pub async fn open(&self, flow: &str, command: Value) -> (u16, Option<Visitor>, Value) {
        self.open_in(None, flow, command).await
    }

    /// [`World::open`] from the browser that holds `cookie` (its session), as a return page
    /// opened in the same tab does.
    pub async fn open_in(&self, cookie: Option<&str>, flow: &str, command: Value) -> (u16, Option<Visitor>, Value) {
        let mut request = self.http.post(self.app.url("/api/attempts"));
        if let Some(cookie) = cookie {
            request = request.header("cookie", cookie);
        }
        if super::sends_code(flow, &command) {
            request = request.header("x-altcha", self.app.proof().await);
        }
        let response = request.json(&json!({ "flow": flow, "command": command })).send().await.expect("start");
        let status = response.status().as_u16();
        let cookie = response
            .headers()
            .get("set-cookie")
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.split(';').next())
            .map(str::to_string);
        let body: Value = response.json().await.expect("json");
        let visitor = match (cookie, body["id"].as_str()) {
            (Some(cookie), Some(id)) => Some(Visitor { id: id.to_string(), cookie }),
            _ => None,
        };
        (status, visitor, body)
    }

    pub async fn command(&self, visitor: &Visitor, command: Value) -> (u16, Value) {
        let mut request = self
            .http
            .post(self.app.url(&format!("/api/attempts/{}/commands", visitor.id)))
            .header("cookie", &visitor.cookie)
            .header("idempotency-key", uuid::Uuid::new_v4().to_string());
        // The browser proves work for every command that sends a code (issue 17).
        let flow = visitor.id.split('-').next().unwrap_or("");
        if super::sends_code(flow, &command) {
            request = request.header("x-altcha", self.app.proof().await);
        }
        let response = request.json(&command).send().await.expect("command");
        (response.status().as_u16(), response.json().await.expect("json"))
    }

    /// `GET /api/attempts/{id}`: every event and the view.
    pub async fn attempt(&self, visitor: &Visitor) -> Value {
        self.http
            .get(self.app.url(&format!("/api/attempts/{}", visitor.id)))
            .header("cookie", &visitor.cookie)
            .send()
            .await
            .expect("get")
            .json()
            .await
            .expect("json")
    }

    /// Polls the attempt until its view satisfies `done` (or fails after `limit`), ticking
    /// `runner` between polls when there is one.
    async fn poll(
        &self,
        runner: Option<&Runner>,
        visitor: &Visitor,
        limit: Duration,
        done: impl Fn(&Value) -> bool,
    ) -> Value {
        let deadline = tokio::time::Instant::now() + limit;
        loop {
            let attempt = self.attempt(visitor).await;
            if done(&attempt["view"]) {
                return attempt;
            }
            assert!(tokio::time::Instant::now() < deadline, "gave up waiting; attempt is {attempt:#}");
            if let Some(runner) = runner {
                runner.tick().await.expect("tick");
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// Ticks `runner` until the attempt's view satisfies `done` (or fails after `limit`).
    pub async fn drive(
        &self,
        runner: &Runner,
        visitor: &Visitor,
        limit: Duration,
        done: impl Fn(&Value) -> bool,
    ) -> Value {
        self.poll(Some(runner), visitor, limit, done).await
    }

    /// Waits, while the background runner works, until the attempt's view satisfies `done`.
    pub async fn wait(&self, visitor: &Visitor, limit: Duration, done: impl Fn(&Value) -> bool) -> Value {
        self.poll(None, visitor, limit, done).await
    }

    /// The newest code the sandbox "sent" to `msisdn` (`55...`).
    pub async fn sms_code(&self, msisdn: &str) -> String {
        let inbox = self.sandbox_json(&format!("/sms?to={msisdn}")).await;
        inbox[0]["code"].as_str().expect("a code in the inbox").to_string()
    }

    /// `GET` on the sandbox (its admin and inbox routes).
    pub async fn sandbox_json(&self, path: &str) -> Value {
        self.http
            .get(format!("{}{path}", self.sandbox.base_url()))
            .send()
            .await
            .expect("sandbox")
            .json()
            .await
            .expect("json")
    }

    /// The sandbox's log of calls to `endpoint`.
    pub async fn calls(&self, endpoint: &str) -> Vec<Value> {
        let calls = self.sandbox_json(&format!("/admin/calls?endpoint={endpoint}")).await;
        calls.as_array().cloned().unwrap_or_default()
    }

    pub async fn fault(&self, fault: Value) {
        let response = self
            .http
            .post(format!("{}/admin/faults", self.sandbox.base_url()))
            .json(&fault)
            .send()
            .await
            .expect("fault");
        assert_eq!(response.status().as_u16(), 201, "fault accepted");
    }

    /// Ends the latency of every call the sandbox holds now (a fault's `latency_ms`).
    pub async fn release_held_calls(&self) {
        let response =
            self.http.post(format!("{}/admin/faults/release", self.sandbox.base_url())).send().await.expect("release");
        assert_eq!(response.status().as_u16(), 204, "released");
    }

    /// Moves the sandbox's clock (code expiry, countdowns).
    pub async fn advance_clock(&self, seconds: i64) {
        let response = self
            .http
            .post(format!("{}/admin/clock", self.sandbox.base_url()))
            .json(&json!({ "advance_seconds": seconds }))
            .send()
            .await
            .expect("clock");
        assert!(response.status().is_success());
    }

    /// Event types of the attempt, in order, without the runner's bookkeeping.
    /// The `abuse.limited` events of the visitor's attempt (the browser never gets them).
    pub async fn refusals(&self, visitor: &Visitor) -> Vec<Value> {
        sqlx::query_scalar(
            "SELECT payload FROM events WHERE stream_id = $1 AND event_type = 'abuse.limited' ORDER BY version",
        )
        .bind(&visitor.id)
        .fetch_all(&self.db)
        .await
        .expect("refusals")
    }

    pub fn types(attempt: &Value) -> Vec<String> {
        attempt["events"]
            .as_array()
            .map(|events| {
                events
                    .iter()
                    .filter_map(|e| e["type"].as_str())
                    .filter(|t| *t != "step.started")
                    .map(str::to_string)
                    .collect()
            })
            .unwrap_or_default()
    }

    /// Rows of the events table whose payload contains `needle`.
    pub async fn events_containing(&self, needle: &str) -> i64 {
        sqlx::query_scalar("SELECT count(*) FROM events WHERE payload::text LIKE '%' || $1 || '%'")
            .bind(needle)
            .fetch_one(&self.db)
            .await
            .expect("scan")
    }
}

/// A runner working in the background, as `orchestrator serve` runs it; stopped on demand or
/// when dropped.
pub struct Background {
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    task: Option<tokio::task::JoinHandle<()>>,
}

impl Background {
    pub fn spawn(runner: Runner) -> Self {
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let task = tokio::spawn(async move {
            runner
                .run_until(async move {
                    let _ = stopped.await;
                })
                .await
                .expect("runner");
        });
        Self { stop: Some(stop), task: Some(task) }
    }

    /// Stops the runner and waits (10 s at most) for it to finish.
    pub async fn shut_down(mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(task) = self.task.take() {
            tokio::time::timeout(Duration::from_secs(10), task).await.expect("stops in time").expect("joins");
        }
    }
}

impl Drop for Background {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
    }
}
