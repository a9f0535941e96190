//! The decision, apart from any I/O: the live signals against their thresholds.

use std::time::Duration;

/// A live measure of how busy the portal is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Signal {
    /// Age of the oldest due step no runner has claimed.
    Lag,
    /// Steps in flight against this process's runner slots.
    Slots,
    /// Time to get a pooled database connection.
    Pool,
}

impl Signal {
    pub const ALL: [Signal; 3] = [Signal::Lag, Signal::Slots, Signal::Pool];

    pub fn name(self) -> &'static str {
        match self {
            Signal::Lag => "lag",
            Signal::Slots => "slots",
            Signal::Pool => "pool",
        }
    }

    /// The enabled signals of `ADMISSION_SIGNALS` (comma-separated names), or the unknown name.
    pub fn parse_list(list: &str) -> Result<Vec<Signal>, String> {
        let mut signals = Vec::new();
        for name in list.split(',').map(str::trim).filter(|n| !n.is_empty()) {
            let signal =
                Signal::ALL.into_iter().find(|s| s.name() == name).ok_or_else(|| format!("unknown signal {name:?}"))?;
            if !signals.contains(&signal) {
                signals.push(signal);
            }
        }
        Ok(signals)
    }
}

/// What was measured last.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Reading {
    pub lag: Duration,
    pub steps_in_flight: usize,
    /// This process's runner slots; 0 when it runs no runner (the signal then says nothing).
    pub slots: usize,
    pub pool_wait: Duration,
    /// How long the lag has stood past its threshold, sample after sample (0 when it is not).
    pub lag_past_for: Duration,
    /// How long the pool wait has stood past its threshold, sample after sample.
    pub pool_wait_past_for: Duration,
}

impl Reading {
    /// Busy slots in percent (0 without slots).
    pub fn slots_busy_percent(&self) -> u64 {
        if self.slots == 0 {
            return 0;
        }
        (self.steps_in_flight as u64).saturating_mul(100) / self.slots as u64
    }
}

/// The thresholds in force and which signals may refuse.
#[derive(Debug, Clone, PartialEq)]
pub struct Thresholds {
    pub enabled: Vec<Signal>,
    pub max_lag: Duration,
    pub max_slots_busy_percent: u64,
    pub max_pool_wait: Duration,
    /// How long a timed signal (lag, pool wait) must stand past its threshold before it
    /// refuses: one slow sample, a busy moment of the machine, refuses nobody.
    pub standing: Duration,
}

/// The first enabled signal past its threshold, if any: the portal is then past capacity.
pub fn past_capacity(reading: &Reading, thresholds: &Thresholds) -> Option<Signal> {
    thresholds.enabled.iter().copied().find(|signal| match signal {
        Signal::Lag => reading.lag > thresholds.max_lag && reading.lag_past_for >= thresholds.standing,
        Signal::Slots => reading.slots > 0 && reading.slots_busy_percent() >= thresholds.max_slots_busy_percent,
        Signal::Pool => {
            reading.pool_wait > thresholds.max_pool_wait && reading.pool_wait_past_for >= thresholds.standing
        }
    })
}

/// Since when a timed signal has been past its threshold in every sample (CoDel's reading of
/// a queue: a standing one, not a burst). Counted from the start of the first such sample: a
/// pool wait that itself lasts the whole window stands at its first sample.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PastSince(Option<std::time::Instant>);

