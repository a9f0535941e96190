//! The one application state shared by every router.

use std::sync::Arc;

use events::pii::Vault;
use events::EventStore;
use sqlx::PgPool;

use crate::attempts::notifier::Notifier;
use crate::attempts::Flows;
use crate::config::{CompanySettings, ServeConfig};

#[derive(Clone)]
pub struct AppState {
    pub db: PgPool,
    pub store: EventStore,
    pub vault: Vault,
    pub flows: Arc<Flows>,
    pub notifier: Notifier,
    pub site: Arc<SiteConfig>,
    /// Abuse limits, proof of work and their refusal counts.
    pub abuse: Arc<crate::abuse::AbuseGuard>,
    /// The server's bounds (time-outs, concurrency, body size).
    pub server: crate::http::server::ServerLimits,
    /// The event streams open now, against their caps.
    pub streams: crate::attempts::streams::OpenStreams,
    /// The installer downloads under way, against theirs.
    pub downloads: crate::attempts::streams::OpenStreams,
    /// The support console's event streams, against theirs (apart from the visitors', so an
    /// agent's page never takes a visitor's place).
    pub support_streams: crate::attempts::streams::OpenStreams,
    /// This process's Prometheus metrics (served on the admin port).
    pub metrics: std::sync::Arc<crate::metrics::Metrics>,
    /// Admission control at the door: the live load and its thresholds.
    pub admission: Arc<crate::admission::Admission>,
    /// Where look-ups and the funnel page read: a standby (`DATABASE_READ_URL`) or the primary.
    pub reads: crate::reads::Reads,
    /// Attempts' owners already read, for the visitor's requests.
    pub owners: Arc<crate::attempts::owners::Owners>,
    /// The funnel page's recent days, held in memory.
    pub funnels: crate::analytics::held::HeldFunnels,
    /// Streams as this process last wrote them, for the runners' next claims.
    pub histories: Arc<crate::write_path::Histories>,
    /// Where commands hand the steps they plan due at once to this process's runner.
    pub handoff: Arc<crate::write_path::Handoff>,
}

/// What the browser may know about the deployment (never a credential).
#[derive(Debug, Clone, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SiteConfig {
    pub chatbot_url: String,
    pub chatbot_avatar_url: String,
    pub sandbox: bool,
    pub sms_inbox_url: Option<String>,
    pub company: CompanyIdentity,
    /// Where the OAuth return may point (never sent to the browser).
    #[serde(skip)]
    pub return_origins: crate::attempts::return_url::ReturnOrigins,
}

/// The company's public facts (footer, contact page, terms), set by the operator.
#[derive(Debug, Clone, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CompanyIdentity {
    pub legal_name: String,
    pub cnpj: String,
    /// Postal address, one line per item.
    pub address: Vec<String>,
    pub contact_email: String,
    pub press_email: String,
    pub support_phone: Option<String>,
    pub support_whatsapp: Option<String>,
    pub ethics_seal_url: Option<String>,
}

impl AppState {
    /// The attempt service over this state.
    pub fn attempts(&self) -> crate::attempts::service::AttemptService<'_> {
        crate::attempts::service::AttemptService {
            db: &self.db,
            store: &self.store,
            vault: &self.vault,
            flows: &self.flows,
            abuse: &self.abuse,
            metrics: &self.metrics,
            owners: &self.owners,
            histories: &self.histories,
            handoff: &self.handoff,
        }
    }
}

impl SiteConfig {
    /// What the browser may know about this deployment.
    pub fn of(config: &ServeConfig) -> Self {
        let sandbox = config.upstreams.sandbox_url.trim_end_matches('/');
        Self {
            chatbot_url: config.site.chatbot_url.clone().unwrap_or_else(|| format!("{sandbox}/chatbot/?p=hero")),
            chatbot_avatar_url: config
                .site
                .chatbot_avatar_url
                .clone()
                .unwrap_or_else(|| format!("{sandbox}/chatbot/avatar.svg")),
            sandbox: config.site.sandbox_mode,
            sms_inbox_url: config.site.sandbox_mode.then(|| format!("{sandbox}/sms")),
            company: CompanyIdentity::of(&config.site.company),
            return_origins: crate::attempts::return_url::ReturnOrigins::new(
                config.site.public_origin.as_deref(),
                config.site.sandbox_mode,
                config.bind_addr,
            ),
        }
    }
}

impl CompanyIdentity {
    /// What `GET /api/public-config` says about the company; blank values count as unset.
    pub fn of(settings: &CompanySettings) -> Self {
        fn set(value: &Option<String>) -> Option<String> {
            value.as_deref().map(str::trim).filter(|v| !v.is_empty()).map(str::to_owned)
        }
        Self {
            legal_name: settings.company_legal_name.trim().to_owned(),
            cnpj: settings.company_cnpj.trim().to_owned(),
            address: settings
                .company_address
                .split(';')
                .map(str::trim)
                .filter(|l| !l.is_empty())
                .map(str::to_owned)
                .collect(),
            contact_email: settings.company_contact_email.trim().to_owned(),
            press_email: settings.company_press_email.trim().to_owned(),
            support_phone: set(&settings.support_phone),
            support_whatsapp: set(&settings.support_whatsapp),
            ethics_seal_url: set(&settings.ethics_seal_url),
        }
    }
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
    fn chatbot_and_inbox_default_to_the_sandbox() {
        let args = ["serve", "--database-url", "x", "--sandbox-mode", "true", "--sandbox-url", "http://127.0.0.1:9/"];
        let mut config = Cli::try_parse_from(args).expect("parses").config;
        let site = SiteConfig::of(&config);
        assert_eq!(site.chatbot_url, "http://127.0.0.1:9/chatbot/?p=hero");
        assert_eq!(site.sms_inbox_url.as_deref(), Some("http://127.0.0.1:9/sms"));
        config.site.sandbox_mode = false;
        config.site.chatbot_url = Some("https://bot.example/?p=hero".into());
        let site = SiteConfig::of(&config);
        assert_eq!(site.chatbot_url, "https://bot.example/?p=hero");
        assert_eq!(site.sms_inbox_url, None);
    }

    #[test]
    fn company_identity_has_placeholders_and_takes_the_operators_values() {
        let site = SiteConfig::of(&Cli::try_parse_from(["serve", "--database-url", "x"]).expect("parses").config);
        assert_eq!(site.company.address.len(), 3);
        assert_eq!(site.company.support_phone, None);
        let config = Cli::try_parse_from([
            "serve",
            "--database-url",
            "x",
            "--company-cnpj",
            "11.222.333/0001-81",
            "--company-address",
            "Av. Paulista, 1000; São Paulo – SP",
            "--support-phone",
            "0800 000 1234",
            "--support-whatsapp",
            " ",
        ])
        .expect("parses")
        .config;
        let site = SiteConfig::of(&config);
        assert_eq!(site.company.cnpj, "11.222.333/0001-81");
        assert_eq!(site.company.address, ["Av. Paulista, 1000", "São Paulo – SP"]);
        assert_eq!(site.company.support_phone.as_deref(), Some("0800 000 1234"));
        assert_eq!(site.company.support_whatsapp, None, "a blank value is unset");
    }
}
