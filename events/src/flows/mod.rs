//! The attempt flows: one module each, pure.
pub mod cloud;
pub mod download;
pub mod activation;

#[cfg(test)]
mod guards_tests;
