use anyhow::Context;
use clap::{Parser, Subcommand};
use replay::tail::{parse_checkpoint, tail, TailOptions};

/// Analysts' tools over the EXA event log.
#[derive(Parser)]
#[command(name = "replay", version)]
struct Cli {
    /// PostgreSQL connection string.
    #[arg(long, env = "DATABASE_URL", global = true)]
    database_url: Option<String>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Print the event log after a checkpoint as JSON lines (never skips a late commit).
    Tail {
        /// `start`, or the `checkpoint` (TX:POSITION) of the last line you processed.
        #[arg(long, default_value = "start", value_parser = parse_checkpoint)]
        after: events::Checkpoint,
        /// Keep waiting for new events.
        #[arg(long)]
        follow: bool,
        /// Stop after this many events.
        #[arg(long)]
        limit: Option<usize>,
        /// Without --follow: seconds to wait for events held back behind a transaction still
        /// open in the cluster before stopping with an error.
        #[arg(long, default_value_t = 10)]
        wait_secs: u64,
    },
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    let url = cli.database_url.context("DATABASE_URL is not set (or pass --database-url)")?;
    let pool = sqlx::postgres::PgPoolOptions::new()
        .max_connections(2)
        .connect(&url)
        .await
        .context("connecting to PostgreSQL")?;
    let store = events::EventStore::new(pool);
    match cli.command {
        Command::Tail { after, follow, limit, wait_secs } => {
            let stdout = std::io::stdout();
            let mut out = stdout.lock();
            let held_back_wait = std::time::Duration::from_secs(wait_secs);
            tail(&store, TailOptions { after, follow, limit, batch: 500, held_back_wait }, &mut out).await?;
        }
    }
    Ok(())
}
