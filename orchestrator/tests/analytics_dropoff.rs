//! Issue 27 (analysts): from a drop-off to its attempts (`GET /api/analytics/funnel/dropped`)
//! and funnels that count people. On a seeded history: as many attempts are listed at each
//! step as the funnel says dropped there, page by page, in several questions; admins get the
//! attempt's id and its console page, analysts an anonymous id; people are counted by the
//! phone an attempt proved, and an erased person is no longer one.

mod common;

use std::collections::BTreeSet;

use common::console::added_and_signed_in;
use common::{spawn_app, TestApp};
use events::funnel::projection::{self, Projector, LIVE};
use events::pii::{Keys, Vault};
use events::EventStore;
use indicatif::ProgressBar;
use orchestrator::staff::Role;
use orchestrator::support::erase::{self, Named};
use reqwest::StatusCode;
use serde_json::{json, Value};
use sqlx::PgPool;

fn vault(db: &PgPool) -> Vault {
    Vault::new(db.clone(), Keys::insecure_dev())
}

async fn get(app: &TestApp, cookie: &str, path: &str) -> (StatusCode, Value) {
    let response = app.client.get(app.url(path)).header("cookie", cookie).send().await.expect("asks");
    let status = response.status();
    (status, response.json().await.unwrap_or(Value::Null))
}

/// A seeded history, projected with its people.
async fn seeded(db: &PgPool) {
    let options = replay::seed::SeedOptions { attempts: 900, days: 20, seed: 11, force: true, batch: 300 };
    replay::seed::seed(db, Keys::insecure_dev(), &options, &ProgressBar::hidden()).await.expect("seeded");
    let store = EventStore::new(db.clone());
    Projector::new(store, LIVE, 1_000).with_persons(vault(db)).catch_up(|_| {}).await.expect("projected");
}

fn question(flow: &str, rest: &str) -> String {
    let today = chrono::Utc::now().with_timezone(&events::funnel::sao_paulo()).date_naive();
    format!("flow={flow}&from={}&to={today}{rest}", today - chrono::Duration::days(25))
}

/// Every page of a drill-down: the rows, and `total` as each page said it.
async fn all_pages(app: &TestApp, cookie: &str, query: &str) -> (Vec<Value>, BTreeSet<u64>) {
    let mut rows = Vec::new();
    let mut totals = BTreeSet::new();
    let mut page = 1;
    loop {
        let (status, body) = get(app, cookie, &format!("/api/analytics/funnel/dropped?{query}&page={page}")).await;
        assert_eq!(status, StatusCode::OK, "{query}: {body}");
        assert_eq!(body["page"], json!(page));
        totals.insert(body["total"].as_u64().expect("total"));
        let got = body["attempts"].as_array().expect("attempts").clone();
        assert!(got.len() <= 50, "50 a page");
        rows.extend(got);
        if page >= body["pages"].as_u64().expect("pages") {
            return (rows, totals);
        }
        page += 1;
    }
}

#[sqlx::test(migrations = "../migrations")]
async fn each_steps_drop_off_lists_as_many_attempts_as_the_funnel_says_newest_first(db: PgPool) {
    seeded(&db).await;
    let app = spawn_app(db.clone()).await;
    let admin = added_and_signed_in(&app, &db, "admin@exa.com.br", Role::Admin).await;
    let mut listed_somewhere = 0;
    for (flow, rest) in [
        ("activation", "&variant=carrier&order=sequential"),
        ("download", "&order=strict&window=1"),
        ("cloud", "&order=any&breakdown=os"),
        ("cloud", "&count=people"),
        ("activation", "&breakdown=variant&count=people"),
    ] {
        let query = question(flow, rest);
        let (status, funnel) = get(&app, &admin, &format!("/api/analytics/funnel?{query}")).await;
        assert_eq!(status, StatusCode::OK, "{funnel}");
        let expected_count = if rest.contains("people") { "people" } else { "attempts" };
        assert_eq!(funnel["count"], json!(expected_count), "the answer says what it counts");
        let groups = funnel["groups"].as_array().expect("groups");
        assert!(!groups.is_empty(), "{query}: the seed has attempts then");
        for group in groups {
            let steps = group["steps"].as_array().expect("steps");
            for (step, row) in steps.iter().enumerate().take(steps.len() - 1) {
                let mut drill = format!("{query}&step={step}");
                if rest.contains("breakdown") {
                    drill.push_str(&format!("&group={}", group["key"].as_str().expect("key")));
                }
                let (rows, totals) = all_pages(&app, &admin, &drill).await;
                let dropped = row["dropped"].as_u64().expect("dropped");
                assert_eq!(rows.len() as u64, dropped, "{drill}: as many rows as the funnel's drop-off");
                assert_eq!(totals, BTreeSet::from([dropped]), "{drill}: every page says the same total");
                let ids: BTreeSet<&str> = rows.iter().map(|r| r["id"].as_str().expect("id")).collect();
                assert_eq!(ids.len(), rows.len(), "{drill}: pages never overlap");
                let started: Vec<&str> = rows.iter().map(|r| r["started_at"].as_str().expect("time")).collect();
                assert!(started.windows(2).all(|w| w[0] >= w[1]), "{drill}: newest first");
                assert!(started.iter().all(|t| t.ends_with("-03:00")), "{drill}: São Paulo time");
                listed_somewhere += rows.len();
            }
        }
    }
    assert!(listed_somewhere > 100, "the questions had drop-offs to list: {listed_somewhere}");
}

