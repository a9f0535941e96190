//! Binds an attempt to the browser that started it: a random HttpOnly cookie, stored hashed.

use axum::http::header::SET_COOKIE;
use axum::http::{HeaderMap, HeaderValue};

/// A `__Host-` cookie: browsers keep it only when it is `Secure`, has `Path=/` and no `Domain`,
/// so neither a plain-http page nor a sibling subdomain can plant or overwrite it. Browsers
/// treat `http://localhost` and `http://127.0.0.1` as secure, so development works over http.
pub const COOKIE_NAME: &str = "__Host-exa_session";

/// The browser's session token, from its cookie.
pub fn from_headers(headers: &HeaderMap) -> Option<String> {
    crate::token::from_cookie(headers, COOKIE_NAME, 64)
}

/// A fresh random token (256 bits, hex).
pub fn new_token() -> String {
    crate::token::hex()
}

/// What the attempts table keeps of a session token.
pub use crate::token::hash;

/// How long a session cookie lives after the browser last used it.
pub const MAX_AGE_SECS: u64 = 86_400;

/// The `Set-Cookie` header for a session, new or reused (its `Max-Age` starts again): not
/// readable by scripts, same-site only, always `Secure` (the `__Host-` prefix requires it).
pub fn set_cookie(token: &str) -> (axum::http::HeaderName, HeaderValue) {
    let value = format!("{COOKIE_NAME}={token}; Path=/; Secure; HttpOnly; SameSite=Lax; Max-Age={MAX_AGE_SECS}");
    (SET_COOKIE, HeaderValue::from_str(&value).unwrap_or(HeaderValue::from_static("")))
}

/// Whether `token` is a session this server issued: some attempt was started with it. Any
/// other value a browser presents is not adopted (session fixation); it gets a new one.
pub async fn known(db: &sqlx::PgPool, token: &str) -> Result<bool, sqlx::Error> {
    sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM attempts WHERE session_hash = $1)")
        .bind(hash(token))
        .fetch_one(db)
        .await
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::header::COOKIE;

    #[test]
    fn reads_the_session_among_other_cookies() {
        let token = new_token();
        let mut headers = HeaderMap::new();
        headers.insert(COOKIE, HeaderValue::from_str(&format!("a=1; {COOKIE_NAME}={token}; b=2")).expect("header"));
        assert_eq!(from_headers(&headers), Some(token));
    }

    #[test]
    fn the_cookie_is_a_host_cookie() {
        let value = set_cookie("t").1;
        let value = value.to_str().expect("ascii");
        assert!(value.starts_with("__Host-exa_session=t; Path=/; Secure;"), "{value}");
        assert!(!value.contains("Domain"), "{value}");
    }

    #[test]
    fn ignores_a_malformed_session() {
        let mut headers = HeaderMap::new();
        headers.insert(COOKIE, HeaderValue::from_static("__Host-exa_session=short"));
        assert_eq!(from_headers(&headers), None);
    }
}
