//! The EXA portal's orchestrator: HTTP API, static SPA, step runner. The sandbox upstreams
//! are their own crate (`orchestrator/sandbox`), which this one never links.

pub mod abuse;
pub mod admission;
pub mod analytics;
pub mod attempts;
pub mod clock;
pub mod config;
pub mod error;
pub mod flows;
pub mod http;
pub mod metrics;
pub mod operator;
pub mod reads;
pub mod runner;
pub mod shutdown;
pub mod staff;
pub mod startup;
pub mod support;
pub mod telemetry;
#[cfg(test)]
mod testing;
pub mod texts;
pub mod token;
pub mod upstream;
pub mod write_path;
