//! Live subscriptions: LISTEN/NOTIFY wake-ups and the polling fallback.

mod common;

use std::time::Duration;

use common::event;
use events::{Checkpoint, EventStore, ExpectedVersion, Hears, StreamId, SubscriptionOptions};
use futures::StreamExt;
use serde_json::json;
use sqlx::PgPool;
use tokio::time::timeout;

const BOUND: Duration = Duration::from_secs(5);

fn options(poll_interval: Duration, listen: bool) -> SubscriptionOptions {
    SubscriptionOptions { poll_interval, batch_size: 100, listen }
}

/// With a 60 s poll interval only the NOTIFY can wake the waiting subscriber in time.
#[sqlx::test(migrations = "../migrations")]
async fn a_waiting_subscriber_is_woken_by_notify(pool: PgPool) {
    let store = EventStore::new(pool);
    let stream = StreamId::new("activation").unwrap();
    store.append(&stream, ExpectedVersion::NoStream, vec![event("First", json!({}))]).await.unwrap();

    let mut sub = store.subscribe_all_with(Checkpoint::START, options(Duration::from_secs(60), true)).await.unwrap();
    let first = timeout(BOUND, sub.next_batch()).await.expect("catch-up").unwrap();
    assert_eq!(first.iter().map(|e| e.event_type.as_str()).collect::<Vec<_>>(), ["First"]);
    assert_eq!(sub.checkpoint(), first[0].checkpoint());

    // Let the subscriber find nothing and start waiting, so that its catch-up read
    // cannot be what delivers the event (the pause only makes the test stricter;
    // nothing relies on it for correctness).
    let waiter = tokio::spawn(async move { timeout(BOUND, sub.next_batch()).await });
    tokio::time::sleep(Duration::from_millis(300)).await;
    store.append(&stream, ExpectedVersion::Exact(1), vec![event("Second", json!({"n": 2}))]).await.unwrap();

    let second = waiter.await.unwrap().expect("woken within 5 s").unwrap();
    assert_eq!(second.len(), 1);
    assert_eq!(second[0].event_type, "Second");
    assert_eq!(second[0].payload, json!({"n": 2}));
    assert_eq!(second[0].version, 2);
}

/// Without LISTEN the poll alone delivers the event.
#[sqlx::test(migrations = "../migrations")]
async fn polling_delivers_when_notifications_are_missing(pool: PgPool) {
    let store = EventStore::new(pool);
    let mut sub =
        store.subscribe_all_with(Checkpoint::START, options(Duration::from_millis(100), false)).await.unwrap();
    let stream = StreamId::new("download").unwrap();
    let waiter = tokio::spawn(async move { timeout(BOUND, sub.next_batch()).await });
    store.append(&stream, ExpectedVersion::NoStream, vec![event("Polled", json!({}))]).await.unwrap();
    let batch = waiter.await.unwrap().expect("polled within 5 s").unwrap();
    assert_eq!(batch.iter().map(|e| e.event_type.as_str()).collect::<Vec<_>>(), ["Polled"]);
}

/// B commits (and notifies) while an older writer A is open, so the wake-up finds
/// nothing readable; A then rolls back without notifying. The subscriber must still
/// deliver B promptly (60 s poll interval), and deliver it exactly once.
#[sqlx::test(migrations = "../migrations")]
async fn a_rolled_back_writer_does_not_stall_a_subscriber(pool: PgPool) {
    let store = EventStore::new(pool.clone());
    let sub = store.subscribe_all_with(Checkpoint::START, options(Duration::from_secs(60), true)).await.unwrap();
    let mut stream = Box::pin(sub.into_stream());

    let mut tx_a = pool.begin().await.unwrap();
    store
        .append_in(&mut tx_a, &StreamId::new("cloud").unwrap(), ExpectedVersion::NoStream, vec![event("A", json!({}))])
        .await
        .unwrap();
    let sb = StreamId::new("cloud").unwrap();
    store.append(&sb, ExpectedVersion::NoStream, vec![event("B", json!({}))]).await.unwrap();
    // Held back behind A, whichever wake-up the subscriber gets.
    assert!(store.read_all_after(Checkpoint::START, 10).await.unwrap().is_empty());
    tx_a.rollback().await.unwrap();

    let b = timeout(BOUND, stream.next()).await.expect("B within 5 s").unwrap().unwrap();
    assert_eq!(b.event_type, "B");
    assert_eq!(b.stream_id, sb.as_str());

    store.append(&sb, ExpectedVersion::Exact(1), vec![event("C", json!({}))]).await.unwrap();
    let c = timeout(BOUND, stream.next()).await.expect("C within 5 s").unwrap().unwrap();
    assert_eq!(c.event_type, "C");
}

