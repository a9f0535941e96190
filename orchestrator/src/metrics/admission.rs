//! Admission control's metrics (docs/metrics.md, docs/throughput.md): its thresholds, its
//! signals, its refusals, the waiting line, the door's pace, and the line's own connections with
//! the times of its statements.

use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::registry::Registry;

use super::PoolLabel;
use crate::admission::line::LineView;
use crate::admission::timed::LineStatements;
use crate::admission::{Reading, Signal, Thresholds, BY_LINE, BY_PACE};

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct SignalLabel {
    /// Admission control's signal: `lag`, `slots` or `pool`.
    pub signal: String,
}

type FloatGauge = Gauge<f64, std::sync::atomic::AtomicU64>;

pub struct AdmissionMetrics {
    threshold: Family<SignalLabel, FloatGauge>,
    enabled: Family<SignalLabel, Gauge>,
    value: Family<SignalLabel, FloatGauge>,
    refusals: Family<SignalLabel, Counter>,
    line_waiting: Gauge,
    line_pace: FloatGauge,
    pace: FloatGauge,
    line_connections: Family<PoolLabel, Gauge>,
    line_max_connections: Gauge,
    /// The door's [`crate::admission::Admission::line_statements`] is a clone of this one.
    pub line_statements: LineStatements,
}

impl AdmissionMetrics {
    pub fn register(registry: &mut Registry) -> Self {
        let threshold = Family::<SignalLabel, FloatGauge>::default();
        registry.register(
            "admission_threshold",
            "Admission control's thresholds (lag and pool in seconds, slots in percent busy)",
            threshold.clone(),
        );
        let enabled = Family::<SignalLabel, Gauge>::default();
        registry.register(
            "admission_signal_enabled",
            "1 when the signal may refuse new attempts (ADMISSION_SIGNALS)",
            enabled.clone(),
        );
        let value = Family::<SignalLabel, FloatGauge>::default();
        registry.register(
            "admission_signal",
            "Admission control's signals now (lag and pool in seconds, slots in percent busy)",
            value.clone(),
        );
        let refusals = Family::<SignalLabel, Counter>::default();
        registry.register(
            "admission_refusals",
            "New attempts refused past capacity (503), by the signal past its threshold, `line` (others ahead) or `pace`",
            refusals.clone(),
        );
        let line_waiting = Gauge::default();
        registry.register(
            "admission_line_waiting",
            "Tickets still in the waiting line, as the sampler last counted them",
            line_waiting.clone(),
        );
        let line_pace = FloatGauge::default();
        registry.register(
            "admission_line_advance_per_second",
            "Tickets that left the waiting line per second over the last 5 s",
            line_pace.clone(),
        );
        let pace = FloatGauge::default();
        registry.register("admission_pace_per_second", "New attempts a second let in now", pace.clone());
        let line_connections = Family::<PoolLabel, Gauge>::default();
        registry.register(
            "admission_line_db_connections",
            "The waiting line's own database connections, by state",
            line_connections.clone(),
        );
        let line_max_connections = Gauge::default();
        registry.register(
            "admission_line_db_max_connections",
            "The waiting line's own connections at most (ADMISSION_LINE_CONNECTIONS; 0: it uses the pool)",
            line_max_connections.clone(),
        );
        let line_statements = LineStatements::default();
        registry.register(
            "admission_line_statement_duration_seconds",
            "The waiting line's statements on a refused or waiting start, a connection's wait included",
            line_statements.took.clone(),
        );
        registry.register(
            "admission_line_unanswered",
            "The waiting line's statements given up (`timeout` or `error`): the door answered without the line",
            line_statements.unanswered.clone(),
        );
        Self {
            threshold,
            enabled,
            value,
            refusals,
            line_waiting,
            line_pace,
            pace,
            line_connections,
            line_max_connections,
            line_statements,
        }
    }

