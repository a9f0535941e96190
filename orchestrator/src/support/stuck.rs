//! What is stuck (issue 27): attempts whose planned step has waited longer than N minutes past
//! its first due time, across flows. Such a step is either retrying (the runner tried it and
//! pushed it back) or overdue (no runner took it). Read from the schedule (`due_steps`): one
//! row per attempt with a step due, so the count is one index scan however long the history.

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use serde::Serialize;
use serde_json::Value;
use sqlx::PgPool;

use super::query::{FLOWS, PAGE_SIZE};
use crate::error::ApiError;

/// The console's default threshold, and the bounds of the one typed.
pub const DEFAULT_MINUTES: i64 = 15;
pub const MAX_MINUTES: i64 = 7 * 24 * 60;

/// The filter of `GET /api/support/stuck`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StuckQuery {
    pub minutes: i64,
    pub flow: Option<String>,
    pub page: usize,
}

/// Reads `minutes` (1 to a week, 15 when absent), `flow` and `page` from the query string.
pub fn parse(params: &HashMap<String, String>) -> Result<StuckQuery, ApiError> {
    let get = |name: &str| params.get(name).map(|v| v.trim()).filter(|v| !v.is_empty());
    let minutes = match get("minutes") {
        None => DEFAULT_MINUTES,
        Some(m) => m
            .parse::<i64>()
            .ok()
            .filter(|m| (1..=MAX_MINUTES).contains(m))
            .ok_or_else(|| ApiError::Invalid(crate::texts::STUCK_MINUTES_INVALID.into()))?,
    };
    let flow = get("flow").map(str::to_string);
    if flow.as_deref().is_some_and(|f| !FLOWS.contains(&f)) {
        return Err(ApiError::Invalid(crate::texts::FLOW_UNKNOWN.into()));
    }
    let page = match get("page") {
        None => 1,
        Some(p) => p
            .parse::<usize>()
            .ok()
            .filter(|p| (1..=100_000).contains(p))
            .ok_or_else(|| ApiError::Invalid(crate::texts::PAGE_INVALID.into()))?,
    };
    Ok(StuckQuery { minutes, flow, page })
}

/// One stuck step as the schedule holds it.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct StuckRow {
    pub stream_id: String,
    pub step: String,
    pub due_at: DateTime<Utc>,
    pub first_due_at: DateTime<Utc>,
    pub claims: i32,
}

/// Why a step is stuck, as the console shows it beside the attempt.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Stuck {
    /// `retrying` (tried and pushed back) or `overdue` (never taken).
    pub kind: &'static str,
    pub step: String,
    /// When it first fell due.
    pub since: DateTime<Utc>,
    /// Whole minutes it has waited since then.
    pub minutes: i64,
    /// Tries so far of this plan.
    pub tries: i32,
    /// When the next try falls due (for a retrying step, the end of its back-off).
    pub next_try_at: DateTime<Utc>,
}

/// How `row` is stuck at `now`.
pub fn classify(row: &StuckRow, now: DateTime<Utc>) -> Stuck {
    Stuck {
        kind: if row.claims > 0 { "retrying" } else { "overdue" },
        step: row.step.clone(),
        since: row.first_due_at,
        minutes: (now - row.first_due_at).num_minutes(),
        tries: row.claims,
        next_try_at: row.due_at,
    }
}

/// How many attempts are stuck past `query.minutes`, and the page of them, oldest first.
pub async fn stuck_page(db: &PgPool, query: &StuckQuery) -> Result<(i64, Vec<StuckRow>), sqlx::Error> {
    let total: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM due_steps \
         WHERE first_due_at < now() - make_interval(mins => $1::int) AND ($2::text IS NULL OR flow = $2)",
    )
    .bind(query.minutes)
    .bind(&query.flow)
    .fetch_one(db)
    .await?;
    let offset = i64::try_from((query.page - 1) * PAGE_SIZE).unwrap_or(i64::MAX);
    let rows = sqlx::query_as::<_, StuckRow>(
        "SELECT stream_id, step, due_at, first_due_at, claims FROM due_steps \
         WHERE first_due_at < now() - make_interval(mins => $1::int) AND ($2::text IS NULL OR flow = $2) \
         ORDER BY first_due_at, stream_id LIMIT $3 OFFSET $4",
    )
    .bind(query.minutes)
    .bind(&query.flow)
    .bind(i64::try_from(PAGE_SIZE).unwrap_or(20))
    .bind(offset)
    .fetch_all(db)
    .await?;
    Ok((total, rows))
}

/// The query as the answer echoes it.
pub fn echo(query: &StuckQuery) -> Value {
    serde_json::json!({ "minutes": query.minutes, "flow": query.flow, "page": query.page })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params(pairs: &[(&str, &str)]) -> HashMap<String, String> {
        pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
    }

    #[test]
    fn the_threshold_defaults_to_fifteen_minutes_and_is_bounded() {
        assert_eq!(parse(&params(&[])).expect("default"), StuckQuery { minutes: 15, flow: None, page: 1 });
        let read = parse(&params(&[("minutes", "5"), ("flow", "cloud"), ("page", "2")])).expect("read");
        assert_eq!(read, StuckQuery { minutes: 5, flow: Some("cloud".into()), page: 2 });
        for bad in [("minutes", "0"), ("minutes", "x"), ("minutes", "10081"), ("flow", "tiny"), ("page", "0")] {
            assert!(parse(&params(&[bad])).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn a_tried_step_is_retrying_and_an_untried_one_overdue() {
        let at = |s: &str| s.parse::<DateTime<Utc>>().expect("time");
        let now = at("2026-11-26T12:00:00Z");
        let row = StuckRow {
            stream_id: "download-1".into(),
            step: "send_code".into(),
            due_at: at("2026-11-26T12:00:05Z"),
            first_due_at: at("2026-11-26T11:40:30Z"),
            claims: 3,
        };
        let stuck = classify(&row, now);
        assert_eq!((stuck.kind, stuck.minutes, stuck.tries), ("retrying", 19, 3));
        assert_eq!(stuck.next_try_at, at("2026-11-26T12:00:05Z"));
        assert_eq!(classify(&StuckRow { claims: 0, ..row }, now).kind, "overdue");
    }
}
