//! `replay tail` over a real event log.

use events::{Checkpoint, EventStore, ExpectedVersion, Metadata, NewEvent, StreamId};
use replay::tail::{parse_checkpoint, tail, TailOptions};
use sqlx::PgPool;

fn event(n: i64) -> NewEvent {
    NewEvent {
        event_type: "demo.happened".into(),
        schema_version: 1,
        payload: serde_json::json!({ "n": n }),
        metadata: Metadata {
            correlation_id: uuid::Uuid::new_v4(),
            causation_id: None,
            actor: "test".into(),
            client: None,
        },
    }
}

const WAIT: std::time::Duration = std::time::Duration::from_secs(10);

fn lines(out: &[u8]) -> Vec<serde_json::Value> {
    String::from_utf8_lossy(out).lines().map(|l| serde_json::from_str(l).expect("each line is JSON")).collect()
}

#[test]
fn checkpoints_parse_from_start_or_tx_and_position() {
    assert_eq!(parse_checkpoint("start"), Ok(Checkpoint::START));
    assert_eq!(parse_checkpoint("812:40"), Ok(Checkpoint { tx_id: 812, position: 40 }));
    assert!(parse_checkpoint("40").is_err());
    assert!(parse_checkpoint("a:b").is_err());
}

#[sqlx::test(migrations = "../migrations")]
async fn tail_prints_every_event_after_the_checkpoint_as_json_lines(db: PgPool) {
    let store = EventStore::new(db);
    let a = StreamId::new("download").expect("id");
    let b = StreamId::new("cloud").expect("id");
    store.append(&a, ExpectedVersion::NoStream, vec![event(1), event(2)]).await.expect("append");
    store.append(&b, ExpectedVersion::NoStream, vec![event(3)]).await.expect("append");

    let mut out = Vec::new();
    let n = tail(
        &store,
        TailOptions { after: Checkpoint::START, follow: false, limit: None, batch: 2, held_back_wait: WAIT },
        &mut out,
    )
    .await
    .expect("tail");

    assert_eq!(n, 3);
    let all = lines(&out);
    let ns: Vec<i64> = all.iter().map(|l| l["payload"]["n"].as_i64().expect("n")).collect();
    assert_eq!(ns, [1, 2, 3]);
    assert_eq!(all[2]["stream_id"], b.as_str());

    // Resuming from the first line's checkpoint prints only what came after it.
    let resume = parse_checkpoint(all[0]["checkpoint"].as_str().expect("checkpoint")).expect("parse");
    let mut rest = Vec::new();
    tail(&store, TailOptions { after: resume, follow: false, limit: None, batch: 10, held_back_wait: WAIT }, &mut rest)
        .await
        .expect("tail");
    let ns: Vec<i64> = lines(&rest).iter().map(|l| l["payload"]["n"].as_i64().expect("n")).collect();
    assert_eq!(ns, [2, 3]);
}

#[sqlx::test(migrations = "../migrations")]
async fn follow_waits_for_an_event_appended_later(db: PgPool) {
    let store = EventStore::new(db);
    let writer = store.clone();
    let stream = StreamId::new("activation").expect("id");
    let append = tokio::spawn(async move {
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
        writer.append(&stream, ExpectedVersion::NoStream, vec![event(7)]).await.expect("append");
    });

    let mut out = Vec::new();
    let n = tokio::time::timeout(
        std::time::Duration::from_secs(10),
        tail(
            &store,
            TailOptions { after: Checkpoint::START, follow: true, limit: Some(1), batch: 10, held_back_wait: WAIT },
            &mut out,
        ),
    )
    .await
    .expect("arrives")
    .expect("tail");
    append.await.expect("join");

    assert_eq!(n, 1);
    assert_eq!(lines(&out)[0]["payload"]["n"], 7);
}

/// Issue 14, defect 11: without --follow, `tail` waited without bound while any transaction in
/// the cluster stayed open with an event of its own: it now stops with an error saying so.
#[sqlx::test(migrations = "../migrations")]
async fn tail_stops_waiting_for_a_transaction_left_open(db: PgPool) {
    let store = EventStore::new(db.clone());
    let mut open = db.begin().await.expect("tx");
    let left_open = StreamId::new("download").expect("id");
    store.append_in(&mut open, &left_open, ExpectedVersion::NoStream, vec![event(1)]).await.expect("append");
    let later = StreamId::new("cloud").expect("id");
    store.append(&later, ExpectedVersion::NoStream, vec![event(2)]).await.expect("append");

    let mut out = Vec::new();
    let options = TailOptions {
        after: Checkpoint::START,
        follow: false,
        limit: None,
        batch: 10,
        held_back_wait: std::time::Duration::from_millis(500),
    };
    let ended = tokio::time::timeout(std::time::Duration::from_secs(10), tail(&store, options, &mut out)).await;
    let error = ended.expect("the wait is bounded").expect_err("held back events are an error, not an empty log");
    assert!(error.to_string().contains("held back behind a transaction open"), "{error}");
    open.rollback().await.expect("rollback");
}
