use std::io::Write as _;

use anyhow::Context;
use clap::{Parser, Subcommand};
use events::funnel::projection;
use events::funnel::Order;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use replay::funnel::{replay as replay_funnel, Breakdown, FunnelQuery};
use replay::funnel_report::{render, Format};
use replay::seed::{seed, SeedOptions};
use replay::tail::{parse_checkpoint, tail, TailOptions};

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

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
    /// A flow's funnel replayed from the whole log: per step, who entered, converted and
    /// dropped, the top refusals and the time to convert.
    Funnel {
        /// activation, download or cloud.
        #[arg(long)]
        flow: String,
        /// An activation variant (standard, insurance, partner_portal, broadband, telecom,
        /// carrier); without it, the steps all variants share.
        #[arg(long)]
        variant: Option<String>,
        /// First day (São Paulo), YYYY-MM-DD; 30 days before --to by default.
        #[arg(long)]
        from: Option<chrono::NaiveDate>,
        /// Last day (São Paulo), YYYY-MM-DD; today by default.
        #[arg(long)]
        to: Option<chrono::NaiveDate>,
        /// Conversion window in days: a step later than this after the first does not count.
        #[arg(long, default_value_t = 14)]
        window: i64,
        /// sequential, strict or any.
        #[arg(long, default_value = "sequential", value_parser = parse_order)]
        order: Order,
        /// variant, partner, brand, os, platform or day.
        #[arg(long, value_parser = parse_breakdown)]
        breakdown: Option<Breakdown>,
        #[arg(long, value_enum, default_value_t = FormatArg::Table)]
        format: FormatArg,
    },
    /// The funnel facts as CSV on stdout: one row per attempt and step reached (no personal
    /// data), for DuckDB, ClickHouse or pandas. With --clickhouse, every flow's projected
    /// attempts streamed into a ClickHouse table instead, resuming after the last export.
    Export {
        /// activation, download or cloud (CSV only).
        #[arg(long, required_unless_present = "clickhouse")]
        flow: Option<String>,
        #[arg(long)]
        variant: Option<String>,
        /// First day (São Paulo), YYYY-MM-DD; 2000-01-01 by default.
        #[arg(long)]
        from: Option<chrono::NaiveDate>,
        /// Last day (São Paulo), YYYY-MM-DD; today by default.
        #[arg(long)]
        to: Option<chrono::NaiveDate>,
        #[arg(long, default_value_t = 14)]
        window: i64,
        /// sequential, strict or any.
        #[arg(long, default_value = "sequential", value_parser = parse_order)]
        order: Order,
        /// csv (on stdout) or parquet (to --output).
        #[arg(long, value_enum, default_value_t = ExportFormat::Csv)]
        format: ExportFormat,
        /// The file to write; required with --format parquet.
        #[arg(long, required_if_eq("format", "parquet"))]
        output: Option<std::path::PathBuf>,
        /// A ClickHouse HTTP interface (http://host:8123, credentials in the URL if any).
        #[arg(long, conflicts_with_all = ["flow", "variant", "from", "to", "output"])]
        clickhouse: Option<String>,
        /// The ClickHouse table (created if absent).
        #[arg(long, default_value = "funnel_marks", requires = "clickhouse")]
        clickhouse_table: String,
        /// Attempts per insert.
        #[arg(long, default_value_t = 5_000, value_parser = clap::value_parser!(i64).range(1..=100_000))]
        page: i64,
    },
    /// Keep the funnel projection (the table the funnel page reads) current: fold the events
    /// after its checkpoint, writing rows and checkpoint in one transaction each page.
    Project {
        /// Keep following the log after catching up.
        #[arg(long)]
        follow: bool,
        /// Events per page (and per transaction).
        #[arg(long, default_value_t = 5_000, value_parser = clap::value_parser!(i64).range(1..=100_000))]
        page: i64,
    },
    /// Rebuild the funnel projection from the start of the log into a new table and swap it in
    /// without stopping readers; resumes a rebuild that was killed unless --fresh.
    Rebuild {
        /// Start over even if a killed rebuild left a half-built table.
        #[arg(long)]
        fresh: bool,
        #[arg(long, default_value_t = 5_000, value_parser = clap::value_parser!(i64).range(1..=100_000))]
        page: i64,
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

fn parse_order(text: &str) -> Result<Order, String> {
    Order::parse(text).ok_or_else(|| format!("ordem desconhecida: {text} (use sequential, strict ou any)"))
}

fn parse_breakdown(text: &str) -> Result<Breakdown, String> {
    Breakdown::parse(text)
        .ok_or_else(|| format!("detalhamento desconhecido: {text} (use variant, partner, brand, os, platform ou day)"))
}

#[derive(Clone, Copy, PartialEq, clap::ValueEnum)]
enum ExportFormat {
    Csv,
    Parquet,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum FormatArg {
    Table,
    Csv,
    Json,
}

/// A bar of events read on stderr: drawn only on a terminal, silent when piped.
fn events_bar(total: i64) -> anyhow::Result<ProgressBar> {
    let progress = ProgressBar::with_draw_target(Some(total.max(0) as u64), ProgressDrawTarget::stderr());
    progress.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} eventos ({per_sec}, falta {eta})")
            .context("progress template")?,
    );
    Ok(progress)
}

