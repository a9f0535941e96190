//! The download tests' part of the flow world: a sandbox seeded for the download scenarios,
//! runners over the download steps, and the steps a visitor takes to reach each panel.
#![allow(dead_code)]

use std::sync::Arc;
use std::time::Duration;

use orchestrator::config::DownloadConfig;
use orchestrator::flows::download::DownloadSteps;
use orchestrator::runner::FlowRunner;
use orchestrator::runner::Runner;
use serde_json::{json, Value};
use sqlx::PgPool;

pub use crate::common::flows::{Visitor, World};

pub const LIMIT: Duration = Duration::from_secs(20);

impl World {
    pub async fn start(db: PgPool) -> Self {
        Self::with_sandbox(db, 5).await
    }

    /// A runner of the download steps against this world's sandbox.
    pub fn runner(&self) -> Runner {
        self.runner_with("download-test-runner", 2, |deps| {
            Arc::new(FlowRunner::new(DownloadSteps::new(DownloadConfig::default()), deps))
        })
    }

    pub async fn start_attempt(&self, os: &str, browser: &str) -> (u16, Option<Visitor>, Value) {
        self.open("download", json!({ "type": "start", "os": os, "browser": browser })).await
    }

    /// Ticks `runner` until the attempt's view is idle on `panel` (or fails after [`LIMIT`]).
    pub async fn drive_to(&self, runner: &Runner, visitor: &Visitor, panel: &str) -> Value {
        self.drive(runner, visitor, LIMIT, |view| view["panel"] == panel && view["busy"] == false).await
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
}
