//! Where the upstream services are and how we identify ourselves to them, built from
//! [`UpstreamConfig`]. Credentials never leave the server.

pub mod call;
pub mod calls;
pub mod transient;

use secrecy::SecretString;

use crate::config::UpstreamConfig;
pub use upstream_contract::paths::{upstream_urls, UpstreamUrls};

#[derive(Clone)]
pub struct Upstreams {
    pub urls: UpstreamUrls,
    pub client_id: String,
    pub client_secret: SecretString,
    pub requester_name: String,
    pub identity_key_default: SecretString,
    pub identity_key_tim: SecretString,
    pub phone_auth_api_key: SecretString,
    pub hero_api_key: SecretString,
    pub oauth_client_id: String,
    pub oauth_client_secret: SecretString,
    /// Upper bound of one upstream call.
    pub timeout: std::time::Duration,
}

impl std::fmt::Debug for Upstreams {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Secrets stay out of logs.
        f.debug_struct("Upstreams").field("urls", &self.urls).finish_non_exhaustive()
    }
}

impl Upstreams {
    /// The upstreams `config` names: each base URL its override, else the sandbox's.
    pub fn from_config(config: &UpstreamConfig) -> Self {
        let mut urls = upstream_urls(&config.sandbox_url);
        let o = &config.urls;
        let overrides: [(&Option<String>, &mut String); 13] = [
            (&o.phone_auth, &mut urls.phone_auth),
            (&o.docdb, &mut urls.docdb),
            (&o.antivirus, &mut urls.antivirus),
            (&o.partner_api, &mut urls.partner_api),
            (&o.sso, &mut urls.sso),
            (&o.identity, &mut urls.identity),
            (&o.bff_default, &mut urls.bff_default),
            (&o.bff_tim, &mut urls.bff_tim),
            (&o.hero, &mut urls.hero),
            (&o.oauth, &mut urls.oauth),
            (&o.cloud_functions, &mut urls.cloud_functions),
            (&o.download_manager, &mut urls.download_manager),
            (&o.chatbot, &mut urls.chatbot),
        ];
        for (value, slot) in overrides {
            if let Some(value) = value {
                slot.clone_from(value);
            }
        }
        Self {
            urls,
            client_id: config.client_id.clone(),
            client_secret: config.client_secret.clone(),
            requester_name: config.requester_name.clone(),
            identity_key_default: config.identity_key_default.clone(),
            identity_key_tim: config.identity_key_tim.clone(),
            phone_auth_api_key: config.phone_auth_api_key.clone(),
            hero_api_key: config.hero_api_key.clone(),
            oauth_client_id: config.oauth_client_id.clone(),
            oauth_client_secret: config.oauth_client_secret.clone(),
            timeout: config.timeout(),
        }
    }

    /// The sandbox at `sandbox_url` with its development credentials (tests).
    pub fn sandbox(sandbox_url: &str) -> Self {
        Self::from_config(&UpstreamConfig::sandbox(sandbox_url))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_override_replaces_one_kind_only() {
        let mut config = UpstreamConfig::sandbox("http://127.0.0.1:8090");
        config.urls.antivirus = Some("https://av.example/api".into());
        let upstreams = Upstreams::from_config(&config);
        assert_eq!(upstreams.urls.antivirus, "https://av.example/api");
        assert_eq!(upstreams.urls.docdb, "http://127.0.0.1:8090/docdb");
    }
}
