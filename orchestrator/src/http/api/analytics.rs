//! `GET /api/analytics/funnel`: the funnel page's question answered from the projection (its
//! recent days held in memory, `analytics::held`), for analysts and admins. The same maths as `replay funnel` (events::funnel), fed the projection's
//! rows instead of the log, so both give the same numbers for the same question.
//! `GET /api/analytics/funnel/dropped`: the attempts behind one step's drop-off, by the same
//! definition, a page at a time.

use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::routing::get;
use axum::{Json, Router};
use chrono::{SecondsFormat, Utc};
use events::funnel::projection::{self, LIVE};
use events::funnel::{read, sao_paulo, Count, DrillDown, DroppedPage, FunnelAnswer, FunnelQuery};
use serde::Serialize;
use serde_json::{json, Value};

use crate::analytics::dropoff::{self, anonymous_id, Drill, PER_PAGE};
use crate::analytics::question::{parse, parse_count, BadField, Params};
use crate::error::ApiError;
use crate::http::state::AppState;
use crate::staff::auth::AnalystStaff;

/// Refusal messages listed per step.
pub const TOP_REFUSALS: usize = 5;

pub fn router() -> Router<AppState> {
    Router::new().route("/api/analytics/funnel", get(funnel)).route("/api/analytics/funnel/dropped", get(dropped))
}

fn bad_field(bad: BadField) -> ApiError {
    ApiError::BadField { field: bad.field, message: bad.message }
}

/// The question and what it counts, from the query string.
fn question(params: Result<Query<Params>, QueryRejection>) -> Result<(Params, FunnelQuery, Count), ApiError> {
    let Query(params) =
        params.map_err(|_| ApiError::BadField { field: "flow", message: crate::texts::QUESTION_UNREADABLE.into() })?;
    let today = Utc::now().with_timezone(&sao_paulo()).date_naive();
    let query = parse(&params, today).map_err(bad_field)?;
    let count = parse_count(&params).map_err(bad_field)?;
    Ok((params, query, count))
}

async fn funnel(
    _staff: AnalystStaff,
    State(state): State<AppState>,
    params: Result<Query<Params>, QueryRejection>,
) -> Result<Json<FunnelBody>, ApiError> {
    let (_, query, count) = question(params)?;
    // Read where the read side is (a standby when there is one), its lag beside the answer.
    let standing = projection::standing(&state.reads.db, LIVE).await?;
    let answer = match state.funnels.answer(&state.reads.db, &query, count).await? {
        Some(answer) => answer,
        None => read::answer(&state.reads.db, &query, count).await?,
    };
    let mut body = render(&query, &answer, standing.updated_at);
    body.count = count.as_str();
    body.read_lag_seconds = state.reads.lag_seconds().await?;
    Ok(Json(body))
}

async fn dropped(
    AnalystStaff(staff): AnalystStaff,
    State(state): State<AppState>,
    params: Result<Query<Params>, QueryRejection>,
) -> Result<Json<Value>, ApiError> {
    let (params, query, count) = question(params)?;
    let drill = dropoff::parse(&params, &query).map_err(bad_field)?;
    let asked = DrillDown { step: drill.step, group: drill.group.clone(), page: drill.page, per_page: PER_PAGE };
    let page = match state.funnels.dropped(&state.reads.db, &query, count, asked.clone()).await? {
        Some(page) => page,
        None => read::dropped(&state.reads.db, &query, count, &asked).await?,
    };
    // Staff who may open an attempt in the support console see its id; analysts an anonymous one.
    let ids = if staff.role.may_support() { Ids::Attempt } else { Ids::Anonymous(&state.vault) };
    Ok(Json(render_dropped(&query, count, &drill, &page, ids)))
}

/// Which ids the drill-down shows.
pub enum Ids<'a> {
    Attempt,
    Anonymous(&'a events::pii::Vault),
}

/// The drill-down as the page reads it (docs/openapi.yaml, `DroppedAttempts`).
pub fn render_dropped(query: &FunnelQuery, count: Count, drill: &Drill, page: &DroppedPage, ids: Ids<'_>) -> Value {
    let attempts: Vec<Value> = page
        .rows
        .iter()
        .map(|row| {
            let (id, console) = match ids {
                Ids::Attempt => (row.attempt.clone(), Some(format!("/suporte/tentativas/{}", row.attempt))),
                Ids::Anonymous(vault) => (anonymous_id(vault, &row.attempt), None),
            };
            json!({
                "id": id,
                "console": console,
                "started_at": row.started.with_timezone(&sao_paulo()).to_rfc3339_opts(SecondsFormat::Secs, true),
                "variant": row.variant,
                "os": row.os,
                "platform": row.platform,
                "refusal": row.refusal,
            })
        })
        .collect();
    let step = &query.funnel.steps[drill.step];
    json!({
        "count": count.as_str(),
        "step": drill.step,
        "step_key": step.key,
        "step_label": step.label,
        "group": drill.group,
        "ids": match ids { Ids::Attempt => "attempt", Ids::Anonymous(_) => "anonymous" },
        "page": drill.page,
        "per_page": PER_PAGE,
        "total": page.total,
        "pages": page.total.div_ceil(PER_PAGE),
        "attempts": attempts,
    })
}

