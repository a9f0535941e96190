//! The analysts' side: funnels answered from the maintained projection (docs/funnels.md), kept
//! current by a task of the server ([`projector::spawn`]), and the attempts behind a drop-off
//! ([`dropoff`]).

pub mod dropoff;
pub mod held;
pub mod projector;
pub mod question;
