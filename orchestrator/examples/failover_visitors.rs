//! Visitors of the three flows (the activation in its six variants, the desktop download after
//! SMS, the cloud serial activation) through running orchestrators' public API, for the
//! failover test (`tests/ops/failover.sh`, issue 28): the database's primary is killed while
//! they are in flight. Each visitor asks again, as a browser does, when an answer is a 5xx or
//! never comes (one `Idempotency-Key` per command on every try).
//!
//! ```sh
//! target/debug/examples/failover_visitors 48 12 http://127.0.0.1:18608,http://127.0.0.1:18609 http://127.0.0.1:18607
//! ```
//! Arguments: visitors, how many at once, the orchestrators' base URLs (comma-separated; visitor
//! `i` uses the `i`-th modulo their number), the sandbox's base URL. Prints one JSON document:
//! `total`, `visitors` (`visitor`, `journey`, `attempt`, `end`, `normal`, `subscribes`),
//! `answered_500`, `answered_503`, `server_errors` (every 5xx by status). Progress goes to
//! stderr.

#[path = "../tests/journeys/mod.rs"]
mod journeys;

use std::time::{Duration, Instant};

use anyhow::Context;
use futures::StreamExt;
use journeys::{Driver, Journey};
use serde_json::json;

/// How long one stage (a command and the steps it starts) may take, the switch included:
/// Patroni's ttl, a runner's lease and a step's retry budget are each under a minute.
const PATIENCE: Duration = Duration::from_secs(150);

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let mut args = std::env::args().skip(1);
    let total: usize = args.next().context("visitors")?.parse()?;
    let concurrency: usize = args.next().context("concurrency")?.parse()?;
    let bases: Vec<String> =
        args.next().context("base URLs")?.split(',').map(|b| b.trim_end_matches('/').to_string()).collect();
    let sandbox = args.next().context("sandbox URL")?;

    let driver = Driver::new(bases, &sandbox, PATIENCE)?;
    let began = Instant::now();
    let ends: Vec<(usize, Result<journeys::Finish, String>)> = futures::stream::iter(0..total)
        .map(|i| {
            let driver = &driver;
            async move {
                let end = driver.run(i).await.map_err(|e| format!("{e:#}"));
                eprintln!(
                    "visitor {i} ({}) after {:.1} s: {}",
                    Journey::of(i).label(),
                    began.elapsed().as_secs_f64(),
                    match &end {
                        Ok(finish) => finish.describe(),
                        Err(error) => error.clone(),
                    }
                );
                (i, end)
            }
        })
        .buffer_unordered(concurrency)
        .collect()
        .await;

    let visitors: Vec<_> = ends
        .iter()
        .map(|(i, end)| {
            let journey = Journey::of(*i);
            match end {
                Ok(finish) => json!({
                    "visitor": i, "journey": journey.label(), "attempt": finish.id, "end": finish.describe(),
                    "normal": finish.normal(), "subscribes": journey.subscribes(),
                }),
                Err(error) => json!({
                    "visitor": i, "journey": journey.label(), "attempt": null, "end": error,
                    "normal": false, "subscribes": journey.subscribes(),
                }),
            }
        })
        .collect();
    let errors = driver.server_errors();
    let report = json!({
        "total": total,
        "seconds": began.elapsed().as_secs_f64(),
        "visitors": visitors,
        "answered_500": errors.get(&500).copied().unwrap_or(0),
        "answered_503": errors.get(&503).copied().unwrap_or(0),
        "server_errors": errors.iter().map(|(status, n)| (status.to_string(), json!(n))).collect::<serde_json::Map<_, _>>(),
    });
    println!("{}", serde_json::to_string_pretty(&report)?);
    Ok(())
}
