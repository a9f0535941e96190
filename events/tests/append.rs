//! Optimistic appends against a real PostgreSQL.

mod common;

use std::sync::Arc;

use common::event;
use events::{EventStore, ExpectedVersion, StoreError, StreamId};
use serde_json::json;
use sqlx::postgres::{PgConnectOptions, PgPoolOptions};
use sqlx::PgPool;
use tokio::sync::Barrier;

#[sqlx::test(migrations = "../migrations")]
async fn append_and_read_back_a_stream(pool: PgPool) {
    let store = EventStore::new(pool);
    let stream = StreamId::new("activation").unwrap();
    let out = store
        .append(
            &stream,
            ExpectedVersion::NoStream,
            vec![event("Started", json!({"n": 1})), event("PhoneSubmitted", json!({"n": 2}))],
        )
        .await
        .unwrap();
    assert_eq!(out.stream_version, 2);
    assert_eq!(out.positions, vec![1, 2]);

    let out = store.append(&stream, ExpectedVersion::Exact(2), vec![event("CodeSent", json!({"n": 3}))]).await.unwrap();
    assert_eq!(out.stream_version, 3);
    assert_eq!(out.positions, vec![3]);

    let out = store.append(&stream, ExpectedVersion::Any, vec![event("CodeSubmitted", json!({"n": 4}))]).await.unwrap();
    assert_eq!(out.stream_version, 4);

    let read = store.read_stream(&stream).await.unwrap();
    assert_eq!(
        read.iter().map(|e| (e.version, e.event_type.as_str(), e.payload["n"].as_i64().unwrap())).collect::<Vec<_>>(),
        vec![(1, "Started", 1), (2, "PhoneSubmitted", 2), (3, "CodeSent", 3), (4, "CodeSubmitted", 4)]
    );
    assert!(read.iter().all(|e| e.stream_id == stream.as_str() && e.schema_version == 1));
    assert_eq!(read[0].metadata.actor, "test");
    assert_eq!(read[0].metadata.client, Some(json!({"os": "linux"})));
    assert_eq!(store.stream_version(&stream).await.unwrap(), 4);
    assert_eq!(store.stream_version(&StreamId::new("activation").unwrap()).await.unwrap(), 0);
}

#[sqlx::test(migrations = "../migrations")]
async fn stale_expectations_conflict_and_write_nothing(pool: PgPool) {
    let store = EventStore::new(pool.clone());
    let stream = StreamId::new("download").unwrap();
    store.append(&stream, ExpectedVersion::NoStream, vec![event("Started", json!({}))]).await.unwrap();

    let err = store.append(&stream, ExpectedVersion::NoStream, vec![event("Started", json!({}))]).await.unwrap_err();
    match err {
        StoreError::Conflict { stream: s, expected, actual } => {
            assert_eq!(s, stream.to_string());
            assert_eq!(expected, ExpectedVersion::NoStream);
            assert_eq!(actual, 1);
        }
        other => panic!("expected a conflict, got {other:?}"),
    }
    let err = store.append(&stream, ExpectedVersion::Exact(5), vec![event("X", json!({}))]).await.unwrap_err();
    assert!(matches!(err, StoreError::Conflict { actual: 1, expected: ExpectedVersion::Exact(5), .. }));

    let missing = StreamId::new("download").unwrap();
    let err = store.append(&missing, ExpectedVersion::Exact(1), vec![event("X", json!({}))]).await.unwrap_err();
    assert!(matches!(err, StoreError::Conflict { actual: 0, .. }));

    assert!(matches!(store.append(&stream, ExpectedVersion::Any, vec![]).await.unwrap_err(), StoreError::EmptyAppend));

    // The losers took no position from the sequence.
    let last: i64 = sqlx::query_scalar("SELECT last_value FROM events_position_seq").fetch_one(&pool).await.unwrap();
    assert_eq!(last, 1);
    assert_eq!(store.read_stream(&stream).await.unwrap().len(), 1);
    assert!(store.read_stream(&missing).await.unwrap().is_empty());
}

#[sqlx::test(migrations = "../migrations")]
async fn a_conflict_inside_a_transaction_leaves_it_usable(pool: PgPool) {
    let store = EventStore::new(pool.clone());
    let stream = StreamId::new("cloud").unwrap();
    store.append(&stream, ExpectedVersion::NoStream, vec![event("Started", json!({}))]).await.unwrap();

    let mut tx = pool.begin().await.unwrap();
    let err =
        store.append_in(&mut tx, &stream, ExpectedVersion::NoStream, vec![event("Dup", json!({}))]).await.unwrap_err();
    assert!(matches!(err, StoreError::Conflict { actual: 1, .. }));
    let out =
        store.append_in(&mut tx, &stream, ExpectedVersion::Exact(1), vec![event("Next", json!({}))]).await.unwrap();
    assert_eq!(out.stream_version, 2);
    tx.commit().await.unwrap();
    assert_eq!(store.stream_version(&stream).await.unwrap(), 2);
}

#[sqlx::test(migrations = "../migrations")]
async fn events_are_append_only(pool: PgPool) {
    let store = EventStore::new(pool.clone());
    let stream = StreamId::new("cloud").unwrap();
    store.append(&stream, ExpectedVersion::NoStream, vec![event("Started", json!({}))]).await.unwrap();
    assert!(sqlx::query("UPDATE events SET payload = '{}'").execute(&pool).await.is_err());
    assert!(sqlx::query("DELETE FROM events").execute(&pool).await.is_err());
    // Issue 14, defect 9: TRUNCATE fires no row or UPDATE/DELETE trigger.
    let truncated = sqlx::query("TRUNCATE events").execute(&pool).await;
    assert!(truncated.as_ref().is_err_and(|e| e.to_string().contains("append-only")), "{truncated:?}");
    assert_eq!(store.read_stream(&stream).await.unwrap().len(), 1);
}

