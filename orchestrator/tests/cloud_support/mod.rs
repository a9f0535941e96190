//! Shared by the cloud tests: the portal's API on port 0, a sandbox on port 0, runners over the
//! cloud steps pointed at that sandbox, and a visitor's browser (its cookie) driving an attempt.
#![allow(dead_code)]

use std::sync::Arc;
use std::time::Duration;

use events::pii::{Keys, Vault};
use orchestrator::attempts::{FlowRunner, StepDeps};
use orchestrator::flows::cloud::CloudSteps;
use orchestrator::runner::{Runner, RunnerConfig};
use orchestrator::sandbox::{spawn_on_loopback, SandboxConfig, SandboxHandle};
use orchestrator::upstream::Upstreams;
use serde_json::{json, Value};
use sqlx::PgPool;

use crate::common::{spawn_app, TestApp};

pub struct World {
    pub db: PgPool,
    pub app: TestApp,
    pub sandbox: SandboxHandle,
    pub http: reqwest::Client,
}

/// A visitor's attempt: its id and the browser's session cookie.
pub struct Visitor {
    pub id: String,
    pub cookie: String,
}

impl World {
    pub async fn start(db: PgPool) -> Self {
        let sandbox = spawn_on_loopback(SandboxConfig { seed: 11 }).await.expect("sandbox");
        let app = spawn_app(db.clone()).await;
        Self { db, app, sandbox, http: reqwest::Client::new() }
    }

    /// Stops the portal's HTTP server and starts a new one on the same database.
    pub async fn restart_app(&mut self) {
        self.app = spawn_app(self.db.clone()).await;
    }

    /// A runner of the cloud steps against this world's sandbox.
    pub fn runner(&self, id: &str) -> Runner {
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
            max_claims: 3,
        };
        Runner::new(self.db.clone(), events::EventStore::new(self.db.clone()), config)
            .with_flow(Arc::new(FlowRunner::new(CloudSteps, deps)))
    }

    /// `POST /api/attempts` with form 1; answers the status and the body.
    pub async fn start_attempt(&self, phone: &str, serial: &str) -> (u16, Option<Visitor>, Value) {
        let response = self
            .http
            .post(self.app.url("/api/attempts"))
            .json(&json!({ "flow": "cloud", "command": { "type": "start", "phone": phone, "serial": serial } }))
            .send()
            .await
            .expect("start");
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
        let response = self
            .http
            .post(self.app.url(&format!("/api/attempts/{}/commands", visitor.id)))
            .header("cookie", &visitor.cookie)
            .header("idempotency-key", uuid::Uuid::new_v4().to_string())
            .json(&command)
            .send()
            .await
            .expect("command");
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

    /// Ticks `runner` until the attempt's view satisfies `done` (or fails after `limit`).
    pub async fn drive(&self, runner: &Runner, visitor: &Visitor, limit: Duration, done: impl Fn(&Value) -> bool) -> Value {
        let deadline = tokio::time::Instant::now() + limit;
        loop {
            let attempt = self.attempt(visitor).await;
            if done(&attempt["view"]) {
                return attempt;
            }
            assert!(tokio::time::Instant::now() < deadline, "gave up waiting; attempt is {attempt:#}");
            runner.tick().await.expect("tick");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// The newest code the sandbox "sent" to `msisdn` (`55...`).
    pub async fn sms_code(&self, msisdn: &str) -> String {
        let inbox: Value = self
            .http
            .get(format!("{}/sms?to={msisdn}", self.sandbox.base_url()))
            .send()
            .await
            .expect("inbox")
            .json()
            .await
            .expect("json");
        inbox[0]["code"].as_str().expect("a code in the inbox").to_string()
    }

    /// The sandbox's log of calls to `endpoint`.
    pub async fn calls(&self, endpoint: &str) -> Vec<Value> {
        let calls: Value = self
            .http
            .get(format!("{}/admin/calls?endpoint={endpoint}", self.sandbox.base_url()))
            .send()
            .await
            .expect("calls")
            .json()
            .await
            .expect("json");
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

    /// Event types of the attempt, in order, without the runner's bookkeeping.
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
}

pub fn panel_is(panel: &'static str) -> impl Fn(&Value) -> bool {
    move |view| view["panel"] == panel && view["loading"] == false
}

pub fn error_shown(view: &Value) -> bool {
    view["loading"] == false && view["error"].is_string()
}
