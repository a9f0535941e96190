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
    seeded(&pool, 1_500, 3).await;
    let total = count(&pool, "SELECT count(*) FROM events").await;

    // SIGKILL the projector mid-way until it gets to the end by itself.
    let mut kills = 0;
    let mut progress_between_kills = Vec::new();
    loop {
        let mut child = replay_process(&pool, &["project", "--page", "25"]);
        tokio::time::sleep(StdDuration::from_millis(250 + 97 * (kills % 3))).await;
        if child.try_wait().expect("status").is_some_and(|s| s.success()) {
            break;
        }
        child.kill().expect("SIGKILL");
        child.wait().expect("reaped");
        kills += 1;
        progress_between_kills.push(standing(&pool, LIVE).await.expect("standing").events);
        assert!(kills < 200, "the projector never finishes");
    }
    assert!(kills >= 3, "killed only {kills} times: the page is too large to catch it mid-way");
    assert!(
        progress_between_kills.windows(2).any(|w| w[0] < w[1]),
        "it made progress between kills: {progress_between_kills:?}"
    );

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
    tokio::time::sleep(StdDuration::from_millis(400)).await;
    assert!(first.try_wait().expect("status").is_none(), "the rebuild was still running when killed");
    first.kill().expect("SIGKILL");
    first.wait().expect("reaped");
    let half = standing(&pool, NEXT).await.expect("a half-built table and its checkpoint").events;
    let total = count(&pool, "SELECT count(*) FROM events").await;
    assert!(half > 0 && half < total, "killed half-way: {half} of {total}");

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
