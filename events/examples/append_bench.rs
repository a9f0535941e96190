//! Append throughput of the event store against raw single-row INSERTs.
//!
//! cargo run --release -p events --example append_bench -- \
//!     [--database-url postgres://postgres@127.0.0.1:5432/postgres] [--seconds 5] \
//!     [--concurrency 1,8,32] [--rounds 1] [--in-tx]
//!
//! Creates a scratch database, migrates it, measures for each concurrency level
//! (a) `EventStore::append` of one event into a new stream (version check, stream row,
//! event row, NOTIFY) and (b) an autocommit single-row INSERT into a table of the same
//! shape and indexes as `events`, then drops the database. Each side runs `seconds`
//! x `rounds` seconds per level, in 1-second slices alternating between the two sides,
//! so that load drift on a shared machine hits both alike. `--in-tx` adds two sides of
//! explicit transactions (BEGIN, append, COMMIT): the `append_events` function asked to
//! NOTIFY inside the transaction (the design the store no longer offers), and
//! `EventStore::append_in` with `announce` after the commit (the one the store offers).
//! Results: docs/benchmarks.md.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use events::{EventStore, ExpectedVersion, Metadata, NewEvent, StreamId};
use serde_json::json;
use sqlx::postgres::PgPoolOptions;
use sqlx::{Connection, PgConnection, PgPool};
use uuid::Uuid;

/// The `events` table as the migrations made it: same columns, defaults, generated column,
/// constraints and indexes (not its append-only trigger), with a sequence of its own for
/// `position` so the two sides never share one.
const RAW_TABLE: &str = "CREATE TABLE bench_raw (LIKE events INCLUDING ALL);
CREATE SEQUENCE bench_raw_position_seq OWNED BY bench_raw.position;
ALTER TABLE bench_raw ALTER COLUMN position SET DEFAULT nextval('bench_raw_position_seq');";

const RAW_INSERT: &str = "INSERT INTO bench_raw (stream_id, version, event_type, schema_version, payload, metadata) \
     VALUES ($1, 1, $2, 1, $3, $4)";

struct Args {
    database_url: String,
    seconds: u64,
    levels: Vec<usize>,
    rounds: u32,
    in_tx: bool,
}

fn parse_args() -> anyhow::Result<Args> {
    let mut args = Args {
        database_url: std::env::var("DATABASE_URL")
            .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/postgres".into()),
        seconds: 5,
        levels: vec![1, 8, 32],
        rounds: 1,
        in_tx: false,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        if flag == "--in-tx" {
            args.in_tx = true;
            continue;
        }
        let value = it.next().with_context(|| format!("{flag} needs a value"))?;
        match flag.as_str() {
            "--database-url" => args.database_url = value,
            "--seconds" => args.seconds = value.parse().context("--seconds")?,
            "--rounds" => args.rounds = value.parse().context("--rounds")?,
            "--concurrency" => {
                args.levels = value
                    .split(',')
                    .map(|v| v.trim().parse::<usize>())
                    .collect::<Result<_, _>>()
                    .context("--concurrency")?
            }
            other => bail!("unknown flag {other}"),
        }
    }
    if args.seconds == 0
        || args.seconds > 600
        || args.rounds == 0
        || args.rounds > 10
        || args.levels.iter().any(|&c| c == 0 || c > 90)
    {
        bail!("--seconds must be 1..=600, --rounds 1..=10 and each concurrency 1..=90");
    }
    Ok(args)
}

fn sample_event() -> NewEvent {
    NewEvent {
        event_type: "bench.appended".into(),
        schema_version: 1,
        payload: json!({"variant": "vivo", "os": "android", "step": 3}),
        metadata: Metadata {
            correlation_id: Uuid::new_v4(),
            causation_id: None,
            actor: "bench".into(),
            client: Some(json!({"ua": "bench"})),
        },
    }
}

#[derive(Clone, Copy)]
enum Kind {
    Append,
    /// BEGIN; append_events with its NOTIFY inside the transaction; COMMIT.
    AppendInTx,
    /// BEGIN; append_in; COMMIT; announce (NOTIFY after the commit).
    StoreTx,
    RawInsert,
}

async fn one_op(kind: Kind, store: &EventStore, pool: &PgPool) -> anyhow::Result<()> {
    let stream = StreamId::new("bench")?;
    let e = sample_event();
    match kind {
        Kind::Append => {
            store.append(&stream, ExpectedVersion::NoStream, vec![e]).await?;
        }
        Kind::AppendInTx => {
            let mut tx = pool.begin().await?;
            sqlx::query("SELECT appended FROM append_events($1, 0, $2, $3, $4, $5, true)")
                .bind(stream.as_str())
                .bind(vec![e.event_type.as_str()])
                .bind(vec![e.schema_version])
                .bind(vec![&e.payload])
                .bind(vec![serde_json::to_value(&e.metadata)?])
                .execute(&mut *tx)
                .await?;
            tx.commit().await?;
        }
        Kind::StoreTx => {
            let mut tx = pool.begin().await?;
            store.append_in(&mut tx, &stream, ExpectedVersion::NoStream, vec![e]).await?;
            tx.commit().await?;
            store.announce(&[&stream]).await;
        }
        Kind::RawInsert => {
            sqlx::query(RAW_INSERT)
                .bind(stream.as_str())
                .bind(&e.event_type)
                .bind(&e.payload)
                .bind(serde_json::to_value(&e.metadata)?)
                .execute(pool)
                .await?;
        }
    }
    Ok(())
}

