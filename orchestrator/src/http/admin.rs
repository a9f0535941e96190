//! The admin port (`ADMIN_BIND_ADDR`): Prometheus metrics for the operator's scraper, on an
//! address of its own so the public proxy never exposes them (docs/metrics.md).

use axum::extract::State;
use axum::http::header::CONTENT_TYPE;
use axum::response::IntoResponse;
use axum::routing::get;
use axum::Router;
use tokio::net::TcpListener;

use crate::http::state::AppState;

pub fn router(state: AppState) -> Router {
    Router::new().route("/metrics", get(metrics)).with_state(state)
}

async fn metrics(State(state): State<AppState>) -> impl IntoResponse {
    let max = state.db.options().get_max_connections();
    let admission = &state.metrics.admission;
    admission.reading(&state.admission.load.reading());
    admission.line(&state.admission.line.view(), state.admission.pace());
    admission.line_pool(state.admission.line_db.as_ref());
    let page = state.metrics.render(&state.db, state.streams.open_total(), max);
    ([(CONTENT_TYPE, "text/plain; version=0.0.4; charset=utf-8")], page)
}

/// Serves the admin router on `listener` until `shutdown` resolves.
pub async fn serve(
    listener: TcpListener,
    state: AppState,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    axum::serve(listener, router(state)).with_graceful_shutdown(shutdown).await
}
