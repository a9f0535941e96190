//! Counts every answer of the public port by status class (`exa_http_responses_total`), the
//! 5xx alert's signal (deploy/prometheus/rules.yml). The class only: a path or status label
//! would let anonymous requests grow the page without bound.

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::Response;

use crate::metrics::Metrics;

pub async fn count(State(metrics): State<Arc<Metrics>>, request: Request, next: Next) -> Response {
    let response = next.run(request).await;
    metrics.http_response(response.status().as_u16());
    response
}
