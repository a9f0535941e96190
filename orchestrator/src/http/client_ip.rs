//! The client's address, as far as it can be trusted: the connection's peer, or, behind
//! `TRUSTED_PROXY_HOPS` proxies that each append to `X-Forwarded-For`, the address the
//! outermost of them saw. Entries further left are the client's own word and are ignored.

use std::net::{IpAddr, SocketAddr};

use axum::extract::{ConnectInfo, FromRequestParts};
use axum::http::request::Parts;
use axum::http::HeaderMap;

use crate::http::state::AppState;

/// The address `hops` trusted proxies vouch for, or the peer's when `hops` is 0.
pub fn client_ip(headers: &HeaderMap, peer: Option<IpAddr>, hops: usize) -> Option<String> {
    let mut chain: Vec<String> = Vec::new();
    if hops > 0 {
        for value in headers.get_all("x-forwarded-for") {
            let Ok(value) = value.to_str() else { continue };
            chain.extend(
                value
                    .split(',')
                    .map(|entry| entry.trim().chars().take(64).collect::<String>())
                    .filter(|e| !e.is_empty()),
            );
        }
    }
    chain.extend(peer.map(|ip| ip.to_string()));
    // The peer is the last proxy; each trusted hop moves one entry to the left.
    let index = chain.len().saturating_sub(1 + hops);
    chain.get(index).cloned()
}

/// The client's address for a handler (`"unknown"` without a peer, as in some tests).
#[derive(Debug, Clone)]
pub struct ClientIp(pub String);

impl FromRequestParts<AppState> for ClientIp {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        let peer = parts.extensions.get::<ConnectInfo<SocketAddr>>().map(|c| c.0.ip());
        let ip = client_ip(&parts.headers, peer, state.abuse.trusted_proxy_hops());
        Ok(ClientIp(ip.unwrap_or_else(|| "unknown".into())))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn headers(forwarded: &str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert("x-forwarded-for", HeaderValue::from_str(forwarded).expect("header"));
        headers
    }

    #[test]
    fn without_a_trusted_proxy_the_header_is_the_clients_word_and_ignored() {
        let peer = Some("203.0.113.9".parse().expect("ip"));
        assert_eq!(client_ip(&headers("1.2.3.4"), peer, 0).as_deref(), Some("203.0.113.9"));
    }

    #[test]
    fn behind_one_proxy_the_client_is_what_it_appended() {
        let proxy = Some("10.0.0.2".parse().expect("ip"));
        // The client forged "6.6.6.6"; the proxy appended the address it saw.
        assert_eq!(client_ip(&headers("6.6.6.6, 198.51.100.7"), proxy, 1).as_deref(), Some("198.51.100.7"));
        assert_eq!(client_ip(&headers("6.6.6.6, 198.51.100.7, 10.0.0.1"), proxy, 2).as_deref(), Some("198.51.100.7"));
    }

    #[test]
    fn a_request_that_skipped_the_proxy_falls_back_to_the_leftmost_known_hop() {
        let peer = Some("198.51.100.7".parse().expect("ip"));
        assert_eq!(client_ip(&HeaderMap::new(), peer, 1).as_deref(), Some("198.51.100.7"));
        assert_eq!(client_ip(&HeaderMap::new(), None, 0), None);
    }
}
