//! `orchestrator serve` as an operator runs it: a child process over a fresh database, its
//! upstreams at a sandbox on loopback, stopped with a signal (issue 14, defects 8, 10, 11).

mod common;
mod journeys;

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use futures::StreamExt;
use journeys::{free_port, serve_command, Driver, Journey, Server};
use orchestrator::config::ServeConfig;
use sandbox::{spawn_on_loopback, SandboxConfig, SandboxHandle};
use serde_json::{json, Value};
use sqlx::PgPool;

/// The test database's URL (the server connects to it by itself).
fn database_url(db: &PgPool) -> String {
    let options = db.connect_options();
    let base = std::env::var("DATABASE_URL").unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/postgres".into());
    let (server, _) = base.rsplit_once('/').unwrap_or((&base, ""));
    format!("{server}/{}", options.get_database().unwrap_or("postgres"))
}

/// The server's settings over the test database and the sandbox, then `extra`.
fn settings(db: &PgPool, sandbox: &SandboxHandle, extra: &[(&str, &str)]) -> Vec<(String, String)> {
    let mut env = vec![
        ("DATABASE_URL".to_string(), database_url(db)),
        ("SANDBOX_URL".to_string(), sandbox.base_url()),
        ("RUNNER_WORKERS".to_string(), "2".to_string()),
        ("DATABASE_MAX_CONNECTIONS".to_string(), "6".to_string()),
    ];
    env.extend(extra.iter().map(|(k, v)| (k.to_string(), v.to_string())));
    env
}

async fn serve_with(db: &PgPool, sandbox: &SandboxHandle, extra: &[(&str, &str)]) -> Server {
    let env = settings(db, sandbox, extra);
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    Server::start(std::path::Path::new(env!("CARGO_BIN_EXE_orchestrator")), &env).await.expect("orchestrator serve")
}

async fn serve(db: &PgPool, sandbox: &SandboxHandle) -> Server {
    serve_with(db, sandbox, &[]).await
}

fn signal(child: &Child, name: &str) {
    let status = Command::new("kill").arg(format!("-{name}")).arg(child.id().to_string()).status().expect("kill");
    assert!(status.success());
}

