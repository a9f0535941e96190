//! The brute-force limit of staff sign-in, counted in PostgreSQL so it holds across replicas.
//! It is a delay that grows, as Auth0's and Okta's are, never a lock-out of the right password
//! for good: past a few free failures of the last day, the next try must wait after the latest
//! failure for 30 s, doubled for each further failure, at most 15 minutes ([`wait_after`]).
//! A try that comes too early is refused without being counted, so the right password always
//! gets through once the wait is over (issue 26: five wrong passwords locked a member out even
//! with the right one, and twenty from behind one proxy locked out all staff).
//!
//! Three counts, each with its free failures: the e-mail from this address (5: a member who
//! mistypes), the address (20: one client guessing many e-mails) and the e-mail from anywhere
//! (20: many addresses guessing one e-mail, which then delays its owner too, by at most the cap).
//!
//! A sign-in takes its place before its password is checked ([`reserve`]): under a lock on
//! the e-mail's and the address's keys, the wait is checked and the try counted as a failure
//! in one transaction, so a burst of tries at one instant cannot all be checked before any is
//! counted (issue 26: 40 wrong passwords sent at once were all evaluated). The right password
//! (and second factor) then forgets the e-mail's failures, its own place included ([`clear`]).
//!
//! Neither the e-mail nor the client's address is kept in clear: both are keyed hashes (the
//! address's `Vault::tag` under [`IP_TAG`], of its IPv4 address or IPv6 /64).

use std::time::Duration;

use sqlx::{PgConnection, PgPool, Row};

/// Advisory-lock class of the sign-in keys ('STAF'), apart from the other locks.
const LOCK_CLASS: i32 = 0x5354_4146;

/// The `Vault::tag` purpose of the client's address.
pub const IP_TAG: &str = "staff-sign-in-ip";

/// Free failures of one e-mail from one address.
pub const FREE_PER_PAIR: i64 = 5;
/// Free failures from one address, whatever the e-mail.
pub const FREE_PER_IP: i64 = 20;
/// Free failures of one e-mail, whatever the address.
pub const FREE_PER_EMAIL: i64 = 20;
/// The first wait, doubled for each failure past the free ones.
pub const FIRST_WAIT: Duration = Duration::from_secs(30);
/// The longest wait.
pub const MAX_WAIT: Duration = Duration::from_secs(15 * 60);
/// How long failures are counted (and kept).
const WINDOW_HOURS: i64 = 24;

/// How long after its latest failure a key must wait, given its failures and free ones.
pub fn wait_after(failures: i64, free: i64) -> Duration {
    if failures < free {
        return Duration::ZERO;
    }
    // 2^17 × 30 s is already far past the cap: no overflow, whatever the count.
    let doublings = u32::try_from(failures - free).unwrap_or(u32::MAX).min(17);
    FIRST_WAIT.saturating_mul(1 << doublings).min(MAX_WAIT)
}

/// `None` when this sign-in may check its password (the try is then counted as a failure
/// until [`clear`] forgets it); otherwise how long to wait before the next try.
pub async fn reserve(db: &PgPool, email_hash: &[u8], ip_hash: &[u8]) -> Result<Option<Duration>, sqlx::Error> {
    let mut tx = db.begin().await?;
    // One lock order for every request: the e-mail's key, then the address's.
    for key in [hex::encode(email_hash), format!("ip:{}", hex::encode(ip_hash))] {
        sqlx::query("SELECT pg_advisory_xact_lock($1, hashtext($2))")
            .bind(LOCK_CLASS)
            .bind(key)
            .execute(&mut *tx)
            .await?;
    }
    let wait = left_to_wait(&mut tx, email_hash, ip_hash).await?;
    if !wait.is_zero() {
        return Ok(Some(wait));
    }
    record_failure(&mut tx, email_hash, ip_hash).await?;
    tx.commit().await?;
    Ok(None)
}

