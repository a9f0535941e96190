//! The sandbox upstreams, its own crate and binary beside the orchestrator (the product never
//! links it): every external service of the spec's section 7, played over real HTTP
//! on loopback so the portal runs end to end with none of the real ones.
//!
//! Each upstream is mounted under its own path prefix ([`urls`]), checks what the real one checks
//! (headers, credentials, tokens and transactions it issued, code expiry and attempts), and takes
//! the spec's branches for the documented scenario inputs ([`scenarios`]). Codes it "sends" land
//! in an SMS inbox ([`inbox`]); tests move its clock and inject faults through [`admin`].
//! The contracts are written down in `docs/upstreams.md`, the scenarios in `docs/sandbox.md`.
//!
//! Dependencies point one way. The handlers (one module per upstream, `admin`, `inbox`,
//! `index`) and what they share (`intercept`, and `codes` and `tokens`, which add the code and
//! token methods to the world) import `state` and `records`. `state` (the world behind its lock,
//! the clock, the seeded RNG) imports only `records`, the starting table of [`scenarios`] and
//! `config`. `records` (what the world stores: code transactions, issued tokens, the SMS inbox,
//! the admin book, subscriptions, the partners' customers and grants) imports neither, only
//! `error` and `headers` (which imports only `error`).

mod admin;
mod antivirus;
mod authn;
mod bff;
mod br_ids;
mod chatbot;
mod cloud;
mod codes;
mod config;
mod docdb;
mod error;
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
mod records;
pub mod scenarios;
mod server;
mod state;
mod tokens;
pub mod urls;

pub use config::{SandboxConfig, DEFAULT_SEED};
pub use server::{serve, spawn_on_loopback, SandboxHandle};
pub use state::SandboxState;
pub use upstream_contract::credentials;
pub use upstream_contract::endpoints::ENDPOINTS;
pub use urls::{upstream_urls, UpstreamUrls};

use axum::Router;

/// Where the `sandbox` binary listens when nothing else is configured.
pub const DEFAULT_ADDR: &str = "127.0.0.1:8090";

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
