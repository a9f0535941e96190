//! The analysts' CLI: streams and replays the event log.

pub mod tail;
