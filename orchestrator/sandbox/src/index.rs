//! The sandbox's own front door: an index page of the upstreams, a health probe, and a JSON 404.

use axum::http::{HeaderMap, StatusCode};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use serde_json::json;

use super::html::{escape, page};
use super::state::SandboxState;
use super::urls::{self, public_base, upstream_urls};

pub fn routes() -> Router<SandboxState> {
    Router::new().route("/", get(index)).route("/health", get(health))
}

async fn health() -> Json<serde_json::Value> {
    Json(json!({ "status": "ok" }))
}

async fn index(headers: HeaderMap) -> Html<String> {
    let urls = upstream_urls(&public_base(&headers));
    let rows: String = serde_json::to_value(&urls)
        .ok()
        .and_then(|value| value.as_object().cloned())
        .unwrap_or_default()
        .into_iter()
        .map(|(kind, url)| {
            let url = url.as_str().unwrap_or_default().to_string();
            format!("<tr><td>{}</td><td><code>{}</code></td></tr>\n", escape(&kind), escape(&url))
        })
        .collect();
    page(
        "Sandbox de upstreams",
        "",
        &format!(
            "<h1>Sandbox de upstreams</h1>\n<p>Serviços externos simulados para desenvolvimento e testes. \
             Veja os códigos enviados na <a href=\"{inbox}\">caixa de SMS</a>.</p>\n\
             <table><thead><tr><th>Upstream</th><th>URL base</th></tr></thead><tbody>\n{rows}</tbody></table>",
            inbox = urls::SMS_INBOX,
        ),
    )
}

pub async fn not_found() -> Response {
    (StatusCode::NOT_FOUND, Json(json!({ "error": { "code": "NOT_FOUND", "message": "no such sandbox endpoint" } })))
        .into_response()
}
