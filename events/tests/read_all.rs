//! Gap-free global reads under out-of-order commits, category reads, upcasting.

mod common;

use common::{event, read_all_settled};
use events::{Checkpoint, EventStore, ExpectedVersion, StoreError, StreamId, UpcastError, Upcasters};
use serde_json::json;
use sqlx::PgPool;

fn types(events: &[events::RecordedEvent]) -> Vec<&str> {
    events.iter().map(|e| e.event_type.as_str()).collect()
}

/// A takes the lower position but commits after B. A reader must not see B before A
/// commits, or a reader checkpointed after B would never see A.
#[sqlx::test(migrations = "../migrations")]
async fn a_late_commit_with_a_lower_position_is_not_skipped(pool: PgPool) {
    let store = EventStore::new(pool.clone());
    let (s0, sa, sb) = (
        StreamId::new("activation").unwrap(),
        StreamId::new("activation").unwrap(),
        StreamId::new("download").unwrap(),
    );
    store.append(&s0, ExpectedVersion::NoStream, vec![event("C", json!({}))]).await.unwrap();
    let first = read_all_settled(&store, Checkpoint::START, 1).await;
    assert_eq!(types(&first), ["C"]);
    let checkpoint = first[0].checkpoint();

    let mut tx_a = pool.begin().await.unwrap();
    let a = store.append_in(&mut tx_a, &sa, ExpectedVersion::NoStream, vec![event("A", json!({}))]).await.unwrap();
    let mut tx_b = pool.begin().await.unwrap();
    let b = store.append_in(&mut tx_b, &sb, ExpectedVersion::NoStream, vec![event("B", json!({}))]).await.unwrap();
    tx_b.commit().await.unwrap();
    assert!(a.positions[0] < b.positions[0]);

    // The naive "position > last" read already shows B alone: a reader that
    // checkpointed at B's position would later skip A.
    let naive: Vec<i64> = sqlx::query_scalar("SELECT position FROM events WHERE position > $1 ORDER BY position")
        .bind(checkpoint.position)
        .fetch_all(&pool)
        .await
        .unwrap();
    assert_eq!(naive, b.positions);

    // The gap-free read holds B back while A is in progress.
    assert!(store.read_all_after(checkpoint, 100).await.unwrap().is_empty());
    assert!(store.has_held_back_after(checkpoint).await.unwrap());
    assert_eq!(types(&store.read_all_after(Checkpoint::START, 100).await.unwrap()), ["C"]);

    tx_a.commit().await.unwrap();
    let after = read_all_settled(&store, checkpoint, 2).await;
    assert_eq!(types(&after), ["A", "B"]);
    assert_eq!(after[0].position, a.positions[0]);
    assert_eq!(after[1].position, b.positions[0]);
    assert!(after[0].tx_id < after[1].tx_id);
    assert_eq!(types(&store.read_all_after(Checkpoint::START, 100).await.unwrap()), ["C", "A", "B"]);
    assert!(!store.has_held_back_after(checkpoint).await.unwrap());

    // Paging with a limit resumes exactly after the last event.
    let page1 = store.read_all_after(Checkpoint::START, 2).await.unwrap();
    let page2 = store.read_all_after(page1[1].checkpoint(), 2).await.unwrap();
    assert_eq!(types(&page1), ["C", "A"]);
    assert_eq!(types(&page2), ["B"]);
    assert!(store.read_all_after(page2[0].checkpoint(), 2).await.unwrap().is_empty());
}

/// Events of one transaction are delivered together and in order, and a limit that
/// cuts inside a transaction resumes inside it.
#[sqlx::test(migrations = "../migrations")]
async fn paging_inside_one_transaction(pool: PgPool) {
    let store = EventStore::new(pool);
    let s = StreamId::new("cloud").unwrap();
    store
        .append(&s, ExpectedVersion::NoStream, (1..=5).map(|i| event(&format!("E{i}"), json!({}))).collect())
        .await
        .unwrap();
    read_all_settled(&store, Checkpoint::START, 5).await;
    let mut seen = Vec::new();
    let mut cp = Checkpoint::default();
    loop {
        let page = store.read_all_after(cp, 2).await.unwrap();
        let Some(last) = page.last() else { break };
        cp = last.checkpoint();
        assert!(page.iter().all(|e| e.tx_id == page[0].tx_id));
        seen.extend(page.into_iter().map(|e| e.event_type));
    }
    assert_eq!(seen, ["E1", "E2", "E3", "E4", "E5"]);
}

#[sqlx::test(migrations = "../migrations")]
async fn a_rolled_back_writer_neither_blocks_nor_hides_later_events(pool: PgPool) {
    let store = EventStore::new(pool.clone());
    let (sa, sb) = (StreamId::new("activation").unwrap(), StreamId::new("activation").unwrap());

    let mut tx_a = pool.begin().await.unwrap();
    store.append_in(&mut tx_a, &sa, ExpectedVersion::NoStream, vec![event("A", json!({}))]).await.unwrap();
    let b = store.append(&sb, ExpectedVersion::NoStream, vec![event("B", json!({}))]).await.unwrap();
    assert!(store.read_all_after(Checkpoint::START, 100).await.unwrap().is_empty());

    tx_a.rollback().await.unwrap();
    let after = read_all_settled(&store, Checkpoint::START, 1).await;
    assert_eq!(types(&after), ["B"]);
    assert_eq!(after[0].position, b.positions[0]);
    assert!(store.read_stream(&sa).await.unwrap().is_empty());
    assert!(store.read_all_after(after[0].checkpoint(), 100).await.unwrap().is_empty());
}

