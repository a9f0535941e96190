//! The funnel page's API (`GET /api/analytics/funnel`, docs/funnels.md) against the real app
//! and PostgreSQL: it gives the numbers `replay funnel` gives for the same question, only
//! analysts and admins may ask, bad questions name their field, and the server's projector
//! keeps it current.

mod common;

use common::console::added_and_signed_in;
use common::{spawn_app, TestApp};
use events::funnel::projection::{Projector, LIVE};
use events::funnel::{funnel, Breakdown, FunnelQuery, Order};
use events::pii::Keys;
use events::EventStore;
use indicatif::ProgressBar;
use orchestrator::staff::Role;
use reqwest::StatusCode;
use serde_json::{json, Value};
use sqlx::PgPool;

async fn ask(app: &TestApp, cookie: Option<&str>, query: &str) -> (StatusCode, Value) {
    let mut request = app.client.get(app.url(&format!("/api/analytics/funnel?{query}")));
    if let Some(cookie) = cookie {
        request = request.header("cookie", cookie);
    }
    let response = request.send().await.expect("asks");
    let status = response.status();
    (status, response.json().await.unwrap_or(Value::Null))
}

/// A ratio to 9 places: JSON parsing may differ from the printed value in the last digit.
fn ratio(value: &Value) -> String {
    format!("{:.9}", value.as_f64().expect("a ratio"))
}

/// The step numbers of `replay funnel --format json` and of the page's API, side by side.
fn numbers_of_replay(group: &Value) -> Vec<Value> {
    group["steps"]
        .as_array()
        .expect("steps")
        .iter()
        .map(|s| {
            json!([
                s["step"],
                s["entered"],
                s["dropped"],
                ratio(&s["from_previous"]),
                ratio(&s["from_first"]),
                s["median_ms"],
                s["p90_ms"],
                s["refusals"]
            ])
        })
        .collect()
}

fn numbers_of_page(group: &Value) -> Vec<Value> {
    group["steps"]
        .as_array()
        .expect("steps")
        .iter()
        .map(|s| {
            // The CLI lists the top 3 refusals, the page the top 5.
            let top3: Vec<Value> = s["refusals"].as_array().expect("refusals").iter().take(3).cloned().collect();
            json!([
                s["key"],
                s["entered"],
                s["dropped"],
                ratio(&s["from_previous"]),
                ratio(&s["from_first"]),
                s["median_ms"],
                s["p90_ms"],
                top3
            ])
        })
        .collect()
}

#[sqlx::test(migrations = "../migrations")]
async fn the_page_and_replay_funnel_give_the_same_numbers_for_the_same_question(db: PgPool) {
    let options = replay::seed::SeedOptions { attempts: 900, days: 20, seed: 11, force: true, batch: 300 };
    replay::seed::seed(&db, Keys::insecure_dev(), &options, &ProgressBar::hidden()).await.expect("seeded");
    let store = EventStore::new(db.clone());
    Projector::new(store.clone(), LIVE, 1_000).catch_up(|_| {}).await.expect("projected");
    let app = spawn_app(db.clone()).await;
    let analyst = added_and_signed_in(&app, &db, "ana@exa.com.br", Role::Analyst).await;

    let today = chrono::Utc::now().with_timezone(&events::funnel::sao_paulo()).date_naive();
    let (from, to) = (today - chrono::Duration::days(25), today);
    for (flow, variant, order, window, breakdown) in [
        ("activation", Some("carrier"), Order::Sequential, 14, Some(Breakdown::Os)),
        ("activation", None, Order::Strict, 14, Some(Breakdown::Variant)),
        ("download", None, Order::Sequential, 14, Some(Breakdown::Partner)),
        ("cloud", None, Order::Any, 1, Some(Breakdown::Day)),
        ("cloud", None, Order::Sequential, 14, None),
    ] {
        let question = FunnelQuery {
            funnel: funnel(flow, variant).expect("known"),
            from,
            to,
            window: chrono::Duration::days(window),
            order,
            breakdown,
        };
        let replayed = replay::funnel::replay(&store, &question, |_| {}).await.expect("replays");
        let cli = replay::funnel_report::json(&question.funnel, &replayed);

        let mut query = format!("flow={flow}&from={from}&to={to}&window={window}&order={}", order.as_str());
        if let Some(variant) = variant {
            query.push_str(&format!("&variant={variant}"));
        }
        if let Some(breakdown) = breakdown {
            query.push_str(&format!("&breakdown={}", breakdown.as_str()));
        }
        let (status, page) = ask(&app, Some(&analyst), &query).await;
        assert_eq!(status, StatusCode::OK, "{page}");

        let cli_groups = cli["groups"].as_array().expect("groups");
        let page_groups = page["groups"].as_array().expect("groups");
        assert!(!cli_groups.is_empty(), "{query}: the seed has attempts in these dates");
        assert_eq!(
            page_groups.iter().map(|g| g["key"].clone()).collect::<Vec<_>>(),
            cli_groups.iter().map(|g| g["breakdown"].clone()).collect::<Vec<_>>(),
            "{query}"
        );
        for (cli_group, page_group) in cli_groups.iter().zip(page_groups) {
            assert_eq!(
                numbers_of_page(page_group),
                numbers_of_replay(cli_group),
                "{query}, group {}",
                page_group["key"]
            );
        }
        let entered_per_day: u64 =
            page["per_day"].as_array().expect("days").iter().map(|d| d["entered"].as_u64().expect("n")).sum();
        let entered_first: u64 = page_groups.iter().map(|g| g["steps"][0]["entered"].as_u64().expect("n")).sum();
        assert_eq!(entered_per_day, entered_first, "{query}: per day adds up to the first step");
    }
}

