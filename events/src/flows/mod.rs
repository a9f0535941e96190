//! The attempt flows: one module each, pure.
pub mod activation;
pub mod cloud;
pub mod download;

#[cfg(test)]
mod guards_tests;
