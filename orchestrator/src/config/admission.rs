//! Admission control at the door (issue 30, docs/throughput.md): which live signals say the
//! portal is past capacity, and their thresholds. Past any enabled one, a new attempt is
//! refused with 503 and `Retry-After`; commands and steps of started attempts never are.

use clap::Args;

/// The defaults, one constant each (the flags' and `AdmissionConfig::default`'s).
pub const DEFAULT_ADMISSION_SIGNALS: &str = "lag,slots,pool";
pub const DEFAULT_ADMISSION_MAX_RUNNER_LAG_MS: u64 = 1_000;
pub const DEFAULT_ADMISSION_MAX_SLOTS_BUSY_PERCENT: u64 = 90;
pub const DEFAULT_ADMISSION_MAX_POOL_WAIT_MS: u64 = 250;
pub const DEFAULT_ADMISSION_SAMPLE_MS: u64 = 200;
pub const DEFAULT_ADMISSION_STANDING_MS: u64 = 1_000;
pub const DEFAULT_ADMISSION_RETRY_AFTER_SECS: u64 = 5;
/// How many at the head of the waiting line go in at once while the door is open: about five
/// seconds' worth of starts at the measured capacity (docs/throughput.md, "The waiting line").
/// Smaller, the line lets in only as fast as those few come back to try.
pub const DEFAULT_ADMISSION_LINE_WINDOW: u64 = 500;
/// The most tickets in line (about 100 bytes each): a refused visitor past it gets no place
/// and tries again later, so anonymous tries cannot grow the table without bound.
pub const DEFAULT_ADMISSION_LINE_MAX: u64 = 100_000;
/// The most tickets in line for one client address (an IPv6 /64): a client that floods starts
/// while the door is shut holds at most this many places, not the whole line. Generous,
/// because a mobile carrier puts many subscribers behind one address (a partner's campaign is
/// sent to exactly them); past it a visitor is refused without a place, and tries again later.
pub const DEFAULT_ADMISSION_LINE_MAX_PER_ADDRESS: u64 = 200;
/// The waiting line's own connections to the database, besides the pool
/// (`DATABASE_MAX_CONNECTIONS`): a refused start runs one short statement on the line, and
/// past capacity it waited for a pooled connection behind the admitted commands
/// (docs/benchmarks.md, "The thirteenth session"). Four, not two: on a slower machine the
/// refusals' bursts queued for two (docs/benchmarks.md, "The fourteenth session").
pub const DEFAULT_ADMISSION_LINE_CONNECTIONS: u32 = 4;
/// The fastest the door lets new attempts in, per process, and where its pace starts
/// (admission/pace.rs); 0 paces nothing. Past capacity it met the command p99 at 2× where the
/// door alone did not (docs/benchmarks.md, "The twelfth session" and "The thirteenth
/// session"); it cuts only with a crowd at the door, so a lag blip on a quiet portal holds
/// nobody back.
pub const DEFAULT_ADMISSION_PACE_MAX_PER_SEC: u64 = 1_000;
/// Connections in the pool, measured (docs/benchmarks.md, "The pool's size, measured"): on
/// two cores at 140 arrivals a second, 12 completed 131.9 to 135.4 attempts a second in four
/// runs against 123.5 to 127.9 with 24 (and 8 or 16 between), with less CPU an attempt: more
/// backends only contend with each other for the same cores. Past it, a request waits for a
/// connection (the door's `pool` signal shuts first) and is answered 503 after
/// `DATABASE_ACQUIRE_TIMEOUT_MS`, never 500. A database on cores of its own may want more.
pub const DEFAULT_DATABASE_MAX_CONNECTIONS: u32 = 12;
pub const DEFAULT_DATABASE_ACQUIRE_TIMEOUT_MS: u64 = 5_000;

