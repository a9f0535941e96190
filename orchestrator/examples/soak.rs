//! Soak run (issue 14, docs/reliability.md): many activations through two `orchestrator serve`
//! processes sharing one database, against the sandbox with faults on every endpoint, then the
//! checks: how many reached their normal end, double subscriptions, steps left due.
//!
//! ```sh
//! cargo build -p orchestrator && cargo run -p orchestrator --example soak -- 1000 32
//! ```
//!
//! Needs `DATABASE_URL` (a server where it may create and drop a database of its own). It is a
//! benchmark-style run, not a test: it takes minutes.

use std::collections::HashSet;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use futures::StreamExt;
use sandbox::{spawn_on_loopback, SandboxConfig};
use serde_json::{json, Value};

/// Faults on every endpoint, as the issue asks: 20% 5xx, 5% time-outs, 2% dropped connections.
fn faults() -> Vec<Value> {
    vec![
        json!({ "endpoint": "*", "status": 503, "fraction": 0.20 }),
        json!({ "endpoint": "*", "timeout": true, "hold_ms": 3000, "fraction": 0.05 }),
        json!({ "endpoint": "*", "drop": true, "fraction": 0.02 }),
    ]
}

struct Server(Child, String);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn free_port() -> anyhow::Result<u16> {
    Ok(std::net::TcpListener::bind("127.0.0.1:0")?.local_addr()?.port())
}

