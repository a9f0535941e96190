//! The EXA portal's orchestrator: HTTP API, static SPA, step runner and sandbox upstreams.

pub mod attempts;
pub mod config;
pub mod flows;
pub mod http;
pub mod runner;
pub mod sandbox;
pub mod shutdown;
pub mod startup;
pub mod state;
pub mod telemetry;
pub mod upstream;
