//! The one typed configuration of `orchestrator serve`: flags and environment variables, each
//! with a default that runs on one machine against the sandbox, parsed once in `main` and
//! passed down. Nothing else in the orchestrator reads the environment. Secrets are
//! [`SecretString`]s: their `Debug` is redacted and `--help` never shows their values.

use std::convert::Infallible;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use anyhow::Context;
use clap::{Args, ValueEnum};
use events::pii::Keys;
use secrecy::{ExposeSecret, SecretString};
use upstream_contract::credentials as dev;

/// Settings of `orchestrator serve`. Every field has an environment variable (see README).
#[derive(Debug, Clone, Args)]
pub struct ServeConfig {
    /// PostgreSQL connection string.
    #[arg(long, env = "DATABASE_URL", hide_env_values = true, value_parser = secret)]
    pub database_url: SecretString,

    /// Maximum connections in the database pool.
    #[arg(long, env = "DATABASE_MAX_CONNECTIONS", default_value_t = 10)]
    pub database_max_connections: u32,

    /// Address the portal listens on.
    #[arg(long, env = "BIND_ADDR", default_value = "127.0.0.1:8080")]
    pub bind_addr: SocketAddr,

    /// Address of the admin port (Prometheus `/metrics`, docs/metrics.md); unset, none is
    /// opened. Keep it off the public proxy.
    #[arg(long, env = "ADMIN_BIND_ADDR")]
    pub admin_bind_addr: Option<SocketAddr>,

    /// Folder holding the production build of the web app (index.html and static/).
    #[arg(long, env = "WEB_DIST", default_value = "web/dist")]
    pub web_dist: PathBuf,

    /// Step runners in this process (each with its own notification listener). One is enough
    /// for most loads: it runs RUNNER_CONCURRENCY steps at once, and every runner is woken by
    /// every append, so more runners mean more claims that find nothing (docs/throughput.md).
    #[arg(long, env = "RUNNER_WORKERS", default_value_t = 1)]
    pub runner_workers: usize,

    /// Steps each runner runs at once (issue 15): RUNNER_WORKERS × RUNNER_CONCURRENCY steps
    /// in flight per process, most of each spent waiting on an upstream.
    #[arg(long, env = "RUNNER_CONCURRENCY", default_value_t = 32, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=256))]
    pub runner_concurrency: usize,

    /// Seconds a runner's claim on a step lasts without renewal: how long a step of a process
    /// that died (kill -9, a lost machine) waits before another runner resumes it.
    #[arg(long, env = "RUNNER_LEASE_SECS", default_value_t = 45, value_parser = clap::value_parser!(u64).range(3..=600))]
    pub runner_lease_secs: u64,

    /// Keep the funnel projection (the funnel page's table) current from the event log in this
    /// process. Replicas may all do it (one writes at a time); `false` leaves it to
    /// `replay project --follow`.
    #[arg(long, env = "FUNNEL_PROJECTION", default_value_t = true, action = clap::ArgAction::Set)]
    pub funnel_projection: bool,

    #[command(flatten)]
    pub keys: KeyConfig,

    #[command(flatten)]
    pub site: SiteSettings,

    #[command(flatten)]
    pub upstreams: UpstreamConfig,

    #[command(flatten)]
    pub partners: PartnerConfig,

    #[command(flatten)]
    pub download: DownloadConfig,

    #[command(flatten)]
    pub abuse: AbuseConfig,

    #[command(flatten)]
    pub server: ServerConfig,
}

/// The server's defaults, one constant each (the flags' and `ServerConfig::default`'s).
pub const DEFAULT_HEADER_READ_TIMEOUT_SECS: u64 = 10;
pub const DEFAULT_REQUEST_TIMEOUT_SECS: u64 = 30;
pub const DEFAULT_MAX_CONCURRENT_REQUESTS: u64 = 512;
pub const DEFAULT_MAX_BODY_BYTES: u64 = 65_536;
pub const DEFAULT_SSE_MAX_PER_ATTEMPT: u64 = 4;
pub const DEFAULT_SSE_MAX_TOTAL: u64 = 1_000;