    /// Shows admission control's configuration (every signal, enabled or not).
    pub fn thresholds(&self, thresholds: &Thresholds) {
        for signal in Signal::ALL {
            let label = SignalLabel { signal: signal.name().into() };
            let value = match signal {
                Signal::Lag => thresholds.max_lag.as_secs_f64(),
                Signal::Slots => thresholds.max_slots_busy_percent as f64,
                Signal::Pool => thresholds.max_pool_wait.as_secs_f64(),
            };
            self.threshold.get_or_create(&label).set(value);
            self.enabled.get_or_create(&label).set(i64::from(thresholds.enabled.contains(&signal)));
            drop(self.refusals.get_or_create(&label));
        }
        for by in [BY_LINE, BY_PACE] {
            drop(self.refusals.get_or_create(&SignalLabel { signal: by.into() }));
        }
    }

    /// The waiting line as last seen, and the door's pace now (read at each scrape).
    pub fn line(&self, view: &LineView, pace_per_second: f64) {
        self.line_waiting.set(i64::try_from(view.waiting()).unwrap_or(i64::MAX));
        self.line_pace.set(view.advance_per_sec);
        self.pace.set(pace_per_second);
    }

    /// The line's own connections now (read at each scrape); none with no pool of its own.
    pub fn line_pool(&self, pool: Option<&sqlx::PgPool>) {
        let (size, idle, max) = pool.map_or((0, 0, 0), |pool| {
            (pool.size(), u32::try_from(pool.num_idle()).unwrap_or(u32::MAX), pool.options().get_max_connections())
        });
        self.line_connections.get_or_create(&PoolLabel { state: "idle".into() }).set(i64::from(idle));
        self.line_connections
            .get_or_create(&PoolLabel { state: "in_use".into() })
            .set(i64::from(size.saturating_sub(idle)));
        self.line_max_connections.set(i64::from(max));
    }

    /// The signals as last measured (read at each scrape).
    pub fn reading(&self, reading: &Reading) {
        let set = |name: &str, value: f64| {
            self.value.get_or_create(&SignalLabel { signal: name.into() }).set(value);
        };
        set("lag", reading.lag.as_secs_f64());
        set("slots", reading.slots_busy_percent() as f64);
        set("pool", reading.pool_wait.as_secs_f64());
    }

    pub fn refused(&self, signal: &str) {
        self.refusals.get_or_create(&SignalLabel { signal: signal.to_string() }).inc();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(registry: &Registry) -> String {
        let mut text = String::new();
        prometheus_client::encoding::text::encode_registry(&mut text, registry).expect("encodes");
        text
    }

    #[tokio::test]
    async fn the_lines_own_connections_and_its_statements_are_on_the_page() {
        let mut registry = Registry::with_prefix("exa");
        let metrics = AdmissionMetrics::register(&mut registry);
        // The door's copy: what it times shows on the page.
        let door = metrics.line_statements.clone();
        assert_eq!(door.on_time(async { Ok::<_, sqlx::Error>(()) }).await, Some(()));
        assert_eq!(door.on_time(async { Err::<(), _>(sqlx::Error::PoolTimedOut) }).await, None);
        let lazy = sqlx::postgres::PgPoolOptions::new()
            .max_connections(3)
            .connect_lazy("postgres://nobody@127.0.0.1:1/none")
            .expect("a lazy pool opens nothing");
        metrics.line_pool(Some(&lazy));
        let text = page(&registry);
        for line in [
            "exa_admission_line_db_connections{state=\"in_use\"} 0",
            "exa_admission_line_db_connections{state=\"idle\"} 0",
            "exa_admission_line_db_max_connections 3",
            "exa_admission_line_statement_duration_seconds_count 2",
            "exa_admission_line_unanswered_total{reason=\"error\"} 1",
            "exa_admission_line_unanswered_total{reason=\"timeout\"} 0",
        ] {
            assert!(text.lines().any(|l| l == line), "{line} missing from:\n{text}");
        }
        metrics.line_pool(None);
        assert!(page(&registry).lines().any(|l| l == "exa_admission_line_db_max_connections 0"));
    }
}