/// The portal's keys (PII_KEK_HEX and PII_HMAC_HEX). The development keys only with
/// SANDBOX_MODE=true, as the portal: a projection tagged under other keys than the portal's
/// would count its people apart from the server's and escape an erasure's match.
fn keys_of(kek: Option<String>, hmac: Option<String>, sandbox: bool) -> anyhow::Result<events::pii::Keys> {
    Ok(match (kek, hmac) {
        (Some(kek), Some(hmac)) => events::pii::Keys::from_hex(&kek, &hmac).context("PII_KEK_HEX / PII_HMAC_HEX")?,
        (None, None) if sandbox => {
            eprintln!("PII_KEK_HEX and PII_HMAC_HEX are unset: using the development keys (SANDBOX_MODE=true)");
            events::pii::Keys::insecure_dev()
        }
        (None, None) => anyhow::bail!(
            "PII_KEK_HEX and PII_HMAC_HEX are unset: give the portal's keys (SANDBOX_MODE=true allows the development keys)"
        ),
        _ => anyhow::bail!("set both PII_KEK_HEX and PII_HMAC_HEX, or neither"),
    })
}

/// Whether SANDBOX_MODE=true is set (off unless asked for, as the portal's).
fn sandbox_mode() -> bool {
    std::env::var("SANDBOX_MODE").is_ok_and(|v| v.trim().eq_ignore_ascii_case("true"))
}

/// The vault the projection tags people with (the portal's own keys, from the environment).
fn persons_vault(pool: &sqlx::PgPool) -> anyhow::Result<events::pii::Vault> {
    let keys = keys_of(std::env::var("PII_KEK_HEX").ok(), std::env::var("PII_HMAC_HEX").ok(), sandbox_mode())?;
    Ok(events::pii::Vault::new(pool.clone(), keys))
}

