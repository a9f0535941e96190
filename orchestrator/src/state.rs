//! The one application state shared by every router.

use std::sync::Arc;

use events::pii::Vault;
use events::EventStore;
use sqlx::PgPool;

use crate::attempts::notifier::Notifier;
use crate::attempts::Flows;

#[derive(Clone)]
pub struct AppState {
    pub db: PgPool,
    pub store: EventStore,
    pub vault: Vault,
    pub flows: Arc<Flows>,
    pub notifier: Notifier,
    pub site: Arc<SiteConfig>,
    /// Staff cookies always `Secure` (`STAFF_COOKIE_SECURE`), not only behind an https proxy.
    pub staff_cookie_secure: bool,
    /// The visitor's session cookie always `Secure` (`SESSION_COOKIE_SECURE`).
    pub session_cookie_secure: bool,
    /// Abuse limits, proof of work and their refusal counts.
    pub abuse: Arc<crate::abuse::AbuseGuard>,
    /// The server's bounds (time-outs, concurrency, body size).
    pub server: crate::http::server::ServerLimits,
    /// The event streams open now, against their caps.
    pub streams: crate::attempts::streams::OpenStreams,
    /// The installer downloads under way, against theirs.
    pub downloads: crate::attempts::streams::OpenStreams,
    /// This process's Prometheus metrics (served on the admin port).
    pub metrics: std::sync::Arc<crate::metrics::Metrics>,
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
