//! `replay export --clickhouse` into a real ClickHouse (Debian's `clickhouse-server`, started
//! here as a plain process on free ports): `windowFunnel` over the export gives the numbers of
//! `replay funnel`, a second export sends only what moved, and a rebuilt projection is sent
//! again from the start.

mod common;

use common::database_url;
use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration as StdDuration, Instant};

use chrono::Duration;
use events::funnel::projection::{rebuild, Projector, LIVE};
use events::funnel::{funnel, FunnelQuery, Order, ACTIVATION_VARIANTS};
use events::pii::Keys;
use events::EventStore;
use indicatif::ProgressBar;
use replay::clickhouse::{export, window_funnel, ClickHouse};
use replay::funnel::replay;
use replay::seed::{seed, SeedOptions};
use sqlx::PgPool;

/// A ClickHouse server of this test's own, stopped and removed when dropped.
struct ClickHouseServer {
    child: Child,
    dir: PathBuf,
    url: String,
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).map(|a| a.port()).expect("a free port")
}

impl ClickHouseServer {
    fn start() -> Self {
        let binary = std::env::var("CLICKHOUSE_SERVER").unwrap_or_else(|_| "/usr/sbin/clickhouse-server".into());
        assert!(
            std::path::Path::new(&binary).exists(),
            "{binary} is missing: install Debian's clickhouse-server (scripts/test.sh does) or set CLICKHOUSE_SERVER"
        );
        let dir = std::env::temp_dir().join(format!("exa-clickhouse-{}-{}", std::process::id(), free_port()));
        std::fs::create_dir_all(&dir).expect("a folder for ClickHouse");
        let (http, tcp, interserver) = (free_port(), free_port(), free_port());
        let path = |sub: &str| format!("{}/{sub}", dir.display());
        let child = Command::new(&binary)
            .arg("--config-file=/etc/clickhouse-server/config.xml")
            .arg("--")
            .arg(format!("--path={}/", dir.display()))
            .arg(format!("--tmp_path={}", path("tmp/")))
            .arg(format!("--user_files_path={}", path("user_files/")))
            .arg(format!("--format_schema_path={}", path("format_schemas/")))
            .arg(format!("--logger.log={}", path("server.log")))
            .arg(format!("--logger.errorlog={}", path("error.log")))
            .arg(format!("--http_port={http}"))
            .arg(format!("--tcp_port={tcp}"))
            .arg(format!("--interserver_http_port={interserver}"))
            .current_dir(&dir)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("clickhouse-server starts");
        Self { child, dir, url: format!("http://127.0.0.1:{http}/") }
    }

    async fn ready(&self) {
        let deadline = Instant::now() + StdDuration::from_secs(60);
        let client = reqwest::Client::new();
        loop {
            if let Ok(response) = client.get(format!("{}?query=SELECT%201", self.url)).send().await {
                if response.status().is_success() {
                    return;
                }
            }
            assert!(
                Instant::now() < deadline,
                "ClickHouse did not answer in 60 s (see {}/error.log)",
                self.dir.display()
            );
            tokio::time::sleep(StdDuration::from_millis(200)).await;
        }
    }
}

impl Drop for ClickHouseServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn questions() -> Vec<FunnelQuery> {
    let mut funnels = vec![("cloud", None, 14), ("cloud", None, 1), ("download", None, 14), ("activation", None, 14)];
    funnels.extend(ACTIVATION_VARIANTS.iter().map(|v| ("activation", Some(*v), 14)));
    let today = chrono::Utc::now().with_timezone(&events::funnel::sao_paulo()).date_naive();
    funnels
        .into_iter()
        .map(|(flow, variant, days)| FunnelQuery {
            funnel: funnel(flow, variant).expect("known"),
            // Not all of history: the day filter is part of the query.
            from: today - Duration::days(12),
            to: today,
            window: Duration::days(days),
            order: Order::Sequential,
            breakdown: None,
        })
        .collect()
}

