use std::net::SocketAddr;

use anyhow::Context;
use clap::{Parser, Subcommand};
use orchestrator::config::ServeConfig;

/// The EXA portal's orchestrator.
#[derive(Parser)]
#[command(name = "orchestrator", version)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run the portal: HTTP API, the web app and the step runner.
    Serve(ServeConfig),
    /// Apply the database migrations and exit.
    Migrate(ServeConfig),
    /// Run the sandbox that plays every upstream service over HTTP (development and tests).
    Sandbox {
        /// Address to listen on.
        #[arg(long, env = "SANDBOX_BIND", default_value = "127.0.0.1:8090")]
        bind: SocketAddr,
    },
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    orchestrator::telemetry::init();
    match Cli::parse().command {
        Command::Serve(config) => orchestrator::startup::run(config).await,
        Command::Migrate(config) => orchestrator::startup::connect(&config).await.map(|_| ()),
        Command::Sandbox { bind } => {
            let config = orchestrator::sandbox::SandboxConfig::from_env().context("SANDBOX_SEED")?;
            let listener = tokio::net::TcpListener::bind(bind)
                .await
                .with_context(|| format!("binding {bind}"))?;
            tokio::select! {
                served = orchestrator::sandbox::serve(listener, config) => served,
                () = orchestrator::shutdown::signal() => Ok(()),
            }
        }
    }
}
