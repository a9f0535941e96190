//! Subscriptions the sandbox made (activation by serial or by partner hash, cloud serials),
//! oldest first in the world; `GET /admin/subscriptions` lists them.

use chrono::{DateTime, Utc};
use serde::Serialize;

/// One subscription the sandbox made (`GET /admin/subscriptions`), so a test can count them.
#[derive(Debug, Clone, Serialize)]
pub struct Subscription {
    pub subscription_id: String,
    /// `serial`, `hash` or `cloud-serial`.
    pub kind: &'static str,
    pub msisdn: String,
    pub serial: Option<String>,
    pub partner: Option<String>,
    pub hash: Option<String>,
    pub partner_subscription_id: Option<String>,
    pub email: Option<String>,
    pub brand: Option<&'static str>,
    pub at: DateTime<Utc>,
}

impl Subscription {
    pub fn new(kind: &'static str, msisdn: &str, at: DateTime<Utc>) -> Self {
        Self {
            subscription_id: String::new(),
            kind,
            msisdn: msisdn.to_string(),
            serial: None,
            partner: None,
            hash: None,
            partner_subscription_id: None,
            email: None,
            brand: None,
            at,
        }
    }
}
