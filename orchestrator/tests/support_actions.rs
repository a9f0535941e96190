//! Support's actions on an attempt (issue 27) against the real app, runner and PostgreSQL:
//! retry now a step waiting on its back-off, cancel an attempt (the runner stops, the visitor's
//! page says so), notes erased with the person; each audited in the staff trail, behind CSRF
//! and the support roles.

mod common;

use std::sync::Arc;

use common::console::{get, post, sign_in, visitor_command, visitor_with_phone, Signed, Visitor};
use common::TestApp;
use events::flow::support::CANCELLED_MESSAGE;
use orchestrator::runner::worker::Tick;
use orchestrator::runner::{Runner, RunnerConfig, StepFlow};
use orchestrator::staff::Role;
use reqwest::StatusCode;
use serde_json::{json, Value};
use sqlx::PgPool;

/// The app with its upstreams unreachable (every call fails and is retried later), and a
/// runner over its flows that the test ticks by hand.
async fn app_and_runner(db: &PgPool) -> (TestApp, Runner) {
    let (app, steps): (TestApp, Vec<Arc<dyn StepFlow>>) =
        common::spawn_app_configured(db.clone(), "http://127.0.0.1:9", |_| {}).await;
    let runner = steps
        .into_iter()
        .fold(Runner::new(db.clone(), events::EventStore::new(db.clone()), RunnerConfig::default()), |runner, flow| {
            runner.with_flow(flow)
        });
    (app, runner)
}

async fn visitor_reads(app: &TestApp, visitor: &Visitor) -> Value {
    let response = app
        .client
        .get(app.url(&format!("/api/attempts/{}", visitor.id)))
        .header("cookie", &visitor.cookie)
        .send()
        .await
        .expect("read");
    assert_eq!(response.status(), StatusCode::OK);
    response.json().await.expect("json")
}

async fn trail(app: &TestApp, signed: &Signed, id: &str) -> Vec<Value> {
    let (status, detail) = get(app, signed, &format!("/api/support/attempts/{id}")).await;
    assert_eq!(status, StatusCode::OK, "{detail}");
    detail["staff_trail"].as_array().expect("trail").iter().filter(|e| e["action"] != "opened").cloned().collect()
}

async fn due_row(db: &PgPool, id: &str) -> Option<(String, bool)> {
    sqlx::query_as("SELECT step, due_at <= now() FROM due_steps WHERE stream_id = $1")
        .bind(id)
        .fetch_optional(db)
        .await
        .expect("schedule")
}

const REASON: &str = "Cliente ao telefone pediu para encerrar";

