//! The admin port's Prometheus page (issue 15): what a scrape reads after a visitor's start and
//! command, and that the public port does not serve it.

mod common;

use serde_json::json;
use sqlx::PgPool;

fn value_of(page: &str, series: &str) -> Option<f64> {
    page.lines().find_map(|line| line.strip_prefix(series)?.strip_prefix(' ')?.parse().ok())
}

#[sqlx::test(migrations = "../migrations")]
async fn a_scrape_counts_the_starts_and_times_the_commands(db: PgPool) {
    let app = common::spawn_app(db).await;
    let started = app.start_download().await;
    assert_eq!(started.status(), 201);
    let cookie = started.headers()["set-cookie"].to_str().expect("cookie").split(';').next().expect("pair").to_string();
    let id = started.json::<serde_json::Value>().await.expect("json")["id"].as_str().expect("id").to_string();
    let command = app
        .client
        .post(app.url(&format!("/api/attempts/{id}/commands")))
        .header("cookie", &cookie)
        .json(&json!({ "type": "restart" }))
        .send()
        .await
        .expect("command");
    // Refused or not, a command is timed.
    assert!(command.status().is_client_error() || command.status().is_success(), "{}", command.status());

    let page = app.client.get(app.admin_url("/metrics")).send().await.expect("scrape").text().await.expect("text");
    assert_eq!(value_of(&page, "exa_attempts_started_total{flow=\"download\"}"), Some(1.0), "{page}");
    assert_eq!(
        value_of(&page, "exa_command_duration_seconds_count{flow=\"download\",command=\"restart\"}"),
        Some(1.0),
        "{page}"
    );
    assert_eq!(value_of(&page, "exa_sse_clients"), Some(0.0));
    assert_eq!(
        value_of(&page, "exa_db_pool_max_connections"),
        Some(5.0),
        "the test configuration's DATABASE_MAX_CONNECTIONS"
    );
    assert!(value_of(&page, "exa_db_pool_connections{state=\"idle\"}").is_some(), "{page}");
    // The abuse counters are in the same registry.
    assert!(page.contains("exa_sms_breaker_trips_total 0"), "{page}");

    let public = app.client.get(app.url("/metrics")).send().await.expect("public");
    assert_ne!(public.status(), 200, "the public port serves no metrics");
}

/// Issue 26: commands with invented `type`s each added a label value to `/metrics`, for ever.
/// A command is named by its flow's parsed command; anything else is `unknown`.
#[sqlx::test(migrations = "../migrations")]
async fn invented_command_names_are_counted_as_unknown(db: PgPool) {
    let app = common::spawn_app(db).await;
    let started = app.start_download().await;
    let cookie = started.headers()["set-cookie"].to_str().expect("cookie").split(';').next().expect("pair").to_string();
    let id = started.json::<serde_json::Value>().await.expect("json")["id"].as_str().expect("id").to_string();
    for n in 0..20 {
        let refused = app
            .client
            .post(app.url(&format!("/api/attempts/{id}/commands")))
            .header("cookie", &cookie)
            .json(&json!({ "type": format!("invented_{n}") }))
            .send()
            .await
            .expect("command");
        assert_eq!(refused.status(), 422);
    }
    let page = app.client.get(app.admin_url("/metrics")).send().await.expect("scrape").text().await.expect("text");
    assert_eq!(
        value_of(&page, "exa_command_duration_seconds_count{flow=\"download\",command=\"unknown\"}"),
        Some(20.0),
        "{page}"
    );
    assert!(!page.contains("invented_"), "{page}");
    assert!(page.contains("exa_abuse_refusals_total{rule=\"sms_per_phone_10min\"} 0"), "every rule is listed: {page}");
}
