//! The attempt flows: one module each, pure.
pub mod download;