/// Runs `concurrency` workers of `kind` for `duration`; returns (operations, seconds).
async fn run_for(kind: Kind, store: &EventStore, concurrency: usize, duration: Duration) -> anyhow::Result<(u64, f64)> {
    let done = Arc::new(AtomicU64::new(0));
    let start = Instant::now();
    let deadline = start + duration;
    let workers: Vec<_> = (0..concurrency)
        .map(|_| {
            let (store, done) = (store.clone(), done.clone());
            tokio::spawn(async move {
                while Instant::now() < deadline {
                    one_op(kind, &store, store.pool()).await?;
                    done.fetch_add(1, Ordering::Relaxed);
                }
                anyhow::Ok(())
            })
        })
        .collect();
    for w in workers {
        w.await??;
    }
    Ok((done.load(Ordering::Relaxed), start.elapsed().as_secs_f64()))
}

/// Operations and seconds accumulated by one side.
#[derive(Default)]
struct Tally {
    ops: u64,
    secs: f64,
}

impl Tally {
    fn add(&mut self, (ops, secs): (u64, f64)) {
        self.ops += ops;
        self.secs += secs;
    }

    fn rate(&self) -> f64 {
        self.ops as f64 / self.secs
    }
}

async fn run(args: &Args, url: &str) -> anyhow::Result<()> {
    let pool = PgPoolOptions::new().max_connections(2).connect(url).await?;
    sqlx::migrate!("../migrations").run(&pool).await?;
    sqlx::raw_sql(RAW_TABLE).execute(&pool).await?;
    pool.close().await;

    // Short alternating slices, so that load from other processes on a shared
    // machine falls on both sides alike.
    let slice = Duration::from_secs(1);
    print!("{:>11} {:>14} {:>14} {:>7}", "concurrency", "append/s", "raw insert/s", "ratio");
    if args.in_tx {
        print!(" {:>16} {:>7} {:>16} {:>7}", "notify in tx/s", "ratio", "announced/s", "ratio");
    }
    println!();
    for &c in &args.levels {
        // One pool for both sides (they never run at the same time); the store's
        // post-commit NOTIFY borrows from it too.
        let pool = PgPoolOptions::new().max_connections(c as u32).min_connections(c as u32).connect(url).await?;
        let store = EventStore::new(pool.clone());
        // Warm-up: open every connection and prepare both statements on it.
        for kind in [Kind::RawInsert, Kind::Append, Kind::AppendInTx, Kind::StoreTx] {
            run_for(kind, &store, c, Duration::from_millis(300)).await?;
        }
        let (mut raw, mut append) = (Tally::default(), Tally::default());
        let (mut in_tx, mut store_tx) = (Tally::default(), Tally::default());
        for i in 0..args.seconds * args.rounds as u64 {
            if i % 2 == 0 {
                raw.add(run_for(Kind::RawInsert, &store, c, slice).await?);
                append.add(run_for(Kind::Append, &store, c, slice).await?);
            } else {
                append.add(run_for(Kind::Append, &store, c, slice).await?);
                raw.add(run_for(Kind::RawInsert, &store, c, slice).await?);
            }
            if args.in_tx {
                in_tx.add(run_for(Kind::AppendInTx, &store, c, slice).await?);
                store_tx.add(run_for(Kind::StoreTx, &store, c, slice).await?);
            }
        }
        print!("{c:>11} {:>14.0} {:>14.0} {:>7.2}", append.rate(), raw.rate(), append.rate() / raw.rate());
        if args.in_tx {
            print!(" {:>16.0} {:>7.2}", in_tx.rate(), in_tx.rate() / raw.rate());
            print!(" {:>16.0} {:>7.2}", store_tx.rate(), store_tx.rate() / raw.rate());
        }
        println!();
        pool.close().await;
    }
    Ok(())
}

fn with_database(url: &str, name: &str) -> anyhow::Result<String> {
    // Replace the path (database name) of the URL, keeping any query string.
    let (base, query) = match url.split_once('?') {
        Some((b, q)) => (b, Some(q)),
        None => (url, None),
    };
    let scheme_end = base.find("://").context("database url without scheme")? + 3;
    let host_end = base[scheme_end..].find('/').map_or(base.len(), |i| scheme_end + i);
    let mut out = format!("{}/{name}", &base[..host_end]);
    if let Some(q) = query {
        out.push('?');
        out.push_str(q);
    }
    Ok(out)
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args = parse_args()?;
    let name = format!("events_bench_{}", std::process::id());
    let mut admin = PgConnection::connect(&args.database_url).await?;
    sqlx::query(&format!("CREATE DATABASE {name}")).execute(&mut admin).await?;
    let url = with_database(&args.database_url, &name)?;
    println!(
        "scratch database {name}; {} s per side and level in 1 s alternating slices; {} cores",
        args.rounds as u64 * args.seconds,
        std::thread::available_parallelism().map_or(0, |n| n.get())
    );
    let result = run(&args, &url).await;
    // Always drop the scratch database, even after a failed run.
    sqlx::query(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)")).execute(&mut admin).await?;
    result
}
