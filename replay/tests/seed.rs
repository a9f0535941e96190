//! `replay seed` into a real PostgreSQL: valid streams, personal data sealed and found again
//! the way the portal seals and finds it, and no seeding over real attempts.

use events::flow::{AttemptFlow, Erased};
use events::flows::activation::ActivationFlow;
use events::flows::cloud::CloudFlow;
use events::flows::download::DownloadFlow;
use events::pii::{Keys, Opened, PiiKind, Vault};
use events::{EventStore, ExpectedVersion, Metadata, NewEvent, StreamId};
use indicatif::ProgressBar;
use replay::seed::{holds_real_attempts, seed, SeedOptions};
use sqlx::PgPool;

fn options(attempts: u64) -> SeedOptions {
    SeedOptions { attempts, days: 10, seed: 42, force: false, batch: 70 }
}

fn flow(category: &str) -> Box<dyn AttemptFlow> {
    match category {
        "activation" => Box::new(Erased::<ActivationFlow>::default()),
        "download" => Box::new(Erased::<DownloadFlow>::default()),
        _ => Box::new(Erased::<CloudFlow>::default()),
    }
}

#[sqlx::test(migrations = "../migrations")]
async fn a_seeded_history_is_valid_streams_with_sealed_personal_data(pool: PgPool) {
    let report = seed(&pool, Keys::insecure_dev(), &options(300), &ProgressBar::hidden()).await.expect("seeds");
    assert_eq!(report.attempts, 300);
    let stored: i64 = sqlx::query_scalar("SELECT count(*) FROM events").fetch_one(&pool).await.expect("count");
    assert_eq!(stored as u64, report.events);
    let streams: Vec<String> =
        sqlx::query_scalar("SELECT stream_id FROM attempts").fetch_all(&pool).await.expect("attempts");
    assert_eq!(streams.len(), 300);

    let store = EventStore::new(pool.clone());
    for id in &streams {
        let stream = StreamId::parse(id).expect("a stream id");
        let history = store.read_stream(&stream).await.expect("reads");
        let flow = flow(stream.category());
        assert!(history.iter().all(|e| flow.knows(&e.event_type, &e.payload)), "{id}");
        assert_eq!(
            history.iter().map(|e| e.version).collect::<Vec<_>>(),
            (1..=history.len() as i64).collect::<Vec<_>>()
        );
    }
    let clear_phones: i64 =
        sqlx::query_scalar("SELECT count(*) FROM events WHERE payload::text ~ '\\(\\d\\d\\) 9\\d{4}-\\d{4}|55\\d{11}'")
            .fetch_one(&pool)
            .await
            .expect("scan");
    assert_eq!(clear_phones, 0, "no phone is stored in clear");

    // The portal's vault finds a seeded person's attempts by phone and opens the sealed field.
    let vault = Vault::new(pool.clone(), Keys::insecure_dev());
    let (phone_field, stream): (serde_json::Value, String) = sqlx::query_as(
        "SELECT payload->'phone', stream_id FROM events WHERE payload ? 'phone' ORDER BY position LIMIT 1",
    )
    .fetch_one(&pool)
    .await
    .expect("a phone");
    let Opened::Clear(phone) = vault.open(&phone_field).await.expect("opens") else { panic!("not erased") };
    let found = vault.streams_for(PiiKind::Phone, &phone).await.expect("look-up");
    assert!(found.contains(&stream), "{found:?} lacks {stream}");

    // Serials and licences too (issue 26): sealed, and found by their tags.
    let clear_codes: i64 =
        sqlx::query_scalar("SELECT count(*) FROM events WHERE payload::text ~ '\"(SN\\d{10}|LIC-\\d{8})\"'")
            .fetch_one(&pool)
            .await
            .expect("scan");
    assert_eq!(clear_codes, 0, "no serial or licence is stored in clear");
    let (serial_field, stream): (serde_json::Value, String) = sqlx::query_as(
        "SELECT payload->'serial', stream_id FROM events WHERE payload ? 'serial' ORDER BY position LIMIT 1",
    )
    .fetch_one(&pool)
    .await
    .expect("a serial");
    let Opened::Clear(serial) = vault.open(&serial_field).await.expect("opens") else { panic!("not erased") };
    let found = vault.streams_tagged(&[PiiKind::Serial], &serial).await.expect("look-up");
    assert!(found.contains(&stream), "{found:?} lacks {stream}");
}

#[sqlx::test(migrations = "../migrations")]
async fn seeding_over_real_attempts_needs_force(pool: PgPool) {
    let store = EventStore::new(pool.clone());
    let real = NewEvent {
        event_type: "download.started".into(),
        schema_version: 1,
        payload: serde_json::json!({ "os": "win_pc", "browser": "Chrome" }),
        metadata: Metadata {
            correlation_id: uuid::Uuid::new_v4(),
            causation_id: None,
            actor: "visitor".into(),
            client: None,
        },
    };
    store.append(&StreamId::new("download").expect("id"), ExpectedVersion::NoStream, vec![real]).await.expect("append");
    assert!(holds_real_attempts(&pool).await.expect("check"));
    let refused = seed(&pool, Keys::insecure_dev(), &options(5), &ProgressBar::hidden()).await.expect_err("refused");
    assert!(refused.to_string().contains("--force"), "{refused}");
    let forced = SeedOptions { force: true, ..options(5) };
    assert_eq!(seed(&pool, Keys::insecure_dev(), &forced, &ProgressBar::hidden()).await.expect("forced").attempts, 5);
}

#[sqlx::test(migrations = "../migrations")]
async fn a_second_seed_finds_the_people_of_the_first(pool: PgPool) {
    seed(&pool, Keys::insecure_dev(), &options(120), &ProgressBar::hidden()).await.expect("first");
    let people: i64 = sqlx::query_scalar("SELECT count(*) FROM pii_lookup").fetch_one(&pool).await.expect("count");
    let again = SeedOptions { seed: 43, ..options(120) };
    seed(&pool, Keys::insecure_dev(), &again, &ProgressBar::hidden()).await.expect("a second seed over the first");
    let after: i64 = sqlx::query_scalar("SELECT count(*) FROM pii_lookup").fetch_one(&pool).await.expect("count");
    let shared: i64 = sqlx::query_scalar("SELECT count(*) FROM pii_lookup k WHERE (SELECT count(*) FROM pii_stream_links l WHERE l.subject_id = k.subject_id) > 1")
        .fetch_one(&pool)
        .await
        .expect("count");
    assert!(after < people * 2, "some people came back ({people} then {after})");
    assert!(shared > 0, "a returning person's attempts are linked to one subject");
}
