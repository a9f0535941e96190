//! Admission control at the door (issue 30): the portal measures how busy it is live (runner
//! lag, steps in flight against the runners' slots, database pool waits) and, past capacity,
//! refuses a *new* attempt at once with 503 and `Retry-After`, so the attempts already started
//! keep their pace. Commands and steps of started attempts never pass through here.

pub mod sampler;
pub mod signal;

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use crate::config::AdmissionConfig;
pub use signal::{Reading, Signal, Thresholds};

/// The live load of one process: what the runners and the sampler write, what the door reads.
#[derive(Debug, Default)]
pub struct Load {
    steps_in_flight: AtomicUsize,
    slots: AtomicUsize,
    lag_micros: AtomicU64,
    pool_wait_micros: AtomicU64,
    lag_past_for_micros: AtomicU64,
    pool_wait_past_for_micros: AtomicU64,
}

/// A step's place among the steps in flight, given back when dropped (a panic too).
#[derive(Debug)]
pub struct InFlight(Arc<Load>);

impl Drop for InFlight {
    fn drop(&mut self) {
        self.0.steps_in_flight.fetch_sub(1, Ordering::Relaxed);
    }
}

impl Load {
    /// Counts a step in flight until the returned guard is dropped.
    pub fn step_started(self: &Arc<Self>) -> InFlight {
        self.steps_in_flight.fetch_add(1, Ordering::Relaxed);
        InFlight(self.clone())
    }

    /// Adds the slots of a runner started in this process.
    pub fn add_slots(&self, slots: usize) {
        self.slots.fetch_add(slots, Ordering::Relaxed);
    }

    pub fn set_lag(&self, lag: Duration) {
        self.lag_micros.store(micros(lag), Ordering::Relaxed);
    }

    pub fn set_pool_wait(&self, wait: Duration) {
        self.pool_wait_micros.store(micros(wait), Ordering::Relaxed);
    }

    /// How long each timed signal has stood past its threshold (the sampler's account).
    pub fn set_past_for(&self, lag: Duration, pool_wait: Duration) {
        self.lag_past_for_micros.store(micros(lag), Ordering::Relaxed);
        self.pool_wait_past_for_micros.store(micros(pool_wait), Ordering::Relaxed);
    }

    pub fn reading(&self) -> Reading {
        Reading {
            lag: Duration::from_micros(self.lag_micros.load(Ordering::Relaxed)),
            steps_in_flight: self.steps_in_flight.load(Ordering::Relaxed),
            slots: self.slots.load(Ordering::Relaxed),
            pool_wait: Duration::from_micros(self.pool_wait_micros.load(Ordering::Relaxed)),
            lag_past_for: Duration::from_micros(self.lag_past_for_micros.load(Ordering::Relaxed)),
            pool_wait_past_for: Duration::from_micros(self.pool_wait_past_for_micros.load(Ordering::Relaxed)),
        }
    }
}

fn micros(d: Duration) -> u64 {
    u64::try_from(d.as_micros()).unwrap_or(u64::MAX)
}

/// A new attempt refused at the door: the signal past its threshold and when to try again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Busy {
    pub signal: Signal,
    pub retry_after: Duration,
}

/// The door: thresholds from the configuration over this process's [`Load`].
#[derive(Debug)]
pub struct Admission {
    pub thresholds: Thresholds,
    pub load: Arc<Load>,
    pub sample_every: Duration,
    retry_after: Duration,
}

impl Admission {
    pub fn from_config(config: &AdmissionConfig) -> anyhow::Result<Self> {
        let enabled = Signal::parse_list(&config.admission_signals)
            .map_err(|e| anyhow::anyhow!("ADMISSION_SIGNALS: {e} (known: lag, slots, pool)"))?;
        Ok(Self {
            thresholds: Thresholds {
                enabled,
                max_lag: Duration::from_millis(config.admission_max_runner_lag_ms),
                max_slots_busy_percent: config.admission_max_slots_busy_percent,
                max_pool_wait: Duration::from_millis(config.admission_max_pool_wait_ms),
                standing: Duration::from_millis(config.admission_standing_ms),
            },
            load: Arc::new(Load::default()),
            sample_every: Duration::from_millis(config.admission_sample_ms),
            retry_after: Duration::from_secs(config.admission_retry_after_secs),
        })
    }

    /// Whether a new attempt may start now: atomics only, so a refusal costs no database work.
    pub fn admit(&self) -> Result<(), Busy> {
        match signal::past_capacity(&self.load.reading(), &self.thresholds) {
            None => Ok(()),
            Some(signal) => Err(Busy { signal, retry_after: self.retry_after }),
        }
    }
}