#[sqlx::test(migrations = "../migrations")]
async fn admins_open_the_attempts_in_the_console_and_analysts_see_anonymous_ids(db: PgPool) {
    seeded(&db).await;
    let app = spawn_app(db.clone()).await;
    let admin = added_and_signed_in(&app, &db, "admin@exa.com.br", Role::Admin).await;
    let analyst = added_and_signed_in(&app, &db, "ana@exa.com.br", Role::Analyst).await;
    // The step where most stopped.
    let (_, funnel) = get(&app, &analyst, &format!("/api/analytics/funnel?{}", question("cloud", ""))).await;
    let dropped: Vec<u64> = funnel["groups"][0]["steps"]
        .as_array()
        .expect("steps")
        .iter()
        .map(|s| s["dropped"].as_u64().expect("n"))
        .collect();
    let step = (0..dropped.len()).max_by_key(|i| dropped[*i]).expect("steps");
    let drill = format!("/api/analytics/funnel/dropped?{}&step={step}", question("cloud", ""));

    let (status, as_admin) = get(&app, &admin, &drill).await;
    assert_eq!(status, StatusCode::OK, "{as_admin}");
    assert_eq!(as_admin["ids"], json!("attempt"));
    let first = &as_admin["attempts"][0];
    let id = first["id"].as_str().expect("an attempt stopped there");
    assert!(id.starts_with("cloud-"), "{id}");
    assert_eq!(first["console"], json!(format!("/suporte/tentativas/{id}")));
    let refused: Option<String> = sqlx::query_scalar("SELECT refusal FROM funnel_attempts WHERE attempt = $1")
        .bind(id)
        .fetch_one(&db)
        .await
        .expect("row");
    assert_eq!(first["refusal"], json!(refused), "the refusal the visitor read");

    let (status, as_analyst) = get(&app, &analyst, &drill).await;
    assert_eq!(status, StatusCode::OK, "{as_analyst}");
    assert_eq!(as_analyst["ids"], json!("anonymous"));
    assert_eq!(as_analyst["total"], as_admin["total"]);
    let (admins, analysts) =
        (as_admin["attempts"].as_array().expect("rows"), as_analyst["attempts"].as_array().expect("rows"));
    assert_eq!(admins.len(), analysts.len());
    let everything = serde_json::to_string(&as_analyst).expect("json");
    for (theirs, ours) in admins.iter().zip(analysts) {
        let attempt = theirs["id"].as_str().expect("id");
        let anonymous = ours["id"].as_str().expect("id");
        assert!(!everything.contains(attempt), "an analyst never gets an attempt's id");
        assert_eq!(anonymous.len(), 16);
        assert!(anonymous.chars().all(|c| c.is_ascii_hexdigit()), "{anonymous}");
        assert_eq!(anonymous, orchestrator::analytics::dropoff::anonymous_id(&vault(&db), attempt), "a keyed tag");
        assert_eq!(ours["console"], Value::Null, "and no link to the console");
        assert_eq!((&ours["started_at"], &ours["refusal"]), (&theirs["started_at"], &theirs["refusal"]));
    }
}

