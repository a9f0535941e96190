//! When a failed step is tried again, and when the runner stops trying (docs/reliability.md).
//!
//! Exponential back-off with full jitter: the n-th retry waits a uniformly random time between
//! zero and `min(cap, base × 2^(n-1))`. The randomness spreads the retries of many attempts hit
//! by one outage, so they do not all come back at once. Temporal's default is the same curve
//! (1 s × 2) capped at 100 s and never gives up; a visitor is waiting on a page here, so the
//! cap is 10 s and the step gives up once `budget` has passed since its first try (or after
//! `max_attempts` tries), and the visitor then sees the generic error.

use std::time::Duration;

use rand::Rng;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetryPolicy {
    /// The first retry's upper bound.
    pub base: Duration,
    /// No retry waits longer than this.
    pub cap: Duration,
    /// Tries of one step (claims of it, crashes and panics included) before giving up.
    pub max_attempts: i32,
    /// Time from a step's first try after which it is not tried again.
    pub budget: Duration,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        Self {
            base: Duration::from_secs(1),
            cap: Duration::from_secs(10),
            max_attempts: 12,
            budget: Duration::from_secs(60),
        }
    }
}

impl RetryPolicy {
    /// The upper bound of the wait after the `attempt`-th try failed (`attempt` ≥ 1).
    pub fn ceiling(&self, attempt: i32) -> Duration {
        let doublings = u32::try_from(attempt.saturating_sub(1)).unwrap_or(0).min(30);
        self.base.saturating_mul(1u32 << doublings).min(self.cap)
    }

    /// A random wait in `[0, ceiling(attempt)]` (full jitter), never past what is left of the
    /// budget.
    pub fn delay(&self, attempt: i32, elapsed: Duration, rng: &mut impl Rng) -> Duration {
        let ceiling = u64::try_from(self.ceiling(attempt).as_millis()).unwrap_or(u64::MAX);
        let jittered = Duration::from_millis(rng.gen_range(0..=ceiling));
        jittered.min(self.budget.saturating_sub(elapsed))
    }

    /// Whether a step tried `attempts` times, the first `elapsed` ago, may be tried again.
    pub fn may_retry(&self, attempts: i32, elapsed: Duration) -> bool {
        attempts < self.max_attempts && elapsed < self.budget
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::StdRng;
    use rand::SeedableRng;

    #[test]
    fn ceilings_double_from_the_base_up_to_the_cap() {
        let policy = RetryPolicy::default();
        let secs: Vec<u64> = (1..=7).map(|n| policy.ceiling(n).as_secs()).collect();
        assert_eq!(secs, [1, 2, 4, 8, 10, 10, 10]);
        assert_eq!(policy.ceiling(1000), Duration::from_secs(10), "no overflow on long runs");
    }

    #[test]
    fn delays_are_spread_over_the_whole_range_and_stay_within_it() {
        let policy = RetryPolicy::default();
        let mut rng = StdRng::seed_from_u64(7);
        let delays: Vec<Duration> = (0..2000).map(|_| policy.delay(4, Duration::ZERO, &mut rng)).collect();
        assert!(delays.iter().all(|d| *d <= Duration::from_secs(8)));
        assert!(delays.iter().any(|d| *d < Duration::from_secs(1)), "full jitter reaches near zero");
        assert!(delays.iter().any(|d| *d > Duration::from_secs(7)), "and near the ceiling");
        let mean = delays.iter().sum::<Duration>() / 2000;
        assert!(mean > Duration::from_millis(3500) && mean < Duration::from_millis(4500), "{mean:?}");
    }

    #[test]
    fn the_budget_bounds_both_the_retries_and_the_last_wait() {
        let policy = RetryPolicy::default();
        assert!(policy.may_retry(1, Duration::from_secs(6)));
        assert!(!policy.may_retry(1, Duration::from_secs(60)));
        assert!(!policy.may_retry(12, Duration::ZERO));
        let mut rng = StdRng::seed_from_u64(1);
        assert!(policy.delay(9, Duration::from_millis(59_500), &mut rng) <= Duration::from_millis(500));
    }
}
