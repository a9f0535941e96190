//! The brute-force limit of staff sign-in, counted in PostgreSQL so it holds across replicas:
//! 5 failures for one e-mail, or 20 from one IP, within 15 minutes refuse further sign-ins
//! for 15 minutes from the failure that reached the limit.
//!
//! A sign-in takes its place before its password is checked ([`reserve`]): under a lock on
//! the e-mail's and the address's keys, the limit is checked and the try counted as a failure
//! in one transaction, so a burst of tries at one instant cannot all be checked before any is
//! counted (issue 26: 40 wrong passwords sent at once were all evaluated). The right password
//! then forgets the e-mail's failures, its own place included ([`clear`]).
//!
//! Neither the e-mail nor the client's address is kept in clear: both are keyed hashes (the
//! address's `Vault::tag` under [`IP_TAG`], of its IPv4 address or IPv6 /64).

use sqlx::{PgConnection, PgPool};

/// Advisory-lock class of the sign-in keys ('STAF'), apart from the other locks.
const LOCK_CLASS: i32 = 0x5354_4146;

/// The `Vault::tag` purpose of the client's address.
pub const IP_TAG: &str = "staff-sign-in-ip";

pub const PER_EMAIL: i64 = 5;
pub const PER_IP: i64 = 20;
/// The window and the refusal, in minutes.
pub const MINUTES: i64 = 15;

/// Whether this sign-in may check its password: `false` when the e-mail or the address is
/// locked out; otherwise the try is counted as a failure until [`clear`] forgets it.
pub async fn reserve(db: &PgPool, email_hash: &[u8], ip_hash: &[u8]) -> Result<bool, sqlx::Error> {
    let mut tx = db.begin().await?;
    // One lock order for every request: the e-mail's key, then the address's.
    for key in [hex::encode(email_hash), format!("ip:{}", hex::encode(ip_hash))] {
        sqlx::query("SELECT pg_advisory_xact_lock($1, hashtext($2))")
            .bind(LOCK_CLASS)
            .bind(key)
            .execute(&mut *tx)
            .await?;
    }
    if locked(&mut tx, email_hash, ip_hash).await? {
        return Ok(false);
    }
    record_failure(&mut tx, email_hash, ip_hash).await?;
    tx.commit().await?;
    Ok(true)
}

/// Whether sign-ins for this e-mail hash or from this address hash are refused now.
async fn locked(conn: &mut PgConnection, email_hash: &[u8], ip_hash: &[u8]) -> Result<bool, sqlx::Error> {
    // For each failure, how many failures of the same key the 15 minutes up to it hold; the
    // key is locked while the latest failure that reached the limit is less than 15 minutes old.
    let sql = format!(
        "SELECT EXISTS ( \
           SELECT 1 FROM ( \
             SELECT failed_at, count(*) OVER (ORDER BY failed_at \
               RANGE BETWEEN interval '{MINUTES} minutes' PRECEDING AND CURRENT ROW) AS n \
             FROM staff_sign_in_failures \
             WHERE email_hash = $1 AND failed_at > now() - interval '{twice} minutes') w \
           WHERE n >= $3 AND failed_at > now() - interval '{MINUTES} minutes') \
         OR EXISTS ( \
           SELECT 1 FROM ( \
             SELECT failed_at, count(*) OVER (ORDER BY failed_at \
               RANGE BETWEEN interval '{MINUTES} minutes' PRECEDING AND CURRENT ROW) AS n \
             FROM staff_sign_in_failures \
             WHERE ip_hash = $2 AND failed_at > now() - interval '{twice} minutes') w \
           WHERE n >= $4 AND failed_at > now() - interval '{MINUTES} minutes')",
        twice = 2 * MINUTES
    );
    sqlx::query_scalar(&sql).bind(email_hash).bind(ip_hash).bind(PER_EMAIL).bind(PER_IP).fetch_one(&mut *conn).await
}

async fn record_failure(conn: &mut PgConnection, email_hash: &[u8], ip_hash: &[u8]) -> Result<(), sqlx::Error> {
    sqlx::query("INSERT INTO staff_sign_in_failures (email_hash, ip_hash) VALUES ($1, $2)")
        .bind(email_hash)
        .bind(ip_hash)
        .execute(&mut *conn)
        .await?;
    // Rows older than any window are of no use.
    sqlx::query(&format!(
        "DELETE FROM staff_sign_in_failures WHERE failed_at < now() - interval '{} minutes'",
        2 * MINUTES
    ))
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// A successful sign-in forgets the e-mail's failures (the IP's stay counted).
pub async fn clear(db: &PgPool, email_hash: &[u8]) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM staff_sign_in_failures WHERE email_hash = $1").bind(email_hash).execute(db).await?;
    Ok(())
}
