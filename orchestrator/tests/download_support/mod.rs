//! Shared by the download tests: the portal's API on port 0, a sandbox on port 0, runners over
//! the download steps pointed at that sandbox, and a visitor's browser (its cookie).
#![allow(dead_code)]

use std::sync::Arc;
use std::time::Duration;

use events::pii::{Keys, Vault};
use orchestrator::attempts::{FlowRunner, StepDeps};
use orchestrator::flows::download::DownloadSteps;
use orchestrator::runner::{Runner, RunnerConfig};
use orchestrator::sandbox::{spawn_on_loopback, SandboxConfig, SandboxHandle};
use orchestrator::upstream::Upstreams;
use serde_json::{json, Value};
use sqlx::PgPool;

use crate::common::{spawn_app, TestApp};

pub const LIMIT: Duration = Duration::from_secs(20);

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
        let sandbox = spawn_on_loopback(SandboxConfig { seed: 5 }).await.expect("sandbox");
        let app = spawn_app(db.clone()).await;
        Self { db, app, sandbox, http: reqwest::Client::new() }
    }

    /// A runner of the download steps against this world's sandbox.
    pub fn runner(&self) -> Runner {
        let deps = StepDeps {
            db: self.db.clone(),
            vault: Vault::new(self.db.clone(), Keys::insecure_dev()),
            http: reqwest::Client::new(),
            upstreams: Arc::new(Upstreams::sandbox(&self.sandbox.base_url())),
        };
        let config = RunnerConfig {
            id: "download-test-runner".to_string(),
            poll: Duration::from_millis(100),
            lease: Duration::from_secs(20),
            step_timeout: Duration::from_secs(10),
            max_claims: 2,
        };
        Runner::new(self.db.clone(), events::EventStore::new(self.db.clone()), config)
            .with_flow(Arc::new(FlowRunner::new(DownloadSteps::from_env(), deps)))
    }

    pub async fn start_attempt(&self, os: &str, browser: &str) -> (u16, Option<Visitor>, Value) {
        let response = self
            .http
            .post(self.app.url("/api/attempts"))
            .json(&json!({ "flow": "download", "command": { "type": "start", "os": os, "browser": browser } }))
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

    /// Ticks `runner` until the attempt's view is idle on `panel` (or fails after [`LIMIT`]).
    pub async fn drive_to(&self, runner: &Runner, visitor: &Visitor, panel: &str) -> Value {
        let deadline = tokio::time::Instant::now() + LIMIT;
        loop {
            let attempt = self.attempt(visitor).await;
            if attempt["view"]["panel"] == panel && attempt["view"]["busy"] == false {
                return attempt;
            }
            assert!(tokio::time::Instant::now() < deadline, "never reached {panel}; attempt is {attempt:#}");
            runner.tick().await.expect("tick");
            tokio::time::sleep(Duration::from_millis(30)).await;
        }
    }

    /// The newest code the sandbox "sent" to `55...`.
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

    /// Start, phone, SMS: the visitor is on the code panel of a new attempt.
    pub async fn on_code_panel(&self, runner: &Runner, phone: &str) -> Visitor {
        let (status, visitor, body) = self.start_attempt("win_pc", "Chrome").await;
        assert_eq!(status, 201, "{body}");
        assert_eq!(body["view"]["panel"], "phone_entry");
        let visitor = visitor.expect("attempt and cookie");
        let (status, reply) = self.command(&visitor, json!({ "type": "submit_phone", "phone": phone })).await;
        assert_eq!(status, 200, "{reply}");
        assert_eq!(reply["view"]["busy"], true);
        let attempt = self.drive_to(runner, &visitor, "code_entry").await;
        assert_eq!(attempt["view"]["step"], 2);
        visitor
    }

    /// From the code panel, the right code: the runner goes on until `panel`.
    pub async fn confirm_to(&self, runner: &Runner, visitor: &Visitor, msisdn: &str, panel: &str) -> Value {
        let code = self.sms_code(msisdn).await;
        let (status, reply) = self.command(visitor, json!({ "type": "submit_code", "code": code })).await;
        assert_eq!(status, 200, "{reply}");
        self.drive_to(runner, visitor, panel).await
    }

    /// `GET /api/attempts/{id}/installer` with this visitor's cookie.
    pub async fn installer(&self, visitor: &Visitor) -> reqwest::Response {
        self.http
            .get(self.app.url(&format!("/api/attempts/{}/installer", visitor.id)))
            .header("cookie", &visitor.cookie)
            .send()
            .await
            .expect("installer")
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

    /// Rows of the events table whose payload contains `needle`.
    pub async fn events_containing(&self, needle: &str) -> i64 {
        sqlx::query_scalar("SELECT count(*) FROM events WHERE payload::text LIKE '%' || $1 || '%'")
            .bind(needle)
            .fetch_one(&self.db)
            .await
            .expect("scan")
    }
}
