//! Prometheus metrics of one orchestrator process (issue 15), served on the admin port
//! (`ADMIN_BIND_ADDR`, never the public one). The names and what they count are in
//! `docs/metrics.md`. One registry: the abuse counters (`docs/abuse.md`) are in it too.

use std::time::Duration;

use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::{exponential_buckets, Histogram};
use prometheus_client::registry::Registry;

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct FlowLabel {
    pub flow: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct OutcomeLabels {
    pub flow: String,
    /// `completed` or `refused`.
    pub outcome: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct EndpointLabel {
    /// The upstream endpoint's name (`upstream_contract::endpoints`).
    pub endpoint: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct CommandLabels {
    pub flow: String,
    pub command: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct RuleLabel {
    /// The abuse rule's name (`abuse.limited`'s `rule`).
    pub rule: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct FlowRuleLabels {
    /// A registered flow's category.
    pub flow: String,
    /// The abuse rule's name.
    pub rule: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct ClassLabel {
    /// `1xx` to `5xx`.
    pub class: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct ReasonLabel {
    /// A fixed reason of the code (`paused`, `credentials`): never a value from the request.
    pub reason: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct PoolLabel {
    /// `in_use` or `idle`.
    pub state: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct SignalLabel {
    /// Admission control's signal: `lag`, `slots` or `pool`.
    pub signal: String,
}

type FloatGauge = Gauge<f64, std::sync::atomic::AtomicU64>;

/// 1 ms to about 65 s, doubling.
fn seconds_buckets() -> Histogram {
    Histogram::new(exponential_buckets(0.001, 2.0, 17))
}

pub struct Metrics {
    registry: Registry,
    attempts_started: Family<FlowLabel, Counter>,
    attempts_ended: Family<OutcomeLabels, Counter>,
    commands: Family<CommandLabels, Histogram, fn() -> Histogram>,
    upstream_calls: Family<EndpointLabel, Histogram, fn() -> Histogram>,
    step_retries: Family<EndpointLabel, Counter>,
    steps_given_up: Family<EndpointLabel, Counter>,
    http_responses: Family<ClassLabel, Counter>,
    runner_lag: Histogram,
    store_appends: Histogram,
    sse_clients: Gauge,
    pool_connections: Family<PoolLabel, Gauge>,
    pool_max: Gauge,
    abuse_refusals: Family<RuleLabel, Counter>,
    refused_starts: Family<FlowRuleLabels, Counter>,
    sms_breaker_trips: Counter,
    admission_threshold: Family<SignalLabel, FloatGauge>,
    admission_enabled: Family<SignalLabel, Gauge>,
    admission_value: Family<SignalLabel, FloatGauge>,
    admission_refusals: Family<SignalLabel, Counter>,
    admission_line_waiting: Gauge,
    admission_line_pace: FloatGauge,
    admission_pace: FloatGauge,
    staff_sign_in_refusals: Family<ReasonLabel, Counter>,
}

impl Default for Metrics {
    fn default() -> Self {
        Self::new()
    }
}

impl Metrics {
    pub fn new() -> Self {
        let mut registry = Registry::with_prefix("exa");
        let attempts_started = Family::<FlowLabel, Counter>::default();
        registry.register("attempts_started", "Attempts started, by flow", attempts_started.clone());
        let attempts_ended = Family::<OutcomeLabels, Counter>::default();
        registry.register(
            "attempts_ended",
            "Attempts that reached their flow's normal end (completed) or a refusal the visitor read (refused), by flow",
            attempts_ended.clone(),
        );
        let commands = Family::<CommandLabels, Histogram, fn() -> Histogram>::new_with_constructor(seconds_buckets);
        registry.register(
            "command_duration_seconds",
            "Visitors' commands, received to answered, by flow and command",
            commands.clone(),
        );
        let upstream_calls =
            Family::<EndpointLabel, Histogram, fn() -> Histogram>::new_with_constructor(seconds_buckets);
        registry.register(
            "upstream_call_duration_seconds",
            "Upstream calls of the steps, by endpoint",
            upstream_calls.clone(),
        );
        let step_retries = Family::<EndpointLabel, Counter>::default();
        registry.register(
            "step_retries",
            "Steps that failed and were planned again, by the endpoint of their last call",
            step_retries.clone(),
        );
        let steps_given_up = Family::<EndpointLabel, Counter>::default();
        registry.register(
            "steps_given_up",
            "Steps that failed past their retries (the attempt ends in a refusal), by the endpoint of their last call",
            steps_given_up.clone(),
        );
        let http_responses = Family::<ClassLabel, Counter>::default();
        registry.register("http_responses", "Answers of the public port, by status class", http_responses.clone());
        for class in ["2xx", "4xx", "5xx"] {
            // Present at 0 from the start, so a rate over them exists before the first error.
            drop(http_responses.get_or_create(&ClassLabel { class: class.into() }));
        }
        let runner_lag = seconds_buckets();
        registry.register("runner_lag_seconds", "From a step's due time to its claim by a runner", runner_lag.clone());
        let store_appends = seconds_buckets();
        registry.register(
            "store_append_duration_seconds",
            "Appends with their plan, in the writer's transaction",
            store_appends.clone(),
        );
        let sse_clients = Gauge::default();
        registry.register("sse_clients", "Visitors' event streams open now", sse_clients.clone());
        let pool_connections = Family::<PoolLabel, Gauge>::default();
        registry.register("db_pool_connections", "The database pool's connections, by state", pool_connections.clone());
        let pool_max = Gauge::default();
        registry.register(
            "db_pool_max_connections",
            "The database pool's ceiling (DATABASE_MAX_CONNECTIONS)",
            pool_max.clone(),
        );
        let abuse_refusals = Family::<RuleLabel, Counter>::default();
        registry.register("abuse_refusals", "Requests refused by an abuse limit, by rule", abuse_refusals.clone());
        let refused_starts = Family::<FlowRuleLabels, Counter>::default();
        registry.register(
            "refused_starts",
            "Attempt starts refused by an abuse limit, by flow and rule (counted here, not recorded as events)",
            refused_starts.clone(),
        );
        let sms_breaker_trips = Counter::default();
        registry.register(
            "sms_breaker_trips",
            "Times the portal-wide SMS ceiling opened the circuit breaker",
            sms_breaker_trips.clone(),
        );
        let admission_threshold = Family::<SignalLabel, FloatGauge>::default();
        registry.register(
            "admission_threshold",
            "Admission control's thresholds (lag and pool in seconds, slots in percent busy)",
            admission_threshold.clone(),
        );
        let admission_enabled = Family::<SignalLabel, Gauge>::default();
        registry.register(
            "admission_signal_enabled",
            "1 when the signal may refuse new attempts (ADMISSION_SIGNALS)",
            admission_enabled.clone(),
        );
        let admission_value = Family::<SignalLabel, FloatGauge>::default();
        registry.register(
            "admission_signal",
            "Admission control's signals now (lag and pool in seconds, slots in percent busy)",
            admission_value.clone(),
        );
        let admission_refusals = Family::<SignalLabel, Counter>::default();
        registry.register(
            "admission_refusals",
            "New attempts refused past capacity (503), by the signal past its threshold, `line` (others ahead) or `pace`",
            admission_refusals.clone(),
        );
        let admission_line_waiting = Gauge::default();
        registry.register(
            "admission_line_waiting",
            "Tickets still in the waiting line, as the sampler last counted them",
            admission_line_waiting.clone(),
        );
        let admission_line_pace = FloatGauge::default();
        registry.register(
            "admission_line_advance_per_second",
            "Tickets that left the waiting line per second over the last 5 s",
            admission_line_pace.clone(),
        );
        let admission_pace = FloatGauge::default();
        registry.register("admission_pace_per_second", "New attempts a second let in now", admission_pace.clone());
        let staff_sign_in_refusals = Family::<ReasonLabel, Counter>::default();
        registry.register(
            "staff_sign_in_refusals",
            "Staff sign-ins refused before reaching an account (paused, or no such e-mail)",
            staff_sign_in_refusals.clone(),
        );
        Self {
            registry,
            attempts_started,
            attempts_ended,
            commands,
            upstream_calls,
            step_retries,
            steps_given_up,
            http_responses,
            runner_lag,
            store_appends,
            sse_clients,
            pool_connections,
            pool_max,
            abuse_refusals,
            refused_starts,
            sms_breaker_trips,
            admission_threshold,
            admission_enabled,
            admission_value,
            admission_refusals,
            admission_line_waiting,
            admission_line_pace,
            admission_pace,
            staff_sign_in_refusals,
        }
    }

    /// Shows admission control's configuration (every signal, enabled or not).
    pub fn admission_thresholds(&self, thresholds: &crate::admission::Thresholds) {
        use crate::admission::Signal;
        for signal in Signal::ALL {
            let label = SignalLabel { signal: signal.name().into() };
            let value = match signal {
                Signal::Lag => thresholds.max_lag.as_secs_f64(),
                Signal::Slots => thresholds.max_slots_busy_percent as f64,
                Signal::Pool => thresholds.max_pool_wait.as_secs_f64(),
            };
            self.admission_threshold.get_or_create(&label).set(value);
            self.admission_enabled.get_or_create(&label).set(i64::from(thresholds.enabled.contains(&signal)));
            drop(self.admission_refusals.get_or_create(&label));
        }
        for by in [crate::admission::BY_LINE, crate::admission::BY_PACE] {
            drop(self.admission_refusals.get_or_create(&SignalLabel { signal: by.into() }));
        }
    }

    /// The waiting line as last seen, and the door's pace now (read at each scrape).
    pub fn admission_line(&self, view: &crate::admission::line::LineView, pace_per_second: f64) {
        self.admission_line_waiting.set(i64::try_from(view.waiting()).unwrap_or(i64::MAX));
        self.admission_line_pace.set(view.advance_per_sec);
        self.admission_pace.set(pace_per_second);
    }

    /// The signals as last measured (read at each scrape).
    pub fn admission_reading(&self, reading: &crate::admission::Reading) {
        let set = |name: &str, value: f64| {
            self.admission_value.get_or_create(&SignalLabel { signal: name.into() }).set(value);
        };
        set("lag", reading.lag.as_secs_f64());
        set("slots", reading.slots_busy_percent() as f64);
        set("pool", reading.pool_wait.as_secs_f64());
    }

    pub fn admission_refused(&self, signal: &str) {
        self.admission_refusals.get_or_create(&SignalLabel { signal: signal.to_string() }).inc();
    }

    /// Shows every rule, at 0 until it refuses something (the rules are a fixed set).
    pub fn abuse_rules<'r>(&self, rules: impl IntoIterator<Item = &'r str>) {
        for rule in rules {
            drop(self.abuse_refusals.get_or_create(&RuleLabel { rule: rule.to_string() }));
        }
    }

    pub fn abuse_refused(&self, rule: &str) {
        self.abuse_refusals.get_or_create(&RuleLabel { rule: rule.to_string() }).inc();
    }

    /// A start refused by an abuse limit: counted here instead of one event each (issue 26).
    /// `flow` is a registered flow's category and `rule` a rule's name: both fixed sets.
    pub fn start_refused(&self, flow: &str, rule: &str) {
        self.refused_starts.get_or_create(&FlowRuleLabels { flow: flow.to_string(), rule: rule.to_string() }).inc();
    }

    /// Refused sign-ins that reach no account: counted here instead of one event each.
    pub fn staff_sign_in_refused(&self, reason: &'static str) {
        self.staff_sign_in_refusals.get_or_create(&ReasonLabel { reason }).inc();
    }

    pub fn sms_breaker_tripped(&self) {
        self.sms_breaker_trips.inc();
    }

    pub fn attempt_started(&self, flow: &str) {
        self.attempts_started.get_or_create(&FlowLabel { flow: flow.to_string() }).inc();
    }

    /// An attempt that was open is now `outcome` (`completed` or `refused`).
    pub fn attempt_ended(&self, flow: &str, outcome: &str) {
        self.attempts_ended
            .get_or_create(&OutcomeLabels { flow: flow.to_string(), outcome: outcome.to_string() })
            .inc();
    }

    pub fn command(&self, flow: &str, command: &str, took: Duration) {
        self.commands
            .get_or_create(&CommandLabels { flow: flow.to_string(), command: command.to_string() })
            .observe(took.as_secs_f64());
    }

    pub fn upstream_call(&self, endpoint: &str, took: Duration) {
        self.upstream_calls
            .get_or_create(&EndpointLabel { endpoint: endpoint.to_string() })
            .observe(took.as_secs_f64());
    }

    pub fn step_retried(&self, endpoint: &str) {
        self.step_retries.get_or_create(&EndpointLabel { endpoint: endpoint.to_string() }).inc();
    }

    pub fn step_given_up(&self, endpoint: &str) {
        self.steps_given_up.get_or_create(&EndpointLabel { endpoint: endpoint.to_string() }).inc();
    }

    pub fn http_response(&self, status: u16) {
        let class = match status {
            100..=199 => "1xx",
            200..=299 => "2xx",
            300..=399 => "3xx",
            400..=499 => "4xx",
            _ => "5xx",
        };
        self.http_responses.get_or_create(&ClassLabel { class: class.into() }).inc();
    }

    pub fn runner_lag(&self, lag: Duration) {
        self.runner_lag.observe(lag.as_secs_f64());
    }

    pub fn store_append(&self, took: Duration) {
        self.store_appends.observe(took.as_secs_f64());
    }

    /// The page a scrape reads: the gauges read now from `pool` and `sse_clients`, then every
    /// metric in Prometheus' text format.
    pub fn render(&self, pool: &sqlx::PgPool, sse_clients: usize, max_connections: u32) -> String {
        let size = i64::from(pool.size());
        let idle = i64::try_from(pool.num_idle()).unwrap_or(i64::MAX);
        self.pool_connections.get_or_create(&PoolLabel { state: "idle".into() }).set(idle);
        self.pool_connections.get_or_create(&PoolLabel { state: "in_use".into() }).set((size - idle).max(0));
        self.pool_max.set(i64::from(max_connections));
        self.sse_clients.set(i64::try_from(sse_clients).unwrap_or(i64::MAX));
        let mut text = String::new();
        if let Err(error) = prometheus_client::encoding::text::encode_registry(&mut text, &self.registry) {
            tracing::warn!(%error, "encoding the metrics failed");
        }
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_names_every_metric_with_its_labels() {
        let metrics = Metrics::new();
        metrics.attempt_started("activation");
        metrics.attempt_ended("activation", "completed");
        metrics.command("cloud", "submit_code", Duration::from_millis(12));
        metrics.upstream_call("bff.packs", Duration::from_millis(40));
        metrics.step_retried("bff.packs");
        metrics.step_given_up("sso.token");
        metrics.http_response(503);
        metrics.http_response(201);
        metrics.runner_lag(Duration::from_millis(3));
        metrics.store_append(Duration::from_millis(2));
        metrics.start_refused("cloud", "proof_of_work");
        let mut registry_text = String::new();
        prometheus_client::encoding::text::encode_registry(&mut registry_text, &metrics.registry).expect("encodes");
        for line in [
            "exa_attempts_started_total{flow=\"activation\"} 1",
            "exa_attempts_ended_total{flow=\"activation\",outcome=\"completed\"} 1",
            "exa_command_duration_seconds_count{flow=\"cloud\",command=\"submit_code\"} 1",
            "exa_upstream_call_duration_seconds_count{endpoint=\"bff.packs\"} 1",
            "exa_step_retries_total{endpoint=\"bff.packs\"} 1",
            "exa_steps_given_up_total{endpoint=\"sso.token\"} 1",
            "exa_http_responses_total{class=\"5xx\"} 1",
            "exa_http_responses_total{class=\"2xx\"} 1",
            "exa_http_responses_total{class=\"4xx\"} 0",
            "exa_runner_lag_seconds_count 1",
            "exa_store_append_duration_seconds_count 1",
            "exa_refused_starts_total{flow=\"cloud\",rule=\"proof_of_work\"} 1",
        ] {
            assert!(registry_text.lines().any(|l| l == line), "{line} missing from:\n{registry_text}");
        }
    }
}