#[sqlx::test(migrations = "../migrations")]
async fn bad_drill_downs_name_their_field_and_support_staff_are_refused(db: PgPool) {
    let app = spawn_app(db.clone()).await;
    let analyst = added_and_signed_in(&app, &db, "ana@exa.com.br", Role::Analyst).await;
    for (rest, field, message) in [
        ("", "step", "Escolha a etapa."),
        ("&step=5", "step", "Etapa desconhecida nesse funil."),
        ("&step=x", "step", "Etapa desconhecida nesse funil."),
        ("&step=1&page=0", "page", "A página é um número inteiro a partir de 1."),
        ("&step=1&count=pessoas", "count", "Contagem desconhecida: use tentativas ou pessoas."),
        ("&step=1&window=0", "window", "A janela precisa ser de 1 a 365 dias."),
    ] {
        let (status, body) = get(&app, &analyst, &format!("/api/analytics/funnel/dropped?flow=cloud{rest}")).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{rest}");
        assert_eq!((body["field"].as_str(), body["message"].as_str()), (Some(field), Some(message)), "{rest}");
    }
    let (status, body) = get(&app, &analyst, "/api/analytics/funnel?flow=cloud&count=todos").await;
    assert_eq!((status, body["field"].as_str()), (StatusCode::BAD_REQUEST, Some("count")));
    let support = added_and_signed_in(&app, &db, "suporte@exa.com.br", Role::Support).await;
    let (status, _) = get(&app, &support, "/api/analytics/funnel/dropped?flow=cloud&step=1").await;
    assert_eq!(status, StatusCode::FORBIDDEN);
}

/// People who entered the cloud funnel's first step, by plain SQL: each tagged person once,
/// each attempt without a person once.
async fn people_entered_by_sql(db: &PgPool, from: &str, to: &str) -> i64 {
    sqlx::query_scalar(
        "SELECT count(DISTINCT coalesce(person, attempt)) FROM funnel_attempts \
         WHERE flow = 'cloud' AND day BETWEEN $1::date AND $2::date AND marks @> '[[\"details.submitted\"]]'",
    )
    .bind(from)
    .bind(to)
    .fetch_one(db)
    .await
    .expect("counted")
}

#[sqlx::test(migrations = "../migrations")]
async fn people_are_counted_by_the_phone_they_proved_and_an_erased_person_is_none(db: PgPool) {
    seeded(&db).await;
    let app = spawn_app(db.clone()).await;
    let analyst = added_and_signed_in(&app, &db, "ana@exa.com.br", Role::Analyst).await;
    let query = question("cloud", "");
    let (from, to) = (&query[16..26], &query[30..40]);
    let entered = |body: &Value| body["groups"][0]["steps"][0]["entered"].as_u64().expect("entered");

    let (_, attempts) = get(&app, &analyst, &format!("/api/analytics/funnel?{query}")).await;
    let (_, people) = get(&app, &analyst, &format!("/api/analytics/funnel?{query}&count=people")).await;
    assert_eq!(people["count"], json!("people"));
    assert_eq!(entered(&people) as i64, people_entered_by_sql(&db, from, to).await);
    assert!(entered(&people) < entered(&attempts), "the seed's phones come back: {people} vs {attempts}");

    // The tag is neither the phone's look-up hash nor anything the vault looks up by.
    let leaked: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM funnel_attempts f JOIN pii_lookup l ON f.person = encode(l.hmac, 'hex') \
            OR f.person = left(encode(l.hmac, 'hex'), 32)",
    )
    .fetch_one(&db)
    .await
    .expect("compared");
    assert_eq!(leaked, 0);

    // A person with several attempts is erased (by one of their attempts).
    let (person, attempt): (String, String) = sqlx::query_as(
        "SELECT person, min(attempt) FROM funnel_attempts WHERE person IS NOT NULL \
         GROUP BY person HAVING count(*) > 1 ORDER BY person LIMIT 1",
    )
    .fetch_one(&db)
    .await
    .expect("a person with several attempts");
    let store = EventStore::new(db.clone());
    // A rebuild half-way (not swapped in yet) holds that person too.
    projection::prepare_rebuild(&db, true).await.expect("prepared");
    Projector::new(store.clone(), projection::NEXT, 1_000)
        .with_persons(vault(&db))
        .catch_up(|_| {})
        .await
        .expect("built");
    let named = Named::Attempt(events::StreamId::parse(&attempt).expect("stream id"));
    erase::erase_named(&db, &store, &vault(&db), &named, None).await.expect("erased");
    let left: i64 = sqlx::query_scalar("SELECT count(*) FROM funnel_attempts WHERE person = $1")
        .bind(&person)
        .fetch_one(&db)
        .await
        .expect("counted");
    assert_eq!(left, 0, "no attempt is that person's any more");
    let left_in_rebuild: i64 = sqlx::query_scalar("SELECT count(*) FROM funnel_attempts_next WHERE person = $1")
        .bind(&person)
        .fetch_one(&db)
        .await
        .expect("counted");
    assert_eq!(left_in_rebuild, 0, "nor in the rebuild under way");
    let (_, after) = get(&app, &analyst, &format!("/api/analytics/funnel?{query}&count=people")).await;
    assert_eq!(entered(&after) as i64, people_entered_by_sql(&db, from, to).await);

    // Rebuilt from the log, the erased person gets no tag again.
    projection::rebuild(&store, Some(vault(&db)), 1_000, true, |_| {}).await.expect("rebuilt");
    let person_of: Option<String> = sqlx::query_scalar("SELECT person FROM funnel_attempts WHERE attempt = $1")
        .bind(&attempt)
        .fetch_one(&db)
        .await
        .expect("row");
    assert_eq!(person_of, None);
    let tagged: i64 = sqlx::query_scalar("SELECT count(*) FROM funnel_attempts WHERE person IS NOT NULL")
        .fetch_one(&db)
        .await
        .expect("counted");
    assert!(tagged > 0, "the others keep theirs");
}

