//! Questions answered from the live projection (`funnel_attempts`): its rows read as
//! [`AttemptFacts`] in one stream and handed to the replay's own maths, counting attempts or
//! people ([`Count`]): the step table ([`answer`]) and the attempts that stopped at a step
//! ([`dropped`]), by the same definition, so the two always agree.

use chrono::NaiveDate;
use futures::TryStreamExt;
use serde_json::Value;
use sqlx::Row;

use super::answer::{FunnelAnswer, FunnelQuery};
use super::dropoff::{DrillDown, Dropped, DroppedPage};
use super::people::{Count, Counted};
use super::projection::LIVE;
use super::track::{AttemptFacts, Facts, FLOWS};
use crate::error::StoreError;

/// Decodes a row's `marks` (`[["code.sent", 1234], ...]`).
pub fn marks_of(value: &Value) -> Vec<(String, i64)> {
    value
        .as_array()
        .map(|marks| {
            marks.iter().filter_map(|m| Some((m.get(0)?.as_str()?.to_string(), m.get(1)?.as_i64()?))).collect()
        })
        .unwrap_or_default()
}

/// The columns [`attempt_of`] reads.
const COLUMNS: &str = "attempt, flow, variant, brand, partner, os, platform, day, started_at, marks, refusal, person";

/// One row of the projection as the funnel's maths read it; `None` for a flow with no funnel.
fn attempt_of(row: &sqlx::postgres::PgRow) -> Result<Option<AttemptFacts>, StoreError> {
    let flow: String = row.try_get("flow")?;
    let Some(flow) = FLOWS.iter().copied().find(|f| *f == flow) else { return Ok(None) };
    Ok(Some(AttemptFacts {
        attempt: row.try_get("attempt")?,
        flow,
        started: row.try_get("started_at")?,
        facts: Facts {
            variant: row.try_get("variant")?,
            brand: row.try_get("brand")?,
            partner: row.try_get("partner")?,
            os: row.try_get("os")?,
            platform: row.try_get("platform")?,
            day: row.try_get("day")?,
        },
        marks: marks_of(&row.try_get::<Value, _>("marks")?),
        refusal: row.try_get("refusal")?,
        person: row.try_get("person")?,
    }))
}

/// Feeds `each` the attempts `query` counts, streaming the projection's rows.
async fn each_counted(
    pool: &sqlx::PgPool,
    query: &FunnelQuery,
    count: Count,
    mut each: impl FnMut(&AttemptFacts),
) -> Result<(), StoreError> {
    let sql = format!(
        "SELECT {COLUMNS} FROM {LIVE} WHERE flow = $1 AND day BETWEEN $2 AND $3 AND ($4::text IS NULL OR variant = $4)"
    );
    let mut rows = sqlx::query(&sql)
        .bind(query.funnel.flow)
        .bind(query.from)
        .bind(query.to)
        .bind(query.funnel.variant)
        .fetch(pool);
    let mut counted = Counted::new(query, count);
    while let Some(row) = rows.try_next().await? {
        if let Some(attempt) = attempt_of(&row)? {
            counted.add(attempt, &mut each);
        }
    }
    counted.finish(&mut each);
    Ok(())
}

/// Which rows of the projection [`changed`] reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Changed {
    /// Every attempt started on this São Paulo date or later.
    From(NaiveDate),
    /// Every row written after this revision (rows are written in revision order).
    After(i64),
}

/// Feeds `each` the rows `which` names; returns the highest revision among them (or `None`).
pub async fn changed(
    pool: &sqlx::PgPool,
    which: Changed,
    mut each: impl FnMut(AttemptFacts),
) -> Result<Option<i64>, StoreError> {
    let from = format!("SELECT {COLUMNS}, revision FROM {LIVE} WHERE day >= $1");
    let after = format!("SELECT {COLUMNS}, revision FROM {LIVE} WHERE revision > $1");
    let mut rows = match which {
        Changed::From(day) => sqlx::query(&from).bind(day).fetch(pool),
        Changed::After(revision) => sqlx::query(&after).bind(revision).fetch(pool),
    };
    let mut highest: Option<i64> = None;
    while let Some(row) = rows.try_next().await? {
        let revision: i64 = row.try_get("revision")?;
        highest = Some(highest.map_or(revision, |h| h.max(revision)));
        if let Some(attempt) = attempt_of(&row)? {
            each(attempt);
        }
    }
    Ok(highest)
}

/// Answers `query` from the live projection, counting attempts or people.
pub async fn answer(pool: &sqlx::PgPool, query: &FunnelQuery, count: Count) -> Result<FunnelAnswer, StoreError> {
    let mut answer = FunnelAnswer::default();
    each_counted(pool, query, count, |attempt| {
        answer.add(query, attempt);
    })
    .await?;
    Ok(answer)
}

/// The attempts `query` counts that stopped at the drill-down's step (of its breakdown value,
/// or of all): its page, newest first, and how many there are.
pub async fn dropped(
    pool: &sqlx::PgPool,
    query: &FunnelQuery,
    count: Count,
    drill: &DrillDown,
) -> Result<DroppedPage, StoreError> {
    let mut dropped = Dropped::new(drill.step, drill.group.clone());
    each_counted(pool, query, count, |attempt| dropped.add(query, attempt)).await?;
    Ok(dropped.page(drill.page, drill.per_page))
}
