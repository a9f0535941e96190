//! Builds the application from configuration and runs it until shutdown.

use std::sync::Arc;

use anyhow::Context;
use sqlx::postgres::PgPoolOptions;
use sqlx::PgPool;
use tokio::net::TcpListener;

use crate::config::ServeConfig;
use crate::state::{AppState, SiteConfig};

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
    let state = AppState { db, site: Arc::new(site_config(&config)) };
    let listener = TcpListener::bind(config.bind_addr)
        .await
        .with_context(|| format!("binding {}", config.bind_addr))?;
    let addr = listener.local_addr()?;
    tracing::info!("portal listening on http://{addr} (health: http://{addr}/healthz)");
    serve(listener, state, &config, crate::shutdown::signal()).await
}