/// Many appends while subscribed: all delivered once, in (transaction, position) order.
#[sqlx::test(migrations = "../migrations")]
async fn a_stream_subscription_delivers_everything_once_in_order(pool: PgPool) {
    let store = EventStore::new(pool);
    let sub = store.subscribe_all(Checkpoint::START).await.unwrap();
    let writer = {
        let store = store.clone();
        tokio::spawn(async move {
            for i in 0..20 {
                let s = StreamId::new("activation").unwrap();
                store
                    .append(
                        &s,
                        ExpectedVersion::NoStream,
                        vec![event("N", json!({"i": i})), event("M", json!({"i": i}))],
                    )
                    .await
                    .unwrap();
            }
        })
    };
    let got: Vec<_> = timeout(BOUND, sub.into_stream().take(40).collect::<Vec<_>>())
        .await
        .expect("40 events within 5 s")
        .into_iter()
        .map(|r| r.unwrap())
        .collect();
    writer.await.unwrap();
    let order: Vec<(i64, &str)> =
        got.iter().map(|e| (e.payload["i"].as_i64().unwrap(), e.event_type.as_str())).collect();
    let expected: Vec<(i64, &str)> = (0..20).flat_map(|i| [(i, "N"), (i, "M")]).collect();
    assert_eq!(order, expected);
    assert!(got.windows(2).all(|w| w[0].checkpoint() < w[1].checkpoint()));
}

/// An append in the caller's transaction wakes subscribers when it is announced after the
/// commit (60 s poll: only the NOTIFY explains it).
#[sqlx::test(migrations = "../migrations")]
async fn an_append_in_a_callers_transaction_wakes_when_announced_after_the_commit(pool: PgPool) {
    let store = EventStore::new(pool.clone());
    let mut sub = store.subscribe_all_with(Checkpoint::START, options(Duration::from_secs(60), true)).await.unwrap();
    let waiter = tokio::spawn(async move { timeout(BOUND, sub.next_batch()).await });
    tokio::time::sleep(Duration::from_millis(300)).await; // see the first test
    let stream = StreamId::new("activation").unwrap();
    let mut tx = pool.begin().await.unwrap();
    store.append_in(&mut tx, &stream, ExpectedVersion::NoStream, vec![event("InTx", json!({}))]).await.unwrap();
    tx.commit().await.unwrap();
    store.announce(&[&stream]).await;
    let batch = waiter.await.unwrap().expect("woken within 5 s").unwrap();
    assert_eq!(batch[0].event_type, "InTx");
}

/// Issue 15: an append announced after its commit names its stream in the payload, as the
/// NOTIFY inside `append_events` does, so a follower of one attempt can skip the others.
#[sqlx::test(migrations = "../migrations")]
async fn an_announced_append_names_its_stream_after_the_commit(pool: PgPool) {
    let store = EventStore::new(pool.clone());
    let mut listener = store.listener(events::NOTIFY_CHANNEL, Hears::Notifications).await.unwrap();
    let (one, two) = (StreamId::new("activation").unwrap(), StreamId::new("cloud").unwrap());
    let mut tx = pool.begin().await.unwrap();
    store.append_in(&mut tx, &one, ExpectedVersion::NoStream, vec![event("A", json!({}))]).await.unwrap();
    store.append_in(&mut tx, &two, ExpectedVersion::NoStream, vec![event("B", json!({}))]).await.unwrap();
    // Nothing is sent from inside the transaction.
    assert!(timeout(Duration::from_millis(300), listener.recv()).await.is_err(), "no NOTIFY before the announce");
    tx.commit().await.unwrap();
    store.announce(&[&one, &two]).await;
    let mut named = std::collections::BTreeSet::new();
    while named.len() < 2 {
        let notification = timeout(BOUND, listener.recv()).await.expect("announced within 5 s").unwrap();
        named.extend(events::streams_named(notification.payload()).map(str::to_string));
    }
    assert_eq!(named, [one.as_str().to_string(), two.as_str().to_string()].into_iter().collect());
}

