//! The sandbox upstreams: every external service of the spec's section 7, played over real HTTP
//! on loopback so the portal runs end to end with none of the real ones.
//!
//! Each upstream is mounted under its own path prefix ([`urls`]), checks what the real one checks
//! (headers, credentials, tokens and transactions it issued, code expiry and attempts), and takes
//! the spec's branches for the documented scenario inputs ([`scenarios`]). Codes it "sends" land
//! in an SMS inbox ([`inbox`]); tests move its clock and inject faults through [`admin`].
//! The contracts are written down in `docs/upstreams.md`, the scenarios in `docs/sandbox.md`.

mod admin;
mod antivirus;
mod authn;
mod bff;
mod br_ids;
mod chatbot;
mod cloud;
mod codes;
pub mod credentials;
mod docdb;
mod error;
mod faults;
pub mod headers;
mod hero;
mod html;
mod identity;
mod inbox;
mod index;
mod installer;
mod intercept;
mod oauth;
mod phone_auth;
pub mod scenarios;
mod server;
mod state;
mod tokens;
pub mod urls;

pub use intercept::ENDPOINTS;
pub use server::{serve, spawn_on_loopback, SandboxHandle};
pub use state::SandboxState;
pub use urls::{upstream_urls, UpstreamUrls};

use axum::Router;

/// Where the `orchestrator sandbox` subcommand listens when nothing else is configured.
pub const DEFAULT_ADDR: &str = "127.0.0.1:8090";

/// Seed used when `SANDBOX_SEED` is not set.
pub const DEFAULT_SEED: u64 = 1;

/// What the sandbox needs to start. The same seed gives the same codes, ids and tokens for the
/// same sequence of calls.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SandboxConfig {
    pub seed: u64,
}

impl Default for SandboxConfig {
    fn default() -> Self {
        Self { seed: DEFAULT_SEED }
    }
}

/// `SANDBOX_SEED` is not a number.
#[derive(Debug, thiserror::Error)]
#[error("SANDBOX_SEED must be an unsigned integer, got {0:?}")]
pub struct InvalidSeed(pub String);

impl SandboxConfig {
    /// Reads `SANDBOX_SEED` (unset: [`DEFAULT_SEED`]).
    pub fn from_env() -> Result<Self, InvalidSeed> {
        match std::env::var("SANDBOX_SEED") {
            Ok(raw) => Self::parse_seed(&raw),
            Err(_) => Ok(Self::default()),
        }
    }

    fn parse_seed(raw: &str) -> Result<Self, InvalidSeed> {
        raw.trim()
            .parse()
            .map(|seed| Self { seed })
            .map_err(|_| InvalidSeed(raw.to_string()))
    }
}

/// Every upstream under its prefix, the SMS inbox, the admin API and an index page.
pub fn router(state: SandboxState) -> Router {
    let bff = bff::routes(&state);
    Router::new()
        .merge(index::routes())
        .nest(urls::PHONE_AUTH, phone_auth::routes(&state))
        .nest(urls::DOCDB, docdb::routes(&state))
        .nest(urls::ANTIVIRUS, antivirus::routes(&state))
        .nest(urls::PARTNER_API, authn::partner_api_routes(&state))
        .nest(urls::SSO, authn::sso_routes(&state))
        .nest(urls::IDENTITY, identity::routes(&state))
        .nest(urls::BFF_DEFAULT, bff.clone())
        .nest(urls::BFF_TIM, bff)
        .nest(urls::HERO, hero::routes(&state))
        .nest(urls::OAUTH, oauth::routes(&state))
        .nest(urls::CLOUD_FUNCTIONS, cloud::routes(&state))
        .nest(urls::DOWNLOAD_MANAGER, installer::routes(&state))
        .merge(chatbot::routes(&state))
        .merge(inbox::routes())
        .nest("/admin", admin::routes())
        .fallback(index::not_found)
        .with_state(state)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seed_parses_or_is_refused() {
        assert_eq!(
            SandboxConfig::parse_seed(" 42 ").map(|c| c.seed).ok(),
            Some(42)
        );
        assert!(SandboxConfig::parse_seed("quarenta").is_err());
        assert_eq!(SandboxConfig::default().seed, DEFAULT_SEED);
    }
}
