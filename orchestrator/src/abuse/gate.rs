//! Counting in PostgreSQL, so every replica sees the same counts: a limit is the number of
//! `abuse_hits` rows of its rule and key in its window. Each check holds a transaction-scoped
//! advisory lock on its rule and key (class 'ABUS', apart from streams and idempotency keys;
//! taken by the `abuse_admit` function), so two replicas cannot both take the last place.

use std::time::Duration;

use sqlx::PgConnection;

use super::rules::Rule;

/// One counter to check and, if there is room, to count in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Check {
    pub rule: Rule,
    pub key: Vec<u8>,
    pub limit: u32,
}

/// A refused action: the rule, and when the oldest counted action leaves the window.
#[derive(Debug, Clone, PartialEq)]
pub struct Limited {
    pub rule: Rule,
    pub retry_after: Duration,
}

/// Checks every counter and counts the action in all of them, or none when one is full, in
/// the caller's transaction (the service commits it before the command acts: a send that was
/// let through counts even if an upstream then fails it). One statement, the `abuse_admit`
/// function (migrations/0014): each counter's lock and count, then the counting.
pub async fn admit(conn: &mut PgConnection, checks: &[Check]) -> Result<Result<(), Limited>, sqlx::Error> {
    let mut ordered: Vec<&Check> = checks.iter().collect();
    // One lock order for every request, so two of them cannot wait on each other.
    ordered.sort_by(|a, b| (a.rule, &a.key).cmp(&(b.rule, &b.key)));
    let refused: Option<(String, Option<f64>)> =
        sqlx::query_as("SELECT refused_rule, retry_after FROM abuse_admit($1, $2, $3, $4)")
            .bind(ordered.iter().map(|c| c.rule.name()).collect::<Vec<_>>())
            .bind(ordered.iter().map(|c| c.key.as_slice()).collect::<Vec<_>>())
            .bind(ordered.iter().map(|c| i32::try_from(c.limit).unwrap_or(i32::MAX)).collect::<Vec<_>>())
            .bind(ordered.iter().map(|c| c.rule.window().as_secs_f64()).collect::<Vec<_>>())
            .fetch_optional(&mut *conn)
            .await?;
    let Some((name, retry_after)) = refused else { return Ok(Ok(())) };
    let rule = ordered
        .iter()
        .map(|c| c.rule)
        .find(|rule| rule.name() == name)
        .ok_or_else(|| sqlx::Error::Protocol(format!("abuse_admit refused an unknown rule {name}")))?;
    let window = rule.window().as_secs_f64();
    Ok(Err(Limited { rule, retry_after: Duration::from_secs_f64(retry_after.unwrap_or(window).max(1.0).ceil()) }))
}

/// Counts one action without a limit of its own (the breaker's trips).
async fn count(conn: &mut PgConnection, rule: Rule, key: &[u8]) -> Result<(), sqlx::Error> {
    sqlx::query("INSERT INTO abuse_hits (rule, key) VALUES ($1, $2)")
        .bind(rule.name())
        .bind(key)
        .execute(&mut *conn)
        .await?;
    Ok(())
}

/// The key of the portal-wide SMS ceiling.
pub const GLOBAL_KEY: &[u8] = b"all";

/// Whether the SMS breaker is open for `key` (a number prefix's): tripped within the
/// cool-down. Returns when it closes.
pub async fn breaker_open(
    conn: &mut PgConnection,
    key: &[u8],
    cooldown: Duration,
) -> Result<Option<Duration>, sqlx::Error> {
    let left: Option<f64> = sqlx::query_scalar(
        "SELECT EXTRACT(EPOCH FROM (max(at) + make_interval(secs => $2) - now()))::float8
           FROM abuse_hits WHERE rule = $1 AND key = $3 AND at > now() - make_interval(secs => $2)",
    )
    .bind(Rule::SmsBreaker.name())
    .bind(cooldown.as_secs_f64())
    .bind(key)
    .fetch_one(&mut *conn)
    .await?;
    Ok(left.map(|secs| Duration::from_secs_f64(secs.max(1.0).ceil())))
}

/// Opens the breaker for `key` (its trip is a row of its own, so every replica sees it).
pub async fn trip_breaker(conn: &mut PgConnection, key: &[u8]) -> Result<(), sqlx::Error> {
    count(conn, Rule::SmsBreaker, key).await
}

/// The phone hash an attempt sends its codes to: the phone it last typed, whatever its age
/// (issue 26: the row was forgotten a day after the typed send, and a later "Reenviar código"
/// was charged to the attempt instead of the phone).
pub async fn attempt_phone(conn: &mut PgConnection, stream: &str) -> Result<Option<Vec<u8>>, sqlx::Error> {
    sqlx::query_scalar(
        "SELECT phone_hash FROM abuse_attempt_phones WHERE stream_id = $1 ORDER BY typed_at DESC LIMIT 1",
    )
    .bind(stream)
    .fetch_optional(&mut *conn)
    .await
}

/// Makes `phone_hash` the phone the attempt sends its codes to; `true` when the attempt never
/// sent to it before (a new phone, counted by [`Rule::SmsPhonesPerAttempt`]). The attempt's
/// lock orders its commands, and `clock_timestamp()` orders their rows.
pub async fn set_attempt_phone(conn: &mut PgConnection, stream: &str, phone_hash: &[u8]) -> Result<bool, sqlx::Error> {
    sqlx::query_scalar(
        "INSERT INTO abuse_attempt_phones (stream_id, phone_hash) VALUES ($1, $2)
         ON CONFLICT (stream_id, phone_hash) DO UPDATE SET typed_at = clock_timestamp()
         RETURNING xmax = 0",
    )
    .bind(stream)
    .bind(phone_hash)
    .fetch_one(&mut *conn)
    .await
}

/// Forgets the phones an erased person's attempts sent codes to (their keyed hashes would
/// still link those attempts).
pub async fn forget_attempt_phones(db: &sqlx::PgPool, streams: &[String]) -> Result<u64, sqlx::Error> {
    Ok(sqlx::query("DELETE FROM abuse_attempt_phones WHERE stream_id = ANY($1)")
        .bind(streams)
        .execute(db)
        .await?
        .rows_affected())
}

/// Forgets counts older than the longest window, spent challenges past their expiry and rates
/// whose places are free; run periodically. Returns the rows deleted. The attempts' phones are
/// kept while their attempts are (a resend may come any time: issue 26), and forgotten with
/// the person ([`forget_attempt_phones`]).
pub async fn purge(db: &sqlx::PgPool) -> Result<u64, sqlx::Error> {
    let hits = sqlx::query("DELETE FROM abuse_hits WHERE at < now() - interval '1 day 1 hour'").execute(db).await?;
    let spent = sqlx::query("DELETE FROM altcha_spent WHERE expires_at < now()").execute(db).await?;
    let rates = super::rate::purge(db).await?;
    Ok(hits.rows_affected() + spent.rows_affected() + rates)
}
