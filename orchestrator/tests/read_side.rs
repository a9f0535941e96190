//! Where the console's look-up reads (issue 28): the read side (a standby, with
//! `DATABASE_READ_URL`), while its audit is written on the primary. The standby here is a second
//! database with the schema and none of the primary's rows, as a standby that has not replayed
//! them yet; the real standby is tested in tests/ops/failover.sh (tests/ops/standby_reads.sh).

mod common;

use common::console::{post, sign_in, visitor_with_phone};
use orchestrator::reads::Reads;
use orchestrator::staff::Role;
use reqwest::StatusCode;
use serde_json::json;
use sqlx::postgres::PgPoolOptions;
use sqlx::PgPool;

/// A database of its own beside the test's, migrated and empty.
async fn behind_database(db: &PgPool) -> (PgPool, String) {
    // Short and lower-case: the test's own name is already PostgreSQL's longest (63 bytes).
    let name: String =
        sqlx::query_scalar("SELECT 'behind_' || md5(current_database())").fetch_one(db).await.expect("name");
    sqlx::query(&format!("DROP DATABASE IF EXISTS {name}")).execute(db).await.expect("drop");
    sqlx::query(&format!("CREATE DATABASE {name}")).execute(db).await.expect("create");
    let base = std::env::var("DATABASE_URL").expect("DATABASE_URL");
    let url = match base.rsplit_once('/') {
        Some((server, _)) => format!("{server}/{name}"),
        None => panic!("DATABASE_URL without a database: {base}"),
    };
    let pool = PgPoolOptions::new().max_connections(2).connect(&url).await.expect("connect");
    orchestrator::startup::MIGRATOR.run(&pool).await.expect("migrations");
    (pool, name)
}

async fn looked_up_on_primary(db: &PgPool) -> i64 {
    sqlx::query_scalar("SELECT count(*) FROM events WHERE event_type = 'staff.looked_up'")
        .fetch_one(db)
        .await
        .expect("audit")
}

#[sqlx::test(migrations = "../migrations")]
async fn the_look_up_reads_the_read_side_and_is_audited_on_the_primary(db: PgPool) {
    let (behind, name) = behind_database(&db).await;
    common::staff::add(&db, "bia@exa.com.br", Role::Support).await;
    let reading_behind = {
        let behind = behind.clone();
        common::spawn_app_with(db.clone(), move |state| state.reads = Reads::on(behind, &state.vault)).await
    };
    let reading_primary = common::spawn_app(db.clone()).await;
    let visitor = visitor_with_phone(&reading_primary, "(11) 91000-0031").await;
    let search = json!({ "phone": "(11) 91000-0031" });

    // Reading the database that has not got the attempt: nothing found, no lag (not a standby),
    // and the look-up is still audited, on the primary.
    let signed = sign_in(&reading_behind, "bia@exa.com.br").await;
    let audited = looked_up_on_primary(&db).await;
    let (status, found) = post(&reading_behind, &signed, "/api/support/attempts/search", search.clone(), true).await;
    assert_eq!(status, StatusCode::OK, "{found}");
    assert_eq!((found["total"].as_i64(), found["read_lag_seconds"].as_f64()), (Some(0), Some(0.0)), "{found}");
    assert_eq!(looked_up_on_primary(&db).await, audited + 1);

    // Reading the primary: the attempt is there.
    let signed = sign_in(&reading_primary, "bia@exa.com.br").await;
    let (status, found) = post(&reading_primary, &signed, "/api/support/attempts/search", search, true).await;
    assert_eq!(status, StatusCode::OK, "{found}");
    assert_eq!(found["total"].as_i64(), Some(1));
    assert_eq!(found["attempts"][0]["id"].as_str(), Some(visitor.id.as_str()));

    behind.close().await;
    sqlx::query(&format!("DROP DATABASE {name} WITH (FORCE)")).execute(&db).await.expect("drop");
}

#[sqlx::test(migrations = "../migrations")]
async fn a_primary_is_not_behind_itself(db: PgPool) {
    let vault = events::pii::Vault::new(db.clone(), events::pii::Keys::insecure_dev());
    assert_eq!(Reads::on(db, &vault).lag_seconds().await.expect("lag"), 0.0);
}
