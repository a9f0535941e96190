//! The waiting line's tickets: the table every replica shares (migration 0038) and the cookie
//! that carries a visitor's ticket from one try to the next. The cookie holds a random token
//! (with the ticket's signed pass, [`super::pass`]), the table only its hash, so a ticket can be
//! neither read nor guessed from the database.

use std::time::Duration;

use axum::http::header::SET_COOKIE;
use axum::http::{HeaderMap, HeaderName, HeaderValue};
use sqlx::PgPool;

use crate::token::hash;

/// A `__Host-` cookie, like the session's (attempts/session.rs): `Secure`, `Path=/`, no `Domain`.
/// Strict: only the portal's own pages carry it back.
pub const COOKIE_NAME: &str = "__Host-exa_line";

/// The longest cookie value a ticket has: the token, a place, a time and a signature.
const MAX_VALUE: usize = 160;

/// The ticket's cookie as it came (read with [`super::pass::PassKey::read`]); a value longer
/// than a ticket's, or with characters no ticket has, is no ticket.
pub fn from_headers(headers: &HeaderMap) -> Option<String> {
    crate::token::cookie_where(headers, COOKIE_NAME, |value| {
        value.len() <= MAX_VALUE && value.bytes().all(|b| b.is_ascii_hexdigit() || b == b'.')
    })
}

/// The cookie that keeps the ticket (`value`: its token, or its token with a pass) for as long
/// as it stays in line.
pub fn set_cookie(value: &str, lifetime: Duration) -> (HeaderName, HeaderValue) {
    let value = format!(
        "{COOKIE_NAME}={value}; Path=/; Secure; HttpOnly; SameSite=Strict; Max-Age={}",
        lifetime.as_secs().max(1)
    );
    (SET_COOKIE, HeaderValue::from_str(&value).unwrap_or(HeaderValue::from_static("")))
}

/// The cookie's end, once its holder went in.
pub fn clear_cookie() -> (HeaderName, HeaderValue) {
    let value = format!("{COOKIE_NAME}=; Path=/; Secure; HttpOnly; SameSite=Strict; Max-Age=0");
    (SET_COOKIE, HeaderValue::from_str(&value).unwrap_or(HeaderValue::from_static("")))
}

fn seconds(d: Duration) -> f64 {
    d.as_secs_f64()
}

/// One client address's share of the line: its tag (`None`: the address is unknown, and the
/// ticket counts against no share) and the most tickets it may hold.
#[derive(Debug, Clone, Copy)]
pub struct Share<'a> {
    pub address: Option<&'a [u8]>,
    pub max: u64,
}

/// A new ticket at the end of the line: its place, or `None` when the client's address already
/// holds its share of the live tickets. (Two joins of one address at the same instant may both
/// pass the count: the share is a bound on a flood, not an exact quota.)
pub async fn join(db: &PgPool, token: &str, lifetime: Duration, share: Share<'_>) -> Result<Option<i64>, sqlx::Error> {
    sqlx::query_scalar(
        "INSERT INTO waiting_line (ticket, expires_at, address)
         SELECT $1, now() + make_interval(secs => $2), $3
          WHERE $3::bytea IS NULL
             OR (SELECT count(*) FROM waiting_line WHERE address = $3 AND expires_at > now()) < $4
         RETURNING place",
    )
    .bind(hash(token))
    .bind(seconds(lifetime))
    .bind(share.address)
    .bind(i64::try_from(share.max).unwrap_or(i64::MAX))
    .fetch_optional(db)
    .await
}