/// clap's parser for secrets: the value goes straight into a [`SecretString`].
fn secret(value: &str) -> Result<SecretString, Infallible> {
    Ok(SecretString::from(value))
}

/// What the command-line tools (`staff`, `person`) need: the database and the personal-data keys.
#[derive(Debug, Clone, Args)]
pub struct AdminConfig {
    /// PostgreSQL connection string.
    #[arg(long, env = "DATABASE_URL", hide_env_values = true, value_parser = secret)]
    pub database_url: SecretString,

    #[command(flatten)]
    pub keys: KeyConfig,

    /// Whether this deployment runs against the sandbox (the development keys are allowed only then).
    #[arg(long, env = "SANDBOX_MODE", default_value_t = true, action = clap::ArgAction::Set)]
    pub sandbox_mode: bool,
}

/// The personal-data keys.
#[derive(Debug, Clone, Default, Args)]
pub struct KeyConfig {
    /// Master key (32 bytes, hex) wrapping each person's data key. Unset: a fixed
    /// development key, with a warning; never run production without it.
    #[arg(long, env = "PII_KEK_HEX", hide_env_values = true, value_parser = secret)]
    pub pii_kek_hex: Option<SecretString>,

    /// Key (32 bytes, hex) of the HMAC that indexes phones, CPF/CNPJ and e-mails.
    #[arg(long, env = "PII_HMAC_HEX", hide_env_values = true, value_parser = secret)]
    pub pii_hmac_hex: Option<SecretString>,

    /// During a master key rotation: the master keys being replaced (hex, comma-separated).
    /// They still open what they wrapped until `orchestrator keys rotate` has wrapped it again.
    #[arg(long, env = "PII_KEK_PREVIOUS_HEX", hide_env_values = true, value_parser = secret)]
    pub pii_kek_previous_hex: Option<SecretString>,
}

impl KeyConfig {
    /// Both keys; neither only in sandbox mode (the development keys, with a warning): outside
    /// it the portal refuses to start rather than seal real people's data with public keys.
    pub fn keys(&self, sandbox_mode: bool) -> anyhow::Result<Keys> {
        match (&self.pii_kek_hex, &self.pii_hmac_hex) {
            (Some(kek), Some(hmac)) => {
                let keys =
                    Keys::from_hex(kek.expose_secret(), hmac.expose_secret()).context("PII_KEK_HEX / PII_HMAC_HEX")?;
                let previous: Vec<&str> = self
                    .pii_kek_previous_hex
                    .as_ref()
                    .map(|p| p.expose_secret().split(',').map(str::trim).filter(|k| !k.is_empty()).collect())
                    .unwrap_or_default();
                keys.with_previous(&previous).context("PII_KEK_PREVIOUS_HEX")
            }
            (None, None) if !sandbox_mode => anyhow::bail!(
                "PII_KEK_HEX and PII_HMAC_HEX are required outside sandbox mode (SANDBOX_MODE=false): \
                 the development keys are public, so data sealed with them is readable by anyone"
            ),
            (None, None) => {
                tracing::warn!("PII_KEK_HEX and PII_HMAC_HEX are unset: using the development keys");
                Ok(Keys::insecure_dev())
            }
            _ => anyhow::bail!("set both PII_KEK_HEX and PII_HMAC_HEX, or neither"),
        }
    }
}

/// What the site shows about the deployment.
#[derive(Debug, Clone, Args)]
pub struct SiteSettings {
    /// Whether the upstreams are the sandbox (the footer then links its SMS inbox).
    #[arg(long, env = "SANDBOX_MODE", default_value_t = true, action = clap::ArgAction::Set)]
    pub sandbox_mode: bool,

    /// Public URL of the chatbot page the site embeds. Unset: the sandbox's.
    #[arg(long, env = "CHATBOT_URL")]
    pub chatbot_url: Option<String>,

    /// Public URL of the chatbot's avatar. Unset: the sandbox's.
    #[arg(long, env = "CHATBOT_AVATAR_URL")]
    pub chatbot_avatar_url: Option<String>,

