//! How fast support and analysts get their answers, on a large history.
//!
//! Over real HTTP against the real app (built in this process, release mode), on a database of
//! its own that `replay seed` fills until it holds `--events` events (kept between runs, so a
//! second run measures at once), with the funnel projection caught up and a live schedule of
//! `--scheduled` planned steps (some of them stuck). Signs an admin in (support and analytics
//! both), then:
//! - for `--lookups` phones drawn at random from the history: the look-up, its CSV export, the
//!   newest attempt found and its history download;
//! - `--questions` times each: what is stuck (the console's count and a page), a funnel question
//!   (a random flow, 30-day window and breakdown, counting attempts or people), the same question
//!   over the period before it (the comparison), and one step's drop-off drill-down.
//!
//! Prints p50/p99/max of each and the query plans (EXPLAIN ANALYZE) of the look-up, of reading
//! one stream and of the stuck count.
//!
//! ```text
//! DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres \
//!   cargo run --release -p orchestrator --example support_bench -- --events 5000000 --lookups 1000
//! ```
//! Results: docs/benchmarks.md.

use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use clap::Parser;
use events::pii::{Keys, Opened, PiiKind, Vault};
use orchestrator::config::{DownloadConfig, KeyConfig, PartnerConfig, ServeConfig, SiteSettings, UpstreamConfig};
use orchestrator::staff::accounts::Accounts;
use orchestrator::staff::Role;
use rand::{Rng, SeedableRng};
use replay::seed::{seed, SeedOptions};
use secrecy::SecretString;
use serde_json::{json, Value};
use sqlx::postgres::PgPoolOptions;
use sqlx::PgPool;

#[derive(Parser)]
struct Args {
    /// A server where the benchmark may create its database.
    #[arg(long, env = "DATABASE_URL")]
    database_url: String,
    /// The benchmark's own database (created, seeded and kept).
    #[arg(long, default_value = "exa_support_bench")]
    database: String,
    /// Events the history must hold at least.
    #[arg(long, default_value_t = 5_000_000)]
    events: u64,
    /// Phones looked up (each also exported, and its newest attempt opened and downloaded).
    #[arg(long, default_value_t = 1_000)]
    lookups: usize,
    /// Stuck lists, funnel questions, comparisons and drill-downs asked (each).
    #[arg(long, default_value_t = 300)]
    questions: usize,
    /// Planned steps in the schedule (`due_steps`), as a live portal holds them.
    #[arg(long, default_value_t = 5_000)]
    scheduled: i64,
}

/// The signed-in admin's cookie and CSRF token, and the timings by request.
struct Bench {
    client: reqwest::Client,
    base: String,
    cookie: String,
    csrf: String,
    times: Vec<(&'static str, Vec<Duration>)>,
}

impl Bench {
    fn record(&mut self, name: &'static str, took: Duration) {
        match self.times.iter_mut().find(|(n, _)| *n == name) {
            Some((_, times)) => times.push(took),
            None => self.times.push((name, vec![took])),
        }
    }

    /// Sends `request` with the session, times it and returns the body (an error on non-2xx).
    async fn timed(&mut self, name: &'static str, request: reqwest::RequestBuilder) -> anyhow::Result<Vec<u8>> {
        let started = Instant::now();
        let response = request.header("cookie", &self.cookie).send().await?;
        let status = response.status();
        let body = response.bytes().await?.to_vec();
        self.record(name, started.elapsed());
        if !status.is_success() {
            bail!("{name} answered {status}: {}", String::from_utf8_lossy(&body));
        }
        Ok(body)
    }

    fn post(&self, path: &str, body: &Value) -> reqwest::RequestBuilder {
        self.client
            .post(format!("{}{path}", self.base))
            .header("origin", &self.base)
            .header("x-csrf-token", &self.csrf)
            .json(body)
    }

    fn get(&self, path: &str) -> reqwest::RequestBuilder {
        self.client.get(format!("{}{path}", self.base))
    }
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    let pool = bench_database(&args.database_url, &args.database).await?;
    sqlx::migrate!("../migrations").run(&pool).await?;
    fill(&pool, args.events).await?;
    project(&pool).await?;
    let events: i64 = sqlx::query_scalar("SELECT count(*) FROM events").fetch_one(&pool).await?;
    let attempts: i64 = sqlx::query_scalar("SELECT count(*) FROM attempts").fetch_one(&pool).await?;
    let phones = sample_phones(&pool, args.lookups).await?;
    println!("history: {events} events, {attempts} attempts; {} phones drawn", phones.len());

    let scheduled = schedule(&pool, args.scheduled).await?;
    println!("schedule: {scheduled} planned steps");

