//! Typed configuration, read from environment variables with defaults that run on one machine.

use std::net::SocketAddr;
use std::path::PathBuf;

use clap::Args;

/// Settings of `orchestrator serve`. Every field has an environment variable (see README).
#[derive(Debug, Clone, Args)]
pub struct ServeConfig {
    /// PostgreSQL connection string.
    #[arg(long, env = "DATABASE_URL")]
    pub database_url: String,

    /// Address the portal listens on.
    #[arg(long, env = "BIND_ADDR", default_value = "127.0.0.1:8080")]
    pub bind_addr: SocketAddr,

    /// Folder holding the production build of the web app (index.html and static/).
    #[arg(long, env = "WEB_DIST", default_value = "web/dist")]
    pub web_dist: PathBuf,

    /// Base URL of the sandbox upstreams; used for every upstream that has no URL of its own.
    #[arg(long, env = "SANDBOX_URL", default_value = "http://127.0.0.1:8090")]
    pub sandbox_url: String,

    /// Maximum connections in the database pool.
    #[arg(long, env = "DATABASE_MAX_CONNECTIONS", default_value_t = 10)]
    pub database_max_connections: u32,

    /// Master key (32 bytes, hex) wrapping each person's data key. Unset: a fixed
    /// development key, with a warning; never run production without it.
    #[arg(long, env = "PII_KEK_HEX", hide_env_values = true)]
    pub pii_kek_hex: Option<String>,

    /// Key (32 bytes, hex) of the HMAC that indexes phones, CPF/CNPJ and e-mails.
    #[arg(long, env = "PII_HMAC_HEX", hide_env_values = true)]
    pub pii_hmac_hex: Option<String>,

    /// Step runners in this process (each runs one step at a time).
    #[arg(long, env = "RUNNER_WORKERS", default_value_t = 4)]
    pub runner_workers: usize,

    /// Whether the upstreams are the built-in sandbox (shows the SMS inbox link on the site).
    #[arg(long, env = "SANDBOX_MODE", default_value_t = true, action = clap::ArgAction::Set)]
    pub sandbox_mode: bool,
}

impl ServeConfig {
    /// Public URL of the chatbot page embedded by the site (the sandbox plays it by default).
    pub fn chatbot_url(&self) -> String {
        std::env::var("CHATBOT_URL")
            .unwrap_or_else(|_| format!("{}/chatbot/?p=hero", self.sandbox_url.trim_end_matches('/')))
    }
}
