//! The document database: `runQuery` on the user collection, filter `msisdn == "+55..."`, read
//! with the user's own token. Its rules let a user read only their own document.

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::routing::post;
use axum::{Json, Router};
use chrono::SecondsFormat;
use serde::Deserialize;
use serde_json::{json, Value};

use super::credentials;
use super::error::{json_body, Refusal, Style};
use super::headers;
use super::intercept::tracked;
use super::records::tokens::TokenKind;
use super::state::SandboxState;

const STYLE: Style = Style::Google;
/// The only database of a project.
const DATABASE: &str = "(default)";

pub fn routes(state: &SandboxState) -> Router<SandboxState> {
    Router::new().route(
        "/v1/projects/{project}/databases/{database}/documents:runQuery",
        tracked(state, "docdb.run-query", post(run_query)),
    )
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct RunQuery {
    structured_query: StructuredQuery,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct StructuredQuery {
    from: Vec<Collection>,
    #[serde(rename = "where")]
    filter: Filter,
    limit: Option<u32>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Collection {
    collection_id: String,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Filter {
    field_filter: FieldFilter,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct FieldFilter {
    field: FieldRef,
    op: String,
    value: FieldValue,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct FieldRef {
    field_path: String,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct FieldValue {
    string_value: String,
}

async fn run_query(
    State(state): State<SandboxState>,
    Path((project, database)): Path<(String, String)>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Json<Value>, Refusal> {
    if project != credentials::DOCDB_PROJECT || database != DATABASE {
        return Err(Refusal::new(
            STYLE,
            StatusCode::NOT_FOUND,
            "NOT_FOUND",
            format!("database {project}/{database} not found"),
        ));
    }
    let token = headers::required_bearer(&headers, STYLE)?;
    let now = state.now();
    let claims = state.with(|w| w.claims(token, &[TokenKind::PhoneUser], now, STYLE))?;
    let query: RunQuery = json_body(STYLE, &headers, &body)?;
    let query = query.structured_query;
    let filter = &query.filter.field_filter;
    let supported = matches!(query.from.as_slice(), [c] if c.collection_id == credentials::DOCDB_USER_COLLECTION)
        && filter.field.field_path == "msisdn"
        && filter.op == "EQUAL";
    if !supported {
        return Err(Refusal::bad_request(
            STYLE,
            "INVALID_ARGUMENT",
            "the sandbox answers only users where msisdn EQUAL a string",
        ));
    }
    // Security rules: the token's own phone, nobody else's.
    let phone = &filter.value.string_value;
    if claims.msisdn.map(|msisdn| format!("+{msisdn}")).as_deref() != Some(phone.as_str()) {
        return Err(Refusal::new(
            STYLE,
            StatusCode::FORBIDDEN,
            "PERMISSION_DENIED",
            "Missing or insufficient permissions.",
        ));
    }

    let read_time = now.to_rfc3339_opts(SecondsFormat::Micros, true);
    let national = phone.strip_prefix("+55").unwrap_or(phone);
    let found = state.with(|w| w.desktop.get(national).map(|account| account.name));
    let results = match (found, query.limit) {
        (Some(name), limit) if limit != Some(0) => json!([{
            "document": {
                "name": format!(
                    "projects/{project}/databases/{DATABASE}/documents/{}/user-{national}",
                    credentials::DOCDB_USER_COLLECTION
                ),
                "fields": {
                    "msisdn": { "stringValue": phone },
                    "name": { "stringValue": name },
                },
                "createTime": "2024-01-15T12:00:00.000000Z",
                "updateTime": "2025-03-01T12:00:00.000000Z",
            },
            "readTime": read_time,
        }]),
        // Firestore answers an empty result as one element with only readTime.
        _ => json!([{ "readTime": read_time }]),
    };
    Ok(Json(results))
}
