//! `GET /api/analytics/funnel`: the funnel page's question answered from the projection, for
//! analysts and admins. The same maths as `replay funnel` (events::funnel), fed the projection's
//! rows instead of the log, so both give the same numbers for the same question.

use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::routing::get;
use axum::{Json, Router};
use chrono::{SecondsFormat, Utc};
use events::funnel::projection::{self, LIVE};
use events::funnel::{sao_paulo, FunnelAnswer, FunnelQuery};
use serde_json::{json, Value};

use crate::analytics::question::{parse, Params};
use crate::error::ApiError;
use crate::http::state::AppState;
use crate::staff::auth::AnalystStaff;

/// Refusal messages listed per step.
pub const TOP_REFUSALS: usize = 5;

pub fn router() -> Router<AppState> {
    Router::new().route("/api/analytics/funnel", get(funnel))
}

async fn funnel(
    _staff: AnalystStaff,
    State(state): State<AppState>,
    params: Result<Query<Params>, QueryRejection>,
) -> Result<Json<Value>, ApiError> {
    let Query(params) =
        params.map_err(|_| ApiError::BadField { field: "flow", message: crate::texts::QUESTION_UNREADABLE.into() })?;
    let today = Utc::now().with_timezone(&sao_paulo()).date_naive();
    let query = parse(&params, today).map_err(|bad| ApiError::BadField { field: bad.field, message: bad.message })?;
    // Read where the read side is (a standby when there is one), its lag beside the answer.
    let standing = projection::standing(&state.reads.db, LIVE).await?;
    let answer = projection::answer(&state.reads.db, &query).await?;
    let mut rendered = render(&query, &answer, standing.updated_at);
    rendered["read_lag_seconds"] = json!(state.reads.lag_seconds().await?);
    Ok(Json(rendered))
}

/// The answer as the page reads it (docs/funnels.md, "The funnel page").
pub fn render(query: &FunnelQuery, answer: &FunnelAnswer, as_of: chrono::DateTime<Utc>) -> Value {
    let funnel = &query.funnel;
    let groups: Vec<Value> = answer
        .tallies
        .iter()
        .map(|(key, tally)| {
            let rows = tally.rows(funnel, TOP_REFUSALS);
            let steps: Vec<Value> = rows
                .iter()
                .enumerate()
                .map(|(i, row)| {
                    let durations: Vec<Value> = tally
                        .durations(i)
                        .filter(|_| i > 0)
                        .map(|h| h.buckets().into_iter().map(|(from_ms, count)| json!({ "from_ms": from_ms, "count": count })).collect())
                        .unwrap_or_default();
                    json!({
                        "key": row.key,
                        "label": row.label,
                        "entered": row.entered,
                        "from_previous": row.from_previous,
                        "from_first": row.from_first,
                        "dropped": row.dropped,
                        "refusals": row.refusals.iter().map(|(message, count)| json!({ "message": message, "count": count })).collect::<Vec<_>>(),
                        "median_ms": row.median_ms,
                        "p90_ms": row.p90_ms,
                        "durations": durations,
                    })
                })
                .collect();
            json!({ "key": key, "attempts": rows.first().map_or(0, |r| r.entered), "steps": steps })
        })
        .collect();
    json!({
        "flow": funnel.flow,
        "variant": funnel.variant,
        "from": query.from.to_string(),
        "to": query.to.to_string(),
        "window_days": query.window.num_days(),
        "order": query.order.as_str(),
        "breakdown": query.breakdown.map(|b| b.as_str()),
        "as_of": as_of.to_rfc3339_opts(SecondsFormat::Secs, true),
        "steps": funnel.steps.iter().map(|s| json!({ "key": s.key, "label": s.label })).collect::<Vec<_>>(),
        "groups": groups,
        "per_day": answer.per_day.iter().map(|(day, c)| json!({ "day": day.to_string(), "entered": c.entered, "converted": c.converted })).collect::<Vec<_>>(),
        "drivers": answer.drivers.findings().iter().map(|d| json!({
            "dimension": d.dimension,
            "value": d.value,
            "attempts": d.attempts,
            "dropped": d.dropped,
            "drop_rate": d.drop_rate,
            "others_drop_rate": d.others_drop_rate,
            "odds_ratio": d.odds_ratio,
        })).collect::<Vec<_>>(),
    })
}
