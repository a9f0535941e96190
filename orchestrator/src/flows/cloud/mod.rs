//! Cloud serial activation, the I/O half: the cloud functions' client and the runner steps.
//! The pure half is `events::flows::cloud`; the flow is described in `docs/cloud-flow.md`.

pub mod client;
pub mod steps;

pub use client::{CallError, CloudClient};
pub use steps::CloudSteps;
