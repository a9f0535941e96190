use anyhow::Context;
use clap::{Parser, Subcommand};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use replay::seed::{seed, SeedOptions};
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
    },
    /// Write a synthetic history (benchmarks, demos): attempts of the three flows, made by
    /// the flows' own rules, personal data sealed as the portal seals it.
    Seed {
        /// How many attempts.
        #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
        attempts: u64,
        /// Spread over the last D days.
        #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u32).range(1..=3650))]
        days: u32,
        /// Random seed: the same seed draws the same visitors and journeys.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Write even if the database holds real attempts.
        #[arg(long)]
        force: bool,
        /// Attempts per transaction.
        #[arg(long, default_value_t = 5_000, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
        batch: u64,
        /// Master key wrapping each person's data key (64 hex); the development key when unset.
        #[arg(long, env = "PII_KEK_HEX", hide_env_values = true)]
        pii_kek_hex: Option<String>,
        /// Key of the look-up hash (64 hex); the development key when unset.
        #[arg(long, env = "PII_HMAC_HEX", hide_env_values = true)]
        pii_hmac_hex: Option<String>,
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
    let store = events::EventStore::new(pool.clone());
    match cli.command {
        Command::Tail { after, follow, limit } => {
            let stdout = std::io::stdout();
            let mut out = stdout.lock();
            tail(&store, TailOptions { after, follow, limit, batch: 500 }, &mut out).await?;
        }
        Command::Seed { attempts, days, seed: random_seed, force, batch, pii_kek_hex, pii_hmac_hex } => {
            let keys = match (pii_kek_hex, pii_hmac_hex) {
                (Some(kek), Some(hmac)) => events::pii::Keys::from_hex(&kek, &hmac).context("PII_KEK_HEX / PII_HMAC_HEX")?,
                (None, None) => {
                    eprintln!("PII_KEK_HEX and PII_HMAC_HEX are unset: sealing with the development keys");
                    events::pii::Keys::insecure_dev()
                }
                _ => anyhow::bail!("set both PII_KEK_HEX and PII_HMAC_HEX, or neither"),
            };
            sqlx::migrate!("../migrations").run(&pool).await.context("applying migrations")?;
            // Drawn only on a terminal; silent when stderr is piped.
            let progress = ProgressBar::with_draw_target(Some(attempts), ProgressDrawTarget::stderr());
            progress.set_style(
                ProgressStyle::with_template("{bar:30} {pos}/{len} tentativas, {msg} ({per_sec}, falta {eta})")
                    .context("progress template")?,
            );
            let options = SeedOptions { attempts, days, seed: random_seed, force, batch: batch as usize };
            let report = seed(&pool, keys, &options, &progress).await?;
            progress.finish_and_clear();
            println!(
                "{} tentativas, {} eventos, {} pessoas",
                report.attempts, report.events, report.people
            );
        }
    }
    Ok(())
}
