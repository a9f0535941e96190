//! Where the broadband partner may send the visitor back (the OAuth `redirect_uri` the start
//! command's `return_url` becomes): only the portal's own origin, `PUBLIC_ORIGIN`. Without it,
//! a sandbox deployment accepts its bind address and the loopback forms (`localhost`,
//! `127.0.0.1`, `[::1]`, any port), and any other deployment accepts none.

use std::net::SocketAddr;

use reqwest::Url;

#[derive(Debug, Clone, Default)]
pub struct ReturnOrigins {
    /// Exact origins (`scheme://host[:port]`, as [`Url::origin`] prints them).
    origins: Vec<String>,
    /// Any loopback host over http(s) (sandbox mode without `PUBLIC_ORIGIN`).
    loopback: bool,
}

impl ReturnOrigins {
    /// From the settings: `public_origin` when set (one origin, or several separated by
    /// commas), else in sandbox mode the bind address's origin and the loopback forms.
    pub fn new(public_origin: Option<&str>, sandbox: bool, bind: SocketAddr) -> Self {
        let configured: Vec<String> = public_origin
            .unwrap_or("")
            .split(',')
            .map(str::trim)
            .filter(|o| !o.is_empty())
            .filter_map(|o| Url::parse(o).ok())
            .map(|u| u.origin().ascii_serialization())
            .filter(|o| o != "null")
            .collect();
        if !configured.is_empty() {
            return Self { origins: configured, loopback: false };
        }
        if !sandbox {
            return Self::default();
        }
        let origins = if bind.ip().is_unspecified() { Vec::new() } else { vec![format!("http://{bind}")] };
        Self { origins, loopback: true }
    }

    /// Whether `url` is on one of the accepted origins (http or https, no user or password).
    pub fn allows(&self, url: &str) -> bool {
        let Ok(parsed) = Url::parse(url) else { return false };
        if !matches!(parsed.scheme(), "http" | "https") || !parsed.username().is_empty() || parsed.password().is_some()
        {
            return false;
        }
        if self.origins.contains(&parsed.origin().ascii_serialization()) {
            return true;
        }
        self.loopback
            && parsed.host_str().is_some_and(|host| {
                host.eq_ignore_ascii_case("localhost")
                    || host
                        .trim_start_matches('[')
                        .trim_end_matches(']')
                        .parse::<std::net::IpAddr>()
                        .is_ok_and(|ip| ip.is_loopback())
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PATH: &str = "/seguranca/ativarbrisanet";

    #[test]
    fn only_the_configured_origin_is_accepted() {
        let origins =
            ReturnOrigins::new(Some("https://portal.exa.com.br/"), true, "127.0.0.1:8080".parse().expect("addr"));
        assert!(origins.allows(&format!("https://portal.exa.com.br{PATH}")));
        assert!(origins.allows(&format!("https://portal.exa.com.br:443{PATH}")));
        for url in [
            format!("https://evil.test{PATH}"),
            format!("http://portal.exa.com.br{PATH}"),
            format!("https://portal.exa.com.br.evil.test{PATH}"),
            format!("https://user@portal.exa.com.br{PATH}"),
            format!("http://127.0.0.1:8080{PATH}"),
            "javascript:alert(1)".to_string(),
        ] {
            assert!(!origins.allows(&url), "{url}");
        }
    }

    #[test]
    fn the_sandbox_accepts_its_bind_address_and_loopback_only() {
        let origins = ReturnOrigins::new(None, true, "10.0.0.5:18380".parse().expect("addr"));
        for url in [
            format!("http://10.0.0.5:18380{PATH}"),
            format!("http://127.0.0.1:4000{PATH}"),
            format!("http://localhost{PATH}"),
            format!("http://[::1]:1{PATH}"),
        ] {
            assert!(origins.allows(&url), "{url}");
        }
        assert!(!origins.allows(&format!("https://evil.test{PATH}")));
        assert!(!origins.allows(&format!("http://10.0.0.5:1{PATH}")));
    }

    #[test]
    fn outside_the_sandbox_nothing_is_accepted_without_the_setting() {
        let origins = ReturnOrigins::new(None, false, "127.0.0.1:8080".parse().expect("addr"));
        assert!(!origins.allows(&format!("http://127.0.0.1:8080{PATH}")));
    }
}
