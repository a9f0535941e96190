//! The analysts' CLI: streams and replays the event log into funnels, and seeds synthetic
//! histories.

pub mod clickhouse;
pub mod export;
pub mod export_parquet;
pub mod funnel;
pub mod funnel_report;
pub mod seed;
pub mod tail;
