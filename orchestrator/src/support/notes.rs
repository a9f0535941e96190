//! Support's notes on an attempt (issue 27): who wrote each, when, and its text, opened for the
//! console (a note is personal data of the attempt, sealed under the attempt's own key; once
//! anyone in the attempt is erased it reads as erased).

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use events::flow::support::NOTE_ADDED;
use events::pii::{Opened, Vault};
use events::RecordedEvent;
use serde::Serialize;
use serde_json::Value;
use sqlx::PgPool;
use uuid::Uuid;

use super::masking::ERASED_TEXT;
use crate::staff::accounts::email_of;

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Note {
    /// The note's event in the attempt (a permalink's position).
    pub version: i64,
    pub at: DateTime<Utc>,
    /// The author's e-mail.
    pub by: String,
    pub text: String,
    pub erased: bool,
}

/// The staff member behind an event's actor (`staff:<uuid>`).
pub fn staff_of(actor: &str) -> Option<Uuid> {
    actor.strip_prefix("staff:").and_then(|id| Uuid::parse_str(id).ok())
}

/// The notes among `history`, oldest first.
pub async fn notes(db: &PgPool, vault: &Vault, history: &[RecordedEvent]) -> anyhow::Result<Vec<Note>> {
    let mut emails: HashMap<Uuid, String> = HashMap::new();
    let mut out = Vec::new();
    for event in history.iter().filter(|e| e.event_type == NOTE_ADDED) {
        let by = match staff_of(&event.metadata.actor) {
            Some(id) => match emails.get(&id) {
                Some(email) => email.clone(),
                None => {
                    let sealed: Option<Value> = sqlx::query_scalar("SELECT email_sealed FROM staff WHERE id = $1")
                        .bind(id)
                        .fetch_optional(db)
                        .await?;
                    let email = match sealed {
                        Some(sealed) => email_of(vault, &sealed).await,
                        None => "equipe".to_string(),
                    };
                    emails.insert(id, email.clone());
                    email
                }
            },
            None => "equipe".to_string(),
        };
        let (text, erased) = match event.payload.get("note") {
            Some(sealed) => match vault.open(sealed).await? {
                Opened::Clear(text) => (text, false),
                Opened::Erased => (ERASED_TEXT.to_string(), true),
            },
            None => (ERASED_TEXT.to_string(), true),
        };
        out.push(Note { version: event.version, at: event.recorded_at, by, text, erased });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_author_is_read_from_a_staff_actor_only() {
        let id = Uuid::from_u128(7);
        assert_eq!(staff_of(&format!("staff:{id}")), Some(id));
        assert_eq!(staff_of("visitor"), None);
        assert_eq!(staff_of("staff:unknown"), None);
    }
}