impl PastSince {
    /// One sample taken from `started` to `now`: how long the signal has now stood past.
    pub fn observe(&mut self, past: bool, started: std::time::Instant, now: std::time::Instant) -> Duration {
        if !past {
            self.0 = None;
            return Duration::ZERO;
        }
        now.saturating_duration_since(*self.0.get_or_insert(started))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all() -> Thresholds {
        Thresholds {
            enabled: Signal::ALL.to_vec(),
            max_lag: Duration::from_millis(1_000),
            max_slots_busy_percent: 90,
            max_pool_wait: Duration::from_millis(250),
            standing: Duration::ZERO,
        }
    }

    #[test]
    fn an_idle_portal_admits() {
        assert_eq!(past_capacity(&Reading { slots: 32, ..Reading::default() }, &all()), None);
    }

    #[test]
    fn each_signal_past_its_threshold_refuses() {
        let lag = Reading { lag: Duration::from_millis(1_001), slots: 32, ..Reading::default() };
        assert_eq!(past_capacity(&lag, &all()), Some(Signal::Lag));
        let slots = Reading { steps_in_flight: 29, slots: 32, ..Reading::default() };
        assert_eq!(past_capacity(&slots, &all()), Some(Signal::Slots));
        let below = Reading { steps_in_flight: 28, slots: 32, ..Reading::default() };
        assert_eq!(past_capacity(&below, &all()), None);
        let pool = Reading { pool_wait: Duration::from_millis(300), slots: 32, ..Reading::default() };
        assert_eq!(past_capacity(&pool, &all()), Some(Signal::Pool));
    }

    #[test]
    fn a_disabled_signal_never_refuses_and_no_slots_say_nothing() {
        let only_pool = Thresholds { enabled: vec![Signal::Pool], ..all() };
        let busy = Reading { lag: Duration::from_secs(9), steps_in_flight: 32, slots: 32, ..Reading::default() };
        assert_eq!(past_capacity(&busy, &only_pool), None);
        let no_runner = Reading { steps_in_flight: 0, slots: 0, ..Reading::default() };
        assert_eq!(past_capacity(&no_runner, &all()), None);
    }

    #[test]
    fn the_signal_list_is_read_strictly() {
        assert_eq!(Signal::parse_list("lag, pool,lag"), Ok(vec![Signal::Lag, Signal::Pool]));
        assert_eq!(Signal::parse_list(""), Ok(vec![]));
        assert!(Signal::parse_list("lag,cpu").is_err());
    }

    #[test]
    fn a_timed_signal_refuses_only_once_it_has_stood_past_its_threshold_for_the_window() {
        let standing = Thresholds { standing: Duration::from_secs(1), ..all() };
        let slow = |past_for| Reading {
            pool_wait: Duration::from_millis(400),
            pool_wait_past_for: Duration::from_millis(past_for),
            slots: 32,
            ..Reading::default()
        };
        assert_eq!(past_capacity(&slow(400), &standing), None, "one slow sample");
        assert_eq!(past_capacity(&slow(1_000), &standing), Some(Signal::Pool), "a second of slow samples");
        let late = Reading {
            lag: Duration::from_secs(3),
            lag_past_for: Duration::from_millis(999),
            slots: 32,
            ..Reading::default()
        };
        assert_eq!(past_capacity(&late, &standing), None);
        assert_eq!(
            past_capacity(&Reading { lag_past_for: Duration::from_secs(1), ..late }, &standing),
            Some(Signal::Lag)
        );
    }

    #[test]
    fn past_since_counts_from_the_first_slow_sample_and_a_quick_one_starts_over() {
        let t0 = std::time::Instant::now();
        let at = |ms| t0 + Duration::from_millis(ms);
        let mut since = PastSince::default();
        // A sample from 0 to 900 ms that waited past the threshold: it stood 900 ms.
        assert_eq!(since.observe(true, at(0), at(900)), Duration::from_millis(900));
        // The next slow one, 1.1 s to 1.5 s: standing since 0.
        assert_eq!(since.observe(true, at(1_100), at(1_500)), Duration::from_millis(1_500));
        // A quick one resets.
        assert_eq!(since.observe(false, at(1_700), at(1_710)), Duration::ZERO);
        assert_eq!(since.observe(true, at(1_900), at(2_300)), Duration::from_millis(400));
        // A pool wait that timed out after 5 s stands at once.
        let mut timed_out = PastSince::default();
        assert_eq!(timed_out.observe(true, at(0), at(5_000)), Duration::from_secs(5));
    }
}
