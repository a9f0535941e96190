//! The analysts' CLI: streams and replays the event log, and seeds synthetic histories.

pub mod seed;
pub mod tail;