    let base = serve(pool.clone()).await?;
    let client = reqwest::Client::new();
    let email = format!("bench-{}@exa.com.br", uuid::Uuid::new_v4().simple());
    let password = "bench-password-123";
    let vault = Vault::new(pool.clone(), Keys::insecure_dev());
    let id = Accounts { db: &pool, vault: &vault }.add(&email, Role::Admin, password).await?;
    // Staff sign in with a second factor: enrolled here, its first recovery code typed.
    let enrolled = orchestrator::staff::second_factor::enrol(&pool, &vault, id, &email).await?;
    let code = enrolled.recovery_codes.first().context("no recovery code")?;
    let signed = client
        .post(format!("{base}/api/staff/session"))
        .header("origin", &base)
        .json(&json!({ "email": email, "password": password, "code": code }))
        .send()
        .await?;
    if !signed.status().is_success() {
        bail!("sign-in answered {}", signed.status());
    }
    let session_headers = signed.headers().clone();
    let csrf = signed.json::<Value>().await?["csrf_token"].as_str().context("no CSRF token")?.to_string();
    let cookie = session_headers
        .get("set-cookie")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .context("no session cookie")?
        .to_string();
    let mut bench = Bench { client, base, cookie, csrf, times: Vec::new() };

    let mut found = 0usize;
    for phone in &phones {
        let body = json!({ "phone": phone });
        let answer: Value = serde_json::from_slice(
            &bench.timed("look-up by phone", bench.post("/api/support/attempts/search", &body)).await?,
        )?;
        bench.timed("CSV export of the look-up", bench.post("/api/support/attempts/export", &body)).await?;
        let Some(id) = answer["attempts"][0]["id"].as_str() else { continue };
        found += 1;
        bench.timed("open one attempt", bench.get(&format!("/api/support/attempts/{id}"))).await?;
        bench.timed("download its history", bench.get(&format!("/api/support/attempts/{id}/history"))).await?;
    }
    println!("{found} of {} look-ups found attempts", phones.len());

    // The portal loads the funnel page's days into memory when it starts; this one was built
    // without its start-up, so its first question loads them. Timed apart, with the memory.
    let today = chrono::Utc::now().with_timezone(&events::funnel::sao_paulo()).date_naive();
    let resident = || -> Option<u64> {
        let status = std::fs::read_to_string("/proc/self/status").ok()?;
        let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
        line.split_whitespace().nth(1)?.parse::<u64>().ok()
    };
    let before = resident();
    let first = bench.get(&format!("/api/analytics/funnel?flow=cloud&to={today}"));
    bench.timed("first funnel question (loads the days held)", first).await?;
    println!(
        "resident memory before the first funnel question {} MB, after {} MB",
        before.map_or(0, |kb| kb / 1024),
        resident().map_or(0, |kb| kb / 1024)
    );

    let mut rng = rand::rngs::StdRng::seed_from_u64(27);
    let (mut stuck_total, mut dropped_total) = (0i64, 0i64);
    for _ in 0..args.questions {
        let minutes = [5, 15, 60][rng.gen_range(0..3)];
        let stuck: Value = serde_json::from_slice(
            &bench
                .timed("stuck: count and first page", bench.get(&format!("/api/support/stuck?minutes={minutes}")))
                .await?,
        )?;
        stuck_total = stuck_total.max(stuck["total"].as_i64().unwrap_or(0));

        let flow = ["activation", "download", "cloud"][rng.gen_range(0..3)];
        let steps = events::funnel::funnel(flow, None)?.steps.len();
        // A 30-day window ending within the 60 days before today, so that the period before it
        // (the comparison) is history too.
        let to = today - chrono::Duration::days(rng.gen_range(0..60));
        let from = to - chrono::Duration::days(29);
        let (before_to, before_from) = (from - chrono::Duration::days(1), from - chrono::Duration::days(30));
        let count = ["attempts", "people"][rng.gen_range(0..2)];
        let breakdown = ["", "variant", "os", "platform", "day"][rng.gen_range(0..5)];
        let question = format!("flow={flow}&count={count}&breakdown={breakdown}");
        let name = if count == "people" { "funnel, counting people" } else { "funnel, counting attempts" };
        bench.timed(name, bench.get(&format!("/api/analytics/funnel?{question}&from={from}&to={to}"))).await?;
        bench
            .timed(
                "funnel over the period before",
                bench.get(&format!("/api/analytics/funnel?{question}&from={before_from}&to={before_to}")),
            )
            .await?;
        let step = rng.gen_range(0..steps - 1);
        let dropped: Value = serde_json::from_slice(
            &bench
                .timed(
                    "drop-off drill-down (a page)",
                    bench.get(&format!(
                        "/api/analytics/funnel/dropped?flow={flow}&count={count}&from={from}&to={to}&step={step}"
                    )),
                )
                .await?,
        )?;
        dropped_total = dropped_total.max(dropped["total"].as_i64().unwrap_or(0));
    }
    println!("largest stuck count {stuck_total}; largest drop-off drilled {dropped_total}");
    println!("| request | n | p50 ms | p99 ms | max ms |");
    println!("|---|---|---|---|---|");
    for (name, mut times) in std::mem::take(&mut bench.times) {
        times.sort();
        println!(
            "| {name} | {} | {:.1} | {:.1} | {:.1} |",
            times.len(),
            ms(pct(&times, 0.50)),
            ms(pct(&times, 0.99)),
            ms(times.last().copied().unwrap_or_default())
        );
    }
    explain(&pool, &vault, &phones[0]).await?;
    Ok(())
}

async fn bench_database(server: &str, name: &str) -> anyhow::Result<PgPool> {
    if !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        bail!("--database takes letters, digits and _ only");
    }
    let admin = PgPoolOptions::new().max_connections(1).connect(server).await.context("connecting to DATABASE_URL")?;
    let exists: bool = sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)")
        .bind(name)
        .fetch_one(&admin)
        .await?;
    if !exists {
        sqlx::query(&format!("CREATE DATABASE {name}")).execute(&admin).await?;
    }
    let mut url = url_of(server)?;
    url.set_path(&format!("/{name}"));
    Ok(PgPoolOptions::new().max_connections(10).connect(url.as_str()).await?)
}

