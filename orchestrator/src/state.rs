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
}

/// What the browser may know about the deployment (never a credential).
#[derive(Debug, Clone, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SiteConfig {
    pub chatbot_url: String,
    pub chatbot_avatar_url: String,
    pub sandbox: bool,
    pub sms_inbox_url: Option<String>,
}
