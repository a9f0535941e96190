//! The sandbox's layout (the contract's [`upstream_contract::paths`]) and the base URL it
//! hands out in its answers.

use axum::http::{header, HeaderMap};

pub use upstream_contract::paths::*;

/// `http://<Host>` of the request, for URLs the sandbox hands out (installer, logos): the
/// caller reached the sandbox there, so the browser it passes them to can too.
pub fn public_base(headers: &HeaderMap) -> String {
    let host = headers
        .get(header::HOST)
        .and_then(|value| value.to_str().ok())
        .filter(|host| !host.is_empty() && host.bytes().all(|b| b.is_ascii_alphanumeric() || b".-:[]".contains(&b)));
    format!("http://{}", host.unwrap_or(super::DEFAULT_ADDR))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn public_base_uses_a_well_formed_host_only() {
        let mut headers = HeaderMap::new();
        assert_eq!(public_base(&headers), "http://127.0.0.1:8090");
        headers.insert(header::HOST, "127.0.0.1:4321".parse().unwrap());
        assert_eq!(public_base(&headers), "http://127.0.0.1:4321");
        headers.insert(header::HOST, "evil.test/<x>".parse().unwrap());
        assert_eq!(public_base(&headers), "http://127.0.0.1:8090");
    }
}