async fn serve(binary: &std::path::Path, database: &str, sandbox: &str, dist: &std::path::Path) -> anyhow::Result<Server> {
    let port = free_port()?;
    let child = Command::new(binary)
        .arg("serve")
        .env("DATABASE_URL", database)
        .env("BIND_ADDR", format!("127.0.0.1:{port}"))
        .env("WEB_DIST", dist)
        .env("SANDBOX_URL", sandbox)
        .env("RUNNER_WORKERS", "8")
        .env("DATABASE_MAX_CONNECTIONS", "20")
        .env("UPSTREAM_TIMEOUT_SECS", "2")
        .env("RUST_LOG", "error")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .with_context(|| format!("starting {}", binary.display()))?;
    let server = Server(child, format!("http://127.0.0.1:{port}"));
    let deadline = Instant::now() + Duration::from_secs(60);
    while reqwest::get(format!("{}/healthz", server.1)).await.map(|r| r.status().is_success()).ok() != Some(true) {
        if Instant::now() > deadline {
            bail!("the server did not come up");
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    Ok(server)
}

/// One visitor's standard activation, start to redirect; `Ok(panel)` is where it ended.
async fn activation(http: &reqwest::Client, base: &str, sandbox: &str, i: usize) -> anyhow::Result<String> {
    let started = http
        .post(format!("{base}/api/attempts"))
        .json(&json!({ "flow": "activation", "command": { "type": "start", "variant": "standard" } }))
        .send()
        .await?;
    let cookie = started
        .headers()
        .get("set-cookie")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .context("no cookie")?
        .to_string();
    let id = started.json::<Value>().await?["id"].as_str().context("no id")?.to_string();
    let national = format!("119{:08}", 10_000_000 + i);
    let phone = format!("({}) {}-{}", &national[..2], &national[2..7], &national[7..]);
    let command = |body: Value| {
        http.post(format!("{base}/api/attempts/{id}/commands"))
            .header("cookie", &cookie)
            .header("idempotency-key", uuid::Uuid::new_v4().to_string())
            .json(&body)
            .send()
    };
    let view = || async {
        let body: Value = http.get(format!("{base}/api/attempts/{id}")).header("cookie", &cookie).send().await?.json().await?;
        Ok::<Value, anyhow::Error>(body["view"].clone())
    };
    let settle = || async {
        // The retry budget is a minute; past two, the attempt is stuck.
        let deadline = Instant::now() + Duration::from_secs(120);
        loop {
            let current = view().await?;
            if current["busy"] == false {
                return Ok::<Value, anyhow::Error>(current);
            }
            if Instant::now() > deadline {
                bail!("stuck at {current}");
            }
            tokio::time::sleep(Duration::from_millis(250)).await;
        }
    };
    command(json!({ "type": "submit_phone", "phone": phone, "licence": format!("SOAK-{i:05}") })).await?;
    let after_send = settle().await?;
    if after_send["panel"] != "code_validation" || !after_send["error"].is_null() {
        return Ok(format!("{}: {}", after_send["panel"], after_send["error"]));
    }
    let inbox: Value = reqwest::get(format!("{sandbox}/sms?to=55{national}")).await?.json().await?;
    let code = inbox[0]["code"].as_str().context("no code in the inbox")?.to_string();
    command(json!({ "type": "submit_code", "pincode": code, "terms_accepted": true })).await?;
    let end = settle().await?;
    Ok(match end["error"].as_str() {
        Some(error) => format!("{}: {error}", end["panel"]),
        None => end["panel"].as_str().unwrap_or("?").to_string(),
    })
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let mut args = std::env::args().skip(1);
    let total: usize = args.next().map(|a| a.parse()).transpose()?.unwrap_or(1000);
    let concurrency: usize = args.next().map(|a| a.parse()).transpose()?.unwrap_or(32);
    let admin_url = std::env::var("DATABASE_URL").context("DATABASE_URL")?;
    let binary = std::env::current_exe()?
        .parent()
        .and_then(|examples| examples.parent())
        .map(|debug| debug.join("orchestrator"))
        .context("no binary directory")?;

    let name = format!("soak_{}", std::process::id());
    let admin = sqlx::PgPool::connect(&admin_url).await?;
    sqlx::query(&format!("CREATE DATABASE {name}")).execute(&admin).await?;
    let (server_part, _) = admin_url.rsplit_once('/').context("DATABASE_URL without a database")?;
    let database = format!("{server_part}/{name}");

    let sandbox = spawn_on_loopback(SandboxConfig { seed: 1000 }).await?;
    let sandbox_url = sandbox.base_url();
    let http = reqwest::Client::builder().timeout(Duration::from_secs(30)).build()?;
    let dist = tempfile::tempdir()?;
    std::fs::write(dist.path().join("index.html"), "<!doctype html>")?;
    // Migrations first, by one process, then the second.
    let one = serve(&binary, &database, &sandbox_url, dist.path()).await?;
    let two = serve(&binary, &database, &sandbox_url, dist.path()).await?;
    http.post(format!("{sandbox_url}/admin/reset")).send().await?;
    for fault in faults() {
        http.post(format!("{sandbox_url}/admin/faults")).json(&fault).send().await?.error_for_status()?;
    }

    let bases = Arc::new([one.1.clone(), two.1.clone()]);
    let began = Instant::now();
    let ends: Vec<Result<String, String>> = futures::stream::iter(0..total)
        .map(|i| {
            let (http, bases, sandbox_url) = (http.clone(), bases.clone(), sandbox_url.clone());
            async move { activation(&http, &bases[i % 2], &sandbox_url, i).await.map_err(|e| e.to_string()) }
        })
        .buffer_unordered(concurrency)
        .collect()
        .await;
    let elapsed = began.elapsed();

    let normal = ends.iter().filter(|e| matches!(e, Ok(panel) if panel == "redirect_store")).count();
    let subscriptions: Value = reqwest::get(format!("{sandbox_url}/admin/subscriptions")).await?.json().await?;
    let list = subscriptions.as_array().cloned().unwrap_or_default();
    let serials: HashSet<String> = list.iter().filter_map(|s| s["serial"].as_str().map(str::to_string)).collect();
    let db = sqlx::PgPool::connect(&database).await?;
    let (due, stale): (i64, i64) = sqlx::query_as(
        "SELECT count(*), count(*) FILTER (WHERE due_at < now() - interval '2 minutes') FROM due_steps",
    )
    .fetch_one(&db)
    .await?;
    let both: Vec<String> = sqlx::query_scalar(
        "SELECT DISTINCT metadata->>'actor' FROM events WHERE event_type = 'step.started'",
    )
    .fetch_all(&db)
    .await?;
    let (retries, gave_up): (i64, i64) = sqlx::query_as(
        "SELECT count(*) FILTER (WHERE event_type = 'step.called' AND payload ? 'kind'),
                count(*) FILTER (WHERE event_type = 'step.gave_up') FROM events",
    )
    .fetch_one(&db)
    .await?;
    let mut others: Vec<&str> = ends
        .iter()
        .filter_map(|e| match e {
            Ok(panel) if panel == "redirect_store" => None,
            Ok(panel) => Some(panel.as_str()),
            Err(error) => Some(error.as_str()),
        })
        .collect();
    others.sort_unstable();
    others.dedup();

    println!("attempts: {total}, concurrency {concurrency}, two processes, {:.1} s", elapsed.as_secs_f64());
    println!("normal end (redirect_store): {normal} ({:.2}%)", 100.0 * normal as f64 / total as f64);
    println!("subscriptions: {} for {} distinct serials (double: {})", list.len(), serials.len(), list.len() - serials.len());
    println!("failed tries retried: {retries}, gave up: {gave_up}");
    println!("steps still due: {due}, due for over two minutes: {stale}");
    println!("runners that claimed steps: {}", both.len());
    println!("other ends: {others:?}");

    drop(db);
    drop((one, two));
    sqlx::query(&format!("DROP DATABASE {name} WITH (FORCE)")).execute(&admin).await?;
    if (normal as f64) < 0.99 * total as f64 || list.len() != serials.len() || stale > 0 {
        bail!("the soak's bar was not met");
    }
    Ok(())
}
