//! Issue 30: admission control at the door and the pool's time-out, through the public API.
//! Past capacity a new attempt is refused at once with 503, `Retry-After` and a Portuguese
//! message, while the commands of started attempts go on; a request that gets no database
//! connection in time is answered 503, never 500.

mod common;

use std::sync::Arc;
use std::time::Duration;

use orchestrator::admission::Load;
use serde_json::{json, Value};
use sqlx::postgres::PgPoolOptions;
use sqlx::PgPool;

const DOWNLOAD: &str = r#"{ "flow": "download", "command": { "type": "start", "os": "win_pc", "browser": "Chrome" } }"#;

async fn start(app: &common::TestApp) -> (u16, Option<String>, Value, Option<String>) {
    let body: Value = serde_json::from_str(DOWNLOAD).expect("start body");
    let response = app.client.post(app.url("/api/attempts")).json(&body).send().await.expect("start");
    let status = response.status().as_u16();
    let retry = response.headers().get("retry-after").and_then(|v| v.to_str().ok()).map(str::to_string);
    let cookie = response
        .headers()
        .get("set-cookie")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .map(str::to_string);
    (status, retry, response.json().await.expect("json"), cookie)
}

async fn metrics(app: &common::TestApp) -> String {
    app.client.get(app.admin_url("/metrics")).send().await.expect("metrics").text().await.expect("text")
}

#[sqlx::test(migrations = "../migrations")]
async fn past_capacity_a_new_attempt_waits_and_a_started_one_goes_on(db: PgPool) {
    let mut load: Option<Arc<Load>> = None;
    let app = common::spawn_app_admitting(db, |state| load = Some(state.admission.load.clone())).await;
    let load = load.expect("the app's load");
    load.add_slots(2);

    // Idle: admitted.
    let (status, _, started, cookie) = start(&app).await;
    assert_eq!(status, 201, "{started}");
    let (id, cookie) = (started["id"].as_str().expect("id").to_string(), cookie.expect("cookie"));

    // Every runner slot busy: past the default 90 %.
    let busy = [load.step_started(), load.step_started()];
    let (status, retry, body, cookie_set) = start(&app).await;
    // First in line, the line not moving: `ADMISSION_RETRY_AFTER_SECS` (tests/waiting_line.rs
    // follows the line itself).
    assert_eq!((status, retry.as_deref()), (503, Some("5")), "{body}");
    assert_eq!(body["message"], orchestrator::texts::PAST_CAPACITY);
    assert_eq!(body["ahead"], 0);
    let cookie_set = cookie_set.expect("the line's ticket");
    assert!(cookie_set.starts_with("__Host-exa_line="), "a refused start opens no session: {cookie_set}");

    // The started attempt's command is never shed.
    let command = app
        .client
        .post(app.url(&format!("/api/attempts/{id}/commands")))
        .header("cookie", &cookie)
        .header("idempotency-key", "k-1")
        .json(&json!({ "type": "back" }))
        .send()
        .await
        .expect("command");
    assert_ne!(command.status().as_u16(), 503, "a started attempt's command was shed");

    let page = metrics(&app).await;
    for line in [
        "exa_admission_refusals_total{signal=\"slots\"} 1",
        "exa_admission_threshold{signal=\"slots\"} 90.0",
        "exa_admission_threshold{signal=\"lag\"} 1.0",
        "exa_admission_signal_enabled{signal=\"pool\"} 1",
        "exa_admission_signal{signal=\"slots\"} 100.0",
    ] {
        assert!(page.lines().any(|l| l == line), "{line} missing from:\n{page}");
    }

    // Slots free again: admitted.
    drop(busy);
    assert_eq!(start(&app).await.0, 201);
}

#[sqlx::test(migrations = "../migrations")]
async fn a_late_step_nobody_runs_closes_the_door_until_it_is_claimed(db: PgPool) {
    let app = common::spawn_app_admitting(db.clone(), |_| {}).await;
    assert_eq!(start(&app).await.0, 201);
    // A step due 5 s ago that no runner holds (this app runs none): the lag the sampler reads.
    sqlx::query("INSERT INTO due_steps (stream_id, flow, step, due_at) VALUES ('download-late', 'download', 'x', now() - interval '5 seconds')")
        .execute(&db)
        .await
        .expect("late step");
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    let refused = loop {
        let (status, retry, body, _) = start(&app).await;
        // The door's pace slows first (past a quarter of the lag threshold, admission/pace.rs):
        // the door itself shuts once the lag has stood past the threshold.
        if status == 503 && metrics(&app).await.contains("exa_admission_refusals_total{signal=\"lag\"} 1") {
            break (retry, body);
        }
        assert!(status == 201 || status == 503, "{status}: {body}");
        assert!(tokio::time::Instant::now() < deadline, "the door never closed on a 5 s lag");
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert_eq!(refused.0.as_deref(), Some("5"));
    assert_eq!(refused.1["message"], orchestrator::texts::PAST_CAPACITY);
    // Claimed by a runner: the lag is gone and the door opens again.
    sqlx::query("UPDATE due_steps SET lease_until = now() + interval '1 minute' WHERE stream_id = 'download-late'")
        .execute(&db)
        .await
        .expect("claim");
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    while start(&app).await.0 != 201 {
        assert!(tokio::time::Instant::now() < deadline, "the door stayed closed");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[sqlx::test(migrations = "../migrations")]
async fn no_connection_in_time_is_a_503_to_wait_out_never_a_500(db: PgPool) {
    let small = PgPoolOptions::new()
        .max_connections(1)
        .acquire_timeout(Duration::from_millis(300))
        .connect_with((*db.connect_options()).clone())
        .await
        .expect("one-connection pool");
    let app = common::spawn_app_configured(small.clone(), "http://127.0.0.1:9", |config| {
        // The door's own pool signal would answer first; this is the time-out's answer.
        config.admission.admission_signals = String::new();
    })
    .await
    .0;
    let held = small.acquire().await.expect("the only connection");
    let (status, retry, body, _) = start(&app).await;
    assert_eq!((status, retry.as_deref()), (503, Some("2")), "{body}");
    assert_eq!(body["message"], orchestrator::texts::DATABASE_BUSY);
    let read = app.client.get(app.url("/api/attempts/download-0b6f3c2e-4a8e-4d55-9d5e-8a3b5e7f1c20")).send().await;
    assert_eq!(read.expect("read").status().as_u16(), 503);
    drop(held);
    assert_eq!(start(&app).await.0, 201);
}