/// The funnel page's answer without the moment it was read.
async fn answer_of(app: &TestApp, cookie: &str, path: &str) -> Value {
    let (status, mut body) = get(app, cookie, path).await;
    assert_eq!(status, StatusCode::OK, "{path}: {body}");
    if let Some(body) = body.as_object_mut() {
        body.remove("as_of");
        body.remove("read_lag_seconds");
    }
    body
}

#[sqlx::test(migrations = "../migrations")]
async fn the_days_held_in_memory_answer_as_the_projection_does_and_older_questions_read_it(db: PgPool) {
    use orchestrator::analytics::held::HeldFunnels;
    seeded(&db).await;
    let mut held = None;
    let in_memory = common::spawn_app_with(db.clone(), |state| held = Some(state.funnels.clone())).await;
    let held = held.expect("the app's held days");
    let from_table = common::spawn_app_with(db.clone(), |state| state.funnels = HeldFunnels::new(0)).await;
    // Five days held: the questions below start 25 days ago, so this one reads the projection.
    let short = common::spawn_app_with(db.clone(), |state| state.funnels = HeldFunnels::new(5)).await;
    let cookies = [
        added_and_signed_in(&in_memory, &db, "ana@exa.com.br", Role::Analyst).await,
        added_and_signed_in(&from_table, &db, "bia@exa.com.br", Role::Analyst).await,
        added_and_signed_in(&short, &db, "caio@exa.com.br", Role::Analyst).await,
    ];
    let apps = [&in_memory, &from_table, &short];

    let mut paths = Vec::new();
    for (flow, rest) in [
        ("cloud", ""),
        ("cloud", "&count=people&breakdown=os&order=any"),
        ("download", "&breakdown=partner&window=1"),
        ("activation", "&breakdown=variant&count=people&order=strict"),
        ("activation", "&variant=carrier&breakdown=day"),
    ] {
        paths.push(format!("/api/analytics/funnel?{}", question(flow, rest)));
        for step in 0..2 {
            paths.push(format!("/api/analytics/funnel/dropped?{}&step={step}", question(flow, rest)));
        }
    }
    for path in &paths {
        let mut answers = Vec::new();
        for (app, cookie) in apps.iter().zip(&cookies) {
            answers.push(answer_of(app, cookie, path).await);
        }
        assert_ne!(answers[0]["groups"].as_array().map(Vec::len).unwrap_or(1), 0, "{path}: the seed has attempts");
        assert_eq!(answers[0], answers[1], "{path}: held in memory against the projection");
        assert_eq!(answers[2], answers[1], "{path}: before the days held, the projection");
    }
    let seeded_attempts: i64 =
        sqlx::query_scalar("SELECT count(*) FROM funnel_attempts").fetch_one(&db).await.expect("counted");
    assert_eq!(held.attempts_held().await as i64, seeded_attempts, "the seed's 20 days are all held");
}
