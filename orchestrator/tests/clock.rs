//! The carried database clock (issue 15): views and command decisions read the database's
//! `now()` at most every few seconds and carry it forward, instead of a round trip each.

use chrono::{Duration, Utc};
use events::{Metadata, RecordedEvent};
use sqlx::PgPool;

fn event_at(recorded_at: chrono::DateTime<Utc>) -> RecordedEvent {
    RecordedEvent {
        position: 1,
        tx_id: 1,
        stream_id: "cloud-00000000-0000-0000-0000-000000000001".into(),
        version: 1,
        event_type: "demo".into(),
        schema_version: 1,
        payload: serde_json::json!({}),
        metadata: Metadata {
            correlation_id: uuid::Uuid::nil(),
            causation_id: None,
            actor: "test".into(),
            client: None,
        },
        recorded_at,
    }
}

#[sqlx::test(migrations = "../migrations")]
async fn the_carried_clock_keeps_to_the_database_and_never_runs_behind_what_was_read(db: PgPool) {
    let before: chrono::DateTime<Utc> = sqlx::query_scalar("SELECT now()").fetch_one(&db).await.expect("now");
    let carried = orchestrator::clock::current(&db, &[]).await.expect("current");
    tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    let later = orchestrator::clock::current(&db, &[]).await.expect("current");
    let after: chrono::DateTime<Utc> = sqlx::query_scalar("SELECT now()").fetch_one(&db).await.expect("now");

    // Another test may have taken the reading up to five seconds ago; carried forward it still
    // reads the database's clock within a few milliseconds.
    let slack = Duration::milliseconds(20);
    assert!(carried >= before - slack && carried <= after + slack, "{before} ≤ {carried} ≤ {after}");
    assert!(later - carried >= Duration::milliseconds(190), "carried forward: {carried} → {later}");
    assert!(later <= after + slack, "{later} ≤ {after}");

    // An event read from the database was committed before this moment.
    let ahead = after + Duration::hours(1);
    assert_eq!(orchestrator::clock::current(&db, &[event_at(ahead)]).await.expect("current"), ahead);
}
