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
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    orchestrator::telemetry::init();
    match Cli::parse().command {
        Command::Serve(config) => orchestrator::startup::run(config).await,
        Command::Migrate(config) => orchestrator::startup::connect(&config).await.map(|_| ()),
    }
}
