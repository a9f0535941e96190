//! Rates kept as GCRA rows (migrations/0016, 0036, 0037): the portal-wide SMS ceiling and the
//! per-prefix burst. A send takes its places in the command's own transaction (no transaction
//! of its own, issue 24), where a row stays locked until the command commits. So the ceiling,
//! which every send of every replica is charged to, is kept in shards that each hold an equal
//! share: a send takes a place in any shard with room that no other send holds, and is refused
//! only when every shard is full (issue 30: no portal-wide queue in the hot path).

use std::time::Duration;

use sqlx::PgConnection;

use super::rules::Rule;

/// Most shards of a shared rate: enough that the sends in flight at once on two cores rarely
/// find every shard held.
pub const MOST_SHARDS: u32 = 16;

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

    /// The places the rate lets through at once (its limit per window).
    fn places(&self) -> u32 {
        let window = self.interval + self.burst;
        u32::try_from(window.as_nanos() / self.interval.as_nanos().max(1)).unwrap_or(u32::MAX).max(1)
    }

    /// How many shards the rate is kept in: at most [`MOST_SHARDS`], none with less than a whole
    /// place, and a number that divides the limit where one of at least half the most does (the
    /// default 12,000 a minute: 16 shards of 750; 300: 15 of 20), so that the shards let
    /// through at once exactly the limit. Otherwise they let through the limit rounded down to
    /// a multiple of the shards at once, and the same rate over time.
    pub fn shards(&self) -> u32 {
        let places = self.places();
        let most = places.min(MOST_SHARDS);
        (most.div_ceil(2)..=most).rev().find(|shards| places.is_multiple_of(*shards)).unwrap_or(most)
    }

    /// One of `shards` equal shares of the rate: `limit / shards` places per window.
    pub fn share(&self, shards: u32) -> Self {
        let window = self.interval + self.burst;
        let interval = self.interval * shards.max(1);
        Self { interval, burst: window.saturating_sub(interval) }
    }
}

/// A rate shared by every send (the portal-wide ceiling), kept in shards of `key`.
#[derive(Debug, Clone, Copy)]
pub struct Shared<'a> {
    pub rule: Rule,
    pub key: &'a [u8],
    pub rate: Rate,
}

impl Shared<'_> {
    /// The shards' keys: the key, a colon and the shard's number.
    fn shard_keys(&self) -> Vec<Vec<u8>> {
        (0..self.rate.shards())
            .map(|shard| {
                let mut key = self.key.to_vec();
                key.extend_from_slice(format!(":{shard}").as_bytes());
                key
            })
            .collect()
    }
}

/// Writes the shards of `shared` that are missing, free. A send inserts a missing shard too,
/// but in its own transaction: until that commits, the other sends wait on it, so the portal
/// writes them as it starts and the purge leaves them (a free shard is one row).
pub async fn prepare(db: &sqlx::PgPool, shared: Shared<'_>) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO abuse_rates (rule, key, tat) SELECT $1, shard, now() FROM unnest($2::bytea[]) AS shard
         ON CONFLICT (rule, key) DO NOTHING",
    )
    .bind(shared.rule.name())
    .bind(shared.shard_keys())
    .execute(db)
    .await?;
    Ok(())
}

/// Takes a place in each of `each` (a rule, the key it is charged to and its rate; the prefix)
/// and in one shard of `shared` (the ceiling), all or none, in `conn`'s transaction: `Ok(None)`
/// when every place was taken, `Ok(Some((i, wait)))` when `each[i]` (or `shared`, at
/// `i == each.len()`) was found full, nothing taken, with the time until a place in it frees.
/// The rows stay locked until the transaction ends; `each` is locked in the order given.
pub async fn take_all(
    conn: &mut PgConnection,
    each: &[(Rule, &[u8], Rate)],
    shared: Shared<'_>,
) -> Result<Option<(usize, Duration)>, sqlx::Error> {
    let rules: Vec<&str> = each.iter().map(|(rule, _, _)| rule.name()).collect();
    let keys: Vec<&[u8]> = each.iter().map(|(_, key, _)| *key).collect();
    let intervals: Vec<f64> = each.iter().map(|(_, _, rate)| rate.interval.as_secs_f64()).collect();
    let bursts: Vec<f64> = each.iter().map(|(_, _, rate)| rate.burst.as_secs_f64()).collect();
    let share = shared.rate.share(shared.rate.shards());
    let (full_at, wait): (Option<i32>, Option<f64>) =
        sqlx::query_as("SELECT full_at, wait FROM abuse_rates_take_shared($1, $2, $3, $4, $5, $6, $7, $8)")
            .bind(rules)
            .bind(keys)
            .bind(intervals)
            .bind(bursts)
            .bind(shared.rule.name())
            .bind(shared.shard_keys())
            .bind(share.interval.as_secs_f64())
            .bind(share.burst.as_secs_f64())
            .fetch_one(&mut *conn)
            .await?;
    Ok(full_at
        .and_then(|at| usize::try_from(at - 1).ok())
        .map(|index| (index, Duration::from_secs_f64(wait.unwrap_or(0.0).max(0.0)))))
}

/// Forgets rows whose places are all free again (a row in the past says what no row says),
/// but the shards of the shared rates ([`prepare`]).
pub async fn purge(db: &sqlx::PgPool) -> Result<u64, sqlx::Error> {
    Ok(sqlx::query("DELETE FROM abuse_rates WHERE tat < now() AND rule <> ALL($1)")
        .bind(SHARED_RULES.map(Rule::name).to_vec())
        .execute(db)
        .await?
        .rows_affected())
}

/// The rules kept as shared rates: their shards stay.
const SHARED_RULES: [Rule; 1] = [Rule::SmsPerMinute];

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

    #[test]
    fn a_shared_rate_is_split_into_equal_shares_that_together_let_through_its_limit() {
        let minute = Duration::from_secs(60);
        let ceiling = Rate::per(300, minute);
        assert_eq!(ceiling.shards(), 15);
        let share = ceiling.share(15);
        assert_eq!(share, Rate { interval: Duration::from_secs(3), burst: Duration::from_secs(57) });
        assert_eq!(share.places(), 20, "15 shards of 20 places: the 300 at once");
        // No divisor of 1,000 between 8 and 16 but 10.
        assert_eq!(Rate::per(1_000, minute).shards(), 10);
        // 997 is prime: 16 shards of 62 places, 992 at once, then 997 a minute.
        assert_eq!(Rate::per(997, minute).shards(), 16);
        assert_eq!(Rate::per(997, minute).share(16).places(), 62);
        // A small ceiling has a shard a place: three sends at once, then none for a minute.
        let small = Rate::per(3, minute);
        assert_eq!(small.shards(), 3);
        assert_eq!(small.share(3), Rate { interval: minute, burst: Duration::ZERO });
        assert_eq!(Rate::per(1, minute).shards(), 1);
    }
}
