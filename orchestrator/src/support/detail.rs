//! One attempt step by step: the summary, the visitor's current view, the masked personal
//! data, a timeline entry per event with what the visitor saw after it (the flow's
//! `seen_along`, no second source of truth) and the staff trail.

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use events::flow::AttemptFlow;
use events::pii::Vault;
use events::RecordedEvent;
use serde_json::{json, Value};
use sqlx::{PgPool, Row};
use uuid::Uuid;

use super::masking;
use super::summary::summarize;
use crate::staff::accounts::email_of;

/// `visitor`, `runner` or `staff`, from the event's metadata.
pub fn actor_kind(actor: &str) -> &'static str {
    if actor == "visitor" {
        "visitor"
    } else if actor.starts_with("staff") || actor.starts_with("support") {
        "staff"
    } else {
        "runner"
    }
}

/// One event as the timeline and the history download show it (personal data masked).
pub fn entry(event: &RecordedEvent) -> Value {
    json!({
        "version": event.version,
        "type": event.event_type,
        "at": event.recorded_at,
        "actor": actor_kind(&event.metadata.actor),
        "step": event.payload.get("step").and_then(Value::as_str),
        "data": masked_data(event),
    })
}

fn masked_data(event: &RecordedEvent) -> Value {
    // An upstream error's text may quote a URL with personal data in its query string.
    let mut data = masking::masked(&event.payload);
    if let Some(reason) = data.get_mut("reason") {
        if let Some(text) = reason.as_str() {
            *reason = Value::String(redact_urls(text));
        }
    }
    data
}

fn redact_urls(text: &str) -> String {
    text.split(' ')
        .map(|word| match word.find('?') {
            Some(i) if word.contains("://") => format!("{}?…", &word[..i]),
            _ => word.to_string(),
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The detail answer of one attempt.
pub async fn detail(
    db: &PgPool,
    vault: &Vault,
    flow: &dyn AttemptFlow,
    history: &[RecordedEvent],
    step_due: bool,
    now: DateTime<Utc>,
) -> anyhow::Result<Value> {
    let summary = summarize(flow, history, step_due, now).ok_or_else(|| anyhow::anyhow!("empty history"))?;
    let seen = flow.seen_along(history);
    let timeline: Vec<Value> = history
        .iter()
        .zip(seen.iter().map(Some).chain(std::iter::repeat(None)))
        .map(|(event, seen)| {
            let mut item = entry(event);
            item["seen"] = seen.map(|s| json!({ "panel": s.panel, "message": s.message })).unwrap_or(Value::Null);
            item
        })
        .collect();
    let fields = masking::fields(history);
    let erased = masking::erased_keys(db, &fields).await?;
    let mut answer = serde_json::to_value(&summary)?;
    answer["view"] = flow.view(history, now);
    answer["fields"] = masking::fields_json(&fields, &erased);
    answer["timeline"] = Value::Array(timeline);
    answer["notes"] = serde_json::to_value(super::notes::notes(db, vault, history).await?)?;
    answer["staff_trail"] = Value::Array(staff_trail(db, vault, &summary.id).await?);
    Ok(answer)
}

/// Who opened, revealed, erased, retried, cancelled or noted this attempt, when, and the
/// reason typed (and the attempt's event an action appended, for its permalink).
pub async fn staff_trail(db: &PgPool, vault: &Vault, attempt: &str) -> anyhow::Result<Vec<Value>> {
    let rows = sqlx::query(
        "SELECT stream_id, event_type, payload, recorded_at FROM events \
         WHERE category = 'staff' AND payload->>'attempt' = $1 ORDER BY position",
    )
    .bind(attempt)
    .fetch_all(db)
    .await?;
    let mut emails: HashMap<Uuid, String> = HashMap::new();
    let mut trail = Vec::with_capacity(rows.len());
    for row in rows {
        let stream: String = row.try_get("stream_id")?;
        let event_type: String = row.try_get("event_type")?;
        let payload: Value = row.try_get("payload")?;
        let at: DateTime<Utc> = row.try_get("recorded_at")?;
        let staff_id = stream.strip_prefix("staff-").and_then(|s| Uuid::parse_str(s).ok()).unwrap_or_default();
        if let std::collections::hash_map::Entry::Vacant(e) = emails.entry(staff_id) {
            let sealed: Option<Value> = sqlx::query_scalar("SELECT email_sealed FROM staff WHERE id = $1")
                .bind(staff_id)
                .fetch_optional(db)
                .await?;
            let email = match sealed {
                Some(sealed) => email_of(vault, &sealed).await,
                None => "equipe".to_string(),
            };
            e.insert(email);
        }
        let action = match event_type.as_str() {
            crate::staff::audit::OPENED_ATTEMPT => "opened",
            crate::staff::audit::REVEALED => "revealed",
            crate::staff::audit::ERASED => "erased",
            crate::staff::audit::DOWNLOADED_HISTORY => "baixou o histórico",
            crate::staff::audit::RETRIED_STEP => "retried",
            crate::staff::audit::CANCELLED_ATTEMPT => "cancelled",
            crate::staff::audit::NOTED => "noted",
            other => other,
        };
        trail.push(json!({
            "at": at,
            "email": emails.get(&staff_id),
            "action": action,
            "type": event_type,
            "field": payload.get("field"),
            "reason": reason_of(vault, payload.get("reason")).await,
            "version": payload.get("version"),
        }));
    }
    Ok(trail)
}

/// A reveal's reason as the trail shows it: opened when sealed (issue 26), the erased text once
/// its person was erased, as written in reveals recorded before reasons were sealed.
async fn reason_of(vault: &Vault, reason: Option<&Value>) -> Value {
    let Some(reason) = reason else { return Value::Null };
    if reason.get(events::pii::ERASED_MARKER).is_some() {
        return Value::String(super::masking::ERASED_TEXT.into());
    }
    if !events::pii::Sealed::is_sealed(reason) {
        return reason.clone();
    }
    match vault.open(reason).await {
        Ok(events::pii::Opened::Clear(text)) => Value::String(text),
        Ok(events::pii::Opened::Erased) => Value::String(super::masking::ERASED_TEXT.into()),
        Err(error) => {
            tracing::warn!(%error, "a reveal's reason could not be opened");
            Value::Null
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn query_strings_of_urls_in_errors_are_cut() {
        assert_eq!(redact_urls("GET http://x/a?phone=5511 failed"), "GET http://x/a?… failed");
        assert_eq!(actor_kind("visitor"), "visitor");
        assert_eq!(actor_kind("staff:1"), "staff");
        assert_eq!(actor_kind("runner-abc"), "runner");
    }
}
