//! `replay funnel` over a seeded history, checked against the same funnel computed a second,
//! independent way: plain SQL over `events`.

use chrono::{Duration, NaiveDate};
use events::funnel::{funnel, Order};
use events::pii::Keys;
use events::EventStore;
use indicatif::ProgressBar;
use replay::funnel::{replay, Breakdown, FunnelQuery};
use replay::seed::{seed, SeedOptions};
use sqlx::PgPool;

fn all_dates(flow: &str, variant: Option<&str>, breakdown: Option<Breakdown>) -> FunnelQuery {
    FunnelQuery {
        funnel: funnel(flow, variant).expect("known funnel"),
        from: NaiveDate::from_ymd_opt(2000, 1, 1).expect("date"),
        to: NaiveDate::from_ymd_opt(2100, 1, 1).expect("date"),
        window: Duration::days(14),
        order: Order::Sequential,
        breakdown,
    }
}

/// Attempts that reached step `i`: each step's first event after the previous one's, within
/// the window of the first, the steps' event types taken from the definition.
async fn entered_by_sql(pool: &PgPool, flow: &str, steps: &[&[&str]], i: usize) -> i64 {
    let mut sql = String::from(
        "WITH f AS (SELECT stream_id, event_type, min(version) AS v, min(recorded_at) AS at FROM events \
         WHERE category = $1 GROUP BY stream_id, event_type) SELECT count(*) FROM f s0",
    );
    for (j, types) in steps.iter().enumerate().take(i + 1).skip(1) {
        let list: Vec<String> = types.iter().map(|t| format!("'{t}'")).collect();
        sql.push_str(&format!(
            " JOIN f s{j} ON s{j}.stream_id = s0.stream_id AND s{j}.event_type IN ({}) AND s{j}.v > s{p}.v \
             AND s{j}.at - s0.at <= interval '14 days'",
            list.join(","),
            p = j - 1
        ));
    }
    let first: Vec<String> = steps[0].iter().map(|t| format!("'{t}'")).collect();
    sql.push_str(&format!(" WHERE s0.event_type IN ({})", first.join(",")));
    sqlx::query_scalar(&sql).bind(flow).fetch_one(pool).await.expect("sql funnel")
}

#[sqlx::test(migrations = "../migrations")]
async fn the_replay_and_plain_sql_agree_step_by_step(pool: PgPool) {
    let options = SeedOptions { attempts: 600, days: 20, seed: 9, force: false, batch: 100 };
    seed(&pool, Keys::insecure_dev(), &options, &ProgressBar::hidden()).await.expect("seeded");
    let store = EventStore::new(pool.clone());
    for (flow, variant) in
        [("cloud", None), ("download", None), ("activation", Some("carrier")), ("activation", Some("standard"))]
    {
        let query = all_dates(flow, variant, None);
        let result = replay(&store, &query, |_| {}).await.expect("replays");
        let rows = result.tallies().get("todas").expect("one group").rows(&query.funnel, 3);
        if variant.is_none() {
            let steps: Vec<&[&str]> = query.funnel.steps.iter().map(|s| s.events).collect();
            for (i, row) in rows.iter().enumerate() {
                assert_eq!(row.entered as i64, entered_by_sql(&pool, flow, &steps, i).await, "{flow} step {}", row.key);
            }
        }
        let started: i64 = sqlx::query_scalar(
            "SELECT count(DISTINCT stream_id) FROM events WHERE category = $1 AND version = 1 AND ($2::text IS NULL OR payload->>'variant' = $2)",
        )
        .bind(flow)
        .bind(variant)
        .fetch_one(&pool)
        .await
        .expect("count");
        assert_eq!(rows[0].entered as i64, started, "{flow} {variant:?}: every attempt enters");
        assert!(rows.last().is_some_and(|r| r.entered > 0), "{flow} {variant:?}: some attempts finish");
        assert!(
            rows.iter().any(|r| !r.refusals.is_empty()),
            "{flow} {variant:?}: refusals are counted with their message"
        );
    }
}

#[sqlx::test(migrations = "../migrations")]
async fn a_breakdown_splits_the_same_attempts(pool: PgPool) {
    let options = SeedOptions { attempts: 300, days: 5, seed: 3, force: false, batch: 100 };
    seed(&pool, Keys::insecure_dev(), &options, &ProgressBar::hidden()).await.expect("seeded");
    let store = EventStore::new(pool.clone());
    let whole = replay(&store, &all_dates("activation", None, None), |_| {}).await.expect("whole");
    let split = replay(&store, &all_dates("activation", None, Some(Breakdown::Variant)), |_| {}).await.expect("split");
    assert!(split.tallies().len() >= 5, "{:?}", split.tallies().keys().collect::<Vec<_>>());
    let funnel = funnel("activation", None).expect("known");
    let whole_rows = whole.tallies()["todas"].rows(&funnel, 3);
    for (i, row) in whole_rows.iter().enumerate() {
        let sum: u64 = split.tallies().values().map(|t| t.rows(&funnel, 3)[i].entered).sum();
        assert_eq!(sum, row.entered, "step {}", row.key);
    }
    // No day in the range: nobody.
    let mut none = all_dates("activation", None, None);
    none.from = NaiveDate::from_ymd_opt(2001, 1, 1).expect("date");
    none.to = none.from;
    assert!(replay(&store, &none, |_| {}).await.expect("empty").tallies().is_empty());
}