    #[command(flatten)]
    pub company: CompanySettings,
    /// Mark the support console's cookie `Secure` even when no proxy says the request came
    /// over https.
    #[arg(long, env = "STAFF_COOKIE_SECURE", default_value_t = false, action = clap::ArgAction::Set)]
    pub staff_cookie_secure: bool,
    /// Mark the visitor's session cookie `Secure` even when no proxy says the request came
    /// over https.
    #[arg(long, env = "SESSION_COOKIE_SECURE", default_value_t = false, action = clap::ArgAction::Set)]
    pub session_cookie_secure: bool,
    /// The portal's own origin (`https://portal.example`; several separated by commas): the
    /// only place the broadband partner's OAuth may send the visitor back to. Unset: in sandbox
    /// mode the bind address and the loopback forms, otherwise none.
    #[arg(long, env = "PUBLIC_ORIGIN")]
    pub public_origin: Option<String>,
}

impl Default for SiteSettings {
    fn default() -> Self {
        Self {
            sandbox_mode: true,
            chatbot_url: None,
            chatbot_avatar_url: None,
            company: CompanySettings::default(),
            staff_cookie_secure: false,
            session_cookie_secure: false,
            public_origin: None,
        }
    }
}

/// Placeholders of the demonstration; an operator sets the company's real facts.
const PLACEHOLDER_LEGAL_NAME: &str = "EXA Tecnologia e Segurança Digital S.A.";
const PLACEHOLDER_CNPJ: &str = "00.000.000/0001-00";
const PLACEHOLDER_ADDRESS: &str = "Rua Fidêncio Ramos, 308 – 12º andar; Vila Olímpia, São Paulo – SP; CEP 04551-010";
const PLACEHOLDER_CONTACT_EMAIL: &str = "contato@exa.com.br";
const PLACEHOLDER_PRESS_EMAIL: &str = "imprensa@exa.com.br";

/// Who the company is, as the site shows it (footer, contact page, terms). The defaults are
/// neutral placeholders for development; production sets every one.
#[derive(Debug, Clone, Args)]
pub struct CompanySettings {
    /// Legal name shown in the footer, the contact page and the terms.
    #[arg(long, env = "COMPANY_LEGAL_NAME", default_value = PLACEHOLDER_LEGAL_NAME)]
    pub company_legal_name: String,

    /// CNPJ, formatted (NN.NNN.NNN/NNNN-NN).
    #[arg(long, env = "COMPANY_CNPJ", default_value = PLACEHOLDER_CNPJ)]
    pub company_cnpj: String,

    /// Postal address; `;` separates its lines.
    #[arg(long, env = "COMPANY_ADDRESS", default_value = PLACEHOLDER_ADDRESS)]
    pub company_address: String,

    /// General contact e-mail.
    #[arg(long, env = "COMPANY_CONTACT_EMAIL", default_value = PLACEHOLDER_CONTACT_EMAIL)]
    pub company_contact_email: String,

    /// Press e-mail.
    #[arg(long, env = "COMPANY_PRESS_EMAIL", default_value = PLACEHOLDER_PRESS_EMAIL)]
    pub company_press_email: String,

    /// Support phone line as visitors dial it. Unset: the site shows no phone.
    #[arg(long, env = "SUPPORT_PHONE")]
    pub support_phone: Option<String>,

    /// Support WhatsApp number as visitors read it. Unset: the site shows no WhatsApp.
    #[arg(long, env = "SUPPORT_WHATSAPP")]
    pub support_whatsapp: Option<String>,

    /// Image URL of the ethical-company seal issued by its certifier. Unset: our neutral slot.
    #[arg(long, env = "ETHICS_SEAL_URL")]
    pub ethics_seal_url: Option<String>,
}

impl Default for CompanySettings {
    fn default() -> Self {
        Self {
            company_legal_name: PLACEHOLDER_LEGAL_NAME.into(),
            company_cnpj: PLACEHOLDER_CNPJ.into(),
            company_address: PLACEHOLDER_ADDRESS.into(),
            company_contact_email: PLACEHOLDER_CONTACT_EMAIL.into(),
            company_press_email: PLACEHOLDER_PRESS_EMAIL.into(),
            support_phone: None,
            support_whatsapp: None,
            ethics_seal_url: None,
        }
    }
}

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

