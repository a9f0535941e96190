//! The maintained funnel projection (`replay project`, `replay rebuild`): killed again and
//! again, it ends with every event read once and the same answers as replaying the log; a
//! rebuild killed half-way resumes, and swaps in while readers keep reading.

mod common;

use common::database_url;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration as StdDuration;

use chrono::{Duration, NaiveDate};
use events::funnel::projection::{self, standing, LIVE, NEXT};
use events::funnel::read::answer;
use events::funnel::Count;
use events::funnel::{funnel, Order, ACTIVATION_VARIANTS};
use events::pii::Keys;
use events::EventStore;
use indicatif::ProgressBar;
use replay::funnel::{replay, Breakdown, FunnelQuery};
use replay::seed::{seed, SeedOptions};
use sqlx::PgPool;

fn replay_process(db: &PgPool, args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_replay"))
        .args(args)
        .env("DATABASE_URL", database_url(db))
        .env("SANDBOX_MODE", "true")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("replay starts")
}

/// Every funnel, in every order, broken down by variant or partner.
fn questions() -> Vec<FunnelQuery> {
    let mut funnels = vec![("cloud", None), ("download", None), ("activation", None)];
    funnels.extend(ACTIVATION_VARIANTS.iter().map(|v| ("activation", Some(*v))));
    let mut out = Vec::new();
    for (flow, variant) in funnels {
        for order in [Order::Sequential, Order::Strict, Order::Any] {
            out.push(FunnelQuery {
                funnel: funnel(flow, variant).expect("known"),
                from: NaiveDate::from_ymd_opt(2000, 1, 1).expect("date"),
                to: NaiveDate::from_ymd_opt(2100, 1, 1).expect("date"),
                window: Duration::days(14),
                order,
                breakdown: Some(if flow == "download" { Breakdown::Partner } else { Breakdown::Variant }),
            });
        }
    }
    out
}

async fn assert_projection_answers_like_the_replay(pool: &PgPool) {
    let store = EventStore::new(pool.clone());
    for question in questions() {
        let replayed = replay(&store, &question, |_| {}).await.expect("replays");
        let projected = answer(pool, &question, Count::Attempts).await.expect("answers");
        let label = format!("{} {:?} {:?}", question.funnel.flow, question.funnel.variant, question.order);
        assert!(!replayed.answer.tallies.is_empty(), "{label}: the seed has attempts");
        assert_eq!(projected.tallies, replayed.answer.tallies, "{label}");
        assert_eq!(projected.per_day, replayed.answer.per_day, "{label}");
        assert_eq!(projected.attempts, replayed.answer.attempts, "{label}");
    }
}

async fn count(pool: &PgPool, sql: &str) -> i64 {
    sqlx::query_scalar(sql).fetch_one(pool).await.expect("counts")
}

async fn seeded(pool: &PgPool, attempts: u64, random_seed: u64) {
    let options = SeedOptions { attempts, days: 20, seed: random_seed, force: true, batch: 100 };
    seed(pool, Keys::insecure_dev(), &options, &ProgressBar::hidden()).await.expect("seeded");
}

#[sqlx::test(migrations = "../migrations")]
async fn a_projector_killed_again_and_again_reads_every_event_once(pool: PgPool) {
    // Three late writers split the log in four: the projector cannot read past one while it is
    // open, so each is a place to kill it whatever the machine's speed.
    seeded(&pool, 600, 3).await;
    let store = EventStore::new(pool.clone());
    let mut writers = Vec::new();
    for part in 0..3u64 {
        let counted = count(&pool, "SELECT count(*) FROM events").await;
        let late = late_writer(&pool, &store).await;
        seeded(&pool, 300, 30 + part).await;
        writers.push((counted, late));
    }

    for (committed_before, (counted, late)) in writers.into_iter().enumerate() {
        // What was counted before the late writer, and the earlier late writers' starts since.
        let before = counted + committed_before as i64;
        // Killed as soon as it is seen to move, wherever in its page it is...
        let moved_from = standing(&pool, LIVE).await.expect("standing").events;
        let mut child = replay_process(&pool, &["project", "--page", "25"]);
        reached(&pool, LIVE, moved_from + 1).await;
        child.kill().expect("SIGKILL");
        child.wait().expect("reaped");
        // ...then again while it waits at the late writer, never read past.
        let mut child = replay_process(&pool, &["project", "--page", "25"]);
        let at_the_writer = reached(&pool, LIVE, before).await;
        assert!(child.try_wait().expect("status").is_none(), "the projector waits for the late writer");
        child.kill().expect("SIGKILL");
        child.wait().expect("reaped");
        assert_eq!(at_the_writer, before, "read up to the late writer and not past it");
        assert_eq!(standing(&pool, LIVE).await.expect("standing").events, before);
        late.commit().await.expect("the late writer commits");
    }
    let total = count(&pool, "SELECT count(*) FROM events").await;
    let status = replay_process(&pool, &["project", "--page", "25"]).wait().expect("runs");
    assert!(status.success());

    // Every event counted once, whatever was cut off by a kill.
    assert_eq!(standing(&pool, LIVE).await.expect("standing").events, total);
    let attempts = count(
        &pool,
        "SELECT count(DISTINCT stream_id) FROM events WHERE category IN ('activation', 'download', 'cloud')",
    )
    .await;
    assert_eq!(count(&pool, "SELECT count(*) FROM funnel_attempts").await, attempts);
    assert_projection_answers_like_the_replay(&pool).await;

    // New attempts after the restart: folded on top, attempts met mid-stream folded again
    // from their streams (the cache died with the process).
    seeded(&pool, 300, 4).await;
    let status = replay_process(&pool, &["project", "--page", "25"]).wait().expect("runs");
    assert!(status.success());
    assert_eq!(
        standing(&pool, LIVE).await.expect("standing").events,
        count(&pool, "SELECT count(*) FROM events").await
    );
    assert_projection_answers_like_the_replay(&pool).await;
}

