//! Rates kept as GCRA rows (migrations/0016, 0036): the portal-wide SMS ceiling and the
//! per-prefix burst. A send's places are taken in one autocommit statement on a small pool of its own, never in the
//! command's transaction: the row's lock lasts that statement, so sending commands of every
//! replica do not queue behind one another's transactions (issue 30), and a command holding its
//! transaction's connection never waits for a second one from the same pool.

use std::time::Duration;

use sqlx::postgres::PgPoolOptions;
use sqlx::PgPool;

use super::rules::Rule;

/// Connections of the rates' own pool: a statement takes well under a millisecond.
const POOL_SIZE: u32 = 4;

/// `limit` places per `window`, as GCRA's emission interval and burst tolerance: `limit` may
/// come at once, then one every `window / limit`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rate {
    pub interval: Duration,
    pub burst: Duration,
}

impl Rate {
    pub fn per(limit: u32, window: Duration) -> Self {
        let interval = window / limit.max(1);
        Self { interval, burst: window.saturating_sub(interval) }
    }
}

/// The rates' pool, made from the portal's connection options.
pub fn pool(db: &PgPool) -> PgPool {
    PgPoolOptions::new()
        .max_connections(POOL_SIZE)
        .acquire_timeout(db.options().get_acquire_timeout())
        .connect_lazy_with((*db.connect_options()).clone())
}

/// Takes a place in each of `rates` (each a rule, the key it is charged to and its rate), all
/// or none, in one statement: `Ok(None)` when every place was taken, `Ok(Some((i, wait)))` when
/// `rates[i]` was found full (nothing taken), with the time until a place in it frees. Callers
/// name the portal-wide rate last (the function locks the rows in the order given).
pub async fn take_all(db: &PgPool, rates: &[(Rule, &[u8], Rate)]) -> Result<Option<(usize, Duration)>, sqlx::Error> {
    let rules: Vec<&str> = rates.iter().map(|(rule, _, _)| rule.name()).collect();
    let keys: Vec<&[u8]> = rates.iter().map(|(_, key, _)| *key).collect();
    let intervals: Vec<f64> = rates.iter().map(|(_, _, rate)| rate.interval.as_secs_f64()).collect();
    let bursts: Vec<f64> = rates.iter().map(|(_, _, rate)| rate.burst.as_secs_f64()).collect();
    let (full_at, wait): (Option<i32>, Option<f64>) =
        sqlx::query_as("SELECT full_at, wait FROM abuse_rates_take($1, $2, $3, $4)")
            .bind(rules)
            .bind(keys)
            .bind(intervals)
            .bind(bursts)
            .fetch_one(db)
            .await?;
    Ok(full_at
        .and_then(|at| usize::try_from(at - 1).ok())
        .map(|index| (index, Duration::from_secs_f64(wait.unwrap_or(0.0).max(0.0)))))
}

/// Forgets rows whose places are all free again (a row in the past says what no row says).
pub async fn purge(db: &PgPool) -> Result<u64, sqlx::Error> {
    Ok(sqlx::query("DELETE FROM abuse_rates WHERE tat < now()").execute(db).await?.rows_affected())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_limit_per_window_lets_the_limit_through_at_once_then_one_per_interval() {
        let rate = Rate::per(300, Duration::from_secs(60));
        assert_eq!(rate.interval, Duration::from_millis(200));
        assert_eq!(rate.burst, Duration::from_millis(59_800));
        assert_eq!(Rate::per(0, Duration::from_secs(60)).interval, Duration::from_secs(60));
    }
}
