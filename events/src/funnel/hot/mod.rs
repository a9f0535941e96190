//! The attempts of recent days held in memory, compact, and the funnel page's questions
//! answered from them by the same maths as the projection's rows ([`super::read`]) and the
//! replay: [`Progress`](super::Progress), [`Tally`](super::Tally), the people's rule and the
//! drill-down's. A 30-day question reads about 140,000 attempts; PostgreSQL alone takes about
//! 100 ms to hand them over (docs/benchmarks.md), so the page keeps them here instead, kept
//! current from the projection by its revision (`orchestrator::analytics::hot`).
//!
//! Pure: [`HotFunnels`] is filled with [`AttemptFacts`] and asked [`FunnelQuery`]s.

mod fold;
mod store;
#[cfg(test)]
mod tests;

pub use store::HotFunnels;