/// The holder tried again. Its place and what is left of its life in line, or `None` when it
/// is no longer in line (it expired, or its holder went in). The ticket stays in line for
/// `lifetime` more when less than `renew_below` of it is left: most tries then only read (no
/// write, no transaction id), and a holder who tries again within `renew_below` never loses
/// their place.
pub async fn visit(
    db: &PgPool,
    token: &str,
    lifetime: Duration,
    renew_below: Duration,
) -> Result<Option<(i64, Duration)>, sqlx::Error> {
    let found: Option<(i64, f64)> = sqlx::query_as(
        "WITH hit AS (SELECT place, expires_at FROM waiting_line WHERE ticket = $1 AND expires_at > now()),
              renewed AS (UPDATE waiting_line w SET expires_at = now() + make_interval(secs => $2)
                            FROM hit WHERE w.place = hit.place AND hit.expires_at < now() + make_interval(secs => $3)
                            RETURNING w.expires_at)
         SELECT place, EXTRACT(EPOCH FROM coalesce((SELECT expires_at FROM renewed), expires_at) - now())::float8
           FROM hit",
    )
    .bind(hash(token))
    .bind(seconds(lifetime))
    .bind(seconds(renew_below))
    .fetch_optional(db)
    .await?;
    Ok(found.map(|(place, left)| (place, Duration::try_from_secs_f64(left).unwrap_or_default())))
}

/// The holder went in: out of the line, in the transaction of the start that let them in (its
/// commit is the ticket's; a start that fails keeps the ticket).
pub async fn leave_in(conn: &mut sqlx::PgConnection, token: &str) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM waiting_line WHERE ticket = $1").bind(hash(token)).execute(conn).await.map(drop)
}

/// The line's head (the first ticket still in line), tail (the last handed out) and how many
/// are in it. The ends are index reads; the count reads the tickets still in line (capped by
/// `ADMISSION_LINE_MAX`; expired ones are purged within a sample).
pub async fn look(conn: &mut sqlx::PgConnection) -> Result<(i64, i64, i64), sqlx::Error> {
    sqlx::query_as(
        "SELECT COALESCE((SELECT place FROM waiting_line WHERE expires_at > now() ORDER BY place LIMIT 1), 0),
                COALESCE((SELECT max(place) FROM waiting_line), 0),
                (SELECT count(*) FROM waiting_line WHERE expires_at > now())",
    )
    .fetch_one(conn)
    .await
}

/// The tickets whose holders stopped trying: a statement that deletes nothing takes no
/// transaction id, so every replica's sampler may run it often.
pub async fn purge_expired(conn: &mut sqlx::PgConnection) -> Result<u64, sqlx::Error> {
    sqlx::query("DELETE FROM waiting_line WHERE expires_at <= now()")
        .execute(conn)
        .await
        .map(|done| done.rows_affected())
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::header::COOKIE;

    #[test]
    fn reads_the_ticket_among_other_cookies_and_nothing_malformed() {
        let token = crate::token::hex();
        let mut headers = HeaderMap::new();
        let cookies = format!("__Host-exa_session={}; {COOKIE_NAME}={token}", "a".repeat(64));
        headers.insert(COOKIE, HeaderValue::from_str(&cookies).expect("header"));
        assert_eq!(from_headers(&headers), Some(token.clone()));
        headers.insert(COOKIE, HeaderValue::from_str(&format!("{COOKIE_NAME}={}", "z".repeat(63))).expect("header"));
        assert_eq!(from_headers(&headers), None);
        headers.insert(COOKIE, HeaderValue::from_str(&format!("{COOKIE_NAME}={}", "a".repeat(161))).expect("header"));
        assert_eq!(from_headers(&headers), None);
        let signed = format!("{token}.12.1800000000000.{}", "0f".repeat(16));
        headers.insert(COOKIE, HeaderValue::from_str(&format!("{COOKIE_NAME}={signed}")).expect("header"));
        assert_eq!(from_headers(&headers), Some(signed));
    }

    #[test]
    fn the_cookie_is_a_strict_host_cookie_that_lives_as_long_as_the_ticket() {
        let set = set_cookie("t", Duration::from_millis(11_500)).1;
        assert_eq!(
            set.to_str().expect("ascii"),
            "__Host-exa_line=t; Path=/; Secure; HttpOnly; SameSite=Strict; Max-Age=11"
        );
        assert!(clear_cookie().1.to_str().expect("ascii").ends_with("Max-Age=0"));
    }
}
