//! Personal data on its way in and out: clear markers are sealed before an append, and
//! sealed fields are redacted before an event reaches the browser.

use events::flow::{clear_marker, CLEAR_MARKER, SECRET_CLEAR_MARKER, SECRET_MARKER};
use events::pii::{PiiKind, Sealed, Vault, ERASED_MARKER};
use events::{StoreError, StreamId};
use serde_json::Value;

/// Replaces every `{"$pii_clear": {kind, value}}` in `payload` by the sealed value of the
/// subject it belongs to, and links the subject to the stream for support look-ups, in the
/// caller's transaction: the subjects, look-ups and links it writes exist only if that
/// transaction commits (a command that fails leaves none behind).
///
/// Licences and serials ([`PiiKind::is_tagged`]) are sealed under the attempt's own key and
/// tagged for support's look-up on its link: an erasure that reaches the attempt (the person
/// proved a phone in it) shreds them, whichever phone was typed beside them, and one that does
/// not (a phone someone else typed there) leaves the attempt's owner's licence alone.
pub async fn seal_markers_in(
    vault: &Vault,
    conn: &mut sqlx::PgConnection,
    stream: &StreamId,
    payload: &mut Value,
) -> Result<(), StoreError> {
    let mut found = Vec::new();
    collect_markers(payload, &mut Vec::new(), &mut found)?;
    for (path, kind, clear) in found {
        let normalized = kind.normalize(&clear);
        let sealed = if kind.is_looked_up() && !kind.is_tagged() {
            // The person found or created, linked and their key read, in one statement.
            vault.seal_for_person_in(&mut *conn, stream, kind, &normalized).await?.1
        } else {
            // The attempt's own subject found or created, linked and its key read: one statement.
            let (link, key) = vault.attempt_key_in(&mut *conn, stream).await?;
            if kind.is_tagged() {
                vault.tag_value_in(&mut *conn, link, kind, &normalized).await?;
            }
            events::pii::seal_with(link, &key, kind, &normalized)?
        };
        if let Some(slot) = pointer_mut(payload, &path) {
            *slot = sealed.to_value();
        }
    }
    Ok(())
}

fn collect_markers(
    value: &Value,
    path: &mut Vec<String>,
    found: &mut Vec<(Vec<String>, PiiKind, String)>,
) -> Result<(), StoreError> {
    if let Some((kind, clear)) = clear_marker(value)? {
        found.push((path.clone(), kind, clear.to_string()));
        return Ok(());
    }
    match value {
        Value::Object(map) => {
            for (key, child) in map {
                path.push(key.clone());
                collect_markers(child, path, found)?;
                path.pop();
            }
        }
        Value::Array(items) => {
            for (i, child) in items.iter().enumerate() {
                path.push(i.to_string());
                collect_markers(child, path, found)?;
                path.pop();
            }
        }
        _ => {}
    }
    Ok(())
}

fn pointer_mut<'a>(value: &'a mut Value, path: &[String]) -> Option<&'a mut Value> {
    path.iter().try_fold(value, |v, key| match v {
        Value::Object(map) => map.get_mut(key),
        Value::Array(items) => key.parse::<usize>().ok().and_then(move |i| items.get_mut(i)),
        _ => None,
    })
}

/// How long a one-time secret (an SMS code, an OAuth code) is kept for the steps that use it.
const SECRET_TTL: std::time::Duration = std::time::Duration::from_secs(30 * 60);

/// Moves every `{"$secret_clear": value}` in `payload` into the attempt's secrets, leaving
/// `{"$secret": "<name>"}` in its place, in the caller's transaction.
pub async fn stash_secrets_in(
    secrets: &super::secrets::Secrets,
    conn: &mut sqlx::PgConnection,
    payload: &mut Value,
) -> Result<(), sqlx::Error> {
    match payload {
        Value::Object(map) => {
            if let Some(clear) = map.get(SECRET_CLEAR_MARKER) {
                let text = clear.as_str().map(str::to_string).unwrap_or_else(|| clear.to_string());
                let name = format!("s-{}", uuid::Uuid::new_v4());
                secrets.put_in(&mut *conn, &name, &text, SECRET_TTL).await?;
                *payload = serde_json::json!({ SECRET_MARKER: name });
                return Ok(());
            }
            for child in map.values_mut() {
                Box::pin(stash_secrets_in(secrets, &mut *conn, child)).await?;
            }
        }
        Value::Array(items) => {
            for child in items.iter_mut() {
                Box::pin(stash_secrets_in(secrets, &mut *conn, child)).await?;
            }
        }
        _ => {}
    }
    Ok(())
}

/// Whether any clear marker is left (an append must never store one).
pub fn has_clear_marker(value: &Value) -> bool {
    match value {
        Value::Object(map) => {
            map.contains_key(CLEAR_MARKER)
                || map.contains_key(SECRET_CLEAR_MARKER)
                || map.values().any(has_clear_marker)
        }
        Value::Array(items) => items.iter().any(has_clear_marker),
        _ => false,
    }
}

/// Replaces personal-data fields (sealed, erased or clear) and secrets by `null` for the browser.
pub fn redact(value: &mut Value) {
    match value {
        Value::Object(map) => {
            let personal = Sealed::is_sealed(&Value::Object(map.clone()))
                || map.contains_key(CLEAR_MARKER)
                || map.contains_key(ERASED_MARKER)
                || map.contains_key(SECRET_CLEAR_MARKER)
                || map.contains_key(SECRET_MARKER);
            if personal {
                *value = Value::Null;
                return;
            }
            map.values_mut().for_each(redact);
        }
        Value::Array(items) => items.iter_mut().for_each(redact),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn redaction_nulls_every_personal_field_and_keeps_the_rest() {
        let mut payload = json!({
            "phone": { "$pii": { "subject": "x", "kind": "phone", "nonce": "n", "ct": "c" } },
            "email": { "$pii_clear": { "kind": "email", "value": "a@b.c" } },
            "gone": { "$erased": true },
            "code": { "$secret": "s-1" },
            "masked": "(11) *****-0001",
            "list": [{ "$pii_clear": { "kind": "phone", "value": "1" } }, 3]
        });
        redact(&mut payload);
        assert_eq!(
            payload,
            json!({ "phone": null, "email": null, "gone": null, "code": null, "masked": "(11) *****-0001", "list": [null, 3] })
        );
    }

    #[test]
    fn clear_markers_are_found_anywhere() {
        assert!(has_clear_marker(&json!({ "a": [{ "$pii_clear": { "kind": "phone", "value": "1" } }] })));
        assert!(!has_clear_marker(&json!({ "a": [{ "$pii": {} }] })));
    }
}