#[derive(Debug, Clone, Args)]
pub struct AdmissionConfig {
    /// The signals that may refuse a new attempt, comma-separated: `lag` (age of the oldest
    /// due step no runner has claimed), `slots` (steps in flight against the runners' slots),
    /// `pool` (time to get a database connection). Empty: every attempt is admitted.
    #[arg(long, env = "ADMISSION_SIGNALS", default_value = DEFAULT_ADMISSION_SIGNALS)]
    pub admission_signals: String,
    /// Oldest unclaimed due step, in milliseconds, past which new attempts wait.
    #[arg(long, env = "ADMISSION_MAX_RUNNER_LAG_MS", default_value_t = DEFAULT_ADMISSION_MAX_RUNNER_LAG_MS)]
    pub admission_max_runner_lag_ms: u64,
    /// Share of this process's runner slots busy (percent) at or past which new attempts wait.
    #[arg(long, env = "ADMISSION_MAX_SLOTS_BUSY_PERCENT", default_value_t = DEFAULT_ADMISSION_MAX_SLOTS_BUSY_PERCENT, value_parser = clap::value_parser!(u64).range(1..=100))]
    pub admission_max_slots_busy_percent: u64,
    /// Time to get a pooled database connection, in milliseconds, past which new attempts wait.
    #[arg(long, env = "ADMISSION_MAX_POOL_WAIT_MS", default_value_t = DEFAULT_ADMISSION_MAX_POOL_WAIT_MS)]
    pub admission_max_pool_wait_ms: u64,
    /// How often the runner lag and the pool wait are measured, in milliseconds.
    #[arg(long, env = "ADMISSION_SAMPLE_MS", default_value_t = DEFAULT_ADMISSION_SAMPLE_MS, value_parser = clap::value_parser!(u64).range(20..=10_000))]
    pub admission_sample_ms: u64,
    /// How long the runner lag or the pool wait must stay past its threshold, in every sample,
    /// before new attempts wait: one slow sample (a busy moment of the machine) refuses nobody.
    /// 0: the first sample past it refuses.
    #[arg(long, env = "ADMISSION_STANDING_MS", default_value_t = DEFAULT_ADMISSION_STANDING_MS, value_parser = clap::value_parser!(u64).range(0..=60_000))]
    pub admission_standing_ms: u64,
    /// The `Retry-After` of a refused start, in seconds (the page adds jitter).
    #[arg(long, env = "ADMISSION_RETRY_AFTER_SECS", default_value_t = DEFAULT_ADMISSION_RETRY_AFTER_SECS, value_parser = clap::value_parser!(u64).range(1..=120))]
    pub admission_retry_after_secs: u64,
    /// How many at the head of the waiting line go in at once while the door is open (first
    /// come, first in across replicas; 1 lets them in strictly one by one).
    #[arg(long, env = "ADMISSION_LINE_WINDOW", default_value_t = DEFAULT_ADMISSION_LINE_WINDOW, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    pub admission_line_window: u64,
    /// The most visitors in the waiting line; past it a refused start gets no place in it.
    #[arg(long, env = "ADMISSION_LINE_MAX", default_value_t = DEFAULT_ADMISSION_LINE_MAX, value_parser = clap::value_parser!(u64).range(1..=10_000_000))]
    pub admission_line_max: u64,
    /// The most tickets in the waiting line for one client address (IPv4, or IPv6 /64).
    #[arg(long, env = "ADMISSION_LINE_MAX_PER_ADDRESS", default_value_t = DEFAULT_ADMISSION_LINE_MAX_PER_ADDRESS, value_parser = clap::value_parser!(u64).range(1..=10_000_000))]
    pub admission_line_max_per_address: u64,
    /// Connections of the waiting line's own, besides the pool (0: the line uses the pool).
    #[arg(long, env = "ADMISSION_LINE_CONNECTIONS", default_value_t = DEFAULT_ADMISSION_LINE_CONNECTIONS, value_parser = clap::value_parser!(u32).range(0..=32))]
    pub admission_line_connections: u32,
    /// The most new attempts a second this process lets in, and where its pace starts; past
    /// capacity the pace is learned from the signals and stays below it. 0: no pace.
    #[arg(long, env = "ADMISSION_PACE_MAX_PER_SEC", default_value_t = DEFAULT_ADMISSION_PACE_MAX_PER_SEC, value_parser = clap::value_parser!(u64).range(0..=1_000_000))]
    pub admission_pace_max_per_sec: u64,
    /// How long a request waits for a database connection before it is answered 503.
    #[arg(long, env = "DATABASE_ACQUIRE_TIMEOUT_MS", default_value_t = DEFAULT_DATABASE_ACQUIRE_TIMEOUT_MS, value_parser = clap::value_parser!(u64).range(100..=60_000))]
    pub database_acquire_timeout_ms: u64,
}

impl Default for AdmissionConfig {
    fn default() -> Self {
        Self {
            admission_signals: DEFAULT_ADMISSION_SIGNALS.to_string(),
            admission_max_runner_lag_ms: DEFAULT_ADMISSION_MAX_RUNNER_LAG_MS,
            admission_max_slots_busy_percent: DEFAULT_ADMISSION_MAX_SLOTS_BUSY_PERCENT,
            admission_max_pool_wait_ms: DEFAULT_ADMISSION_MAX_POOL_WAIT_MS,
            admission_sample_ms: DEFAULT_ADMISSION_SAMPLE_MS,
            admission_standing_ms: DEFAULT_ADMISSION_STANDING_MS,
            admission_retry_after_secs: DEFAULT_ADMISSION_RETRY_AFTER_SECS,
            admission_line_window: DEFAULT_ADMISSION_LINE_WINDOW,
            admission_line_max: DEFAULT_ADMISSION_LINE_MAX,
            admission_line_max_per_address: DEFAULT_ADMISSION_LINE_MAX_PER_ADDRESS,
            admission_line_connections: DEFAULT_ADMISSION_LINE_CONNECTIONS,
            admission_pace_max_per_sec: DEFAULT_ADMISSION_PACE_MAX_PER_SEC,
            database_acquire_timeout_ms: DEFAULT_DATABASE_ACQUIRE_TIMEOUT_MS,
        }
    }
}
