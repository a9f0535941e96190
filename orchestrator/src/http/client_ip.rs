//! The client's address, as far as it can be trusted. The connection's peer is the client,
//! unless the peer is one of the proxies of `TRUSTED_PROXIES`: then `X-Forwarded-For` is read
//! from the right (each proxy appends the address it saw) and the first address that is not a
//! trusted proxy's is the client's. Entries further left are the client's own word and are
//! never read: a client cannot choose its address.
//!
//! Per-address limits count an IPv6 client by its /64 (one subscriber's usual allocation: it
//! can change address within it at will), an IPv4 client by its address.

use std::net::{IpAddr, Ipv6Addr, SocketAddr};

use axum::extract::{ConnectInfo, FromRequestParts};
use axum::http::request::Parts;
use axum::http::HeaderMap;

pub use crate::config::{IpNet, TrustedProxies};
use crate::http::state::AppState;

/// One `X-Forwarded-For` entry: an address, maybe with a port (`198.51.100.7:4711`, `[2001:db8::1]:443`).
fn entry(text: &str) -> Option<IpAddr> {
    let text = text.trim();
    text.parse::<IpAddr>().or_else(|_| text.parse::<SocketAddr>().map(|s| s.ip())).ok().map(|ip| ip.to_canonical())
}

/// The client's address: the peer's, or, when the peer is a trusted proxy, the right-most
/// `X-Forwarded-For` entry that is not a trusted proxy's. When every entry is a trusted
/// proxy's, the left-most of them; an entry that is not an address stops the walk at the
/// proxy that passed it on.
pub fn client_ip(headers: &HeaderMap, peer: Option<IpAddr>, trusted: &TrustedProxies) -> Option<IpAddr> {
    let mut client = peer?.to_canonical();
    if !trusted.contains(client) {
        return Some(client);
    }
    let chain: Vec<&str> = headers
        .get_all("x-forwarded-for")
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(','))
        .collect();
    for text in chain.into_iter().rev() {
        let Some(ip) = entry(text) else { break };
        client = ip;
        if !trusted.contains(ip) {
            break;
        }
    }
    Some(client)
}

/// What per-address limits count: an IPv4 address whole, an IPv6 address by its /64.
pub fn limit_key(ip: IpAddr) -> String {
    match ip.to_canonical() {
        IpAddr::V4(v4) => v4.to_string(),
        IpAddr::V6(v6) => {
            let network = Ipv6Addr::from(u128::from(v6) & (u128::MAX << 64));
            format!("{network}/64")
        }
    }
}

/// The client's address for a handler (none without a peer, as in some tests).
#[derive(Debug, Clone)]
pub struct ClientIp {
    pub ip: Option<IpAddr>,
    key: Option<String>,
}

impl ClientIp {
    pub fn new(ip: Option<IpAddr>) -> Self {
        Self { ip, key: ip.map(limit_key) }
    }

    /// The key per-address limits count under ([`limit_key`]).
    pub fn limit_key(&self) -> Option<&str> {
        self.key.as_deref()
    }
}

impl FromRequestParts<AppState> for ClientIp {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        let peer = parts.extensions.get::<ConnectInfo<SocketAddr>>().map(|c| c.0.ip());
        Ok(Self::new(client_ip(&parts.headers, peer, state.abuse.trusted_proxies())))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn ip(text: &str) -> IpAddr {
        text.parse().expect("ip")
    }

