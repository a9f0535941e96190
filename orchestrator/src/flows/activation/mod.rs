//! Security activation, the I/O half: the upstreams' typed client and the runner steps. The
//! pure half is `events::flows::activation`; the flow is described in
//! `docs/activation-flow.md`. Tokens go to the attempt's secrets, never into an event.

mod call;
pub mod client;
pub mod partner_login;
pub mod steps;

pub use client::{ActivationClient, Reply};
pub use steps::ActivationSteps;
