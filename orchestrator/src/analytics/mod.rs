//! The analysts' side: funnels answered from the maintained projection (docs/funnels.md), kept
//! current by a task of the server ([`projector::spawn`]).

pub mod projector;
pub mod question;
