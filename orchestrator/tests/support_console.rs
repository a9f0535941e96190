//! The support console's look-up page (issue 27) against the real app and PostgreSQL: what is
//! stuck (attempts whose step has waited past N minutes, retrying or overdue, counted across
//! flows) and a look-up's results as CSV.

mod common;

use common::console::get;
use common::console::{get_text, post, sign_in, visitor_with_phone};
use common::spawn_app;
use orchestrator::staff::Role;
use reqwest::StatusCode;
use sqlx::PgPool;

/// Moves the step planned for `id` into the past by `minutes`, as if that time had gone by,
/// with `tries` claims of it so far.
async fn waited(db: &PgPool, id: &str, minutes: i32, tries: i32) {
    sqlx::query(
        "UPDATE due_steps SET first_due_at = first_due_at - make_interval(mins => $2), \
         due_at = due_at - make_interval(mins => $2), claims = $3 WHERE stream_id = $1",
    )
    .bind(id)
    .bind(minutes)
    .bind(tries)
    .execute(db)
    .await
    .expect("aged");
}

#[sqlx::test(migrations = "../migrations")]
async fn steps_waiting_past_the_threshold_are_listed_retrying_or_overdue_and_counted(db: PgPool) {
    common::staff::add(&db, "bia@exa.com.br", Role::Support).await;
    common::staff::add(&db, "ana.analista@exa.com.br", Role::Analyst).await;
    let app = spawn_app(db.clone()).await;
    let fresh = visitor_with_phone(&app, "(11) 91000-0001").await;
    let retrying = visitor_with_phone(&app, "(11) 91000-0002").await;
    let overdue = visitor_with_phone(&app, "(11) 91000-0003").await;
    let signed = sign_in(&app, "bia@exa.com.br").await;

    // Scenario: every step fell due just now: nothing is stuck.
    let (status, body) = get(&app, &signed, "/api/support/stuck").await;
    assert_eq!((status, body["total"].as_i64()), (StatusCode::OK, Some(0)), "{body}");
    assert_eq!(body["query"]["minutes"], 15);

    // Action: one step has been retried for 40 minutes, another never taken for 20.
    waited(&db, &retrying.id, 40, 3).await;
    waited(&db, &overdue.id, 20, 0).await;

    // Expectation: both past 15 minutes, oldest first; only the retried one past 30.
    let (status, body) = get(&app, &signed, "/api/support/stuck?minutes=15").await;
    assert_eq!((status, body["total"].as_i64()), (StatusCode::OK, Some(2)), "{body}");
    let listed: Vec<(&str, &str, &str, i64)> = body["attempts"]
        .as_array()
        .expect("attempts")
        .iter()
        .map(|a| {
            (
                a["id"].as_str().unwrap_or_default(),
                a["stuck"]["kind"].as_str().unwrap_or_default(),
                a["stuck"]["step"].as_str().unwrap_or_default(),
                a["stuck"]["tries"].as_i64().unwrap_or_default(),
            )
        })
        .collect();
    assert_eq!(
        listed,
        vec![(retrying.id.as_str(), "retrying", "send_code", 3), (overdue.id.as_str(), "overdue", "send_code", 0)]
    );
    assert!(!body.to_string().contains(&fresh.id), "the fresh attempt is not stuck");
    assert!(!body.to_string().contains("91000"), "nothing personal: {body}");
    let (_, body) = get(&app, &signed, "/api/support/stuck?minutes=30").await;
    assert_eq!(body["total"], 1);
    let (_, body) = get(&app, &signed, "/api/support/stuck?minutes=15&flow=cloud").await;
    assert_eq!(body["total"], 0);

    // Bad thresholds are refused in Portuguese; analysts are refused altogether.
    for bad in ["minutes=0", "minutes=dez", "minutes=10081", "flow=tiny", "page=0"] {
        let (status, body) = get(&app, &signed, &format!("/api/support/stuck?{bad}")).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{bad}: {body}");
    }
    let analyst = sign_in(&app, "ana.analista@exa.com.br").await;
    assert_eq!(get(&app, &analyst, "/api/support/stuck").await.0, StatusCode::FORBIDDEN);
}

