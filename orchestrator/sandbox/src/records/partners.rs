//! The partners' side: telecom-partner customers, and the broadband partner's OAuth grants and
//! customers.

use chrono::{DateTime, Utc};

/// A telecom-partner customer, created at first login and stable afterwards.
#[derive(Debug, Clone)]
pub struct HeroCustomer {
    pub customer_id: String,
    pub email: String,
    pub plan_id: String,
}

/// A code the consent page issued.
#[derive(Debug, Clone)]
pub struct OAuthGrant {
    pub customer_id: String,
    /// The exchange must name the same redirect URI.
    pub redirect_uri: String,
    pub expires_at: DateTime<Utc>,
    /// A code is exchanged for a token at most once.
    pub exchanged: bool,
    /// PKCE (RFC 7636): the S256 challenge the exchange's `code_verifier` must hash to.
    pub code_challenge: String,
}

/// A broadband-partner customer, created when the consent page issues a code.
#[derive(Debug, Clone)]
pub struct BroadbandCustomer {
    pub customer_id: String,
    pub name: String,
    pub email: String,
    /// Whether the customer's plan includes EXA Segurança (the look-up refuses the others).
    pub covered: bool,
}
