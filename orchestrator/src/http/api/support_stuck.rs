//! `GET /api/support/stuck`: the attempts whose step has waited past N minutes (issue 27),
//! across flows, with the count the look-up page shows. Nothing personal is asked or answered
//! (summaries only), so it is a GET with the threshold in its query string.

use std::collections::HashMap;

use axum::extract::{Query, State};
use axum::routing::get;
use axum::{Json, Router};
use chrono::Utc;
use events::StreamId;
use serde_json::{json, Value};

use crate::error::ApiError;
use crate::http::state::AppState;
use crate::staff::auth::SupportStaff;
use crate::support::query::PAGE_SIZE;
use crate::support::stuck::{self, classify};
use crate::support::summary::summarize;

pub fn router() -> Router<AppState> {
    Router::new().route("/api/support/stuck", get(stuck_attempts))
}

async fn stuck_attempts(
    State(state): State<AppState>,
    SupportStaff(_staff): SupportStaff,
    params: Result<Query<HashMap<String, String>>, axum::extract::rejection::QueryRejection>,
) -> Result<Json<Value>, ApiError> {
    let Query(params) = params.map_err(|_| ApiError::Invalid(crate::texts::SEARCH_UNREADABLE.into()))?;
    let query = stuck::parse(&params)?;
    let (total, rows) = stuck::stuck_page(&state.db, &query).await?;
    let now = Utc::now();
    let mut attempts = Vec::with_capacity(rows.len());
    for row in &rows {
        let Ok(stream) = StreamId::parse(&row.stream_id) else { continue };
        let Some(flow) = state.flows.get(stream.category()) else { continue };
        let history = state.store.read_stream(&stream).await?;
        // A step is due: the summary says so (in flight), whatever the idle time.
        let Some(summary) = summarize(flow, &history, true, now) else { continue };
        let mut item = serde_json::to_value(&summary).map_err(anyhow::Error::from)?;
        item["stuck"] = json!(classify(row, now));
        attempts.push(item);
    }
    let pages = usize::try_from(total).unwrap_or(0).div_ceil(PAGE_SIZE).max(1);
    Ok(Json(json!({
        "query": stuck::echo(&query),
        "total": total,
        "page": query.page,
        "pages": pages,
        "attempts": attempts,
    })))
}
