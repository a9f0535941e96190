//! What `orchestrator serve` refuses outside sandbox mode (issue 26): a secret left at the
//! sandbox's public development value, and an upstream that is the sandbox, this machine, or
//! plain http. Each problem is one line naming its setting; the secret's value is never printed.

use std::net::IpAddr;

use secrecy::{ExposeSecret, SecretString};
use upstream_contract::credentials as dev;

use super::{ServeConfig, UpstreamUrlOverrides};

/// The secrets whose defaults are the sandbox's public development values, by setting.
pub const DEVELOPMENT_SECRETS: [(&str, &str); 7] = [
    ("UPSTREAM_CLIENT_SECRET", dev::CLIENT_SECRET),
    ("IDENTITY_KEY_DEFAULT", dev::IDENTITY_KEY_DEFAULT),
    ("IDENTITY_KEY_TIM", dev::IDENTITY_KEY_TIM),
    ("PHONE_AUTH_API_KEY", dev::PHONE_AUTH_API_KEY),
    ("HERO_API_KEY", dev::HERO_API_KEY),
    ("OAUTH_CLIENT_SECRET", dev::OAUTH_CLIENT_SECRET),
    ("PHONE_AUTH_BOT_CHECK_TOKEN", dev::PHONE_AUTH_BOT_CHECK_TOKEN),
];

/// Where an upstream's own URL is read from.
type UrlOf = fn(&UpstreamUrlOverrides) -> &Option<String>;

/// Every upstream's URL setting; unset, the upstream is the sandbox's under `SANDBOX_URL`.
pub const UPSTREAM_URL_SETTINGS: [(&str, UrlOf); 13] = [
    ("UPSTREAM_PHONE_AUTH_URL", |o| &o.phone_auth),
    ("UPSTREAM_DOCDB_URL", |o| &o.docdb),
    ("UPSTREAM_ANTIVIRUS_URL", |o| &o.antivirus),
    ("UPSTREAM_PARTNER_API_URL", |o| &o.partner_api),
    ("UPSTREAM_SSO_URL", |o| &o.sso),
    ("UPSTREAM_IDENTITY_URL", |o| &o.identity),
    ("UPSTREAM_BFF_DEFAULT_URL", |o| &o.bff_default),
    ("UPSTREAM_BFF_TIM_URL", |o| &o.bff_tim),
    ("UPSTREAM_HERO_URL", |o| &o.hero),
    ("UPSTREAM_OAUTH_URL", |o| &o.oauth),
    ("UPSTREAM_CLOUD_FUNCTIONS_URL", |o| &o.cloud_functions),
    ("UPSTREAM_DOWNLOAD_MANAGER_URL", |o| &o.download_manager),
    ("UPSTREAM_CHATBOT_URL", |o| &o.chatbot),
];

/// The settings that cannot be production's, one line each; empty in sandbox mode.
pub fn production_problems(config: &ServeConfig) -> Vec<String> {
    if config.site.sandbox_mode {
        return Vec::new();
    }
    let upstreams = &config.upstreams;
    let mut problems = Vec::new();
    let secrets: [&SecretString; 7] = [
        &upstreams.client_secret,
        &upstreams.identity_key_default,
        &upstreams.identity_key_tim,
        &upstreams.phone_auth_api_key,
        &upstreams.hero_api_key,
        &upstreams.oauth_client_secret,
        &config.download.bot_check_token,
    ];
    for ((name, development), secret) in DEVELOPMENT_SECRETS.iter().zip(secrets) {
        if secret.expose_secret().trim() == *development {
            problems.push(format!("{name} is the sandbox's public development value: set the real one"));
        }
    }
    let (dev_kek, dev_hmac) = events::pii::Keys::insecure_dev().to_hex();
    for (name, key, development) in
        [("PII_KEK_HEX", &config.keys.pii_kek_hex, dev_kek), ("PII_HMAC_HEX", &config.keys.pii_hmac_hex, dev_hmac)]
    {
        if key.as_ref().is_some_and(|k| k.expose_secret().trim().eq_ignore_ascii_case(&development)) {
            problems.push(format!("{name} is the public development key: generate a key of your own"));
        }
    }
    let sandbox = upstreams.sandbox_url.as_str();
    for (name, url_of) in UPSTREAM_URL_SETTINGS {
        problems.extend(url_problem(name, url_of(&upstreams.urls).as_deref(), sandbox));
    }
    for (name, url) in
        [("CHATBOT_URL", &config.site.chatbot_url), ("CHATBOT_AVATAR_URL", &config.site.chatbot_avatar_url)]
    {
        problems.extend(url_problem(name, url.as_deref(), sandbox));
    }
    problems
}

/// Why the URL of setting `name` cannot be a production upstream's, if it cannot.
fn url_problem(name: &str, url: Option<&str>, sandbox_url: &str) -> Option<String> {
    let Some(url) = url.map(str::trim) else {
        return Some(format!("{name} is unset: it would be the sandbox's, under SANDBOX_URL"));
    };
    let sandbox_url = sandbox_url.trim().trim_end_matches('/');
    if !sandbox_url.is_empty() && url.starts_with(sandbox_url) {
        return Some(format!("{name} is under SANDBOX_URL: the sandbox is not a real upstream"));
    }
    let Ok(parsed) = reqwest::Url::parse(url) else {
        return Some(format!("{name} is not a URL"));
    };
    if parsed.scheme() != "https" {
        return Some(format!(
            "{name} is not https ({}://): credentials and personal data would travel in clear",
            parsed.scheme()
        ));
    }
    let host = parsed.host_str().unwrap_or_default().trim_start_matches('[').trim_end_matches(']').to_ascii_lowercase();
    let this_machine = host.is_empty()
        || host == "localhost"
        || host.ends_with(".localhost")
        || host.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback() || ip.is_unspecified());
    this_machine.then(|| format!("{name} points at this machine ({host}): a sandbox's place, not a real upstream"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn upstream_urls_must_be_https_on_another_machine_and_not_the_sandbox() {
        let sandbox = "http://127.0.0.1:8090";
        let cases: [(Option<&str>, Option<&str>); 10] = [
            (Some("https://sso.partner.example/v1"), None),
            (Some("https://203.0.113.7/v1"), None),
            (None, Some("is unset")),
            (Some("http://sso.partner.example"), Some("is not https (http://)")),
            (Some("https://127.0.0.1:9443/x"), Some("points at this machine (127.0.0.1)")),
            (Some("https://[::1]/x"), Some("points at this machine (::1)")),
            (Some("https://LOCALHOST/x"), Some("points at this machine (localhost)")),
            (Some("https://app.localhost/x"), Some("points at this machine")),
            (Some("http://127.0.0.1:8090/sso"), Some("under SANDBOX_URL")),
            (Some("not a url"), Some("is not a URL")),
        ];
        for (url, expected) in cases {
            let problem = url_problem("UPSTREAM_SSO_URL", url, sandbox);
            match expected {
                None => assert_eq!(problem, None, "{url:?}"),
                Some(expected) => {
                    let problem = problem.unwrap_or_else(|| panic!("{url:?} refused"));
                    assert!(
                        problem.starts_with("UPSTREAM_SSO_URL ") && problem.contains(expected),
                        "{url:?}: {problem}"
                    );
                }
            }
        }
    }
}