/// The answer as the page reads it (docs/funnels.md, "The funnel page"). Typed, not a tree of
/// `Value`s: a breakdown by day is 30 groups of histograms, half a megabyte of JSON, and
/// building it as a tree took longer than answering the question.
#[derive(Serialize)]
pub struct FunnelBody {
    flow: &'static str,
    variant: Option<&'static str>,
    from: String,
    to: String,
    window_days: i64,
    order: &'static str,
    breakdown: Option<&'static str>,
    as_of: String,
    steps: Vec<StepName>,
    groups: Vec<GroupBody>,
    per_day: Vec<DayBody>,
    drivers: Vec<DriverBody>,
    /// `attempts` or `people`.
    pub count: &'static str,
    pub read_lag_seconds: f64,
}

#[derive(Serialize)]
struct StepName {
    key: &'static str,
    label: &'static str,
}

#[derive(Serialize)]
struct GroupBody {
    key: String,
    attempts: u64,
    steps: Vec<StepBody>,
}

#[derive(Serialize)]
struct StepBody {
    key: &'static str,
    label: &'static str,
    entered: u64,
    from_previous: f64,
    from_first: f64,
    dropped: u64,
    refusals: Vec<RefusalBody>,
    median_ms: Option<i64>,
    p90_ms: Option<i64>,
    durations: Vec<BucketBody>,
}

#[derive(Serialize)]
struct RefusalBody {
    message: String,
    count: u64,
}

#[derive(Serialize)]
struct BucketBody {
    from_ms: i64,
    count: u64,
}

#[derive(Serialize)]
struct DayBody {
    day: String,
    entered: u64,
    converted: u64,
}

#[derive(Serialize)]
struct DriverBody {
    dimension: &'static str,
    value: String,
    attempts: u64,
    dropped: u64,
    drop_rate: f64,
    others_drop_rate: f64,
    odds_ratio: f64,
}

pub fn render(query: &FunnelQuery, answer: &FunnelAnswer, as_of: chrono::DateTime<Utc>) -> FunnelBody {
    let funnel = &query.funnel;
    let groups = answer
        .tallies
        .iter()
        .map(|(key, tally)| {
            let rows = tally.rows(funnel, TOP_REFUSALS);
            let attempts = rows.first().map_or(0, |r| r.entered);
            let steps = rows
                .into_iter()
                .enumerate()
                .map(|(i, row)| StepBody {
                    durations: tally
                        .durations(i)
                        .filter(|_| i > 0)
                        .map(|h| {
                            h.buckets().into_iter().map(|(from_ms, count)| BucketBody { from_ms, count }).collect()
                        })
                        .unwrap_or_default(),
                    key: row.key,
                    label: row.label,
                    entered: row.entered,
                    from_previous: row.from_previous,
                    from_first: row.from_first,
                    dropped: row.dropped,
                    refusals: row.refusals.into_iter().map(|(message, count)| RefusalBody { message, count }).collect(),
                    median_ms: row.median_ms,
                    p90_ms: row.p90_ms,
                })
                .collect();
            GroupBody { key: key.clone(), attempts, steps }
        })
        .collect();
    FunnelBody {
        flow: funnel.flow,
        variant: funnel.variant,
        from: query.from.to_string(),
        to: query.to.to_string(),
        window_days: query.window.num_days(),
        order: query.order.as_str(),
        breakdown: query.breakdown.map(|b| b.as_str()),
        as_of: as_of.to_rfc3339_opts(SecondsFormat::Secs, true),
        steps: funnel.steps.iter().map(|s| StepName { key: s.key, label: s.label }).collect(),
        groups,
        per_day: answer
            .per_day
            .iter()
            .map(|(day, c)| DayBody { day: day.to_string(), entered: c.entered, converted: c.converted })
            .collect(),
        drivers: answer
            .drivers
            .findings()
            .into_iter()
            .map(|d| DriverBody {
                dimension: d.dimension,
                value: d.value,
                attempts: d.attempts,
                dropped: d.dropped,
                drop_rate: d.drop_rate,
                others_drop_rate: d.others_drop_rate,
                odds_ratio: d.odds_ratio,
            })
            .collect(),
        count: Count::Attempts.as_str(),
        read_lag_seconds: 0.0,
    }
}
