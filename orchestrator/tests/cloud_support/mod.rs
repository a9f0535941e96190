//! The cloud tests' part of the flow world: a sandbox seeded for the cloud scenarios, runners
//! over the cloud steps, and form 1 as the browser sends it.
#![allow(dead_code)]

use std::sync::Arc;

use orchestrator::flows::cloud::CloudSteps;
use orchestrator::runner::FlowRunner;
use orchestrator::runner::Runner;
use serde_json::{json, Value};
use sqlx::PgPool;

pub use crate::common::flows::{Visitor, World};

impl World {
    pub async fn start(db: PgPool) -> Self {
        Self::with_sandbox(db, 11).await
    }

    /// A runner of the cloud steps against this world's sandbox.
    pub fn runner(&self, id: &str) -> Runner {
        self.runner_with(id, 3, |deps| Arc::new(FlowRunner::new(CloudSteps, deps)))
    }

    /// `POST /api/attempts` with form 1; answers the status and the body.
    pub async fn start_attempt(&self, phone: &str, serial: &str) -> (u16, Option<Visitor>, Value) {
        self.open("cloud", json!({ "type": "start", "phone": phone, "serial": serial })).await
    }
}

pub fn panel_is(panel: &'static str) -> impl Fn(&Value) -> bool {
    move |view| view["panel"] == panel && view["loading"] == false
}

pub fn error_shown(view: &Value) -> bool {
    view["loading"] == false && view["error"].is_string()
}
