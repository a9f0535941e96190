//! Acceptance: the orchestrator restarts during the 5 s wait between registering the serial
//! and getting the custom token, and the activation still completes. The wait is a due time
//! in the database, not a sleep in a process, so the new process honours it.

mod cloud_support;
mod common;

use std::time::Duration;

use chrono::{DateTime, Utc};
use cloud_support::{Visitor, World};
use common::flows::Background;
use serde_json::{json, Value};
use sqlx::PgPool;

/// Polls the attempt (as the browser would) until every type in `types` was recorded.
async fn wait_for(world: &World, visitor: &Visitor, types: &[&str]) -> Value {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(45);
    loop {
        let attempt = world.attempt(visitor).await;
        let seen = World::types(&attempt);
        if types.iter().all(|t| seen.iter().any(|s| s == t)) {
            return attempt;
        }
        assert!(tokio::time::Instant::now() < deadline, "waiting for {types:?}; got {seen:?}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

fn spawn_runner(world: &World, id: &str) -> Background {
    Background::spawn(world.runner(id))
}

fn at(attempt: &Value, event_type: &str) -> DateTime<Utc> {
    let event = attempt["events"]
        .as_array()
        .and_then(|events| events.iter().find(|e| e["type"] == event_type))
        .unwrap_or_else(|| panic!("no {event_type}"));
    event["at"].as_str().expect("at").parse().expect("time")
}

#[sqlx::test(migrations = "../migrations")]
async fn a_restart_during_the_five_second_wait_still_completes_the_activation(db: PgPool) {
    let mut world = World::start(db.clone()).await;
    let msisdn = "5521987654321";
    let (status, visitor, body) = world.start_attempt("(21) 98765-4321", "PSN-RESTART-1").await;
    assert_eq!(status, 201, "{body}");
    let visitor = visitor.expect("visitor");

    let before = spawn_runner(&world, "runner-before-restart");
    wait_for(&world, &visitor, &["code.sent"]).await;
    let code = world.sms_code(msisdn).await;
    let (status, reply) = world.command(&visitor, json!({ "type": "submit_code", "code": code })).await;
    assert_eq!(status, 200, "{reply}");
    let attempt = wait_for(&world, &visitor, &["serial.registered"]).await;

    // The orchestrator goes down inside the wait: runner and HTTP server both.
    before.shut_down().await;
    let registered_at = at(&attempt, "serial.registered");
    assert!(Utc::now() < registered_at + chrono::Duration::seconds(5), "the restart happens during the wait");
    let due: (String, DateTime<Utc>) = sqlx::query_as("SELECT step, due_at FROM due_steps WHERE stream_id = $1")
        .bind(&visitor.id)
        .fetch_one(&db)
        .await
        .expect("the wait is a row in the schedule");
    assert_eq!(due.0, "get_custom_token");
    // Planned from the runner's clock at the append, a moment after the event's own time.
    let planned = due.1 - registered_at;
    assert!(
        planned >= chrono::Duration::seconds(5) && planned < chrono::Duration::seconds(6),
        "due {planned} after the registration"
    );
    world.restart_app().await;
    let attempt = world.attempt(&visitor).await;
    assert_eq!(attempt["view"]["panel"], "code", "the browser's cookie still reads the attempt");
    assert_eq!(attempt["view"]["loading"], true);
    assert!(world.calls("cloud.custom-token").await.is_empty(), "nothing ran the token step before the restart");

    // A new process picks the due step up and finishes.
    let after = spawn_runner(&world, "runner-after-restart");
    let attempt = wait_for(&world, &visitor, &["cloud.activated"]).await;
    after.shut_down().await;

    assert_eq!(attempt["view"]["panel"], "success");
    assert_eq!(attempt["view"]["redirect_to"], "/cliente/hero");
    assert!(at(&attempt, "custom_token.obtained") >= registered_at + chrono::Duration::seconds(5));
    let actor: String = sqlx::query_scalar(
        "SELECT metadata->>'actor' FROM events WHERE stream_id = $1 AND event_type = 'step.started' AND payload->>'step' = 'get_custom_token'",
    )
    .bind(&visitor.id)
    .fetch_one(&db)
    .await
    .expect("the token step started once");
    assert_eq!(actor, "runner-after-restart");
    let token_calls = world.calls("cloud.custom-token").await;
    assert_eq!(token_calls.len(), 1, "{token_calls:#?}");
    assert_eq!(token_calls[0]["status"], 200, "the sandbox issued the token: the serial was provisioned");
}
