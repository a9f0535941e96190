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
}

/// The first enabled signal past its threshold, if any: the portal is then past capacity.
pub fn past_capacity(reading: &Reading, thresholds: &Thresholds) -> Option<Signal> {
    thresholds.enabled.iter().copied().find(|signal| match signal {
        Signal::Lag => reading.lag > thresholds.max_lag,
        Signal::Slots => reading.slots > 0 && reading.slots_busy_percent() >= thresholds.max_slots_busy_percent,
        Signal::Pool => reading.pool_wait > thresholds.max_pool_wait,
    })
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
}
