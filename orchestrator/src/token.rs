//! The one maker of random tokens: 256 bits from the operating system's generator, written in
//! the encoding each use keeps (issue 24: three makers were written apart).

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use rand::RngCore;

fn random_256() -> [u8; 32] {
    let mut bytes = [0u8; 32];
    rand::rngs::OsRng.fill_bytes(&mut bytes);
    bytes
}

/// base64url without padding (43 characters): staff sessions and CSRF tokens, the OAuth
/// `state` and PKCE verifier.
pub fn url_safe() -> String {
    URL_SAFE_NO_PAD.encode(random_256())
}

/// Hex (64 characters): the visitor's session cookie and waiting-line ticket.
pub fn hex() -> String {
    hex::encode(random_256())
}

/// What a table keeps of a token it must recognise (SHA-256): the sessions', the line's
/// tickets, the OAuth `state`. A token is 256 random bits, so a plain hash cannot be reversed.
pub fn hash(token: &str) -> Vec<u8> {
    use sha2::Digest;
    sha2::Sha256::digest(token.as_bytes()).to_vec()
}

/// The token the request's cookie `name` carries back, when its value has the `len` characters
/// of the token it was given (anything else is no token of ours).
pub fn from_cookie(headers: &axum::http::HeaderMap, name: &str, len: usize) -> Option<String> {
    cookie_where(headers, name, |value| value.len() == len)
}

/// The value of the request's first cookie `name` that `fits` (anything else is none of ours).
pub fn cookie_where(headers: &axum::http::HeaderMap, name: &str, fits: impl Fn(&str) -> bool) -> Option<String> {
    headers
        .get_all(axum::http::header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(cookie, value)| *cookie == name && fits(value))
        .map(|(_, value)| value.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_256_bits_in_their_encodings_and_never_repeat() {
        let (a, b) = (url_safe(), url_safe());
        assert_eq!((a.len(), b.len()), (43, 43));
        assert_ne!(a, b);
        assert!(a.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_'), "{a}");
        let h = hex();
        assert_eq!(h.len(), 64);
        assert!(h.chars().all(|c| c.is_ascii_hexdigit()), "{h}");
    }
}
