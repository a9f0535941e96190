//! Issue 26: one client cannot hold every event stream. A visitor's streams are capped per
//! browser session and per client address (besides per attempt and in all), and each ends
//! after its lifetime; the page then reads the attempt instead (web/src/lib/attempts/api.ts),
//! which stays open to its session.

mod common;

use std::time::Duration;

use orchestrator::attempts::streams::{ClientCaps, OpenStreams, StreamCaps};
use serde_json::Value;
use sqlx::PgPool;

/// The lifetime test's streams: short, so it waits little.
const LIFETIME: Duration = Duration::from_secs(2);
/// The caps tests' streams: long enough that none ends while a test counts them.
const HELD: Duration = Duration::from_secs(600);

async fn app(db: PgPool) -> common::TestApp {
    app_with_lifetime(db, HELD).await
}

async fn app_with_lifetime(db: PgPool, lifetime: Duration) -> common::TestApp {
    common::spawn_app_with(db, move |state| {
        let clients = ClientCaps { per_session: 2, per_address: 3, lifetime };
        state.streams = OpenStreams::new(StreamCaps { per_attempt: 4, total: 100 }).with_clients(clients);
    })
    .await
}

/// A new visitor's download attempt: its session cookie and id.
async fn visitor(app: &common::TestApp) -> (String, String) {
    let started = app.start_download().await;
    assert_eq!(started.status(), 201);
    let cookie = started.headers()["set-cookie"].to_str().expect("ascii").split(';').next().expect("pair").to_string();
    let body: Value = started.json().await.expect("json");
    (cookie, body["id"].as_str().expect("id").to_string())
}

/// A second attempt in the same session.
async fn another_attempt(app: &common::TestApp, cookie: &str) -> String {
    let started = app
        .client
        .post(app.url("/api/attempts"))
        .header("cookie", cookie)
        .json(&serde_json::json!({ "flow": "download", "command": { "type": "start", "os": "mac", "browser": "Chrome" } }))
        .send()
        .await
        .expect("start");
    assert_eq!(started.status(), 201);
    started.json::<Value>().await.expect("json")["id"].as_str().expect("id").to_string()
}

async fn open(app: &common::TestApp, cookie: &str, id: &str) -> reqwest::Response {
    app.client
        .get(app.url(&format!("/api/attempts/{id}/stream")))
        .header("cookie", cookie)
        .send()
        .await
        .expect("stream")
}

async fn read(app: &common::TestApp, cookie: &str, id: &str) -> reqwest::StatusCode {
    app.client
        .get(app.url(&format!("/api/attempts/{id}")))
        .header("cookie", cookie)
        .send()
        .await
        .expect("read")
        .status()
}

#[sqlx::test(migrations = "../migrations")]
async fn one_session_holds_a_few_streams_across_its_attempts_and_its_page_can_still_read(db: PgPool) {
    let app = app(db).await;
    let (cookie, first) = visitor(&app).await;
    let second = another_attempt(&app, &cookie).await;
    let held = [open(&app, &cookie, &first).await, open(&app, &cookie, &second).await];
    assert!(held.iter().all(|s| s.status() == 200));
    let refused = open(&app, &cookie, &first).await;
    assert_eq!(refused.status(), 429);
    let message = refused.json::<Value>().await.expect("json")["message"].as_str().unwrap_or_default().to_string();
    assert!(message.starts_with("Muitas páginas"), "{message}");
    // The refused page falls back to the read, which is not capped.
    assert_eq!(read(&app, &cookie, &first).await, 200);
    // Another session at the same address still has a place (3 per address).
    let (other_cookie, other) = visitor(&app).await;
    assert_eq!(open(&app, &other_cookie, &other).await.status(), 200);
    drop(held);
}

#[sqlx::test(migrations = "../migrations")]
async fn one_address_holds_a_few_streams_across_its_sessions(db: PgPool) {
    let app = app(db).await;
    let mut held = Vec::new();
    for _ in 0..3 {
        let (cookie, id) = visitor(&app).await;
        let stream = open(&app, &cookie, &id).await;
        assert_eq!(stream.status(), 200);
        held.push(stream);
    }
    let (cookie, id) = visitor(&app).await;
    assert_eq!(open(&app, &cookie, &id).await.status(), 429);
    // Its own attempt's read still answers: the page polls it.
    assert_eq!(read(&app, &cookie, &id).await, 200);
    drop(held);
}

#[sqlx::test(migrations = "../migrations")]
async fn a_stream_ends_after_its_lifetime_and_gives_its_place_back(db: PgPool) {
    let app = app_with_lifetime(db, LIFETIME).await;
    let (cookie, first) = visitor(&app).await;
    let second = another_attempt(&app, &cookie).await;
    let started = std::time::Instant::now();
    let (a, b) = (open(&app, &cookie, &first).await, open(&app, &cookie, &second).await);
    assert_eq!(open(&app, &cookie, &first).await.status(), 429);
    // Both bodies end by themselves: the first frame, then nothing but the end.
    let ends = tokio::time::timeout(LIFETIME * 5, async { (a.text().await, b.text().await) })
        .await
        .expect("the streams end after their lifetime");
    assert!(ends.0.expect("body").starts_with("data: "), "the stream sent the attempt first");
    assert!(ends.1.is_ok());
    assert!(started.elapsed() >= LIFETIME, "ended after {:?}", started.elapsed());
    let again = open(&app, &cookie, &first).await;
    assert_eq!(again.status(), 200, "the session's places were given back");
    drop(again);
}
