//! A command refused by an abuse limit: counted (the SMS breaker opened when it tripped) and
//! recorded as an `abuse.limited` event, in the command's own transaction, on the history the
//! command already read. A refused start is counted only.

use events::flow::AttemptFlow;
use events::{Metadata, RecordedEvent, StreamId};
use uuid::Uuid;

use super::command::{AttemptService, ClientInfo};
use crate::abuse::{self, Refusal};
use crate::error::ApiError;

/// The type of the event that records a refusal by an abuse limit.
pub const LIMITED_EVENT: &str = "abuse.limited";

/// Refusals recorded per attempt at most: past it they are still refused and counted in the
/// metrics, but a script cannot grow the attempt's history with them.
const MAX_RECORDED_REFUSALS: usize = 20;

/// The answer a refused command gets.
fn limited(flow: &dyn AttemptFlow, refusal: Refusal) -> ApiError {
    ApiError::Limited(refusal.answer(flow.category()))
}

impl AttemptService<'_> {
    /// Records a refused command of the attempt whose `history` the command read under the
    /// attempt's lock, in `conn` (the command's transaction, its own writes rolled back).
    #[allow(clippy::too_many_arguments)]
    pub(super) async fn refuse(
        &self,
        conn: &mut sqlx::PgConnection,
        stream: &StreamId,
        flow: &dyn AttemptFlow,
        history: Vec<RecordedEvent>,
        command: &str,
        refusal: Refusal,
        client: ClientInfo,
    ) -> Result<ApiError, ApiError> {
        self.abuse.record(&mut *conn, &refusal, self.metrics).await?;
        if history.iter().filter(|e| e.event_type == LIMITED_EVENT).count() < MAX_RECORDED_REFUSALS {
            let correlation_id = history.first().map(|e| e.metadata.correlation_id).unwrap_or_else(Uuid::new_v4);
            let metadata = Metadata { correlation_id, causation_id: None, actor: "visitor".into(), client };
            let event = (LIMITED_EVENT.to_string(), abuse::limited_event(&refusal, flow.category(), command));
            self.act(conn, stream, flow, &history, vec![event], &metadata, None).await?;
        }
        Ok(limited(flow, refusal))
    }

    /// Counts a refused start (issue 26: it is not recorded as an event: there is no attempt
    /// to record it in, and a stream of its own per refusal let anonymous requests grow the
    /// append-only log). Metrics by flow and rule, both fixed sets; a tripped breaker is opened
    /// in `conn` (the start's transaction, its attempt rolled back).
    pub(super) async fn refuse_start(
        &self,
        conn: &mut sqlx::PgConnection,
        flow: &dyn AttemptFlow,
        refusal: Refusal,
    ) -> Result<ApiError, ApiError> {
        self.abuse.record(&mut *conn, &refusal, self.metrics).await?;
        self.metrics.start_refused(flow.category(), refusal.rule.name());
        Ok(limited(flow, refusal))
    }
}