/// The longest of the three keys' waits still to run, on the database's clock.
async fn left_to_wait(conn: &mut PgConnection, email_hash: &[u8], ip_hash: &[u8]) -> Result<Duration, sqlx::Error> {
    let row = sqlx::query(&format!(
        "SELECT count(*) FILTER (WHERE email_hash = $1 AND ip_hash = $2) AS pair, \
                max(failed_at) FILTER (WHERE email_hash = $1 AND ip_hash = $2) AS pair_last, \
                count(*) FILTER (WHERE ip_hash = $2) AS ip, \
                max(failed_at) FILTER (WHERE ip_hash = $2) AS ip_last, \
                count(*) FILTER (WHERE email_hash = $1) AS email, \
                max(failed_at) FILTER (WHERE email_hash = $1) AS email_last, \
                now() AS now \
         FROM staff_sign_in_failures \
         WHERE (email_hash = $1 OR ip_hash = $2) AND failed_at > now() - interval '{WINDOW_HOURS} hours'"
    ))
    .bind(email_hash)
    .bind(ip_hash)
    .fetch_one(&mut *conn)
    .await?;
    let now: chrono::DateTime<chrono::Utc> = row.try_get("now")?;
    let mut keys = Vec::with_capacity(3);
    for (count, last, free) in
        [("pair", "pair_last", FREE_PER_PAIR), ("ip", "ip_last", FREE_PER_IP), ("email", "email_last", FREE_PER_EMAIL)]
    {
        if let Some(last) = row.try_get::<Option<chrono::DateTime<chrono::Utc>>, _>(last)? {
            keys.push(Failures { count: row.try_get(count)?, last, free });
        }
    }
    Ok(longest_wait(&keys, now))
}

/// One key's failures of the window: how many, the latest, and how many are free.
#[derive(Debug, Clone, Copy)]
struct Failures {
    count: i64,
    last: chrono::DateTime<chrono::Utc>,
    free: i64,
}

/// The longest wait still to run at `now` among `keys`. A key within its free failures makes
/// nobody wait, even when its latest failure is later than `now`: `now` is the transaction's
/// start, and a sign-in from the same address that began after it may have taken the address's
/// lock first and committed its place meanwhile (the e2e suite's two workers hit exactly this,
/// a right password refused with `Retry-After: 1`).
fn longest_wait(keys: &[Failures], now: chrono::DateTime<chrono::Utc>) -> Duration {
    keys.iter()
        .map(|key| {
            let wait = wait_after(key.count, key.free);
            if wait.is_zero() {
                return Duration::ZERO;
            }
            let until = key.last + chrono::Duration::from_std(wait).unwrap_or_default();
            (until - now).to_std().unwrap_or(Duration::ZERO)
        })
        .max()
        .unwrap_or(Duration::ZERO)
}

async fn record_failure(conn: &mut PgConnection, email_hash: &[u8], ip_hash: &[u8]) -> Result<(), sqlx::Error> {
    sqlx::query("INSERT INTO staff_sign_in_failures (email_hash, ip_hash) VALUES ($1, $2)")
        .bind(email_hash)
        .bind(ip_hash)
        .execute(&mut *conn)
        .await?;
    // Rows older than the window are of no use.
    sqlx::query(&format!(
        "DELETE FROM staff_sign_in_failures WHERE failed_at < now() - interval '{WINDOW_HOURS} hours'"
    ))
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// A successful sign-in forgets the e-mail's failures.
pub async fn clear(db: &PgPool, email_hash: &[u8]) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM staff_sign_in_failures WHERE email_hash = $1").bind(email_hash).execute(db).await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_wait_starts_after_the_free_failures_doubles_and_stops_at_the_cap() {
        assert_eq!(wait_after(4, 5), Duration::ZERO);
        assert_eq!(wait_after(5, 5), Duration::from_secs(30));
        assert_eq!(wait_after(6, 5), Duration::from_secs(60));
        assert_eq!(wait_after(9, 5), Duration::from_secs(480));
        assert_eq!(wait_after(10, 5), MAX_WAIT);
        assert_eq!(wait_after(i64::MAX, 5), MAX_WAIT);
    }

    #[test]
    fn a_key_within_its_free_failures_makes_nobody_wait_even_with_a_failure_after_now() {
        let now = chrono::DateTime::parse_from_rfc3339("2026-11-27T00:51:47.250Z").expect("time").to_utc();
        // A concurrent sign-in from the same address, begun 50 ms after this one, took its
        // place first: the address's latest failure is later than this transaction's `now`.
        let later = now + chrono::Duration::milliseconds(50);
        let address = Failures { count: 3, last: later, free: FREE_PER_IP };
        assert_eq!(longest_wait(&[address], now), Duration::ZERO);
        // Past the free failures the wait runs from the latest one.
        let guessed = Failures { count: FREE_PER_PAIR, last: now - chrono::Duration::seconds(10), free: FREE_PER_PAIR };
        assert_eq!(longest_wait(&[address, guessed], now), Duration::from_secs(20));
        assert_eq!(longest_wait(&[], now), Duration::ZERO);
    }
}