#[sqlx::test(migrations = "../migrations")]
async fn a_rebuild_killed_half_way_resumes_and_swaps_in_while_readers_read(pool: PgPool) {
    seeded(&pool, 1_200, 5).await;
    let store = EventStore::new(pool.clone());
    projection::Projector::new(store.clone(), LIVE, 1_000).catch_up(|_| {}).await.expect("projected");
    // A projection made by an older, wrong projector: the rebuild must replace it.
    sqlx::query("UPDATE funnel_attempts SET refusal = 'resposta antiga'").execute(&pool).await.expect("stale");
    let before_the_late_writer = count(&pool, "SELECT count(*) FROM events").await;

    // A writer holds its transaction open while more attempts commit after it: the gap-free
    // read holds the rebuild at the writer's place, half-way, for as long as it stays open.
    // The kill lands there whatever the machine's speed.
    let late = late_writer(&pool, &store).await;
    seeded(&pool, 300, 7).await;

    // Readers ask the live table all along.
    let stop = Arc::new(AtomicBool::new(false));
    let (reads, failures) = (Arc::new(AtomicU64::new(0)), Arc::new(AtomicU64::new(0)));
    let reader = {
        let (pool, stop, reads, failures) = (pool.clone(), stop.clone(), reads.clone(), failures.clone());
        tokio::spawn(async move {
            let question = questions().remove(0);
            while !stop.load(Ordering::Relaxed) {
                match answer(&pool, &question, Count::Attempts).await {
                    Ok(_) => reads.fetch_add(1, Ordering::Relaxed),
                    Err(error) => {
                        eprintln!("reader: {error}");
                        failures.fetch_add(1, Ordering::Relaxed)
                    }
                };
            }
        })
    };

    let mut first = replay_process(&pool, &["rebuild", "--page", "20"]);
    let half = reached(&pool, NEXT, before_the_late_writer).await;
    assert!(first.try_wait().expect("status").is_none(), "the rebuild waits for the late writer");
    first.kill().expect("SIGKILL");
    first.wait().expect("reaped");
    late.commit().await.expect("the late writer commits");
    let total = count(&pool, "SELECT count(*) FROM events").await;
    assert_eq!(half, before_the_late_writer, "read up to the late writer and not past it");
    assert!(half < total, "killed half-way: {half} of {total}");
    assert_eq!(standing(&pool, NEXT).await.expect("the half-built table's checkpoint").events, half);

    let status = replay_process(&pool, &["rebuild", "--page", "20"]).wait().expect("runs");
    assert!(status.success());
    stop.store(true, Ordering::Relaxed);
    reader.await.expect("reader ends");

    // Resumed, not restarted nor doubled: the swapped-in checkpoint read each event once.
    assert_eq!(standing(&pool, LIVE).await.expect("standing").events, total);
    assert!(standing(&pool, NEXT).await.is_err(), "the rebuilt table took the live one's name");
    assert_eq!(count(&pool, "SELECT count(*) FROM funnel_attempts WHERE refusal = 'resposta antiga'").await, 0);
    assert_eq!(failures.load(Ordering::Relaxed), 0, "no reader failed during the rebuild and the swap");
    assert!(reads.load(Ordering::Relaxed) > 0);
    assert_projection_answers_like_the_replay(&pool).await;
}

