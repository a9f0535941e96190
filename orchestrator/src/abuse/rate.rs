//! Rates kept as GCRA rows (migrations/0016): the portal-wide SMS ceiling and the per-prefix
//! burst. A place is taken in one autocommit statement on a small pool of its own, never in the
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

/// Takes one place of `rule` for `key`: `Ok(None)` when taken, `Ok(Some(wait))` when full.
pub async fn take(db: &PgPool, rule: Rule, key: &[u8], rate: Rate) -> Result<Option<Duration>, sqlx::Error> {
    let wait: Option<f64> = sqlx::query_scalar("SELECT abuse_rate_take($1, $2, $3, $4)")
        .bind(rule.name())
        .bind(key)
        .bind(rate.interval.as_secs_f64())
        .bind(rate.burst.as_secs_f64())
        .fetch_one(db)
        .await?;
    Ok(wait.map(|secs| Duration::from_secs_f64(secs.max(0.0))))
}

/// Gives back a place taken by [`take`] for a send a later check refused.
pub async fn give_back(db: &PgPool, rule: Rule, key: &[u8], rate: Rate) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE abuse_rates SET tat = tat - make_interval(secs => $3) WHERE rule = $1 AND key = $2")
        .bind(rule.name())
        .bind(key)
        .bind(rate.interval.as_secs_f64())
        .execute(db)
        .await?;
    Ok(())
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
