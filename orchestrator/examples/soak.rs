//! Soak run (issue 14, docs/reliability.md): visitors of the three flows (the activation in its
//! six variants, the desktop download after SMS, the cloud serial activation) through two
//! `orchestrator serve` processes sharing one database, against the sandbox with faults on every
//! endpoint, then the checks: how many reached their normal end, double subscriptions, steps
//! left due, how the two processes shared the steps.
//!
//! ```sh
//! cargo build -p orchestrator --bins --example soak && target/debug/examples/soak 1000 32
//! ```
//!
//! Needs `DATABASE_URL` (a server where it may create and drop a database of its own). It is a
//! benchmark-style run, not a test: it takes minutes. `SERVE_LOG=<file>` keeps the servers'
//! logs.

#[path = "../tests/journeys/mod.rs"]
mod journeys;

use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use futures::StreamExt;
use journeys::{Driver, Server};
use orchestrator::runner::RetryPolicy;
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

    let admin = sqlx::PgPool::connect(&admin_url).await?;
    let (name, database) = journeys::own_database(&admin, &admin_url, "soak").await?;

    let sandbox = spawn_on_loopback(SandboxConfig { seed: 1000 }).await?;
    let sandbox_url = sandbox.base_url();
    let env = [
        ("DATABASE_URL", database.as_str()),
        ("SANDBOX_URL", sandbox_url.as_str()),
        ("RUNNER_WORKERS", "8"),
        ("DATABASE_MAX_CONNECTIONS", "20"),
        ("UPSTREAM_TIMEOUT_SECS", "2"),
    ];
    // Migrations first, by one process, then the second.
    let one = Server::start(&binary, &env).await?;
    let two = Server::start(&binary, &env).await?;
    let http = reqwest::Client::new();
    http.post(format!("{sandbox_url}/admin/reset")).send().await?.error_for_status()?;
    for fault in faults() {
        http.post(format!("{sandbox_url}/admin/faults")).json(&fault).send().await?.error_for_status()?;
    }

    // Three minutes a stage: the runner's budget is a minute a step, and a stage has several.
    let driver = Driver::new(vec![one.base.clone(), two.base.clone()], &sandbox_url, Duration::from_secs(180))?;
    let began = Instant::now();
    let ends: Vec<(usize, Result<journeys::Finish, String>)> = futures::stream::iter(0..total)
        .map(|i| {
            let driver = &driver;
            async move { (i, driver.run(i).await.map_err(|e| format!("{e:#}"))) }
        })
        .buffer_unordered(concurrency)
        .collect()
        .await;
    let elapsed = began.elapsed();

    let normal = ends.iter().filter(|(_, e)| matches!(e, Ok(f) if f.normal())).count();
    let subscribing = ends.iter().filter(|(_, e)| matches!(e, Ok(f) if f.normal() && f.journey.subscribes())).count();
    let subscriptions = journeys::subscriptions(&sandbox_url).await?;
    let db = sqlx::PgPool::connect(&database).await?;
    let budget = RetryPolicy::default().budget;
    let (due, stuck) = journeys::due_steps(&db, budget).await?;
    let tries = journeys::tries(&db).await?;
    let several_keys = journeys::steps_with_several_keys(&db).await?;
    let mut others: Vec<String> = ends
        .iter()
        .filter_map(|(_, e)| match e {
            Ok(finish) if finish.normal() => None,
            Ok(finish) => Some(finish.describe()),
            Err(error) => Some(error.clone()),
        })
        .collect();
    others.sort_unstable();

    println!("attempts: {total}, concurrency {concurrency}, two processes, {:.1} s", elapsed.as_secs_f64());
    println!("normal end: {normal} of {total} ({:.2}%)", 100.0 * normal as f64 / total as f64);
    for (name, visitors, ended) in journeys::tally(&ends) {
        println!("  {name}: {ended} of {visitors} ({:.1}%)", 100.0 * ended as f64 / visitors as f64);
    }
    println!(
        "subscriptions: {} for {subscribing} subscribing visitors at their normal end (double: {})",
        subscriptions.total, subscriptions.doubles
    );
    println!(
        "tries: {} started, {} failed and retried, {} gave up; steps under several keys: {}",
        tries.started,
        tries.failed,
        tries.gave_up,
        several_keys.len()
    );
    println!("steps still due: {due}, due for longer than the {} s budget: {stuck}", budget.as_secs());
    println!(
        "runners that started tries: {} (8 a process); tries taken over after claims that never reported: {}; reports by another runner than the starter: {}",
        tries.runners, tries.taken_over, tries.crossed
    );
    println!("other ends: {others:#?}");

    drop(db);
    drop((one, two));
    sqlx::query(&format!("DROP DATABASE {name} WITH (FORCE)")).execute(&admin).await?;
    let bar = [
        ((normal as f64) >= 0.99 * total as f64, "99% at their normal end"),
        (subscriptions.doubles == 0, "no double subscription"),
        (stuck == 0, "no step due beyond its budget"),
        (tries.runners > 8, "steps started by runners of both processes"),
        (tries.crossed == 0, "no step run by two runners at once"),
    ];
    let missed: Vec<&str> = bar.iter().filter(|(met, _)| !met).map(|(_, what)| *what).collect();
    if !missed.is_empty() {
        bail!("the soak's bar was not met: {missed:?}");
    }
    Ok(())
}