    #[test]
    fn the_client_is_the_first_untrusted_address_from_the_right() {
        // (trusted proxies, peer, X-Forwarded-For headers, client)
        let cases: &[(&str, &str, &[&str], &str)] = &[
            // No proxy configured: the header is the client's word and ignored.
            ("", "203.0.113.9", &["1.2.3.4"], "203.0.113.9"),
            // A peer outside the trusted networks: its header is ignored too.
            ("10.0.0.0/8", "203.0.113.9", &["1.2.3.4"], "203.0.113.9"),
            // Behind one proxy: what it appended, never the forged left-most entry.
            ("10.0.0.0/8", "10.0.0.2", &["6.6.6.6, 198.51.100.7"], "198.51.100.7"),
            // Behind two proxies: the inner one's entry is skipped.
            ("10.0.0.0/8", "10.0.0.2", &["6.6.6.6, 198.51.100.7, 10.0.0.1"], "198.51.100.7"),
            ("10.0.0.0/8, 192.0.2.0/24", "10.0.0.2", &["6.6.6.6, 198.51.100.7, 192.0.2.10"], "198.51.100.7"),
            // Two header lines are one list, in order.
            ("10.0.0.0/8", "10.0.0.2", &["6.6.6.6", "198.51.100.7, 10.0.0.1"], "198.51.100.7"),
            // A client that writes a trusted address first gains nothing.
            ("10.0.0.0/8", "10.0.0.2", &["10.9.9.9, 198.51.100.7"], "198.51.100.7"),
            // No header, or only proxies: the left-most proxy.
            ("10.0.0.0/8", "10.0.0.2", &[], "10.0.0.2"),
            ("10.0.0.0/8", "10.0.0.2", &["10.0.0.7, 10.0.0.1"], "10.0.0.7"),
            // Garbage stops the walk at the proxy that passed it on.
            ("10.0.0.0/8", "10.0.0.2", &["198.51.100.7, not-an-ip"], "10.0.0.2"),
            ("10.0.0.0/8", "10.0.0.2", &["198.51.100.7, not-an-ip, 10.0.0.1"], "10.0.0.1"),
            // Ports, IPv6, IPv4-mapped peers.
            ("10.0.0.0/8", "10.0.0.2", &["198.51.100.7:4711"], "198.51.100.7"),
            ("2001:db8:ffff::/48", "2001:db8:ffff::1", &["[2001:db8:1::5]:443"], "2001:db8:1::5"),
            ("10.0.0.0/8", "::ffff:10.0.0.2", &["198.51.100.7"], "198.51.100.7"),
            ("127.0.0.1", "127.0.0.1", &["2001:db8::1"], "2001:db8::1"),
        ];
        for (trusted, peer, forwarded, client) in cases {
            let trusted: TrustedProxies = trusted.parse().expect("trusted proxies");
            let mut headers = HeaderMap::new();
            for line in *forwarded {
                headers.append("x-forwarded-for", HeaderValue::from_str(line).expect("header"));
            }
            assert_eq!(
                client_ip(&headers, Some(ip(peer)), &trusted),
                Some(ip(client)),
                "{trusted:?} {peer} {forwarded:?}"
            );
        }
        assert_eq!(client_ip(&HeaderMap::new(), None, &TrustedProxies::default()), None);
    }

    #[test]
    fn limits_count_an_ipv6_client_by_its_64() {
        assert_eq!(limit_key(ip("198.51.100.7")), "198.51.100.7");
        assert_eq!(limit_key(ip("::ffff:198.51.100.7")), "198.51.100.7");
        assert_eq!(limit_key(ip("2001:db8:1:2:3:4:5:6")), "2001:db8:1:2::/64");
        assert_eq!(limit_key(ip("2001:db8:1:2::ffff")), limit_key(ip("2001:db8:1:2:aaaa::1")));
        assert_ne!(limit_key(ip("2001:db8:1:2::1")), limit_key(ip("2001:db8:1:3::1")));
    }

    #[test]
    fn address_blocks_parse_and_match() {
        let net: IpNet = "10.0.0.0/8".parse().expect("net");
        assert!(net.contains(ip("10.255.0.1")) && !net.contains(ip("11.0.0.1")));
        assert!("0.0.0.0/0".parse::<IpNet>().expect("all").contains(ip("8.8.8.8")));
        assert!(!"0.0.0.0/0".parse::<IpNet>().expect("all").contains(ip("2001:db8::1")));
        assert!("2001:db8::/32".parse::<IpNet>().expect("v6").contains(ip("2001:db8:ffff::1")));
        assert_eq!("192.0.2.1".parse::<IpNet>().expect("host").to_string(), "192.0.2.1/32");
        for bad in ["10.0.0.0/33", "2001:db8::/129", "example.com", "10.0.0.0/x", "10.0.0/8"] {
            assert!(bad.parse::<IpNet>().is_err(), "{bad}");
        }
        assert_eq!("".parse::<TrustedProxies>().expect("empty"), TrustedProxies::default());
        assert_eq!(" 10.0.0.0/8 , ::1 ".parse::<TrustedProxies>().expect("two").0.len(), 2);
    }
}
