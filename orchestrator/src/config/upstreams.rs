//! Where the upstreams are, how we identify ourselves to them, and the partners' fixed strings.

use std::time::Duration;

use clap::Args;
use secrecy::SecretString;
use upstream_contract::credentials as dev;

use super::secret;

/// Where the upstreams are and how we identify ourselves to them. Every base URL defaults to
/// the sandbox's layout under `SANDBOX_URL`; credentials default to the sandbox's public
/// development values (`upstream_contract::credentials`).
#[derive(Debug, Clone, Args)]
pub struct UpstreamConfig {
    /// Base URL of the sandbox upstreams; used for every upstream that has no URL of its own.
    #[arg(long, env = "SANDBOX_URL", default_value = "http://127.0.0.1:8090")]
    pub sandbox_url: String,

    #[command(flatten)]
    pub urls: UpstreamUrlOverrides,

    /// Client id sent to the partner API and the BFF.
    #[arg(long = "upstream-client-id", env = "UPSTREAM_CLIENT_ID", default_value = dev::CLIENT_ID)]
    pub client_id: String,
    #[arg(long = "upstream-client-secret", env = "UPSTREAM_CLIENT_SECRET", hide_env_values = true, hide_default_value = true,
          default_value = dev::CLIENT_SECRET, value_parser = secret)]
    pub client_secret: SecretString,
    #[arg(long = "upstream-requester-name", env = "UPSTREAM_REQUESTER_NAME", default_value = dev::REQUESTER_NAME)]
    pub requester_name: String,
    /// Identity-provider key of the default and telecom-partner brands.
    #[arg(long, env = "IDENTITY_KEY_DEFAULT", hide_env_values = true, hide_default_value = true,
          default_value = dev::IDENTITY_KEY_DEFAULT, value_parser = secret)]
    pub identity_key_default: SecretString,
    /// Identity-provider key of the carrier brand.
    #[arg(long, env = "IDENTITY_KEY_TIM", hide_env_values = true, hide_default_value = true,
          default_value = dev::IDENTITY_KEY_TIM, value_parser = secret)]
    pub identity_key_tim: SecretString,
    #[arg(long, env = "PHONE_AUTH_API_KEY", hide_env_values = true, hide_default_value = true,
          default_value = dev::PHONE_AUTH_API_KEY, value_parser = secret)]
    pub phone_auth_api_key: SecretString,
    #[arg(long, env = "HERO_API_KEY", hide_env_values = true, hide_default_value = true,
          default_value = dev::HERO_API_KEY, value_parser = secret)]
    pub hero_api_key: SecretString,
    #[arg(long, env = "OAUTH_CLIENT_ID", default_value = dev::OAUTH_CLIENT_ID)]
    pub oauth_client_id: String,
    #[arg(long, env = "OAUTH_CLIENT_SECRET", hide_env_values = true, hide_default_value = true,
          default_value = dev::OAUTH_CLIENT_SECRET, value_parser = secret)]
    pub oauth_client_secret: SecretString,

    /// Upper bound of one upstream call, in seconds.
    #[arg(long, env = "UPSTREAM_TIMEOUT_SECS", default_value_t = 15)]
    pub timeout_secs: u64,
}

impl UpstreamConfig {
    /// The sandbox at `sandbox_url` with its development credentials.
    pub fn sandbox(sandbox_url: &str) -> Self {
        Self {
            sandbox_url: sandbox_url.to_string(),
            urls: UpstreamUrlOverrides::default(),
            client_id: dev::CLIENT_ID.into(),
            client_secret: SecretString::from(dev::CLIENT_SECRET),
            requester_name: dev::REQUESTER_NAME.into(),
            identity_key_default: SecretString::from(dev::IDENTITY_KEY_DEFAULT),
            identity_key_tim: SecretString::from(dev::IDENTITY_KEY_TIM),
            phone_auth_api_key: SecretString::from(dev::PHONE_AUTH_API_KEY),
            hero_api_key: SecretString::from(dev::HERO_API_KEY),
            oauth_client_id: dev::OAUTH_CLIENT_ID.into(),
            oauth_client_secret: SecretString::from(dev::OAUTH_CLIENT_SECRET),
            timeout_secs: 15,
        }
    }

