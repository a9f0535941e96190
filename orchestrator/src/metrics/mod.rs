//! Prometheus metrics of one orchestrator process (issue 15), served on the admin port
//! (`ADMIN_BIND_ADDR`, never the public one). The names and what they count are in
//! `docs/metrics.md`. One registry: the abuse counters (`docs/abuse.md`) are in it too.

pub mod admission;

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
    pub admission: admission::AdmissionMetrics,
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
        let admission = admission::AdmissionMetrics::register(&mut registry);
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
            admission,
            staff_sign_in_refusals,
        }
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
