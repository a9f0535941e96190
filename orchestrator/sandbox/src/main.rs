//! `sandbox`: serves every upstream of the spec on one address for development and tests.

use std::net::SocketAddr;

use anyhow::Context;
use clap::Parser;
use sandbox::SandboxConfig;
use tracing_subscriber::EnvFilter;

/// The sandbox upstreams (development and tests only; see docs/sandbox.md).
#[derive(Parser)]
#[command(name = "sandbox", version)]
struct Cli {
    /// Address to listen on.
    #[arg(long, env = "SANDBOX_BIND", default_value = sandbox::DEFAULT_ADDR)]
    bind: SocketAddr,
    #[command(flatten)]
    config: SandboxConfig,
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    tracing_subscriber::fmt().with_env_filter(filter).init();
    let cli = Cli::parse();
    let listener = tokio::net::TcpListener::bind(cli.bind).await.with_context(|| format!("binding {}", cli.bind))?;
    // SIGTERM and Ctrl-C end the process as they would by default: nothing here needs draining.
    sandbox::serve(listener, cli.config).await
}