    pub fn timeout(&self) -> Duration {
        Duration::from_secs(self.timeout_secs)
    }
}

/// A real upstream's base URL, in place of the sandbox's for that kind.
#[derive(Debug, Clone, Default, Args)]
pub struct UpstreamUrlOverrides {
    #[arg(long = "upstream-phone-auth-url", env = "UPSTREAM_PHONE_AUTH_URL")]
    pub phone_auth: Option<String>,
    #[arg(long = "upstream-docdb-url", env = "UPSTREAM_DOCDB_URL")]
    pub docdb: Option<String>,
    #[arg(long = "upstream-antivirus-url", env = "UPSTREAM_ANTIVIRUS_URL")]
    pub antivirus: Option<String>,
    #[arg(long = "upstream-partner-api-url", env = "UPSTREAM_PARTNER_API_URL")]
    pub partner_api: Option<String>,
    #[arg(long = "upstream-sso-url", env = "UPSTREAM_SSO_URL")]
    pub sso: Option<String>,
    #[arg(long = "upstream-identity-url", env = "UPSTREAM_IDENTITY_URL")]
    pub identity: Option<String>,
    #[arg(long = "upstream-bff-default-url", env = "UPSTREAM_BFF_DEFAULT_URL")]
    pub bff_default: Option<String>,
    #[arg(long = "upstream-bff-tim-url", env = "UPSTREAM_BFF_TIM_URL")]
    pub bff_tim: Option<String>,
    #[arg(long = "upstream-hero-url", env = "UPSTREAM_HERO_URL")]
    pub hero: Option<String>,
    #[arg(long = "upstream-oauth-url", env = "UPSTREAM_OAUTH_URL")]
    pub oauth: Option<String>,
    #[arg(long = "upstream-cloud-functions-url", env = "UPSTREAM_CLOUD_FUNCTIONS_URL")]
    pub cloud_functions: Option<String>,
    #[arg(long = "upstream-download-manager-url", env = "UPSTREAM_DOWNLOAD_MANAGER_URL")]
    pub download_manager: Option<String>,
    #[arg(long = "upstream-chatbot-url", env = "UPSTREAM_CHATBOT_URL")]
    pub chatbot: Option<String>,
}

/// The partners' fixed strings (spec section 9): the broadband plan hash, the partner names.
#[derive(Debug, Clone, Args)]
pub struct PartnerConfig {
    /// `partner` of `subscribe-by-hash` for the broadband partner.
    #[arg(long, env = "BROADBAND_PARTNER", default_value = dev::BROADBAND_PARTNER)]
    pub broadband_partner: String,
    /// The broadband partner's fixed plan hash.
    #[arg(long, env = "BROADBAND_PLAN_HASH", default_value = dev::BROADBAND_PLAN_HASH)]
    pub broadband_plan_hash: String,
    /// `partner` of `subscribe-by-hash` for the telecom partner.
    #[arg(long, env = "TELECOM_PARTNER_NAME", default_value = dev::TELECOM_PARTNER_NAME)]
    pub telecom_partner: String,
}

impl Default for PartnerConfig {
    fn default() -> Self {
        Self {
            broadband_partner: dev::BROADBAND_PARTNER.into(),
            broadband_plan_hash: dev::BROADBAND_PLAN_HASH.into(),
            telecom_partner: dev::TELECOM_PARTNER_NAME.into(),
        }
    }
}

/// The desktop download's upstream settings.
#[derive(Debug, Clone, Args)]
pub struct DownloadConfig {
    /// The invisible bot check's token sent with `send-code` (see docs/download-flow.md).
    #[arg(long, env = "PHONE_AUTH_BOT_CHECK_TOKEN", hide_env_values = true, hide_default_value = true,
          default_value = dev::PHONE_AUTH_BOT_CHECK_TOKEN, value_parser = secret)]
    pub bot_check_token: SecretString,
    /// Project of the document database's path.
    #[arg(long, env = "DOCDB_PROJECT", default_value = dev::DOCDB_PROJECT)]
    pub docdb_project: String,
}

impl Default for DownloadConfig {
    fn default() -> Self {
        Self {
            bot_check_token: SecretString::from(dev::PHONE_AUTH_BOT_CHECK_TOKEN),
            docdb_project: dev::DOCDB_PROJECT.into(),
        }
    }
}
