//! Questions answered from the live projection (`funnel_attempts`): its rows read as
//! [`AttemptFacts`] in one stream and handed to the replay's own maths, counting attempts or
//! people ([`Count`]): the step table ([`answer`]) and the attempts that stopped at a step
//! ([`dropped`]), by the same definition, so the two always agree.

use futures::TryStreamExt;
use serde_json::Value;
use sqlx::Row;

use super::answer::{FunnelAnswer, FunnelQuery};
use super::dropoff::{Dropped, DroppedPage};
use super::people::{Count, Counted};
use super::projection::LIVE;
use super::track::{AttemptFacts, Facts};
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

/// Feeds `each` the attempts `query` counts, streaming the projection's rows.
async fn each_counted(
    pool: &sqlx::PgPool,
    query: &FunnelQuery,
    count: Count,
    mut each: impl FnMut(&AttemptFacts),
) -> Result<(), StoreError> {
    let sql = format!(
        "SELECT attempt, variant, brand, partner, os, platform, day, started_at, marks, refusal, person FROM {LIVE} \
         WHERE flow = $1 AND day BETWEEN $2 AND $3 AND ($4::text IS NULL OR variant = $4)"
    );
    let mut rows = sqlx::query(&sql)
        .bind(query.funnel.flow)
        .bind(query.from)
        .bind(query.to)
        .bind(query.funnel.variant)
        .fetch(pool);
    let mut counted = Counted::new(query, count);
    while let Some(row) = rows.try_next().await? {
        let attempt = AttemptFacts {
            attempt: row.try_get("attempt")?,
            flow: query.funnel.flow,
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
        };
        counted.add(attempt, &mut each);
    }
    counted.finish(&mut each);
    Ok(())
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

/// The attempts `query` counts that stopped at `step` (of the breakdown value `group`, or of
/// all): page `page` (from 1) of `per_page`, newest first, and how many there are.
pub async fn dropped(
    pool: &sqlx::PgPool,
    query: &FunnelQuery,
    count: Count,
    step: usize,
    group: Option<String>,
    page: usize,
    per_page: usize,
) -> Result<DroppedPage, StoreError> {
    let mut dropped = Dropped::new(step, group);
    each_counted(pool, query, count, |attempt| dropped.add(query, attempt)).await?;
    Ok(dropped.page(page, per_page))
}