#[sqlx::test(migrations = "../migrations")]
async fn a_new_plan_restarts_the_wait_and_a_retry_later_does_not(db: PgPool) {
    let app = spawn_app(db.clone()).await;
    let visitor = visitor_with_phone(&app, "(11) 91000-0004").await;
    let first_due = |db: PgPool, id: String| async move {
        sqlx::query_scalar::<_, chrono::DateTime<chrono::Utc>>(
            "SELECT first_due_at FROM due_steps WHERE stream_id = $1",
        )
        .bind(id)
        .fetch_one(&db)
        .await
        .expect("planned")
    };
    let planned = first_due(db.clone(), visitor.id.clone()).await;
    // The runner's back-off moves only `due_at`.
    sqlx::query("UPDATE due_steps SET due_at = due_at + interval '5 minutes', claims = 1 WHERE stream_id = $1")
        .bind(&visitor.id)
        .execute(&db)
        .await
        .expect("pushed back");
    assert_eq!(first_due(db.clone(), visitor.id.clone()).await, planned);
    // A plan written again from a newer history starts a new wait.
    let stream = events::StreamId::parse(&visitor.id).expect("id");
    let mut tx = db.begin().await.expect("tx");
    let later = planned + chrono::Duration::minutes(3);
    let step = events::flow::PlannedStep { name: "send_code".into(), due_at: later };
    orchestrator::write_path::schedule_in_tx(&mut tx, stream.as_str(), "download", Some(&step), 99)
        .await
        .expect("planned again");
    tx.commit().await.expect("commit");
    assert_eq!(first_due(db.clone(), visitor.id.clone()).await, later);
}

#[sqlx::test(migrations = "../migrations")]
async fn a_look_ups_results_download_as_csv_masked_and_audited(db: PgPool) {
    common::staff::add(&db, "bia@exa.com.br", Role::Support).await;
    let app = spawn_app(db.clone()).await;
    let first = visitor_with_phone(&app, "(11) 91000-0021").await;
    let second = visitor_with_phone(&app, "(11) 91000-0021").await;
    let signed = sign_in(&app, "bia@exa.com.br").await;

    let response = app
        .client
        .post(app.url("/api/support/attempts/export"))
        .header("cookie", &signed.cookie)
        .header("origin", common::console::origin(&app))
        .header("x-csrf-token", &signed.csrf)
        .json(&serde_json::json!({ "phone": "(11) 91000-0021", "flow": "download", "page": 2 }))
        .send()
        .await
        .expect("export");
    assert_eq!(response.status(), StatusCode::OK);
    let header = |name: &str| response.headers()[name].to_str().expect("ascii").to_string();
    assert_eq!(header("content-type"), "text/csv; charset=utf-8");
    assert!(header("content-disposition").starts_with("attachment; filename=\"tentativas-"));
    let csv = response.text().await.expect("text");
    let lines: Vec<&str> = csv.split("\r\n").filter(|l| !l.is_empty()).collect();
    assert_eq!(lines.len(), 3, "the header and both attempts, whatever the page: {csv}");
    assert!(lines[0].starts_with("id,fluxo,variante,inicio_utc"));
    assert!(lines[1].starts_with(&second.id) && lines[2].starts_with(&first.id), "newest first: {csv}");
    assert!(!csv.contains("91000") && !csv.contains("0021"), "nothing personal: {csv}");

    // Audited by the key's hash, with the rows exported.
    let audited: Vec<serde_json::Value> =
        sqlx::query_scalar("SELECT payload FROM events WHERE event_type = 'staff.exported_lookup'")
            .fetch_all(&db)
            .await
            .expect("audit");
    assert_eq!(audited.len(), 1);
    assert_eq!((audited[0]["kind"].as_str(), audited[0]["rows"].as_i64()), (Some("phone"), Some(2)));
    assert!(!audited[0].to_string().contains("91000"));

    // The look-up's own refusals; no export by GET (its query would carry the phone).
    let (status, _) =
        post(&app, &signed, "/api/support/attempts/export", serde_json::json!({ "phone": "1234" }), true).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    let (status, _) =
        post(&app, &signed, "/api/support/attempts/export", serde_json::json!({ "phone": "11910000021" }), false).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, ..) = get_text(&app, &signed, "/api/support/attempts/export?phone=11910000021").await;
    assert!(status == StatusCode::METHOD_NOT_ALLOWED || status == StatusCode::NOT_FOUND, "{status}");
}