#[sqlx::test(migrations = "../migrations")]
async fn after_people_are_erased_the_funnel_still_counts_their_steps(pool: PgPool) {
    let options = SeedOptions { attempts: 250, days: 5, seed: 11, force: false, batch: 100 };
    seed(&pool, Keys::insecure_dev(), &options, &ProgressBar::hidden()).await.expect("seeded");
    let store = EventStore::new(pool.clone());
    let query = all_dates("download", None, Some(Breakdown::Platform));
    let before = replay(&store, &query, |_| {}).await.expect("before");
    let vault = events::pii::Vault::new(pool.clone(), Keys::insecure_dev());
    let people: Vec<uuid::Uuid> =
        sqlx::query_scalar("SELECT subject_id FROM pii_subjects").fetch_all(&pool).await.expect("people");
    for person in &people {
        vault.forget(*person).await.expect("forgotten");
    }
    let after = replay(&store, &query, |_| {}).await.expect("after");
    assert_eq!(before.tallies(), after.tallies(), "erasure removes keys, never steps");
    let text = replay::funnel_report::render(&query.funnel, &after, replay::funnel_report::Format::Json);
    assert!(!text.contains("$pii") && !text.contains("cliente"), "no personal data in the report");
}

#[sqlx::test(migrations = "../migrations")]
async fn the_export_has_a_row_per_attempt_and_step_reached_and_no_personal_data(pool: PgPool) {
    let options = SeedOptions { attempts: 200, days: 5, seed: 4, force: false, batch: 100 };
    seed(&pool, Keys::insecure_dev(), &options, &ProgressBar::hidden()).await.expect("seeded");
    let store = EventStore::new(pool.clone());
    let query = all_dates("activation", None, None);
    let mut out = Vec::new();
    let sink = |finished: &replay::funnel::Finished| {
        replay::export::write_rows(&mut out, &query.funnel, finished).expect("writes");
    };
    let result = replay::funnel::replay_with(&store, replay::funnel::Replay::new(&query).with_sink(sink), |_| {})
        .await
        .expect("replays");
    let text = String::from_utf8(out).expect("utf-8");
    let entered: u64 = result.tallies()["todas"].rows(&query.funnel, 3).iter().map(|r| r.entered).sum();
    assert_eq!(text.lines().count() as u64, entered);
    assert!(text.lines().all(|l| l.starts_with("activation-")));
    assert!(!text.contains("@exemplo") && !text.contains("$pii"), "no personal data");
}

/// Issue 17: a visitor refused by an abuse limit stopped where the funnel shows them, with the
/// limit's message as their refusal (the flow itself records no refusal for it).
#[test]
fn a_refusal_by_an_abuse_limit_is_counted_where_the_visitor_stopped() {
    use events::{Metadata, RecordedEvent};
    use replay::funnel::Replay;
    use serde_json::json;

    let query = all_dates("download", None, None);
    let at = chrono::Utc::now();
    let event = |version: i64, event_type: &str, payload: serde_json::Value| RecordedEvent {
        position: version,
        tx_id: version,
        stream_id: "download-00000000-0000-0000-0000-000000000001".into(),
        version,
        event_type: event_type.into(),
        schema_version: 1,
        payload,
        metadata: Metadata {
            correlation_id: uuid::Uuid::nil(),
            causation_id: None,
            actor: "visitor".into(),
            client: None,
        },
        recorded_at: at + Duration::seconds(version),
    };
    let mut replay = Replay::new(&query);
    replay.observe(&event(1, "download.started", json!({ "os": "win_pc", "browser": "Chrome" })));
    let message = "Você pediu muitos códigos para este número. Por segurança, aguarde alguns minutos e tente de novo.";
    replay.observe(&event(
        2,
        "abuse.limited",
        json!({ "rule": "sms_per_phone_10min", "command": "submit_phone", "message": message }),
    ));
    let result = replay.finish();
    let rows = result.tallies().get("todas").expect("one group").rows(&query.funnel, 3);
    assert_eq!((rows[0].entered, rows[0].dropped), (1, 1));
    assert_eq!(rows[0].refusals, vec![(message.to_string(), 1)]);
}
