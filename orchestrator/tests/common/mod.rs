//! Black-box helpers: the real app on port 0 over a fresh database.
#![allow(dead_code)]

pub mod console;
pub mod flows;
pub mod staff;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

use orchestrator::config::{DownloadConfig, KeyConfig, PartnerConfig, ServeConfig, SiteSettings, UpstreamConfig};
use orchestrator::http::state::AppState;
use orchestrator::runner::StepFlow;
use secrecy::SecretString;
use sqlx::PgPool;

pub struct TestApp {
    pub addr: SocketAddr,
    /// The admin port (Prometheus `/metrics`).
    pub admin_addr: SocketAddr,
    pub client: reqwest::Client,
    pub dist: tempfile::TempDir,
    /// The app's database (staff codes are computed from it).
    pub db: PgPool,
    /// Where its commands hand steps due at once to a runner (the one a world attaches).
    pub handoff: Arc<orchestrator::write_path::Handoff>,
    shutdown: Option<tokio::sync::oneshot::Sender<()>>,
}

impl TestApp {
    pub fn url(&self, path: &str) -> String {
        format!("http://{}{}", self.addr, path)
    }

    pub fn admin_url(&self, path: &str) -> String {
        format!("http://{}{}", self.admin_addr, path)
    }

    /// A visitor's start of a desktop download (Windows, Chrome), answered.
    pub async fn start_download(&self) -> reqwest::Response {
        self.client
            .post(self.url("/api/attempts"))
            .json(&serde_json::json!({ "flow": "download", "command": { "type": "start", "os": "win_pc", "browser": "Chrome" } }))
            .send()
            .await
            .expect("start")
    }

    /// A solved proof of work for one command that sends a code (the `X-Altcha` header).
    pub async fn proof(&self) -> String {
        solved_proof(&self.client, &format!("http://{}", self.addr)).await
    }
}

/// Fetches a challenge from the portal at `base` and solves it, as the browser does.
pub async fn solved_proof(client: &reqwest::Client, base: &str) -> String {
    let challenge: altcha::Challenge = client
        .get(format!("{base}/api/altcha/challenge"))
        .send()
        .await
        .expect("challenge")
        .json()
        .await
        .expect("challenge json");
    orchestrator::abuse::proof::solve(&challenge).expect("solvable challenge")
}

include!("proved.rs");

impl Drop for TestApp {
    fn drop(&mut self) {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
    }
}

/// A small web build: index.html, one hashed asset and one plain public file.
fn fake_dist() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::create_dir_all(dir.path().join("static")).expect("static dir");
    std::fs::write(dir.path().join("index.html"), "<!doctype html><title>SPA</title>").expect("index");
    std::fs::write(dir.path().join("static/app-3f9a.js"), "console.log(1)").expect("asset");
    std::fs::write(dir.path().join("robots.txt"), "User-agent: *").expect("robots");
    dir
}

pub fn test_config(dist: PathBuf) -> ServeConfig {
    test_config_against(dist, "http://127.0.0.1:9")
}

fn test_config_against(dist: PathBuf, sandbox_url: &str) -> ServeConfig {
    ServeConfig {
        database_url: SecretString::from(""),
        database_max_connections: 5,
        database_read_url: None,
        bind_addr: "127.0.0.1:0".parse().expect("addr"),
        admin_bind_addr: None,
        web_dist: dist,
        runner_workers: 1,
        runner_concurrency: 8,
        runner_lease_secs: 45,
        funnel_projection: false,
        funnel_memory_days: orchestrator::config::DEFAULT_FUNNEL_MEMORY_DAYS,
        keys: KeyConfig::default(),
        site: SiteSettings { sandbox_mode: true, ..SiteSettings::default() },
        upstreams: UpstreamConfig::sandbox(sandbox_url),
        partners: PartnerConfig::default(),
        download: DownloadConfig::default(),
        abuse: orchestrator::config::AbuseConfig::default(),
        server: orchestrator::config::ServerConfig::default(),
        // Off: most tests run no runner, so their due steps would read as runner lag and close
        // the door mid-test. The overload tests turn it on (`spawn_app_admitting`).
        admission: orchestrator::config::AdmissionConfig {
            admission_signals: String::new(),
            ..orchestrator::config::AdmissionConfig::default()
        },
    }
}