/// A follower holding a stream up to a version reads only what came after it.
#[sqlx::test(migrations = "../migrations")]
async fn reading_a_stream_after_a_version_returns_only_the_newer_events(pool: PgPool) {
    let store = EventStore::new(pool);
    let stream = StreamId::new("download").unwrap();
    store.append(&stream, ExpectedVersion::NoStream, vec![event("A", json!({})), event("B", json!({}))]).await.unwrap();
    store.append(&stream, ExpectedVersion::Exact(2), vec![event("C", json!({}))]).await.unwrap();
    let after: Vec<(i64, String)> =
        store.read_stream_after(&stream, 1).await.unwrap().into_iter().map(|e| (e.version, e.event_type)).collect();
    assert_eq!(after, [(2, "B".to_string()), (3, "C".to_string())]);
    assert!(store.read_stream_after(&stream, 3).await.unwrap().is_empty());
}

/// Issue 24: a NOTIFY takes a transaction id, and a lone process needs none: it learns of its
/// own commits in process. One is sent only while a listener needs it: one that hears every
/// commit from NOTIFYs, or another store's (another process's).
#[sqlx::test(migrations = "../migrations")]
async fn a_notify_is_sent_only_while_a_listener_needs_it(pool: PgPool) {
    let store = EventStore::new(pool.clone());
    let stream = StreamId::new("cloud").unwrap();
    assert!(!store.notify_listeners(&[&stream]).await.unwrap(), "nobody listens");

    let mut own = store.listener(events::NOTIFY_CHANNEL, Hears::OthersOnly).await.unwrap();
    assert!(!store.notify_listeners(&[&stream]).await.unwrap(), "only this store's own, which hear it in process");

    let other = EventStore::new(pool.clone());
    assert!(other.notify_listeners(&[&stream]).await.unwrap(), "another store's commits reach it by NOTIFY only");
    let heard = timeout(BOUND, own.recv()).await.expect("within 5 s").unwrap();
    assert!(!store.sent_here(heard.payload()) && other.sent_here(heard.payload()));

    let mut follower = store.listener(events::NOTIFY_CHANNEL, Hears::Notifications).await.unwrap();
    assert!(store.notify_listeners(&[&stream]).await.unwrap(), "a follower of every commit");
    let heard = timeout(BOUND, follower.recv()).await.expect("within 5 s").unwrap();
    assert_eq!(events::streams_named(heard.payload()).collect::<Vec<_>>(), [stream.as_str()]);
    drop(follower);
}

/// Every commit of this process reaches its readers in process, with its events or without
/// them, so they do not depend on a NOTIFY that may be skipped.
#[sqlx::test(migrations = "../migrations")]
async fn every_commit_reaches_this_processs_readers_in_process(pool: PgPool) {
    let store = EventStore::new(pool.clone());
    let mut here = store.appended_here();
    let (one, two) = (StreamId::new("activation").unwrap(), StreamId::new("cloud").unwrap());
    store.append(&one, ExpectedVersion::NoStream, vec![event("A", json!({}))]).await.unwrap();
    let mut tx = pool.begin().await.unwrap();
    store.append_in(&mut tx, &two, ExpectedVersion::NoStream, vec![event("B", json!({}))]).await.unwrap();
    tx.commit().await.unwrap();
    store.announce(&[&two]).await;
    let first = here.recv().await.unwrap();
    let second = here.recv().await.unwrap();
    assert_eq!((first.stream.as_str(), second.stream.as_str()), (one.as_str(), two.as_str()));
    assert!(first.events.is_empty() && second.events.is_empty(), "named only: the readers read");
}
