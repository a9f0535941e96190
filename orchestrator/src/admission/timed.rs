//! The line's statements, each given up after [`LINE_TIMEOUT`] or on an error (the door then
//! answers alone) and timed for `/metrics`: past capacity a refused start is one of these
//! statements, so an operator sees the line's own connections run short in their times before
//! the refused starts slow down, and sees how often the door answered without the line.

use std::future::Future;
use std::time::Duration;

use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::histogram::{exponential_buckets, Histogram};
use tokio::time::Instant;

/// How long the line's statements may take, a connection's wait included, before the door
/// answers without it: the line is fairness, and a refusal must stay fast.
pub const LINE_TIMEOUT: Duration = Duration::from_millis(500);

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct UnansweredLabel {
    /// `timeout` (no answer within [`LINE_TIMEOUT`]) or `error`.
    pub reason: &'static str,
}

/// What the line's statements took, and those the door answered without.
#[derive(Clone, Debug)]
pub struct LineStatements {
    /// From asking for a connection to the answer (or to giving up), in seconds.
    pub took: Histogram,
    pub unanswered: Family<UnansweredLabel, Counter>,
}

impl Default for LineStatements {
    fn default() -> Self {
        let unanswered = Family::<UnansweredLabel, Counter>::default();
        // Both at 0 from the start, so a rate over them exists before the first one.
        for reason in ["timeout", "error"] {
            drop(unanswered.get_or_create(&UnansweredLabel { reason }));
        }
        // 0.5 ms to about 1 s, doubling: the time-out is in the last bucket but one.
        Self { took: Histogram::new(exponential_buckets(0.0005, 2.0, 12)), unanswered }
    }
}

impl LineStatements {
    /// `work`'s answer, or None (logged and counted) when it failed or did not answer in time.
    pub async fn on_time<T>(&self, work: impl Future<Output = Result<T, sqlx::Error>>) -> Option<T> {
        let started = Instant::now();
        let answer = tokio::time::timeout(LINE_TIMEOUT, work).await;
        self.took.observe(started.elapsed().as_secs_f64());
        let reason = match answer {
            Ok(Ok(value)) => return Some(value),
            Ok(Err(error)) => {
                tracing::warn!(%error, "the waiting line could not be read; the door answers without it");
                "error"
            }
            Err(_) => {
                tracing::warn!("the waiting line did not answer in time; the door answers without it");
                "timeout"
            }
        };
        self.unanswered.get_or_create(&UnansweredLabel { reason }).inc();
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unanswered(statements: &LineStatements, reason: &'static str) -> u64 {
        statements.unanswered.get_or_create(&UnansweredLabel { reason }).get()
    }

    fn timed(statements: &LineStatements) -> (u64, f64) {
        let mut text = String::new();
        let mut registry = prometheus_client::registry::Registry::default();
        registry.register("line", "", statements.took.clone());
        prometheus_client::encoding::text::encode_registry(&mut text, &registry).expect("encodes");
        let value = |name: &str| -> f64 {
            text.lines().find_map(|l| l.strip_prefix(name)).and_then(|v| v.trim().parse().ok()).unwrap_or(f64::NAN)
        };
        (value("line_count ") as u64, value("line_sum "))
    }

    #[tokio::test(start_paused = true)]
    async fn an_answer_in_time_is_timed_and_counted_as_answered() {
        let statements = LineStatements::default();
        let answer = statements
            .on_time(async {
                tokio::time::sleep(Duration::from_millis(40)).await;
                Ok::<_, sqlx::Error>(7)
            })
            .await;
        assert_eq!(answer, Some(7));
        assert_eq!(timed(&statements), (1, 0.04));
        assert_eq!((unanswered(&statements, "timeout"), unanswered(&statements, "error")), (0, 0));
    }

    #[tokio::test(start_paused = true)]
    async fn a_line_that_does_not_answer_is_given_up_at_the_time_out_and_counted() {
        let statements = LineStatements::default();
        let answer = statements.on_time(std::future::pending::<Result<u8, sqlx::Error>>()).await;
        assert_eq!(answer, None);
        assert_eq!(timed(&statements), (1, LINE_TIMEOUT.as_secs_f64()));
        assert_eq!((unanswered(&statements, "timeout"), unanswered(&statements, "error")), (1, 0));
    }

    #[tokio::test(start_paused = true)]
    async fn a_line_that_fails_is_counted_as_an_error() {
        let statements = LineStatements::default();
        let answer = statements.on_time(async { Err::<u8, _>(sqlx::Error::PoolTimedOut) }).await;
        assert_eq!(answer, None);
        assert_eq!((unanswered(&statements, "timeout"), unanswered(&statements, "error")), (0, 1));
    }
}
