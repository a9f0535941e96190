//! Helpers of the tests that count codes sent (`abuse.rs`, `sms_caps.rs`, each including it by
//! `#[path]` beside `mod common`): attempts opened and settled, and what reached the sandbox's
//! SMS inbox once the runner is done.

use std::time::Duration;

use serde_json::{json, Value};

use crate::common::flows::{Visitor, World};

impl World {
    /// Waits until no step is due: every code the accepted commands asked for was sent.
    pub async fn idle(&self) {
        let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
        loop {
            let due: i64 =
                sqlx::query_scalar("SELECT count(*) FROM due_steps").fetch_one(&self.db).await.expect("due steps");
            if due == 0 {
                return;
            }
            assert!(tokio::time::Instant::now() < deadline, "{due} steps still due");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// Codes the sandbox delivered to `msisdn`.
    pub async fn codes_sent(&self, msisdn: &str) -> usize {
        self.idle().await;
        self.sandbox_json(&format!("/sms?to={msisdn}")).await.as_array().map_or(0, Vec::len)
    }

    /// An attempt of `flow` opened by a new browser.
    pub async fn started(&self, flow: &str, command: Value) -> Visitor {
        let (status, visitor, body) = self.open(flow, command).await;
        assert_eq!(status, 201, "{body}");
        visitor.expect("attempt and cookie")
    }

    /// A desktop download on its phone panel, opened by a new browser.
    pub async fn download(&self) -> Visitor {
        self.started("download", json!({ "type": "start", "os": "win_pc", "browser": "Chrome" })).await
    }

    /// Waits until the attempt shows `panel`, idle.
    pub async fn settled_on(&self, visitor: &Visitor, panel: &'static str) -> Value {
        self.wait(visitor, Duration::from_secs(30), move |view| {
            view["panel"] == panel && view["loading"] != true && view["busy"] != true
        })
        .await
    }
}