/// Limits against SMS pumping, code guessing and account probing (see docs/abuse.md). The
/// defaults are production's; in sandbox mode the per-address limits are off unless set.
#[derive(Debug, Clone, Args)]
pub struct AbuseConfig {
    /// Codes sent to one phone in 10 minutes, across flows and attempts.
    #[arg(long, env = "LIMIT_SMS_PER_PHONE_10MIN", default_value_t = 5)]
    pub sms_per_phone_10min: u32,
    /// Codes sent to one phone in 24 hours.
    #[arg(long, env = "LIMIT_SMS_PER_PHONE_DAY", default_value_t = 10)]
    pub sms_per_phone_day: u32,
    /// Codes sent by the whole portal in one minute; past it every send is refused for
    /// `SMS_BREAKER_COOLDOWN_SECS` and an alert is logged (the circuit breaker).
    #[arg(long, env = "LIMIT_SMS_PER_MINUTE", default_value_t = 300)]
    pub sms_per_minute: u32,
    /// How long the SMS circuit breaker stays open once tripped.
    #[arg(long, env = "SMS_BREAKER_COOLDOWN_SECS", default_value_t = 300)]
    pub sms_breaker_cooldown_secs: u32,
    /// Attempts started from one client address in 10 minutes (production default 20;
    /// off in sandbox mode unless set).
    #[arg(long, env = "LIMIT_STARTS_PER_IP_10MIN")]
    pub starts_per_ip_10min: Option<u32>,
    /// Wrong codes per attempt before code checks are refused.
    #[arg(long, env = "LIMIT_WRONG_CODES_PER_ATTEMPT", default_value_t = 5)]
    pub wrong_codes_per_attempt: u32,
    /// Partner log-ins (telecom partner e-mail) per e-mail in one hour.
    #[arg(long, env = "LIMIT_PARTNER_LOGINS_PER_EMAIL_HOUR", default_value_t = 5)]
    pub partner_logins_per_email_hour: u32,
    /// Partner log-ins from one client address in one hour (production default 20; off in
    /// sandbox mode unless set).
    #[arg(long, env = "LIMIT_PARTNER_LOGINS_PER_IP_HOUR")]
    pub partner_logins_per_ip_hour: Option<u32>,
    /// How many proxies in front of the portal append to `X-Forwarded-For`. 0: the client
    /// address is the connection's peer and the header is ignored.
    #[arg(long, env = "TRUSTED_PROXY_HOPS", default_value_t = 0)]
    pub trusted_proxy_hops: usize,
    /// Proof-of-work difficulty: the largest counter a browser may have to reach (the
    /// expected work is three quarters of it, one SHA-256 each).
    /// The default keeps the worst solve under a second on a mid-range phone
    /// (docs/benchmarks.md).
    #[arg(long, env = "ALTCHA_MAX_COUNTER", default_value_t = 30_000, value_parser = clap::value_parser!(u32).range(2..))]
    pub altcha_max_counter: u32,
    /// Seconds a proof-of-work challenge stays valid.
    #[arg(long, env = "ALTCHA_EXPIRES_SECS", default_value_t = 600)]
    pub altcha_expires_secs: u32,
}

impl Default for AbuseConfig {
    fn default() -> Self {
        Self {
            sms_per_phone_10min: 5,
            sms_per_phone_day: 10,
            sms_per_minute: 300,
            sms_breaker_cooldown_secs: 300,
            starts_per_ip_10min: None,
            wrong_codes_per_attempt: 5,
            partner_logins_per_email_hour: 5,
            partner_logins_per_ip_hour: None,
            trusted_proxy_hops: 0,
            altcha_max_counter: 30_000,
            altcha_expires_secs: 600,
        }
    }
}