#[sqlx::test(migrations = "../migrations")]
async fn a_cancelled_attempt_stops_the_runner_and_its_visitor_reads_why(db: PgPool) {
    common::staff::add(&db, "bia@exa.com.br", Role::Support).await;
    common::staff::add(&db, "ana.analista@exa.com.br", Role::Analyst).await;
    let (app, runner) = app_and_runner(&db).await;
    let visitor = visitor_with_phone(&app, "(11) 91000-0011").await;
    let signed = sign_in(&app, "bia@exa.com.br").await;
    let cancel = format!("/api/support/attempts/{}/cancel", visitor.id);

    // Refused: without the CSRF token, with a reason too short, by an analyst, an unknown attempt.
    assert_eq!(post(&app, &signed, &cancel, json!({ "reason": REASON }), false).await.0, StatusCode::FORBIDDEN);
    assert_eq!(
        post(&app, &signed, &cancel, json!({ "reason": "porque" }), true).await.0,
        StatusCode::UNPROCESSABLE_ENTITY
    );
    let analyst = sign_in(&app, "ana.analista@exa.com.br").await;
    assert_eq!(post(&app, &analyst, &cancel, json!({ "reason": REASON }), true).await.0, StatusCode::FORBIDDEN);
    let unknown = "/api/support/attempts/download-00000000-0000-0000-0000-000000000000/cancel";
    assert_eq!(post(&app, &signed, unknown, json!({ "reason": REASON }), true).await.0, StatusCode::NOT_FOUND);
    assert_eq!(due_row(&db, &visitor.id).await.map(|(step, _)| step).as_deref(), Some("send_code"));

    // Action: support cancels the attempt with a reason.
    let (status, body) = post(&app, &signed, &cancel, json!({ "reason": REASON }), true).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["events"][0]["type"], "attempt.cancelled");
    assert_eq!(body["events"][0]["actor"], "staff");

    // The runner has nothing left to do for it.
    assert_eq!(due_row(&db, &visitor.id).await, None);
    assert_eq!(runner.tick().await.expect("tick"), Tick::Idle);
    // The visitor's page receives the event and reads the message; their commands are refused.
    let read = visitor_reads(&app, &visitor).await;
    assert!(read["events"].as_array().expect("events").iter().any(|e| e["type"] == "attempt.cancelled"), "{read}");
    assert_eq!(read["view"]["error"], CANCELLED_MESSAGE);
    let (status, refused) =
        visitor_command(&app, &visitor, json!({ "type": "submit_phone", "phone": "(11) 91000-0011" })).await;
    assert_eq!((status, refused["message"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some(CANCELLED_MESSAGE)));
    // Once only.
    let (status, again) = post(&app, &signed, &cancel, json!({ "reason": REASON }), true).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{again}");

    // The staff trail says who, why, and which event; the look-up shows the attempt cancelled.
    let entries = trail(&app, &signed, &visitor.id).await;
    assert_eq!(entries.len(), 1, "{entries:?}");
    let entry = &entries[0];
    assert_eq!(
        (entry["action"].as_str(), entry["email"].as_str(), entry["reason"].as_str()),
        (Some("cancelled"), Some("bia@exa.com.br"), Some(REASON))
    );
    assert_eq!(entry["version"], body["version"]);
    // The reason is stored sealed (issue 26): no event holds its text.
    let stored: String =
        sqlx::query_scalar("SELECT string_agg(payload::text, ' ') FROM events").fetch_one(&db).await.expect("events");
    assert!(!stored.contains("pediu para encerrar"), "{stored}");
    let (_, found) =
        post(&app, &signed, "/api/support/attempts/search", json!({ "id": visitor.id, "outcome": "cancelled" }), true)
            .await;
    assert_eq!(found["total"], 1, "{found}");
    assert_eq!(found["attempts"][0]["outcome"]["kind"], "cancelled");

    // Erasing the person erases the reason in the trail with them; the entry stays.
    common::staff::add(&db, "root@exa.com.br", Role::Admin).await;
    let admin = sign_in(&app, "root@exa.com.br").await;
    let (status, erased) =
        post(&app, &admin, "/api/support/erase", json!({ "attempt": visitor.id, "confirm": true }), true).await;
    assert_eq!(status, StatusCode::OK, "{erased}");
    let entries = trail(&app, &signed, &visitor.id).await;
    let cancelled = entries.iter().find(|e| e["action"] == "cancelled").expect("still in the trail");
    assert_eq!(cancelled["reason"].as_str(), Some("dado apagado (LGPD)"));
}

#[sqlx::test(migrations = "../migrations")]
async fn retry_now_brings_a_step_waiting_on_its_back_off_to_the_runner_at_once(db: PgPool) {
    common::staff::add(&db, "bia@exa.com.br", Role::Support).await;
    let (app, runner) = app_and_runner(&db).await;
    let visitor = visitor_with_phone(&app, "(11) 91000-0012").await;
    let signed = sign_in(&app, "bia@exa.com.br").await;
    let retry = format!("/api/support/attempts/{}/retry", visitor.id);
    let reason = "Cliente aguardando o SMS ao telefone";

    // A step never tried is not waiting on a back-off.
    let (status, body) = post(&app, &signed, &retry, json!({ "reason": reason }), true).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert_eq!(body["message"], events::flow::support::NOTHING_WAITING);

    // Scenario: the upstream is down; the step failed and waits on a long back-off.
    let tick = runner.tick().await.expect("tick");
    assert_eq!(tick, Tick::Retrying { stream_id: visitor.id.clone(), step: "send_code".into() });
    sqlx::query("UPDATE due_steps SET due_at = now() + interval '1 hour' WHERE stream_id = $1")
        .bind(&visitor.id)
        .execute(&db)
        .await
        .expect("long back-off");
    assert_eq!(due_row(&db, &visitor.id).await, Some(("send_code".into(), false)));
    assert_eq!(runner.tick().await.expect("tick"), Tick::Idle, "nothing due before the action");

    // Action: retry now.
    let (status, body) = post(&app, &signed, &retry, json!({ "reason": reason }), true).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["events"][0]["type"], "support.retry_requested");
    assert_eq!(body["events"][0]["step"], "send_code");

    // Expectation: due now, and the runner takes it at once, under the step's same key.
    assert_eq!(due_row(&db, &visitor.id).await, Some(("send_code".into(), true)));
    let tick = runner.tick().await.expect("tick");
    assert_eq!(tick, Tick::Retrying { stream_id: visitor.id.clone(), step: "send_code".into() });
    let keys: Vec<String> = sqlx::query_scalar(
        "SELECT payload->>'idempotency_key' FROM events WHERE stream_id = $1 AND event_type = 'step.started' ORDER BY version",
    )
    .bind(&visitor.id)
    .fetch_all(&db)
    .await
    .expect("tries");
    assert_eq!(keys.len(), 2);
    assert_eq!(keys[0], keys[1], "the retried call is the same call");
    let entries = trail(&app, &signed, &visitor.id).await;
    let actions: Vec<(&str, &str)> =
        entries.iter().map(|e| (e["action"].as_str().unwrap_or(""), e["reason"].as_str().unwrap_or(""))).collect();
    assert_eq!(actions, vec![("retried", reason)]);
}

