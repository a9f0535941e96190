//! Binds an attempt to the browser that started it: a random HttpOnly cookie, stored hashed.

use axum::http::header::{COOKIE, SET_COOKIE};
use axum::http::{HeaderMap, HeaderValue};
use rand::RngCore;
use sha2::{Digest, Sha256};

pub const COOKIE_NAME: &str = "exa_session";

/// The browser's session token, from its cookie.
pub fn from_headers(headers: &HeaderMap) -> Option<String> {
    headers
        .get_all(COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(name, value)| *name == COOKIE_NAME && value.len() == 64)
        .map(|(_, value)| value.to_string())
}

/// A fresh random token (256 bits, hex).
pub fn new_token() -> String {
    let mut bytes = [0u8; 32];
    rand::rngs::OsRng.fill_bytes(&mut bytes);
    hex::encode(bytes)
}

pub fn hash(token: &str) -> Vec<u8> {
    Sha256::digest(token.as_bytes()).to_vec()
}

/// The `Set-Cookie` header for a new session: not readable by scripts, same-site only.
pub fn set_cookie(token: &str) -> (axum::http::HeaderName, HeaderValue) {
    let value = format!("{COOKIE_NAME}={token}; Path=/api; HttpOnly; SameSite=Lax; Max-Age=86400");
    (SET_COOKIE, HeaderValue::from_str(&value).unwrap_or(HeaderValue::from_static("")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_session_among_other_cookies() {
        let token = new_token();
        let mut headers = HeaderMap::new();
        headers.insert(COOKIE, HeaderValue::from_str(&format!("a=1; {COOKIE_NAME}={token}; b=2")).expect("header"));
        assert_eq!(from_headers(&headers), Some(token));
    }

    #[test]
    fn ignores_a_malformed_session() {
        let mut headers = HeaderMap::new();
        headers.insert(COOKIE, HeaderValue::from_static("exa_session=short"));
        assert_eq!(from_headers(&headers), None);
    }
}