/// The HTTP server's bounds (docs/throughput.md).
#[derive(Debug, Clone, Args)]
pub struct ServerConfig {
    /// Seconds a client has to send a request's headers (also how long an idle keep-alive
    /// connection stays open): a slowloris is cut off after it.
    #[arg(long, env = "HTTP_HEADER_READ_TIMEOUT_SECS", default_value_t = DEFAULT_HEADER_READ_TIMEOUT_SECS, value_parser = clap::value_parser!(u64).range(1..=300))]
    pub header_read_timeout_secs: u64,
    /// Seconds from a request's headers to its answer's (an event stream's body is not bound).
    #[arg(long, env = "HTTP_REQUEST_TIMEOUT_SECS", default_value_t = DEFAULT_REQUEST_TIMEOUT_SECS, value_parser = clap::value_parser!(u64).range(1..=600))]
    pub request_timeout_secs: u64,
    /// Requests handled at once by this process; more wait their turn within the time-out.
    #[arg(long, env = "HTTP_MAX_CONCURRENT_REQUESTS", default_value_t = DEFAULT_MAX_CONCURRENT_REQUESTS, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    pub max_concurrent_requests: u64,
    /// Largest request body in bytes.
    #[arg(long, env = "HTTP_MAX_BODY_BYTES", default_value_t = DEFAULT_MAX_BODY_BYTES, value_parser = clap::value_parser!(u64).range(1_024..=16_777_216))]
    pub max_body_bytes: u64,
    /// Event streams (SSE) open at once for one attempt.
    #[arg(long, env = "SSE_MAX_PER_ATTEMPT", default_value_t = DEFAULT_SSE_MAX_PER_ATTEMPT, value_parser = clap::value_parser!(u64).range(1..=100))]
    pub sse_max_per_attempt: u64,
    /// Event streams (SSE) open at once in this process.
    #[arg(long, env = "SSE_MAX_TOTAL", default_value_t = DEFAULT_SSE_MAX_TOTAL, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    pub sse_max_total: u64,
}

impl Default for ServerConfig {
    fn default() -> Self {
        Self {
            header_read_timeout_secs: DEFAULT_HEADER_READ_TIMEOUT_SECS,
            request_timeout_secs: DEFAULT_REQUEST_TIMEOUT_SECS,
            max_concurrent_requests: DEFAULT_MAX_CONCURRENT_REQUESTS,
            max_body_bytes: DEFAULT_MAX_BODY_BYTES,
            sse_max_per_attempt: DEFAULT_SSE_MAX_PER_ATTEMPT,
            sse_max_total: DEFAULT_SSE_MAX_TOTAL,
        }
    }
}

/// How logs are written.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, ValueEnum)]
pub enum LogFormat {
    /// Human-readable lines.
    #[default]
    Text,
    /// One JSON object per line.
    Json,
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        config: ServeConfig,
    }

    #[test]
    fn the_development_keys_are_refused_outside_sandbox_mode() {
        let unset = KeyConfig::default();
        assert!(unset.keys(true).is_ok(), "sandbox mode runs on the development keys");
        let refused = unset.keys(false).expect_err("refused outside sandbox mode");
        assert!(refused.to_string().contains("PII_KEK_HEX and PII_HMAC_HEX are required"), "{refused}");
        let (kek, hmac) = Keys::generate().to_hex();
        let set = KeyConfig {
            pii_kek_hex: Some(SecretString::from(kek)),
            pii_hmac_hex: Some(SecretString::from(hmac)),
            pii_kek_previous_hex: None,
        };
        assert!(set.keys(false).is_ok());
    }

    #[test]
    fn secrets_stay_out_of_debug_output() {
        let cli = Cli::try_parse_from([
            "serve",
            "--database-url",
            "postgres://app:db-password@db/exa",
            "--upstream-client-secret",
            "real-client-secret",
            "--pii-kek-hex",
            "00112233",
        ])
        .expect("parses");
        let printed = format!("{:?}", cli.config);
        for secret in ["db-password", "real-client-secret", "00112233", dev::OAUTH_CLIENT_SECRET] {
            assert!(!printed.contains(secret), "{secret} printed in {printed}");
        }
    }

    #[test]
    fn the_readme_lists_every_variable() {
        use clap::CommandFactory;
        let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../README.md")).expect("README");
        let command = Cli::command();
        let variables: Vec<String> = command
            .get_arguments()
            .filter_map(|arg| arg.get_env())
            .map(|name| name.to_string_lossy().into_owned())
            .collect();
        assert!(variables.len() > 30, "{variables:?}");
        for name in variables {
            assert!(readme.contains(&format!("`{name}`")), "README's configuration table lacks {name}");
        }
    }
}