fn url_of(server: &str) -> anyhow::Result<reqwest::Url> {
    reqwest::Url::parse(server).context("DATABASE_URL is not a URL")
}

/// Seeds until the history holds `target` events (about 6.3 events per attempt).
async fn fill(pool: &PgPool, target: u64) -> anyhow::Result<()> {
    loop {
        let have: i64 = sqlx::query_scalar("SELECT count(*) FROM events").fetch_one(pool).await?;
        let have = have.max(0) as u64;
        if have >= target {
            return Ok(());
        }
        // An estimate: the next pass tops up what it fell short by.
        let attempts = (target - have) * 10 / 63 + 1;
        println!("seeding {attempts} attempts ({have} events so far)");
        let started = Instant::now();
        let options = SeedOptions { attempts, days: 90, seed: have, force: true, batch: 5_000 };
        let bar = indicatif::ProgressBar::new(attempts);
        let report = seed(pool, Keys::insecure_dev(), &options, &bar).await?;
        bar.finish_and_clear();
        let secs = started.elapsed().as_secs_f64();
        println!("seeded {} events in {secs:.0} s ({:.0} events/s)", report.events, report.events as f64 / secs);
        sqlx::query("ANALYZE").execute(pool).await?;
    }
}

/// The funnel projection brought up to the log (the portal keeps it so as events come).
async fn project(pool: &PgPool) -> anyhow::Result<()> {
    let store = events::EventStore::new(pool.clone());
    let mut projector = events::funnel::projection::Projector::new(store, events::funnel::projection::LIVE, 5_000)
        .with_persons(Vault::new(pool.clone(), Keys::insecure_dev()));
    let started = Instant::now();
    let read = projector.catch_up(|_| {}).await?;
    if read > 0 {
        println!("projection caught up: {read} events in {:.0} s", started.elapsed().as_secs_f64());
        sqlx::query("ANALYZE funnel_attempts").execute(pool).await?;
    }
    Ok(())
}

/// A live schedule beside the history: `n` attempts with a planned step, first due over the
/// last two hours (so a threshold of 5, 15 or 60 minutes finds some stuck), half of them tried
/// and backing off; all due tomorrow, so the bench's runner leaves them alone.
async fn schedule(pool: &PgPool, n: i64) -> anyhow::Result<i64> {
    sqlx::query(
        "INSERT INTO due_steps (stream_id, flow, step, due_at, first_due_at, claims) \
         SELECT stream_id, flow, 'bench.step', now() + interval '1 day', \
                now() - random() * interval '2 hours', (random() * 2)::int \
         FROM attempts TABLESAMPLE SYSTEM (1) \
         LIMIT greatest($1 - (SELECT count(*) FROM due_steps), 0) \
         ON CONFLICT (stream_id) DO NOTHING",
    )
    .bind(n)
    .execute(pool)
    .await?;
    Ok(sqlx::query_scalar("SELECT count(*) FROM due_steps").fetch_one(pool).await?)
}

