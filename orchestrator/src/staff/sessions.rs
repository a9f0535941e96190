//! Server-side staff sessions: the `exa_staff` cookie holds 32 random bytes (base64url), the
//! table only their SHA-256. 30 minutes idle, 8 hours absolute, or until sign-out.

use axum::http::header::SET_COOKIE;
use axum::http::{HeaderMap, HeaderName, HeaderValue};
use serde_json::Value;
use sqlx::{PgPool, Row};
use uuid::Uuid;

use super::Role;
use crate::token::hash;

/// A `__Host-` cookie (`Secure`, `Path=/`, no `Domain`), as the visitor's session.
pub const COOKIE_NAME: &str = "__Host-exa_staff";
/// Idle limit, in minutes.
pub const IDLE_MINUTES: i64 = 30;
/// Absolute limit after sign-in, in hours.
pub const ABSOLUTE_HOURS: i64 = 8;

/// A live session as the routes see it.
#[derive(Debug, Clone)]
pub struct Session {
    pub staff_id: Uuid,
    pub role: Role,
    pub email_sealed: Value,
    pub csrf_token: String,
}

/// Starts a session; returns (cookie token, CSRF token).
pub async fn create(db: &PgPool, staff_id: Uuid) -> Result<(String, String), sqlx::Error> {
    let token = crate::token::url_safe();
    let csrf = crate::token::url_safe();
    // Old sessions of this member that expired are of no use to anyone.
    sqlx::query(&format!(
        "DELETE FROM staff_sessions WHERE staff_id = $1 AND (last_seen_at <= now() - interval '{IDLE_MINUTES} minutes' \
         OR created_at <= now() - interval '{ABSOLUTE_HOURS} hours')"
    ))
    .bind(staff_id)
    .execute(db)
    .await?;
    sqlx::query("INSERT INTO staff_sessions (token_hash, staff_id, csrf_token) VALUES ($1, $2, $3)")
        .bind(hash(&token))
        .bind(staff_id)
        .bind(&csrf)
        .execute(db)
        .await?;
    Ok((token, csrf))
}

/// Whether a request counts as the staff member's activity (it refreshes the idle time).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Activity {
    /// A request the staff member made: the idle time starts again.
    Active,
    /// A request the page makes by itself (an event stream's reconnection): it does not.
    Passive,
}

/// Which sessions are live: known, not idle too long, not too old, the member not disabled.
fn live_condition() -> String {
    format!(
        "s.token_hash = $1 AND st.id = s.staff_id AND st.disabled_at IS NULL \
         AND s.last_seen_at > now() - interval '{IDLE_MINUTES} minutes' \
         AND s.created_at > now() - interval '{ABSOLUTE_HOURS} hours'"
    )
}

/// The live session of `token` (refreshing its idle time when the request is `Active`), or
/// `None` when it is unknown, expired or its member disabled.
pub async fn load(db: &PgPool, token: &str, activity: Activity) -> Result<Option<Session>, sqlx::Error> {
    let sql = match activity {
        Activity::Active => format!(
            "UPDATE staff_sessions s SET last_seen_at = now() FROM staff st WHERE {} \
             RETURNING s.staff_id, s.csrf_token, st.role, st.email_sealed",
            live_condition()
        ),
        Activity::Passive => format!(
            "SELECT s.staff_id, s.csrf_token, st.role, st.email_sealed FROM staff_sessions s, staff st WHERE {}",
            live_condition()
        ),
    };
    let row = sqlx::query(&sql).bind(hash(token)).fetch_optional(db).await?;
    let Some(row) = row else { return Ok(None) };
    let role: String = row.try_get("role")?;
    let Ok(role) = role.parse::<Role>() else { return Ok(None) };
    Ok(Some(Session {
        staff_id: row.try_get("staff_id")?,
        role,
        email_sealed: row.try_get("email_sealed")?,
        csrf_token: row.try_get("csrf_token")?,
    }))
}

/// Whether the session of `token` is still live, without refreshing it (an event stream asks
/// while it is open, and ends when it is not: sign-out, expiry, a disabled member).
pub async fn alive(db: &PgPool, token: &str) -> Result<bool, sqlx::Error> {
    let sql = format!("SELECT EXISTS (SELECT 1 FROM staff_sessions s, staff st WHERE {})", live_condition());
    sqlx::query_scalar(&sql).bind(hash(token)).fetch_one(db).await
}

/// Ends the session of `token` (sign-out).
pub async fn end(db: &PgPool, token: &str) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM staff_sessions WHERE token_hash = $1").bind(hash(token)).execute(db).await?;
    Ok(())
}

/// The session token from the request's cookies.
pub fn token_from_headers(headers: &HeaderMap) -> Option<String> {
    crate::token::from_cookie(headers, COOKIE_NAME, 43)
}

pub fn set_cookie(token: &str) -> (HeaderName, HeaderValue) {
    let max_age = ABSOLUTE_HOURS * 3600;
    cookie(&format!("{COOKIE_NAME}={token}; Path=/; Secure; HttpOnly; SameSite=Strict; Max-Age={max_age}"))
}

pub fn clear_cookie() -> (HeaderName, HeaderValue) {
    cookie(&format!("{COOKIE_NAME}=; Path=/; Secure; HttpOnly; SameSite=Strict; Max-Age=0"))
}

fn cookie(value: &str) -> (HeaderName, HeaderValue) {
    (SET_COOKIE, HeaderValue::from_str(value).unwrap_or(HeaderValue::from_static("")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::header::COOKIE;

    #[test]
    fn tokens_are_32_bytes_base64url_and_read_back_from_the_cookie() {
        let token = crate::token::url_safe();
        assert_eq!(token.len(), 43);
        let mut headers = HeaderMap::new();
        headers.insert(COOKIE, HeaderValue::from_str(&format!("a=1; {COOKIE_NAME}={token}")).expect("header"));
        assert_eq!(token_from_headers(&headers), Some(token.clone()));
        let (_, value) = set_cookie(&token);
        let value = value.to_str().expect("ascii");
        for part in ["HttpOnly", "SameSite=Strict", "Path=/", "Secure"] {
            assert!(value.contains(part), "{value}");
        }
    }
}
