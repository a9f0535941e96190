//! The brute-force limit of staff sign-in, counted in PostgreSQL so it holds across replicas:
//! 5 failures for one e-mail, or 20 from one IP, within 15 minutes refuse further sign-ins
//! for 15 minutes from the failure that reached the limit.

use sqlx::PgPool;

pub const PER_EMAIL: i64 = 5;
pub const PER_IP: i64 = 20;
/// The window and the refusal, in minutes.
pub const MINUTES: i64 = 15;

/// Whether sign-ins for this e-mail hash or from this IP are refused now.
pub async fn locked(db: &PgPool, email_hash: &[u8], ip: &str) -> Result<bool, sqlx::Error> {
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
             WHERE ip = $2 AND failed_at > now() - interval '{twice} minutes') w \
           WHERE n >= $4 AND failed_at > now() - interval '{MINUTES} minutes')",
        twice = 2 * MINUTES
    );
    sqlx::query_scalar(&sql).bind(email_hash).bind(ip).bind(PER_EMAIL).bind(PER_IP).fetch_one(db).await
}

pub async fn record_failure(db: &PgPool, email_hash: &[u8], ip: &str) -> Result<(), sqlx::Error> {
    sqlx::query("INSERT INTO staff_sign_in_failures (email_hash, ip) VALUES ($1, $2)")
        .bind(email_hash)
        .bind(ip)
        .execute(db)
        .await?;
    // Rows older than any window are of no use.
    sqlx::query(&format!(
        "DELETE FROM staff_sign_in_failures WHERE failed_at < now() - interval '{} minutes'",
        2 * MINUTES
    ))
    .execute(db)
    .await?;
    Ok(())
}

/// A successful sign-in forgets the e-mail's failures (the IP's stay counted).
pub async fn clear(db: &PgPool, email_hash: &[u8]) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM staff_sign_in_failures WHERE email_hash = $1").bind(email_hash).execute(db).await?;
    Ok(())
}
