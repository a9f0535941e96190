//! How fast support finds a phone's attempts and opens one, on a large history.
//!
//! Over real HTTP against the real app (built in this process, release mode), on a database of
//! its own that `replay seed` fills until it holds `--events` events (kept between runs, so a
//! second run measures at once): signs a support agent in, then for `--lookups` phones drawn at
//! random from the history, times `POST /api/support/attempts/search` and `GET
//! /api/support/attempts/{id}` of the newest attempt found. Prints p50/p99/max of each and the
//! query plans (EXPLAIN ANALYZE) of the look-up and of reading one stream.
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
    /// Phones looked up (each also opens one attempt).
    #[arg(long, default_value_t = 1_000)]
    lookups: usize,
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    let pool = bench_database(&args.database_url, &args.database).await?;
    sqlx::migrate!("../migrations").run(&pool).await?;
    fill(&pool, args.events).await?;
    let events: i64 = sqlx::query_scalar("SELECT count(*) FROM events").fetch_one(&pool).await?;
    let attempts: i64 = sqlx::query_scalar("SELECT count(*) FROM attempts").fetch_one(&pool).await?;
    let phones = sample_phones(&pool, args.lookups).await?;
    println!("history: {events} events, {attempts} attempts; {} phones drawn", phones.len());

    let base = serve(pool.clone()).await?;
    let client = reqwest::Client::new();
    let email = format!("bench-{}@exa.com.br", uuid::Uuid::new_v4().simple());
    let password = "bench-password-123";
    let vault = Vault::new(pool.clone(), Keys::insecure_dev());
    let id = Accounts { db: &pool, vault: &vault }.add(&email, Role::Support, password).await?;
    // Support signs in with a second factor: enrolled here, its first recovery code typed.
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

    let (mut lookups, mut opens) = (Vec::new(), Vec::new());
    let mut found = 0usize;
    for phone in &phones {
        let started = Instant::now();
        let answer: Value = client
            .post(format!("{base}/api/support/attempts/search"))
            .header("cookie", &cookie)
            .header("origin", &base)
            .header("x-csrf-token", &csrf)
            .json(&json!({ "phone": phone }))
            .send()
            .await?
            .error_for_status()?
            .json()
            .await?;
        lookups.push(started.elapsed());
        let Some(id) = answer["attempts"][0]["id"].as_str() else { continue };
        found += 1;
        let started = Instant::now();
        get(&client, &format!("{base}/api/support/attempts/{id}"), &cookie).await?;
        opens.push(started.elapsed());
    }
    println!("{found} of {} look-ups found attempts", phones.len());
    println!("| request | n | p50 ms | p99 ms | max ms |");
    println!("|---|---|---|---|---|");
    for (name, mut times) in [("look-up by phone", lookups), ("open one attempt", opens)] {
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

/// Seeds until the history holds `target` events (about 6.5 events per attempt).
async fn fill(pool: &PgPool, target: u64) -> anyhow::Result<()> {
    let have: i64 = sqlx::query_scalar("SELECT count(*) FROM events").fetch_one(pool).await?;
    let have = have.max(0) as u64;
    if have >= target {
        return Ok(());
    }
    let attempts = (target - have) * 10 / 65 + 1;
    println!("seeding {attempts} attempts ({have} events so far)");
    let started = Instant::now();
    let options = SeedOptions { attempts, days: 90, seed: have, force: true, batch: 5_000 };
    let bar = indicatif::ProgressBar::new(attempts);
    let report = seed(pool, Keys::insecure_dev(), &options, &bar).await?;
    bar.finish_and_clear();
    let secs = started.elapsed().as_secs_f64();
    println!("seeded {} events in {secs:.0} s ({:.0} events/s)", report.events, report.events as f64 / secs);
    sqlx::query("ANALYZE").execute(pool).await?;
    Ok(())
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

async fn get(client: &reqwest::Client, url: &str, cookie: &str) -> anyhow::Result<Value> {
    let response = client.get(url).header("cookie", cookie).send().await?;
    if !response.status().is_success() {
        bail!("{url} answered {}", response.status());
    }
    Ok(response.json().await?)
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
    ] {
        let query = sqlx::query_scalar::<_, String>(sql);
        let plan: Vec<String> = match bind {
            Bind::Bytes(b) => query.bind(b).fetch_all(pool).await?,
            Bind::Text(t) => query.bind(t).fetch_all(pool).await?,
        };
        println!("\n{title}\n```\n{}\n```", plan.join("\n"));
    }
    Ok(())
}

enum Bind {
    Bytes(Vec<u8>),
    Text(String),
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
