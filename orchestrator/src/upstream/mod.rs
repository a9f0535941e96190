//! Where the upstream services are and how we identify ourselves to them.
//! Every base URL defaults to the sandbox's layout; credentials default to the sandbox's
//! documented development values. Real ones come from the environment and never leave
//! the server.

use secrecy::SecretString;

use upstream_contract::credentials as dev;
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

fn env_or(name: &str, default: &str) -> String {
    std::env::var(name).unwrap_or_else(|_| default.to_string())
}

fn secret_env_or(name: &str, default: &str) -> SecretString {
    SecretString::from(env_or(name, default))
}

impl Upstreams {
    /// The sandbox at `sandbox_url`, each base URL overridable by `UPSTREAM_<KIND>_URL`.
    pub fn from_env(sandbox_url: &str) -> Self {
        let mut urls = upstream_urls(sandbox_url);
        let overrides: [(&str, &mut String); 13] = [
            ("UPSTREAM_PHONE_AUTH_URL", &mut urls.phone_auth),
            ("UPSTREAM_DOCDB_URL", &mut urls.docdb),
            ("UPSTREAM_ANTIVIRUS_URL", &mut urls.antivirus),
            ("UPSTREAM_PARTNER_API_URL", &mut urls.partner_api),
            ("UPSTREAM_SSO_URL", &mut urls.sso),
            ("UPSTREAM_IDENTITY_URL", &mut urls.identity),
            ("UPSTREAM_BFF_DEFAULT_URL", &mut urls.bff_default),
            ("UPSTREAM_BFF_TIM_URL", &mut urls.bff_tim),
            ("UPSTREAM_HERO_URL", &mut urls.hero),
            ("UPSTREAM_OAUTH_URL", &mut urls.oauth),
            ("UPSTREAM_CLOUD_FUNCTIONS_URL", &mut urls.cloud_functions),
            ("UPSTREAM_DOWNLOAD_MANAGER_URL", &mut urls.download_manager),
            ("UPSTREAM_CHATBOT_URL", &mut urls.chatbot),
        ];
        for (name, slot) in overrides {
            if let Ok(value) = std::env::var(name) {
                *slot = value;
            }
        }
        Self {
            urls,
            client_id: env_or("UPSTREAM_CLIENT_ID", dev::CLIENT_ID),
            client_secret: secret_env_or("UPSTREAM_CLIENT_SECRET", dev::CLIENT_SECRET),
            requester_name: env_or("UPSTREAM_REQUESTER_NAME", dev::REQUESTER_NAME),
            identity_key_default: secret_env_or("IDENTITY_KEY_DEFAULT", dev::IDENTITY_KEY_DEFAULT),
            identity_key_tim: secret_env_or("IDENTITY_KEY_TIM", dev::IDENTITY_KEY_TIM),
            phone_auth_api_key: secret_env_or("PHONE_AUTH_API_KEY", dev::PHONE_AUTH_API_KEY),
            hero_api_key: secret_env_or("HERO_API_KEY", dev::HERO_API_KEY),
            oauth_client_id: env_or("OAUTH_CLIENT_ID", dev::OAUTH_CLIENT_ID),
            oauth_client_secret: secret_env_or("OAUTH_CLIENT_SECRET", dev::OAUTH_CLIENT_SECRET),
            timeout: std::time::Duration::from_secs(15),
        }
    }

    /// The sandbox at `sandbox_url` with its development credentials (tests).
    pub fn sandbox(sandbox_url: &str) -> Self {
        Self {
            urls: upstream_urls(sandbox_url),
            client_id: dev::CLIENT_ID.into(),
            client_secret: SecretString::from(dev::CLIENT_SECRET),
            requester_name: dev::REQUESTER_NAME.into(),
            identity_key_default: SecretString::from(dev::IDENTITY_KEY_DEFAULT),
            identity_key_tim: SecretString::from(dev::IDENTITY_KEY_TIM),
            phone_auth_api_key: SecretString::from(dev::PHONE_AUTH_API_KEY),
            hero_api_key: SecretString::from(dev::HERO_API_KEY),
            oauth_client_id: dev::OAUTH_CLIENT_ID.into(),
            oauth_client_secret: SecretString::from(dev::OAUTH_CLIENT_SECRET),
            timeout: std::time::Duration::from_secs(15),
        }
    }
}
