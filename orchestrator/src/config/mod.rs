//! The one typed configuration of `orchestrator serve`: flags and environment variables, each
//! with a default that runs on one machine against the sandbox, parsed once in `main` and
//! passed down. Nothing else in the orchestrator reads the environment. Secrets are
//! [`SecretString`]s: their `Debug` is redacted and `--help` never shows their values.

use std::convert::Infallible;
use std::net::SocketAddr;
use std::path::PathBuf;

use anyhow::Context;
use clap::{Args, ValueEnum};
use events::pii::Keys;
use secrecy::{ExposeSecret, SecretString};

mod admission;
mod limits;
mod networks;
mod production;
mod site;
mod upstreams;

pub use admission::*;
pub use limits::*;
pub use networks::*;
pub use production::*;
pub use site::*;
pub use upstreams::*;

/// Settings of `orchestrator serve`. Every field has an environment variable (see README).
#[derive(Debug, Clone, Args)]
pub struct ServeConfig {
    /// PostgreSQL connection string.
    #[arg(long, env = "DATABASE_URL", hide_env_values = true, value_parser = secret)]
    pub database_url: SecretString,

    /// Maximum connections in the database pool (default from the load benchmark,
    /// docs/benchmarks.md).
    #[arg(long, env = "DATABASE_MAX_CONNECTIONS", default_value_t = DEFAULT_DATABASE_MAX_CONNECTIONS)]
    pub database_max_connections: u32,

    /// A standby's connection string (issue 28): the support look-ups and the funnel page read
    /// there, and say so when it is more than a second behind. Unset, they read the primary.
    #[arg(long, env = "DATABASE_READ_URL", hide_env_values = true, value_parser = secret)]
    pub database_read_url: Option<SecretString>,

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

    /// São Paulo days of attempts the funnel page holds in memory (today included), so that a
    /// question over them reads no table (docs/funnels.md); older questions read the
    /// projection. 0 holds none. About 300 bytes an attempt.
    #[arg(long, env = "FUNNEL_MEMORY_DAYS", default_value_t = DEFAULT_FUNNEL_MEMORY_DAYS, value_parser = clap::value_parser!(u32).range(0..=3660))]
    pub funnel_memory_days: u32,

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

    #[command(flatten)]
    pub admission: AdmissionConfig,
}

/// Six months: a quarter and the quarter before it, for the page's comparison.
pub const DEFAULT_FUNNEL_MEMORY_DAYS: u32 = 183;

/// clap's parser for secrets: the value goes straight into a [`SecretString`].
pub(crate) fn secret(value: &str) -> Result<SecretString, Infallible> {
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

    /// Whether this deployment runs against the sandbox (the development keys are allowed only
    /// then). Off unless asked for.
    #[arg(long, env = "SANDBOX_MODE", default_value_t = false, action = clap::ArgAction::Set)]
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
    use upstream_contract::credentials as dev;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        config: ServeConfig,
    }

    /// Issue 26: `orchestrator serve` with no `SANDBOX_MODE` ran in sandbox mode (development
    /// keys, scenario phones exempt, per-address limits off). Now it is production unless asked.
    #[test]
    fn sandbox_mode_is_off_unless_asked_for() {
        let parsed = |args: &[&str]| Cli::try_parse_from(args).expect("parses").config.site.sandbox_mode;
        assert!(!parsed(&["serve", "--database-url", "x"]), "forgotten: production");
        assert!(parsed(&["serve", "--database-url", "x", "--sandbox-mode", "true"]));
        assert!(!SiteSettings::default().sandbox_mode);
    }

    #[test]
    fn trusted_proxies_are_address_blocks() {
        let parsed = |value: &str| Cli::try_parse_from(["serve", "--database-url", "x", "--trusted-proxies", value]);
        let none = Cli::try_parse_from(["serve", "--database-url", "x"]).expect("parses").config.abuse.trusted_proxies;
        assert!(none.0.is_empty(), "believe no header unless told");
        let two = parsed("10.0.0.0/8, 2001:db8::/32").expect("two blocks").config.abuse.trusted_proxies;
        assert!(two.contains("10.1.2.3".parse().expect("ip")) && two.contains("2001:db8::7".parse().expect("ip")));
        for bad in ["10.0.0.0/40", "proxy.internal", "10.0.0.0/8;"] {
            assert!(parsed(bad).is_err(), "{bad}");
        }
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

    /// deploy/exa.env.example is what an operator copies: it names every setting (set or
    /// commented out at its default), and leaves every secret empty, so none has a usable default.
    #[test]
    fn the_environment_template_names_every_setting_and_no_secret_value() {
        use clap::CommandFactory;
        let template = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../deploy/exa.env.example"))
            .expect("deploy/exa.env.example");
        let value_of = |name: &str| {
            template.lines().find_map(|line| line.trim_start_matches('#').strip_prefix(&format!("{name}=")))
        };
        let command = Cli::command();
        for arg in command.get_arguments().filter(|arg| !arg.is_hide_set()) {
            let Some(name) = arg.get_env().map(|n| n.to_string_lossy().into_owned()) else { continue };
            let value = value_of(&name);
            if name == "SANDBOX_URL" || name == "WEB_DIST" {
                continue; // production sets every upstream's URL; the unit sets WEB_DIST
            }
            let value = value.unwrap_or_else(|| panic!("deploy/exa.env.example lacks {name}"));
            if arg.is_hide_env_values_set() {
                assert_eq!(value, "", "{name} is a secret: the template must not give it a value");
            }
        }
        let required = DEVELOPMENT_SECRETS.iter().map(|(n, _)| *n).chain(UPSTREAM_URL_SETTINGS.iter().map(|(n, _)| *n));
        for name in required.chain(["DATABASE_URL", "PII_KEK_HEX", "PII_HMAC_HEX"]) {
            assert_eq!(value_of(name), Some(""), "{name} must be set by the operator, empty in the template");
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