pub async fn spawn_app(db: PgPool) -> TestApp {
    spawn_app_with(db, |_| {}).await
}

/// The app with its state adjusted by `adjust` (extra flows, say) before it serves.
pub async fn spawn_app_with(db: PgPool, adjust: impl FnOnce(&mut AppState)) -> TestApp {
    spawn(db, "http://127.0.0.1:9", adjust).await.0
}

/// The app with admission control as a deployment has it (every signal of the defaults), its
/// state adjusted by `adjust`.
pub async fn spawn_app_admitting(db: PgPool, adjust: impl FnOnce(&mut AppState)) -> TestApp {
    spawn_app_admitting_with(db, |_| {}, adjust).await
}

/// [`spawn_app_admitting`] with the admission settings changed by `configure`.
pub async fn spawn_app_admitting_with(
    db: PgPool,
    configure: impl FnOnce(&mut orchestrator::config::AdmissionConfig),
    adjust: impl FnOnce(&mut AppState),
) -> TestApp {
    let admitting = |config: &mut ServeConfig| {
        config.admission = orchestrator::config::AdmissionConfig::default();
        configure(&mut config.admission);
    };
    spawn_with(db, "http://127.0.0.1:9", admitting, adjust).await.0
}

/// The app with its upstreams at `sandbox_url` and its configuration changed by `configure`
/// (abuse limits, sandbox mode), and every flow's steps for a runner to run.
pub async fn spawn_app_configured(
    db: PgPool,
    sandbox_url: &str,
    configure: impl FnOnce(&mut ServeConfig),
) -> (TestApp, Vec<Arc<dyn StepFlow>>) {
    spawn_with(db, sandbox_url, configure, |_| {}).await
}

async fn spawn(db: PgPool, sandbox_url: &str, adjust: impl FnOnce(&mut AppState)) -> (TestApp, Vec<Arc<dyn StepFlow>>) {
    spawn_with(db, sandbox_url, |_| {}, adjust).await
}

async fn spawn_with(
    db: PgPool,
    sandbox_url: &str,
    configure: impl FnOnce(&mut ServeConfig),
    adjust: impl FnOnce(&mut AppState),
) -> (TestApp, Vec<Arc<dyn StepFlow>>) {
    let dist = fake_dist();
    let mut config = test_config_against(dist.path().to_path_buf(), sandbox_url);
    configure(&mut config);
    // The notifier runs until the test's runtime ends: no stop flag is ever raised.
    let (_, never_stop) = tokio::sync::watch::channel(false);
    let parts = orchestrator::startup::Parts::from_config(&config).expect("parts");
    let app = orchestrator::startup::build(db.clone(), parts, never_stop).expect("app");
    let mut state = app.state;
    let steps = app.registry_steps;
    adjust(&mut state);
    state.abuse.prepare(&state.db).await.expect("the SMS ceiling's shards");
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let addr = listener.local_addr().expect("addr");
    let handoff = state.handoff.clone();
    let admin = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind the admin port");
    let admin_addr = admin.local_addr().expect("admin addr");
    tokio::spawn(orchestrator::http::admin::serve(admin, state.clone(), std::future::pending()));
    let (tx, rx) = tokio::sync::oneshot::channel::<()>();
    tokio::spawn(async move {
        let _ = orchestrator::startup::serve(listener, state, &config.web_dist, async {
            let _ = rx.await;
        })
        .await;
    });
    (TestApp { addr, admin_addr, client: reqwest::Client::new(), dist, db, handoff, shutdown: Some(tx) }, steps)
}