#[sqlx::test(migrations = "../migrations")]
async fn only_analysts_and_admins_ask_and_bad_questions_name_their_field(db: PgPool) {
    let app = spawn_app(db.clone()).await;
    let (status, body) = ask(&app, None, "flow=cloud").await;
    assert_eq!(
        (status, body["message"].as_str()),
        (StatusCode::UNAUTHORIZED, Some("Sua sessão terminou. Entre de novo."))
    );
    let support = added_and_signed_in(&app, &db, "suporte@exa.com.br", Role::Support).await;
    let (status, body) = ask(&app, Some(&support), "flow=cloud").await;
    assert_eq!(
        (status, body["message"].as_str()),
        (StatusCode::FORBIDDEN, Some("Você não tem permissão para esta ação."))
    );
    let admin = added_and_signed_in(&app, &db, "admin@exa.com.br", Role::Admin).await;
    let (status, body) = ask(&app, Some(&admin), "flow=cloud").await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["groups"], json!([]), "no attempts yet");

    let analyst = added_and_signed_in(&app, &db, "ana@exa.com.br", Role::Analyst).await;
    for (query, field, message) in [
        ("flow=cloud&from=2026-11-10&to=2026-11-01", "to", "A data final não pode ser antes da inicial."),
        ("flow=cloud&window=0", "window", "A janela precisa ser de 1 a 365 dias."),
        ("flow=vpn", "flow", "Fluxo desconhecido: escolha Ativação, Download ou Cloud."),
        ("flow=download&variant=carrier", "variant", "Variante desconhecida para esse fluxo."),
    ] {
        let (status, body) = ask(&app, Some(&analyst), query).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{query}");
        assert_eq!((body["field"].as_str(), body["message"].as_str()), (Some(field), Some(message)), "{query}");
    }
}

#[sqlx::test(migrations = "../migrations")]
async fn the_servers_projector_brings_a_new_attempt_to_the_page(db: PgPool) {
    let app = spawn_app(db.clone()).await;
    let (stop_tx, stop) = tokio::sync::watch::channel(false);
    let projector = orchestrator::analytics::projector::spawn(
        EventStore::new(db.clone()),
        events::pii::Vault::new(db.clone(), Keys::insecure_dev()),
        stop,
    );
    let analyst = added_and_signed_in(&app, &db, "ana@exa.com.br", Role::Analyst).await;

    let response = app.start_download().await;
    assert!(response.status().is_success(), "{}", response.status());

    let mut entered = 0;
    for _ in 0..100 {
        let (status, body) = ask(&app, Some(&analyst), "flow=download").await;
        assert_eq!(status, StatusCode::OK);
        entered = body["groups"][0]["steps"][0]["entered"].as_u64().unwrap_or(0);
        if entered == 1 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert_eq!(entered, 1, "the started download reached the page within 10 s");
    stop_tx.send(true).expect("stop");
    projector.await.expect("the projector stops when asked");
}
