//! Builds the application from configuration and runs it until shutdown.

use std::sync::Arc;

use anyhow::Context;
use events::pii::{Keys, Vault};
use events::EventStore;
use sqlx::postgres::PgPoolOptions;
use sqlx::PgPool;
use tokio::net::TcpListener;

use crate::attempts::notifier::Notifier;
use crate::runner::StepDeps;
use crate::config::ServeConfig;
use crate::flows::{registry, Registry};
use crate::runner::{Runner, RunnerConfig};
use crate::state::{AppState, SiteConfig};
use crate::upstream::Upstreams;

/// The SQL migrations of `migrations/`, embedded at build time.
pub static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("../migrations");

pub async fn connect(config: &ServeConfig) -> anyhow::Result<PgPool> {
    let pool = PgPoolOptions::new()
        .max_connections(config.database_max_connections)
        .acquire_timeout(std::time::Duration::from_secs(10))
        .connect(&config.database_url)
        .await
        .context("connecting to PostgreSQL (DATABASE_URL)")?;
    MIGRATOR.run(&pool).await.context("applying migrations")?;
    Ok(pool)
}

pub fn site_config(config: &ServeConfig) -> SiteConfig {
    let sandbox = config.sandbox_url.trim_end_matches('/');
    SiteConfig {
        chatbot_url: config.chatbot_url(),
        chatbot_avatar_url: std::env::var("CHATBOT_AVATAR_URL")
            .unwrap_or_else(|_| format!("{sandbox}/chatbot/avatar.svg")),
        sandbox: config.sandbox_mode,
        sms_inbox_url: config.sandbox_mode.then(|| format!("{sandbox}/sms")),
    }
}

pub fn pii_keys(config: &ServeConfig) -> anyhow::Result<Keys> {
    match (&config.pii_kek_hex, &config.pii_hmac_hex) {
        (Some(kek), Some(hmac)) => Keys::from_hex(kek, hmac).context("PII_KEK_HEX / PII_HMAC_HEX"),
        (None, None) => {
            tracing::warn!("PII_KEK_HEX and PII_HMAC_HEX are unset: using the development keys");
            Ok(Keys::insecure_dev())
        }
        _ => anyhow::bail!("set both PII_KEK_HEX and PII_HMAC_HEX, or neither"),
    }
}

/// Everything the server and its runners share.
pub struct App {
    pub state: AppState,
    pub registry_steps: Vec<Arc<dyn crate::runner::StepFlow>>,
}

pub fn build(db: PgPool, keys: Keys, upstreams: Upstreams, site: SiteConfig) -> anyhow::Result<App> {
    let store = EventStore::new(db.clone());
    let vault = Vault::new(db.clone(), keys);
    let http = reqwest::Client::builder()
        .timeout(upstreams.timeout)
        .build()
        .context("building the HTTP client")?;
    let deps = StepDeps { db: db.clone(), vault: vault.clone(), http, upstreams: Arc::new(upstreams) };
    let Registry { flows, steps } = registry(&deps);
    let notifier = Notifier::spawn(db.clone());
    let state = AppState { db, store, vault, flows: Arc::new(flows), notifier, site: Arc::new(site) };
    Ok(App { state, registry_steps: steps })
}

/// Starts `workers` runners over every flow's steps; they stop when `shutdown` fires.
pub fn spawn_runners(
    app: &App,
    workers: usize,
    shutdown: tokio::sync::watch::Receiver<bool>,
) -> Vec<tokio::task::JoinHandle<()>> {
    (0..workers)
        .map(|_| {
            let runner = app.registry_steps.iter().fold(
                Runner::new(app.state.db.clone(), app.state.store.clone(), RunnerConfig::default()),
                |runner, flow| runner.with_flow(flow.clone()),
            );
            let mut stop = shutdown.clone();
            tokio::spawn(async move {
                let until = async move {
                    let _ = stop.wait_for(|stopped| *stopped).await;
                };
                if let Err(error) = runner.run_until(until).await {
                    tracing::error!(%error, "step runner stopped with an error");
                }
            })
        })
        .collect()
}

/// Serves on an already bound listener (tests bind port 0) until `shutdown` resolves.
pub async fn serve(
    listener: TcpListener,
    state: AppState,
    config: &ServeConfig,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> anyhow::Result<()> {
    let app = crate::http::app(state, &config.web_dist);
    axum::serve(listener, app)
        .with_graceful_shutdown(shutdown)
        .await
        .context("serving HTTP")
}

pub async fn run(config: ServeConfig) -> anyhow::Result<()> {
    let db = connect(&config).await?;
    let app = build(db, pii_keys(&config)?, Upstreams::from_env(&config.sandbox_url), site_config(&config))?;
    let (stop_tx, stop_rx) = tokio::sync::watch::channel(false);
    let runners = spawn_runners(&app, config.runner_workers, stop_rx);
    let purge_db = app.state.db.clone();
    tokio::spawn(async move {
        loop {
            tokio::time::sleep(std::time::Duration::from_secs(60)).await;
            if let Err(error) = crate::write_path::secrets::purge_expired(&purge_db).await {
                tracing::warn!(%error, "purging expired secrets failed");
            }
        }
    });
    let listener = TcpListener::bind(config.bind_addr)
        .await
        .with_context(|| format!("binding {}", config.bind_addr))?;
    let addr = listener.local_addr()?;
    tracing::info!("portal listening on http://{addr} (health: http://{addr}/healthz)");
    serve(listener, app.state.clone(), &config, crate::shutdown::signal()).await?;
    let _ = stop_tx.send(true);
    for runner in runners {
        let _ = runner.await;
    }
    Ok(())
}