/// `n` phones of the history, drawn at random and opened with the vault.
async fn sample_phones(pool: &PgPool, n: usize) -> anyhow::Result<Vec<String>> {
    let vault = Vault::new(pool.clone(), Keys::insecure_dev());
    let fields: Vec<Value> = sqlx::query_scalar(
        "SELECT payload->'phone' FROM events TABLESAMPLE SYSTEM (2) WHERE payload ? 'phone' ORDER BY random() LIMIT $1",
    )
    .bind(n as i64)
    .fetch_all(pool)
    .await?;
    let mut phones = Vec::new();
    for field in fields {
        if let Opened::Clear(phone) = vault.open(&field).await? {
            phones.push(phone);
        }
    }
    Ok(phones)
}

async fn serve(pool: PgPool) -> anyhow::Result<String> {
    let dist = std::env::temp_dir().join("exa-support-bench-dist");
    std::fs::create_dir_all(&dist)?;
    std::fs::write(dist.join("index.html"), "<!doctype html><title>bench</title>")?;
    let config = ServeConfig {
        database_url: SecretString::from(""),
        database_max_connections: 10,
        database_read_url: None,
        bind_addr: "127.0.0.1:0".parse()?,
        admin_bind_addr: None,
        web_dist: dist,
        runner_workers: 1,
        runner_concurrency: 8,
        runner_lease_secs: 45,
        funnel_projection: false,
        funnel_memory_days: orchestrator::config::DEFAULT_FUNNEL_MEMORY_DAYS,
        keys: KeyConfig::default(),
        site: SiteSettings { sandbox_mode: true, ..SiteSettings::default() },
        upstreams: UpstreamConfig::sandbox("http://127.0.0.1:9"),
        partners: PartnerConfig::default(),
        download: DownloadConfig::default(),
        abuse: orchestrator::config::AbuseConfig::default(),
        server: orchestrator::config::ServerConfig::default(),
        admission: orchestrator::config::AdmissionConfig::default(),
    };
    let (_, never) = tokio::sync::watch::channel(false);
    let parts = orchestrator::startup::Parts::from_config(&config)?;
    let app = orchestrator::startup::build(pool, parts, never)?;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let base = format!("http://{}", listener.local_addr()?);
    let state = app.state;
    tokio::spawn(async move {
        let _ = orchestrator::startup::serve(listener, state, &config.web_dist, std::future::pending::<()>()).await;
    });
    Ok(base)
}

async fn explain(pool: &PgPool, vault: &Vault, phone: &str) -> anyhow::Result<()> {
    let hash = vault.lookup_hash(PiiKind::Phone, phone);
    let stream: String = sqlx::query_scalar(
        "SELECT l.stream_id FROM pii_lookup k JOIN pii_stream_links l ON l.subject_id = k.subject_id \
         WHERE k.kind = 'phone' AND k.hmac = $1 LIMIT 1",
    )
    .bind(&hash)
    .fetch_one(pool)
    .await?;
    for (title, sql, bind) in [
        (
            "look-up: the phone's streams (Vault::streams_for)",
            "EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) SELECT l.stream_id FROM pii_lookup k \
             JOIN pii_stream_links l ON l.subject_id = k.subject_id \
             WHERE k.kind = 'phone' AND k.hmac = $1 ORDER BY l.linked_at, l.stream_id",
            Bind::Bytes(hash.clone()),
        ),
        (
            "one attempt: its events (EventStore::read_stream)",
            "EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) SELECT position, stream_id, version, event_type, payload, metadata, recorded_at \
             FROM events WHERE stream_id = $1 ORDER BY version",
            Bind::Text(stream.clone()),
        ),
        (
            "stuck: the console's count (support::stuck)",
            "EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) SELECT count(*) FROM due_steps \
             WHERE first_due_at < now() - make_interval(mins => 15) AND ($1::text IS NULL OR flow = $1)",
            Bind::Null,
        ),
    ] {
        let query = sqlx::query_scalar::<_, String>(sql);
        let plan: Vec<String> = match bind {
            Bind::Bytes(b) => query.bind(b).fetch_all(pool).await?,
            Bind::Text(t) => query.bind(t).fetch_all(pool).await?,
            Bind::Null => query.bind(None::<String>).fetch_all(pool).await?,
        };
        println!("\n{title}\n```\n{}\n```", plan.join("\n"));
    }
    Ok(())
}

enum Bind {
    Bytes(Vec<u8>),
    Text(String),
    Null,
}

fn pct(sorted: &[Duration], q: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let i = ((sorted.len() as f64 - 1.0) * q).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}