async fn assert_window_funnel_matches_the_replay(pool: &PgPool, clickhouse: &ClickHouse) {
    let store = EventStore::new(pool.clone());
    for question in questions() {
        let replayed = replay(&store, &question, |_| {}).await.expect("replays");
        let entered: Vec<u64> = replayed
            .tallies()
            .get("todas")
            .map(|t| t.rows(&question.funnel, 0).iter().map(|r| r.entered).collect())
            .unwrap_or_else(|| vec![0; question.funnel.steps.len()]);
        assert!(entered[0] > 0, "{:?}: the seed has attempts in these days", question.funnel.variant);
        let by_clickhouse = window_funnel(clickhouse, &question).await.expect("windowFunnel");
        assert_eq!(
            by_clickhouse,
            entered,
            "{} {:?} window {} days",
            question.funnel.flow,
            question.funnel.variant,
            question.window.num_days()
        );
    }
}

async fn scalar(pool: &PgPool, sql: &str) -> i64 {
    sqlx::query_scalar(sql).fetch_one(pool).await.expect("a number")
}

async fn rows_in(clickhouse: &ClickHouse) -> i64 {
    let text =
        clickhouse.run(&format!("SELECT count() FROM {} FINAL", clickhouse.table()), None).await.expect("counts");
    text.trim().parse().expect("a count")
}

#[sqlx::test(migrations = "../migrations")]
async fn window_funnel_over_the_export_gives_the_numbers_of_replay_funnel(pool: PgPool) {
    let server = ClickHouseServer::start();
    let options = SeedOptions { attempts: 900, days: 20, seed: 21, force: true, batch: 300 };
    seed(&pool, Keys::insecure_dev(), &options, &ProgressBar::hidden()).await.expect("seeded");
    server.ready().await;

    // The command as an analyst runs it: the projection caught up, then everything sent.
    let output = Command::new(env!("CARGO_BIN_EXE_replay"))
        .args(["export", "--clickhouse", &server.url, "--page", "100"])
        .env("DATABASE_URL", database_url(&pool))
        .env("SANDBOX_MODE", "true")
        .output()
        .expect("replay export runs");
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let attempts = scalar(&pool, "SELECT count(*) FROM funnel_attempts").await;
    assert!(String::from_utf8_lossy(&output.stdout).starts_with(&format!("{attempts} tentativas")), "{:?}", output);

    let clickhouse = ClickHouse::new(&server.url, "funnel_marks").expect("url");
    let marks = scalar(&pool, "SELECT coalesce(sum(jsonb_array_length(marks)), 0)::bigint FROM funnel_attempts").await;
    assert_eq!(rows_in(&clickhouse).await, marks, "one row per funnel-step event");
    assert_window_funnel_matches_the_replay(&pool, &clickhouse).await;

    // Nothing moved: nothing sent. New visitors: only they are sent.
    assert_eq!(export(&pool, &clickhouse, 100, |_| {}).await.expect("exports").attempts, 0);
    let more = SeedOptions { attempts: 150, days: 3, seed: 22, force: true, batch: 150 };
    seed(&pool, Keys::insecure_dev(), &more, &ProgressBar::hidden()).await.expect("seeded more");
    let store = EventStore::new(pool.clone());
    Projector::new(store.clone(), LIVE, 1_000).catch_up(|_| {}).await.expect("projected");
    let second = export(&pool, &clickhouse, 100, |_| {}).await.expect("exports");
    assert_eq!(second.attempts as i64, scalar(&pool, "SELECT count(*) FROM funnel_attempts").await - attempts);
    assert!(!second.restarted);
    assert_window_funnel_matches_the_replay(&pool, &clickhouse).await;

    // A rebuilt projection is a new generation: the table is filled again, not doubled.
    rebuild(&store, None, 1_000, false, |_| {}).await.expect("rebuilt");
    let third = export(&pool, &clickhouse, 100, |_| {}).await.expect("exports");
    assert!(third.restarted);
    let marks = scalar(&pool, "SELECT coalesce(sum(jsonb_array_length(marks)), 0)::bigint FROM funnel_attempts").await;
    assert_eq!(rows_in(&clickhouse).await, marks);
    assert_window_funnel_matches_the_replay(&pool, &clickhouse).await;
}

#[test]
fn the_export_target_never_carries_credentials() {
    let clickhouse = ClickHouse::new("http://analista:segredo@ch.interno:8123/", "funnel_marks").expect("url");
    assert_eq!(clickhouse.target(), "clickhouse://ch.interno:8123/funnel_marks");
    assert!(ClickHouse::new("http://ch:8123/", "marks; DROP TABLE x").is_err());
}