#[sqlx::test(migrations = "../migrations")]
async fn concurrent_writers_one_winner_per_version(pool_opts: PgPoolOptions, connect_opts: PgConnectOptions) {
    const WRITERS: usize = 16;
    let pool = pool_opts.max_connections(WRITERS as u32 + 1).connect_with(connect_opts).await.unwrap();
    let store = EventStore::new(pool.clone());
    let stream = StreamId::new("activation").unwrap();
    // Every writer reads the (empty) stream before any of them appends, so the first
    // round is a true race on version 1.
    let barrier = Arc::new(Barrier::new(WRITERS));

    let mut tasks = Vec::new();
    for writer in 0..WRITERS {
        let (store, stream, barrier) = (store.clone(), stream.clone(), barrier.clone());
        tasks.push(tokio::spawn(async move {
            let mut conflicts = Vec::new();
            let mut first_round = true;
            loop {
                let seen = store.stream_version(&stream).await.unwrap();
                if first_round {
                    barrier.wait().await;
                }
                let expected = if seen == 0 { ExpectedVersion::NoStream } else { ExpectedVersion::Exact(seen) };
                match store.append(&stream, expected, vec![event("Step", json!({"writer": writer}))]).await {
                    Ok(out) => return (writer, out.stream_version, out.positions, conflicts, first_round),
                    Err(StoreError::Conflict { actual, .. }) => {
                        assert!(actual > seen, "conflict must report a newer version");
                        conflicts.push(seen);
                    }
                    Err(e) => panic!("unexpected error {e}"),
                }
                first_round = false;
            }
        }));
    }
    let mut results = Vec::new();
    for t in tasks {
        results.push(t.await.unwrap());
    }

    // Exactly one writer won the first round; the 15 others got a conflict.
    assert_eq!(results.iter().filter(|r| r.4).count(), 1);
    let total_conflicts: usize = results.iter().map(|r| r.3.len()).sum();
    assert!(total_conflicts >= WRITERS - 1, "{total_conflicts} conflicts");

    // Every version 1..=16 won by exactly one writer.
    let mut versions: Vec<i64> = results.iter().map(|r| r.1).collect();
    versions.sort();
    assert_eq!(versions, (1..=WRITERS as i64).collect::<Vec<_>>());

    let read = store.read_stream(&stream).await.unwrap();
    assert_eq!(read.iter().map(|e| e.version).collect::<Vec<_>>(), (1..=WRITERS as i64).collect::<Vec<_>>());
    for (writer, version, positions, _, _) in &results {
        let e = &read[(*version - 1) as usize];
        assert_eq!(e.payload["writer"], json!(writer));
        assert_eq!(vec![e.position], *positions);
    }

    // Losers burned no position: positions are exactly 1..=16 and the sequence
    // never went further.
    let positions: Vec<i64> = read.iter().map(|e| e.position).collect();
    let mut sorted = positions.clone();
    sorted.sort();
    assert_eq!(sorted, (1..=WRITERS as i64).collect::<Vec<_>>());
    let last: i64 = sqlx::query_scalar("SELECT last_value FROM events_position_seq").fetch_one(&pool).await.unwrap();
    assert_eq!(last, WRITERS as i64);
}

/// An append in the caller's transaction commits or rolls back together with the caller's rows.
#[sqlx::test(migrations = "../migrations")]
async fn an_append_in_a_transaction_is_atomic_with_the_callers_writes(pool: PgPool) {
    sqlx::query("CREATE TABLE attempts_view (stream_id text PRIMARY KEY, step text NOT NULL)")
        .execute(&pool)
        .await
        .unwrap();
    let store = EventStore::new(pool.clone());
    let stream = StreamId::new("activation").unwrap();

    let mut tx = pool.begin().await.unwrap();
    store.append_in(&mut tx, &stream, ExpectedVersion::NoStream, vec![event("Started", json!({}))]).await.unwrap();
    sqlx::query("INSERT INTO attempts_view VALUES ($1, 'started')")
        .bind(stream.as_str())
        .execute(&mut *tx)
        .await
        .unwrap();
    tx.rollback().await.unwrap();
    assert!(store.read_stream(&stream).await.unwrap().is_empty());
    let rows: i64 = sqlx::query_scalar("SELECT count(*) FROM attempts_view").fetch_one(&pool).await.unwrap();
    assert_eq!(rows, 0);

    let mut tx = pool.begin().await.unwrap();
    store.append_in(&mut tx, &stream, ExpectedVersion::NoStream, vec![event("Started", json!({}))]).await.unwrap();
    // A conflict inside leaves the transaction usable.
    assert!(matches!(
        store
            .append_in(&mut tx, &stream, ExpectedVersion::NoStream, vec![event("Again", json!({}))])
            .await
            .unwrap_err(),
        StoreError::Conflict { actual: 1, .. }
    ));
    let out =
        store.append_in(&mut tx, &stream, ExpectedVersion::Exact(1), vec![event("Next", json!({}))]).await.unwrap();
    assert_eq!(out.stream_version, 2);
    sqlx::query("INSERT INTO attempts_view VALUES ($1, 'next')").bind(stream.as_str()).execute(&mut *tx).await.unwrap();
    tx.commit().await.unwrap();
    let read = store.read_stream(&stream).await.unwrap();
    assert_eq!(read.iter().map(|e| e.event_type.as_str()).collect::<Vec<_>>(), ["Started", "Next"]);
    let step: String = sqlx::query_scalar("SELECT step FROM attempts_view WHERE stream_id = $1")
        .bind(stream.as_str())
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!(step, "next");
}
