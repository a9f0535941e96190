//! `replay export --format parquet` read back by a real DuckDB (from PyPI, installed by the test
//! command into `target/duckdb-venv`): per step, the attempts that reached it, counted by DuckDB
//! from the file, are the numbers `replay funnel` gives for the same question.

mod common;

use std::path::PathBuf;
use std::process::Command;

use chrono::{Duration, NaiveDate};
use common::database_url;
use events::funnel::{funnel, FunnelQuery, Order};
use events::pii::Keys;
use events::EventStore;
use indicatif::ProgressBar;
use replay::funnel::replay;
use replay::seed::{seed, SeedOptions};
use sqlx::PgPool;

fn duckdb_python() -> PathBuf {
    let python = std::env::var("DUCKDB_PYTHON")
        .map(PathBuf::from)
        .unwrap_or_else(|_| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/duckdb-venv/bin/python"));
    assert!(
        python.exists(),
        "no Python with DuckDB at {} (scripts/test.sh installs it; or set DUCKDB_PYTHON)",
        python.display()
    );
    python
}

/// Attempts per step index, as DuckDB counts them in the file.
fn counted_by_duckdb(file: &std::path::Path) -> Vec<u64> {
    let script = "import duckdb, json, sys\n\
        rows = duckdb.sql(\"SELECT step_index, count(DISTINCT attempt) FROM read_parquet(?) \
        GROUP BY step_index ORDER BY step_index\", params=[sys.argv[1]]).fetchall()\n\
        print(json.dumps([n for _, n in rows]))";
    let output = Command::new(duckdb_python()).args(["-c", script]).arg(file).output().expect("python runs");
    assert!(output.status.success(), "duckdb failed: {}", String::from_utf8_lossy(&output.stderr));
    serde_json::from_slice(&output.stdout).expect("a JSON list of counts")
}

fn export(pool: &PgPool, flow: &str, variant: Option<&str>, file: &std::path::Path) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_replay"));
    command.env("DATABASE_URL", database_url(pool)).env("SANDBOX_MODE", "true").args([
        "export",
        "--flow",
        flow,
        "--from",
        "2000-01-01",
        "--to",
        "2100-01-01",
        "--format",
        "parquet",
        "--output",
    ]);
    command.arg(file);
    if let Some(variant) = variant {
        command.args(["--variant", variant]);
    }
    let output = command.output().expect("replay runs");
    assert!(output.status.success(), "export failed: {}", String::from_utf8_lossy(&output.stderr));
}

#[sqlx::test(migrations = "../migrations")]
async fn duckdb_reads_from_the_parquet_file_the_counts_of_replay_funnel(pool: PgPool) {
    let options = SeedOptions { attempts: 600, days: 20, seed: 11, force: false, batch: 200 };
    seed(&pool, Keys::insecure_dev(), &options, &ProgressBar::hidden()).await.expect("seeded");
    let store = EventStore::new(pool.clone());
    let dir = std::env::temp_dir().join(format!("replay-parquet-{}", uuid::Uuid::new_v4()));
    std::fs::create_dir_all(&dir).expect("a scratch folder");

    for (flow, variant) in [("cloud", None), ("download", None), ("activation", Some("carrier"))] {
        let query = FunnelQuery {
            funnel: funnel(flow, variant).expect("known funnel"),
            from: NaiveDate::from_ymd_opt(2000, 1, 1).expect("date"),
            to: NaiveDate::from_ymd_opt(2100, 1, 1).expect("date"),
            window: Duration::days(14),
            order: Order::Sequential,
            breakdown: None,
        };
        let result = replay(&store, &query, |_| {}).await.expect("replays");
        let rows = result.tallies().get("todas").expect("one group").rows(&query.funnel, 3);
        let expected: Vec<u64> = rows.iter().map(|row| row.entered).take_while(|n| *n > 0).collect();
        assert!(expected.len() >= 2 && expected[0] > 0, "{flow}: the seeded history reaches past the first step");

        let file = dir.join(format!("{flow}.parquet"));
        export(&pool, flow, variant, &file);
        assert!(!dir.join(format!("{flow}.parquet.partial")).exists(), "the partial file was renamed");
        assert_eq!(counted_by_duckdb(&file), expected, "{flow}: entered per step");
    }
    std::fs::remove_dir_all(&dir).ok();
}
