//! The contract between the orchestrator's upstream clients and the sandbox that plays the
//! upstreams: written once here, imported by both, so neither can drift from the other.
//!
//! - [`paths`]: one path prefix per upstream kind under a base URL, and the base URLs built
//!   from it;
//! - [`headers`]: the request header names the upstreams read;
//! - [`credentials`]: the public development credentials and partner constants (real
//!   deployments replace every one through configuration);
//! - [`endpoints`]: the name of every endpoint, as the sandbox logs and faults them.
//!
//! The contracts themselves are written down in `docs/upstreams.md`.

pub mod credentials;
pub mod endpoints;
pub mod headers;
pub mod paths;