/// A writer that holds its transaction open after appending an attempt's start: the gap-free
/// read holds every reader of the log at its place until it commits.
async fn late_writer<'a>(pool: &PgPool, store: &EventStore) -> sqlx::Transaction<'a, sqlx::Postgres> {
    use events::{ExpectedVersion, Metadata, NewEvent, StreamId};
    let mut late = pool.begin().await.expect("tx");
    let started = NewEvent {
        event_type: "attempt.started".into(),
        schema_version: 1,
        payload: serde_json::json!({ "variant": "standard" }),
        metadata: Metadata {
            correlation_id: uuid::Uuid::new_v4(),
            causation_id: None,
            actor: "visitor".into(),
            client: None,
        },
    };
    let stream = StreamId::new("activation").expect("stream");
    store.append_in(&mut late, &stream, ExpectedVersion::NoStream, vec![started]).await.expect("late append");
    late
}

/// Waits until `table`'s projection has read at least `events`, and returns what it has read;
/// the deadline only turns a hang into a failure.
async fn reached(pool: &PgPool, table: &str, events: i64) -> i64 {
    let deadline = tokio::time::Instant::now() + StdDuration::from_secs(120);
    loop {
        if let Ok(standing) = standing(pool, table).await {
            if standing.events >= events {
                return standing.events;
            }
        }
        assert!(tokio::time::Instant::now() < deadline, "{table} never read {events} events");
        tokio::time::sleep(StdDuration::from_millis(10)).await;
    }
}

/// Writers append while the projector follows, some holding their transaction open past later
/// ones (a lower position committed late): the gap-free read waits for them, so the projection
/// ends equal to a replay of the settled log, every event read once.
#[sqlx::test(migrations = "../migrations")]
async fn a_projector_following_concurrent_writers_with_late_commits_misses_nothing(pool: PgPool) {
    use events::{ExpectedVersion, Metadata, NewEvent, StreamId};
    seeded(&pool, 300, 6).await;
    let store = EventStore::new(pool.clone());

    let writing = Arc::new(AtomicBool::new(true));
    let follower = {
        let (store, writing) = (store.clone(), writing.clone());
        tokio::spawn(async move {
            let mut projector = projection::Projector::new(store, LIVE, 50);
            loop {
                match projector.step().await.expect("a page") {
                    projection::Step::CaughtUp { .. } if !writing.load(Ordering::Relaxed) => break,
                    projection::Step::CaughtUp { .. } => tokio::time::sleep(StdDuration::from_millis(5)).await,
                    _ => {}
                }
            }
        })
    };
    let event = |event_type: &str, payload: serde_json::Value| NewEvent {
        event_type: event_type.into(),
        schema_version: 1,
        payload,
        metadata: Metadata {
            correlation_id: uuid::Uuid::new_v4(),
            causation_id: None,
            actor: "visitor".into(),
            // Marks the writers' attempts apart from the seeded ones.
            client: Some(serde_json::json!({ "os": "Escritor", "platform": "mobile" })),
        },
    };
    let mut writers = Vec::new();
    for writer in 0..6u64 {
        let (pool, store) = (pool.clone(), store.clone());
        writers.push(tokio::spawn(async move {
            for i in 0..20u64 {
                let stream = StreamId::new("activation").expect("stream");
                let mut tx = pool.begin().await.expect("tx");
                store
                    .append_in(
                        &mut tx,
                        &stream,
                        ExpectedVersion::NoStream,
                        vec![event("attempt.started", serde_json::json!({ "variant": "standard" }))],
                    )
                    .await
                    .expect("started");
                // Held open for a while: writers that began later commit first.
                tokio::time::sleep(StdDuration::from_millis((writer * 7 + i * 13) % 40)).await;
                tx.commit().await.expect("commit");
                if i % 2 == 0 {
                    store
                        .append(
                            &stream,
                            ExpectedVersion::Exact(1),
                            vec![event("phone.submitted", serde_json::json!({}))],
                        )
                        .await
                        .expect("phone");
                }
            }
        }));
    }
    for writer in writers {
        writer.await.expect("writer");
    }
    writing.store(false, Ordering::Relaxed);
    follower.await.expect("follower");
    // Settled: anything the follower had not reached yet is read now.
    projection::Projector::new(store.clone(), LIVE, 50).catch_up(|_| {}).await.expect("caught up");

    assert_eq!(
        standing(&pool, LIVE).await.expect("standing").events,
        count(&pool, "SELECT count(*) FROM events").await
    );
    let written = |marks: i64| {
        format!("SELECT count(*) FROM funnel_attempts WHERE os = 'Escritor' AND jsonb_array_length(marks) = {marks}")
    };
    assert_eq!(count(&pool, &written(1)).await, 60, "started only");
    assert_eq!(count(&pool, &written(2)).await, 60, "started and phone sent");
    assert_projection_answers_like_the_replay(&pool).await;
}