#[sqlx::test(migrations = "../migrations")]
async fn category_reads_only_that_flow_in_position_order(pool: PgPool) {
    let store = EventStore::new(pool);
    let a1 = StreamId::new("activation").unwrap();
    let d1 = StreamId::new("download").unwrap();
    let a2 = StreamId::new("activation").unwrap();
    store.append(&a1, ExpectedVersion::NoStream, vec![event("A1", json!({}))]).await.unwrap();
    store.append(&d1, ExpectedVersion::NoStream, vec![event("D1", json!({}))]).await.unwrap();
    store.append(&a2, ExpectedVersion::NoStream, vec![event("A2", json!({}))]).await.unwrap();
    store.append(&a1, ExpectedVersion::Exact(1), vec![event("A1b", json!({}))]).await.unwrap();

    let all = store.read_category("activation", 0, 100).await.unwrap();
    assert_eq!(types(&all), ["A1", "A2", "A1b"]);
    let rest = store.read_category("activation", all[0].position, 1).await.unwrap();
    assert_eq!(types(&rest), ["A2"]);
    assert_eq!(types(&store.read_category("download", 0, 100).await.unwrap()), ["D1"]);
    assert!(store.read_category("cloud", 0, 100).await.unwrap().is_empty());
}

/// A v1 payload written long ago (raw SQL) loads in the current v3 shape.
#[sqlx::test(migrations = "../migrations")]
async fn old_payloads_are_upcast_on_every_read(pool: PgPool) {
    let stream = StreamId::new("activation").unwrap();
    sqlx::query(
        "INSERT INTO events (stream_id, version, event_type, schema_version, payload, metadata) \
         VALUES ($1, 1, 'VariantChosen', 1, '{\"parceiro\": \"vivo\"}', $2)",
    )
    .bind(stream.as_str())
    .bind(serde_json::to_value(common::meta()).unwrap())
    .execute(&pool)
    .await
    .unwrap();

    let upcasters = Upcasters::new()
        .with("VariantChosen", 1, |mut p| {
            // v2 renamed `parceiro` to `partner`.
            let partner =
                p.as_object_mut().and_then(|o| o.remove("parceiro")).ok_or_else(|| UpcastError::new("no parceiro"))?;
            Ok(json!({"partner": partner}))
        })
        .with("VariantChosen", 2, |mut p| {
            // v3 added the flow, always `activation` before it existed.
            p["flow"] = json!("activation");
            Ok(p)
        });
    let store = EventStore::with_upcasters(pool.clone(), upcasters);
    let v3 = json!({"partner": "vivo", "flow": "activation"});

    let by_stream = store.read_stream(&stream).await.unwrap();
    assert_eq!(by_stream[0].payload, v3);
    assert_eq!(by_stream[0].schema_version, 3);
    assert_eq!(store.read_category("activation", 0, 10).await.unwrap()[0].payload, v3);
    assert_eq!(read_all_settled(&store, Checkpoint::START, 1).await[0].payload, v3);

    // A current-version event passes through untouched.
    let mut current = event("VariantChosen", json!({"partner": "tim", "flow": "activation"}));
    current.schema_version = 3;
    store.append(&stream, ExpectedVersion::Exact(1), vec![current]).await.unwrap();
    let read = store.read_stream(&stream).await.unwrap();
    assert_eq!(read[1].payload, json!({"partner": "tim", "flow": "activation"}));
    assert_eq!(read[1].schema_version, 3);

    // Without the registry the stored shape is returned as is.
    let raw = EventStore::new(pool.clone()).read_stream(&stream).await.unwrap();
    assert_eq!(raw[0].payload, json!({"parceiro": "vivo"}));
    assert_eq!(raw[0].schema_version, 1);

    // A payload an upcaster refuses surfaces as a typed error.
    let bad = StreamId::new("activation").unwrap();
    sqlx::query(
        "INSERT INTO events (stream_id, version, event_type, schema_version, payload, metadata) \
         VALUES ($1, 1, 'VariantChosen', 1, '{}', $2)",
    )
    .bind(bad.as_str())
    .bind(serde_json::to_value(common::meta()).unwrap())
    .execute(&pool)
    .await
    .unwrap();
    match store.read_stream(&bad).await.unwrap_err() {
        StoreError::Upcast { event_type, from_version, message } => {
            assert_eq!((event_type.as_str(), from_version, message.as_str()), ("VariantChosen", 1, "no parceiro"));
        }
        other => panic!("unexpected {other:?}"),
    }
}