#[sqlx::test(migrations = "../migrations")]
async fn notes_are_sealed_in_the_attempt_shown_to_support_and_erased_with_the_person(db: PgPool) {
    common::staff::add(&db, "bia@exa.com.br", Role::Support).await;
    common::staff::add(&db, "root@exa.com.br", Role::Admin).await;
    let (app, _runner) = app_and_runner(&db).await;
    let visitor = visitor_with_phone(&app, "(11) 91000-0013").await;
    let signed = sign_in(&app, "bia@exa.com.br").await;
    let notes = format!("/api/support/attempts/{}/notes", visitor.id);
    let text = "Cliente Maria disse que o SMS não chegou.\nRetornar às 15h.";

    assert_eq!(post(&app, &signed, &notes, json!({ "text": "   " }), true).await.0, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(post(&app, &signed, &notes, json!({ "text": text }), false).await.0, StatusCode::FORBIDDEN);
    let (status, body) = post(&app, &signed, &notes, json!({ "text": text }), true).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let version = body["version"].as_i64().expect("version");

    // Stored sealed: neither the attempt's events nor the staff trail hold the text.
    let stored: String =
        sqlx::query_scalar("SELECT string_agg(payload::text, ' ') FROM events").fetch_one(&db).await.expect("events");
    assert!(!stored.contains("Maria") && !stored.contains("SMS não"), "{stored}");
    // The console reads it with its author and time; the visitor's page never receives it.
    let (_, detail) = get(&app, &signed, &format!("/api/support/attempts/{}", visitor.id)).await;
    let note = &detail["notes"][0];
    assert_eq!(
        (note["version"].as_i64(), note["by"].as_str(), note["text"].as_str(), note["erased"].as_bool()),
        (Some(version), Some("bia@exa.com.br"), Some(text), Some(false))
    );
    assert!(note["at"].is_string());
    assert!(detail["fields"].as_array().expect("fields").iter().all(|f| f["name"] != "note"));
    let read = visitor_reads(&app, &visitor).await;
    assert!(!read.to_string().contains("support.note_added"), "{read}");
    let entries = trail(&app, &signed, &visitor.id).await;
    assert_eq!(entries.len(), 1);
    assert_eq!((entries[0]["action"].as_str(), entries[0]["version"].as_i64()), (Some("noted"), Some(version)));

    // Erasing the person erases the note with them.
    let admin = sign_in(&app, "root@exa.com.br").await;
    let (status, erased) =
        post(&app, &admin, "/api/support/erase", json!({ "attempt": visitor.id, "confirm": true }), true).await;
    assert_eq!(status, StatusCode::OK, "{erased}");
    let (_, detail) = get(&app, &signed, &format!("/api/support/attempts/{}", visitor.id)).await;
    let note = &detail["notes"][0];
    assert_eq!((note["text"].as_str(), note["erased"].as_bool()), (Some("dado apagado (LGPD)"), Some(true)));
}