/// Waits for the child to exit, at most `within`; `None` if it is still running.
async fn exited(child: &mut Child, within: Duration) -> Option<std::process::ExitStatus> {
    let deadline = Instant::now() + within;
    loop {
        if let Ok(Some(status)) = child.try_wait() {
            return Some(status);
        }
        if Instant::now() >= deadline {
            return None;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Defect 8: graceful shutdown waited for every connection, and an event stream never ends, so
/// SIGTERM with one browser on an attempt page never stopped the server.
#[sqlx::test(migrations = "../migrations")]
async fn sigterm_stops_the_server_while_an_event_stream_is_open(db: PgPool) {
    let sandbox = spawn_on_loopback(SandboxConfig { seed: 8 }).await.expect("sandbox");
    let mut server = serve(&db, &sandbox).await;
    let http = reqwest::Client::new();
    let started = http
        .post(format!("{}/api/attempts", server.base))
        .json(&json!({ "flow": "activation", "command": { "type": "start", "variant": "standard" } }))
        .send()
        .await
        .expect("start");
    let cookie = started.headers()["set-cookie"].to_str().expect("cookie").split(';').next().expect("pair").to_string();
    let body: Value = started.json().await.expect("json");
    let id = body["id"].as_str().expect("id");
    let mut stream = http
        .get(format!("{}/api/attempts/{id}/stream", server.base))
        .header("cookie", &cookie)
        .send()
        .await
        .expect("stream");
    let first = tokio::time::timeout(Duration::from_secs(5), stream.chunk()).await;
    assert!(matches!(first, Ok(Ok(Some(_)))), "the stream sent its first frame");

    let asked = Instant::now();
    signal(&server.child, "TERM");
    let status = exited(&mut server.child, Duration::from_secs(8)).await;
    assert!(status.is_some_and(|s| s.success()), "stopped cleanly within 8 s: {status:?} after {:?}", asked.elapsed());
    // The browser's stream ended with the server, instead of holding it open.
    let rest =
        tokio::time::timeout(Duration::from_secs(2), async { while let Ok(Some(_)) = stream.chunk().await {} }).await;
    assert!(rest.is_ok(), "the event stream ended");
}

/// Defect 10: with RUNNER_WORKERS at or above DATABASE_MAX_CONNECTIONS the server started and
/// answered only 500s; it now refuses to start and says what to set.
#[sqlx::test(migrations = "../migrations")]
async fn a_pool_too_small_for_the_runners_is_refused_at_start(db: PgPool) {
    let sandbox = spawn_on_loopback(SandboxConfig { seed: 10 }).await.expect("sandbox");
    let dist = tempfile::tempdir().expect("dist");
    let env = settings(&db, &sandbox, &[("RUNNER_WORKERS", "8"), ("DATABASE_MAX_CONNECTIONS", "4")]);
    let binary = std::path::Path::new(env!("CARGO_BIN_EXE_orchestrator"));
    let output = serve_command(binary, free_port().expect("port"), dist.path(), &env)
        .stderr(Stdio::piped())
        .output()
        .expect("run");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success());
    assert!(stderr.contains("DATABASE_MAX_CONNECTIONS=4 is too small for RUNNER_WORKERS=8"), "{stderr}");
}

/// Defect 11: after a logical dump and restore the cluster's transaction-id counter starts below
/// the ids the events carry, and the global read stalls or skips. The server refuses to start.
#[sqlx::test(migrations = "../migrations")]
async fn events_from_a_later_transaction_counter_stop_the_start(db: PgPool) {
    assert!(orchestrator::startup::check_transaction_ids(&db).await.is_ok(), "a fresh database starts");
    sqlx::query(
        "INSERT INTO events (tx_id, stream_id, version, event_type, schema_version, payload, metadata)
         VALUES ('900000000000'::xid8, 'cloud-00000000-0000-0000-0000-000000000001', 1, 'restored', 1, '{}', '{}')",
    )
    .execute(&db)
    .await
    .expect("a restored event");
    let refused = orchestrator::startup::check_transaction_ids(&db).await.expect_err("refused");
    let message = refused.to_string();
    assert!(message.contains("900000000000") && message.contains("docs/event-store.md"), "{message}");
}

#[test]
fn the_configuration_check_needs_a_connection_per_runner_and_two_more() {
    let mut config: ServeConfig = common::test_config(std::path::PathBuf::new());
    config.runner_workers = 4;
    config.database_max_connections = 6;
    assert!(orchestrator::startup::check_config(&config).is_ok());
    config.database_max_connections = 5;
    assert!(orchestrator::startup::check_config(&config).is_err());
    // The retired hop count is refused, with what replaces it (README's migration note).
    config.database_max_connections = 6;
    config.abuse.retired_trusted_proxy_hops = Some("1".into());
    let refused = orchestrator::startup::check_config(&config).expect_err("TRUSTED_PROXY_HOPS refused");
    assert!(refused.to_string().contains("TRUSTED_PROXIES"), "{refused}");
}

/// The calls the kills land in, one kill per flow: its subscription or its grant.
const KILL_DURING: [(&str, &[&str]); 3] = [
    ("activation", &["bff.subscribe-serial", "bff.subscribe-by-hash"]),
    ("download", &["antivirus.av-desktop-url"]),
    ("cloud", &["cloud.register-serial"]),
];

/// Calls to `endpoints` the sandbox is still working on.
async fn in_flight(http: &reqwest::Client, sandbox: &str, endpoints: &[&str]) -> usize {
    let mut pending = 0;
    for endpoint in endpoints {
        let calls = match http.get(format!("{sandbox}/admin/calls?endpoint={endpoint}")).send().await {
            Ok(answer) => answer.json::<Value>().await.unwrap_or(Value::Null),
            Err(_) => Value::Null,
        };
        pending += calls.as_array().map_or(0, |c| c.iter().filter(|c| c["outcome"] == "pending").count());
    }
    pending
}

/// Issue 14, "Prove it": 200 visitors of the three flows (the activation in its six variants,
/// the desktop download after SMS, the cloud serial activation) through `orchestrator serve`,
/// which is killed (SIGKILL) three times while upstream calls are in flight (an activation's
/// subscription, a download's grant, a cloud serial's registration) and started again on the
/// same database and port. Every attempt reaches its normal end, no step ran under two
/// idempotency keys (by the runner's events and by the sandbox's call log), and the sandbox
/// holds one subscription per subscribing visitor.
#[sqlx::test(migrations = "../migrations")]
async fn a_killed_server_resumes_every_attempt_of_the_three_flows_without_subscribing_twice(db: PgPool) {
    const VISITORS: usize = 200;
    let sandbox = spawn_on_loopback(SandboxConfig { seed: 9 }).await.expect("sandbox");
    let admin = reqwest::Client::new();
    // Every upstream call takes a while, the subscriptions and grants longest, so that each
    // kill lands in the middle of calls.
    for fault in [
        json!({ "endpoint": "bff.subscribe-serial", "latency_ms": 800 }),
        json!({ "endpoint": "bff.subscribe-by-hash", "latency_ms": 800 }),
        json!({ "endpoint": "antivirus.av-desktop-url", "latency_ms": 800 }),
        json!({ "endpoint": "cloud.register-serial", "latency_ms": 800 }),
        json!({ "endpoint": "*", "latency_ms": 100 }),
    ] {
        let answer =
            admin.post(format!("{}/admin/faults", sandbox.base_url())).json(&fault).send().await.expect("fault");
        assert_eq!(answer.status().as_u16(), 201, "{fault}");
    }
    let env = [("RUNNER_WORKERS", "8"), ("DATABASE_MAX_CONNECTIONS", "12"), ("RUNNER_LEASE_SECS", "3")];
    let mut server = serve_with(&db, &sandbox, &env).await;
    let driver = Driver::new(vec![server.base.clone()], &sandbox.base_url(), Duration::from_secs(60)).expect("driver");

    let visitors = futures::stream::iter(0..VISITORS)
        .map(|i| {
            let driver = &driver;
            async move { (i, driver.run(i).await.map_err(|e| format!("{e:#}"))) }
        })
        .buffer_unordered(32)
        .collect::<Vec<_>>();
    let kills = async {
        let mut kills = Vec::new();
        for (flow, endpoints) in KILL_DURING {
            let deadline = Instant::now() + Duration::from_secs(60);
            let pending = loop {
                let pending = in_flight(&admin, &sandbox.base_url(), endpoints).await;
                if pending > 0 || Instant::now() > deadline {
                    break pending;
                }
                tokio::time::sleep(Duration::from_millis(50)).await;
            };
            server.kill().expect("SIGKILL");
            kills.push((flow, pending));
            server.restart().await.expect("started again");
            // Let the new process take over (the killed one's leases last 3 s) and go on.
            tokio::time::sleep(Duration::from_secs(4)).await;
        }
        kills
    };
    let (ends, kills) = tokio::join!(visitors, kills);
    println!("kills (flow, its calls in flight): {kills:?}");
    for (name, visitors, normal) in journeys::tally(&ends) {
        println!("{name}: {normal} of {visitors} at their normal end");
    }
    assert!(kills.iter().all(|(_, pending)| *pending > 0), "each kill landed during a call of its flow: {kills:?}");

    let not_normal: Vec<String> = ends
        .iter()
        .filter_map(|(_, end)| match end {
            Ok(finish) if finish.normal() => None,
            Ok(finish) => Some(format!("{}: {}", finish.id, finish.describe())),
            Err(error) => Some(error.clone()),
        })
        .collect();
    assert!(not_normal.is_empty(), "every attempt reached its normal end; these did not: {not_normal:#?}");

    let subscribing = (0..VISITORS).filter(|i| Journey::of(*i).subscribes()).count();
    let subscriptions = journeys::subscriptions(&sandbox.base_url()).await.expect("subscriptions");
    assert_eq!(
        (subscriptions.total, subscriptions.doubles),
        (subscribing, 0),
        "one subscription per subscribing visitor"
    );
    let several = journeys::steps_with_several_keys(&db).await.expect("keys");
    assert!(several.is_empty(), "one idempotency key per step across the kills: {several:?}");
    let upstream = journeys::upstream_steps_with_several_keys(&sandbox.base_url()).await.expect("calls");
    assert!(upstream.is_empty(), "the sandbox saw one key per step: {upstream:?}");
    let tries = journeys::tries(&db).await.expect("tries");
    println!("{tries:?}");
    assert_eq!(tries.crossed, 0, "no try reported by another runner than its own: {tries:?}");
}

/// Production-like settings: real keys, https upstreams on public names, no development secret.
fn production_settings(db: &PgPool) -> Vec<(String, String)> {
    let (kek, hmac) = events::pii::Keys::generate().to_hex();
    let mut env = vec![
        ("DATABASE_URL".to_string(), database_url(db)),
        ("SANDBOX_MODE".to_string(), "false".to_string()),
        ("PII_KEK_HEX".to_string(), kek),
        ("PII_HMAC_HEX".to_string(), hmac),
        ("CHATBOT_URL".to_string(), "https://chatbot.example/?p=hero".to_string()),
        ("CHATBOT_AVATAR_URL".to_string(), "https://chatbot.example/avatar.svg".to_string()),
    ];
    for (name, _) in orchestrator::config::UPSTREAM_URL_SETTINGS {
        let host = name.trim_start_matches("UPSTREAM_").trim_end_matches("_URL").to_lowercase().replace('_', "-");
        env.push((name.to_string(), format!("https://{host}.upstream.example")));
    }
    for (name, value) in orchestrator::config::DEVELOPMENT_SECRETS {
        env.push((name.to_string(), format!("production-{}", value.len())));
    }
    env
}

/// Issue 26: outside sandbox mode `orchestrator serve` started with the sandbox's public
/// credentials and its loopback, plain-http upstreams. It now refuses, one line per setting.
#[sqlx::test(migrations = "../migrations")]
async fn outside_sandbox_mode_development_secrets_and_sandbox_urls_are_refused_at_start(db: PgPool) {
    let dist = tempfile::tempdir().expect("dist");
    let binary = std::path::Path::new(env!("CARGO_BIN_EXE_orchestrator"));
    let run = |env: &[(String, String)]| {
        let mut child = serve_command(binary, free_port().expect("port"), dist.path(), env)
            .stderr(Stdio::piped())
            .spawn()
            .expect("run");
        async move {
            // A server that starts anyway is stopped after a while, so the test fails instead of hanging.
            if exited(&mut child, Duration::from_secs(20)).await.is_none() {
                let _ = child.kill();
            }
            child.wait_with_output().expect("output")
        }
    };
    let mut env = production_settings(&db);
    // Each kind of mistake once: a development secret, a loopback URL, a plain-http URL, and
    // an upstream left to the sandbox.
    env.retain(|(k, _)| k != "UPSTREAM_HERO_URL");
    for (name, value) in [
        ("OAUTH_CLIENT_SECRET", upstream_contract::credentials::OAUTH_CLIENT_SECRET),
        ("UPSTREAM_SSO_URL", "https://127.0.0.1:9443/sso"),
        ("UPSTREAM_BFF_TIM_URL", "http://bff-tim.upstream.example"),
        ("UPSTREAM_DOCDB_URL", "https://localhost/docdb"),
    ] {
        env.retain(|(k, _)| k != name);
        env.push((name.to_string(), value.to_string()));
    }
    let output = run(&env).await;
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success(), "refused: {stderr}");
    for setting in
        ["OAUTH_CLIENT_SECRET", "UPSTREAM_SSO_URL", "UPSTREAM_BFF_TIM_URL", "UPSTREAM_DOCDB_URL", "UPSTREAM_HERO_URL"]
    {
        let lines = stderr.lines().filter(|line| line.contains(setting)).count();
        assert_eq!(lines, 1, "one line names {setting}: {stderr}");
    }
    assert!(
        !stderr.contains(upstream_contract::credentials::OAUTH_CLIENT_SECRET),
        "the secret is not printed: {stderr}"
    );

    // The same settings in sandbox mode start (the scripts and tests run so).
    let sandbox = spawn_on_loopback(SandboxConfig { seed: 26 }).await.expect("sandbox");
    let server = serve(&db, &sandbox).await;
    assert!(reqwest::get(format!("{}/healthz", server.base)).await.expect("health").status().is_success());
    drop(server);

    // Production-like settings start.
    let env = production_settings(&db);
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let server = Server::start(binary, &env).await.expect("a production-like configuration starts");
    assert!(reqwest::get(format!("{}/healthz", server.base)).await.expect("health").status().is_success());
}