#[sqlx::test(migrations = "../migrations")]
async fn recorded_events_serialize_as_json_lines(pool: PgPool) {
    let store = EventStore::new(pool);
    let s = StreamId::new("download").unwrap();
    store.append(&s, ExpectedVersion::NoStream, vec![event("Started", json!({"os": "windows"}))]).await.unwrap();
    let e = &store.read_stream(&s).await.unwrap()[0];
    let line = serde_json::to_value(e).unwrap();
    assert_eq!(line["stream_id"], json!(s.as_str()));
    assert_eq!(line["version"], json!(1));
    assert_eq!(line["event_type"], json!("Started"));
    assert_eq!(line["payload"], json!({"os": "windows"}));
    assert_eq!(line["metadata"]["actor"], json!("test"));
    assert!(line["recorded_at"].is_string());
    assert!(line["tx_id"].as_i64().unwrap() > 0);
}

/// The analysts' streaming read of one category holds back what a still-open transaction
/// may precede, skips other categories, and delivers everything, in order, once it commits.
#[sqlx::test(migrations = "../migrations")]
async fn a_category_stream_waits_for_a_late_commit_and_skips_other_flows(pool: PgPool) {
    use futures::TryStreamExt;
    let store = EventStore::new(pool.clone());
    let stream = |after| {
        let store = store.clone();
        async move { store.stream_category_after("activation", after).try_collect::<Vec<_>>().await.unwrap() }
    };
    // Other tests' transactions anywhere in the cluster hold events back too: wait (up to
    // 10 s) for the `n` expected ones to settle, as `read_all_settled` does.
    let settled = |after, n: usize| async move {
        for _ in 0..200 {
            let read = stream(after).await;
            if read.len() >= n {
                return read;
            }
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
        stream(after).await
    };
    let (s0, sa, sb, other) = (
        StreamId::new("activation").unwrap(),
        StreamId::new("activation").unwrap(),
        StreamId::new("activation").unwrap(),
        StreamId::new("download").unwrap(),
    );
    store.append(&s0, ExpectedVersion::NoStream, vec![event("C", json!({}))]).await.unwrap();
    store.append(&other, ExpectedVersion::NoStream, vec![event("D", json!({}))]).await.unwrap();
    let first = settled(Checkpoint::START, 1).await;
    assert_eq!(types(&first), ["C"], "the download's event is not read");

    let mut tx_a = pool.begin().await.unwrap();
    store.append_in(&mut tx_a, &sa, ExpectedVersion::NoStream, vec![event("A", json!({}))]).await.unwrap();
    store.append(&sb, ExpectedVersion::NoStream, vec![event("B", json!({}))]).await.unwrap();
    assert!(stream(first[0].checkpoint()).await.is_empty(), "B waits for A");
    assert!(store.has_held_back_after(first[0].checkpoint()).await.unwrap());

    tx_a.commit().await.unwrap();
    assert_eq!(types(&settled(first[0].checkpoint(), 2).await), ["A", "B"]);
    assert_eq!(types(&settled(Checkpoint::START, 3).await), ["C", "A", "B"]);
}

/// The funnel projection asks, with every page it reads, whether committed events are held
/// back. On a young or fast-growing `events` (no statistics yet) that question was planned as a
/// sequential scan stopping at its first match, and the matches are the newest rows: each page
/// read the whole table. It now walks the `(tx_id, position)` index, whatever the statistics.
#[sqlx::test(migrations = "../migrations")]
async fn the_held_back_question_reads_the_index_on_a_table_without_statistics(pool: PgPool) {
    // One connection, so the counters read below are this test's statements alone.
    let one = sqlx::postgres::PgPoolOptions::new()
        .max_connections(1)
        .connect_with(pool.connect_options().as_ref().clone())
        .await
        .unwrap();
    sqlx::query("ALTER TABLE events SET (autovacuum_enabled = false)").execute(&one).await.unwrap();
    for batch in 0..80 {
        sqlx::query(
            "INSERT INTO events (stream_id, version, event_type, schema_version, payload, metadata) \
             SELECT 'download-' || md5($1::text || '-' || k::text), 1, 'attempt.started', 1, '{}', '{}' \
             FROM generate_series(1, 50) k",
        )
        .bind(batch)
        .execute(&one)
        .await
        .unwrap();
    }
    let store = EventStore::new(one.clone());
    let (tx_id, position): (i64, i64) =
        sqlx::query_as("SELECT tx_id::text::bigint, position FROM events ORDER BY tx_id DESC, position DESC LIMIT 1")
            .fetch_one(&one)
            .await
            .unwrap();
    let last = Checkpoint { tx_id, position };
    let table_scans = || async {
        // Flushes this backend's counters as this statement ends, so the next read sees them.
        sqlx::query("SELECT pg_stat_force_next_flush()").execute(&one).await.unwrap();
        sqlx::query_scalar::<_, i64>("SELECT seq_scan FROM pg_stat_user_tables WHERE relname = 'events'")
            .fetch_one(&one)
            .await
            .unwrap()
    };
    let before = table_scans().await;

    assert!(!store.has_held_back_after(last).await.unwrap());
    assert!(store.read_all_after(last, 100).await.unwrap().is_empty());

    assert_eq!(table_scans().await, before, "the held-back question scanned all 4,000 events");
    one.close().await;
}