fn usage_error(message: impl std::fmt::Display) -> ! {
    eprintln!("erro: {message}");
    std::process::exit(2)
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    // Bad funnel questions are refused before anything connects.
    let asked = match &cli.command {
        Command::Funnel { flow, variant, window, from, to, .. } => Some((Some(flow), variant, window, from, to)),
        Command::Export { flow, variant, window, from, to, .. } => Some((flow.as_ref(), variant, window, from, to)),
        _ => None,
    };
    if let Some((flow, variant, window, from, to)) = asked {
        if let Some(Err(error)) = flow.map(|flow| events::funnel::funnel(flow, variant.as_deref())) {
            usage_error(error);
        }
        if *window < 1 {
            usage_error("--window precisa ser de pelo menos 1 dia");
        }
        if let (Some(from), Some(to)) = (from, to) {
            if to < from {
                usage_error("--to não pode ser antes de --from");
            }
        }
    }
    let url = cli.database_url.context("DATABASE_URL is not set (or pass --database-url)")?;
    let pool = sqlx::postgres::PgPoolOptions::new()
        .max_connections(2)
        .connect(&url)
        .await
        .context("connecting to PostgreSQL")?;
    let store = events::EventStore::new(pool.clone());
    match cli.command {
        Command::Tail { after, follow, limit, wait_secs } => {
            let stdout = std::io::stdout();
            let mut out = stdout.lock();
            let held_back_wait = std::time::Duration::from_secs(wait_secs);
            tail(&store, TailOptions { after, follow, limit, batch: 500, held_back_wait }, &mut out).await?;
        }
        Command::Funnel { flow, variant, from, to, window, order, breakdown, format } => {
            let funnel = events::funnel::funnel(&flow, variant.as_deref()).unwrap_or_else(|e| usage_error(e));
            if window < 1 {
                usage_error("--window precisa ser de pelo menos 1 dia");
            }
            let today = chrono::Utc::now().with_timezone(&replay::funnel::sao_paulo()).date_naive();
            let to = to.unwrap_or(today);
            let from = from.unwrap_or(to - chrono::Duration::days(30));
            if to < from {
                usage_error("--to não pode ser antes de --from");
            }
            let query = FunnelQuery { funnel, from, to, window: chrono::Duration::days(window), order, breakdown };
            // An estimate is enough for the bar; counting the category would read it twice.
            let total: i64 = sqlx::query_scalar("SELECT count(*) FROM events WHERE category = $1")
                .bind(query.funnel.flow)
                .fetch_one(&pool)
                .await?;
            let progress = events_bar(total)?;
            let result = replay_funnel(&store, &query, |read| progress.set_position(read)).await?;
            progress.finish_and_clear();
            let format = match format {
                FormatArg::Table => Format::Table,
                FormatArg::Csv => Format::Csv,
                FormatArg::Json => Format::Json,
            };
            print!("{}", render(&query.funnel, &result, format));
        }
        Command::Export { clickhouse: Some(url), clickhouse_table, page, .. } => {
            sqlx::migrate!("../migrations").run(&pool).await.context("applying migrations")?;
            let clickhouse =
                replay::clickhouse::ClickHouse::new(&url, &clickhouse_table).unwrap_or_else(|e| usage_error(e));
            // The projection first, so the export carries the log as it is now.
            let mut projector =
                projection::Projector::new(store.clone(), projection::LIVE, 5_000).with_persons(persons_vault(&pool)?);
            projector.catch_up(|_| {}).await?;
            let pending: i64 = sqlx::query_scalar("SELECT count(*) FROM funnel_attempts").fetch_one(&pool).await?;
            let progress = ProgressBar::with_draw_target(Some(pending.max(0) as u64), ProgressDrawTarget::stderr());
            progress.set_style(
                ProgressStyle::with_template("{bar:30} {pos} tentativas enviadas ({per_sec})")
                    .context("progress template")?,
            );
            let done = replay::clickhouse::export(&pool, &clickhouse, page, |n| progress.set_position(n)).await?;
            progress.finish_and_clear();
            if done.restarted {
                eprintln!("a projeção foi refeita desde a última exportação: tabela preenchida de novo");
            }
            println!("{} tentativas, {} linhas enviadas para {}", done.attempts, done.rows, clickhouse.target());
        }
        Command::Export { flow, variant, from, to, window, order, format, output, .. } => {
            let flow = flow.unwrap_or_else(|| usage_error("--flow é obrigatório sem --clickhouse"));
            let funnel = events::funnel::funnel(&flow, variant.as_deref()).unwrap_or_else(|e| usage_error(e));
            let today = chrono::Utc::now().with_timezone(&replay::funnel::sao_paulo()).date_naive();
            let query = FunnelQuery {
                funnel,
                from: from.unwrap_or(chrono::NaiveDate::from_ymd_opt(2000, 1, 1).context("date")?),
                to: to.unwrap_or(today),
                window: chrono::Duration::days(window),
                order,
                breakdown: None,
            };
            if let (ExportFormat::Parquet, Some(path)) = (format, output) {
                let progress = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
                progress.set_style(
                    ProgressStyle::with_template("{spinner} {pos} tentativas ({per_sec})")
                        .context("progress template")?,
                );
                let rows = replay::export_parquet::export(&store, &query, &path, &progress).await?;
                progress.finish_and_clear();
                eprintln!("{rows} linhas gravadas em {}", path.display());
                return Ok(());
            }
            let stdout = std::io::stdout();
            let mut out = std::io::BufWriter::new(stdout.lock());
            writeln!(out, "{}", replay::export::HEADER)?;
            let mut failed: Option<std::io::Error> = None;
            let sink = |finished: &replay::funnel::Finished| {
                if failed.is_none() {
                    if let Err(error) = replay::export::write_rows(&mut out, &query.funnel, finished) {
                        failed = Some(error);
                    }
                }
            };
            let replay = replay::funnel::Replay::new(&query).with_sink(sink);
            replay::funnel::replay_with(&store, replay, |_| {}).await?;
            match failed {
                // `replay export | head`: the reader had enough.
                Some(error) if error.kind() == std::io::ErrorKind::BrokenPipe => return Ok(()),
                Some(error) => return Err(error).context("writing the export"),
                None => {}
            }
            out.flush()?;
        }
        Command::Project { follow, page } => {
            sqlx::migrate!("../migrations").run(&pool).await.context("applying migrations")?;
            let standing = projection::standing(&pool, projection::LIVE).await?;
            let total: i64 = sqlx::query_scalar("SELECT count(*) FROM events").fetch_one(&pool).await?;
            let progress = events_bar(total.saturating_sub(standing.events))?;
            let mut projector =
                projection::Projector::new(store.clone(), projection::LIVE, page).with_persons(persons_vault(&pool)?);
            let written = projector.catch_up(|n| progress.set_position(n)).await?;
            progress.finish_and_clear();
            eprintln!("projeção em dia: {written} eventos lidos");
            // `--follow` keeps the projection current until the process is stopped.
            if follow {
                loop {
                    match projector.step().await? {
                        projection::Step::Wrote(_) | projection::Step::Raced => {}
                        projection::Step::CaughtUp { held_back: true } => {
                            tokio::time::sleep(std::time::Duration::from_millis(20)).await
                        }
                        projection::Step::CaughtUp { held_back: false } => {
                            tokio::time::sleep(std::time::Duration::from_millis(500)).await
                        }
                    }
                }
            }
        }
        Command::Rebuild { fresh, page } => {
            sqlx::migrate!("../migrations").run(&pool).await.context("applying migrations")?;
            let total: i64 = sqlx::query_scalar("SELECT count(*) FROM events").fetch_one(&pool).await?;
            let progress = events_bar(total.max(0))?;
            let written =
                projection::rebuild(&store, Some(persons_vault(&pool)?), page, fresh, |n| progress.set_position(n))
                    .await?;
            progress.finish_and_clear();
            eprintln!("projeção refeita: {written} eventos lidos, tabela trocada");
        }
        Command::Seed { attempts, days, seed: random_seed, force, batch, pii_kek_hex, pii_hmac_hex } => {
            let keys = keys_of(pii_kek_hex, pii_hmac_hex, sandbox_mode())?;
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
            println!("{} tentativas, {} eventos, {} pessoas", report.attempts, report.events, report.people);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_development_keys_only_in_sandbox_mode() {
        assert!(keys_of(None, None, true).is_ok());
        let refused = keys_of(None, None, false).expect_err("no keys outside sandbox mode");
        assert!(refused.to_string().contains("PII_KEK_HEX"), "{refused}");
        assert!(keys_of(Some("00".repeat(32)), None, true).is_err(), "one without the other");
    }
}
