//! Personal data in an attempt as support sees it: sealed fields are never opened here. A
//! payload shows "•••" in their place; the attempt's `fields` show the masked display the
//! event already carries next to them (`masked`, `<name>_display`, `<name>_masked`).

use std::collections::HashSet;

use events::flow::{CLEAR_MARKER, SECRET_CLEAR_MARKER, SECRET_MARKER};
use events::pii::{KeyRef, Sealed, ERASED_MARKER};
use events::RecordedEvent;
use serde_json::{json, Map, Value};
use sqlx::PgPool;
use uuid::Uuid;

pub const HIDDEN: &str = "•••";
pub const ERASED_TEXT: &str = "dado apagado (LGPD)";

/// `value` with every personal-data field and secret replaced by "•••".
pub fn masked(value: &Value) -> Value {
    match value {
        Value::Object(map) => {
            let personal = Sealed::is_sealed(value)
                || [CLEAR_MARKER, ERASED_MARKER, SECRET_CLEAR_MARKER, SECRET_MARKER]
                    .iter()
                    .any(|m| map.contains_key(*m));
            if personal {
                return Value::String(HIDDEN.into());
            }
            Value::Object(map.iter().map(|(k, v)| (k.clone(), masked(v))).collect())
        }
        Value::Array(items) => Value::Array(items.iter().map(masked).collect()),
        other => other.clone(),
    }
}

/// One personal-data field of an attempt: its latest sealed value and masked display.
#[derive(Debug, Clone)]
pub struct Field {
    pub name: String,
    pub sealed: Value,
    pub key: KeyRef,
    pub display: String,
}

/// The attempt's personal-data fields by name, the latest value of each, in order of first
/// appearance.
pub fn fields(history: &[RecordedEvent]) -> Vec<Field> {
    let mut out: Vec<Field> = Vec::new();
    for event in history {
        collect(&event.payload, &mut out);
    }
    out
}

fn collect(value: &Value, out: &mut Vec<Field>) {
    match value {
        Value::Object(map) => {
            for (name, child) in map {
                if Sealed::is_sealed(child) {
                    let Ok(sealed) = Sealed::from_value(child) else { continue };
                    // Support's own notes are read in the console's notes, not revealed.
                    if sealed.kind == events::pii::PiiKind::SupportNote {
                        continue;
                    }
                    let field = Field {
                        name: name.clone(),
                        sealed: child.clone(),
                        key: sealed.key,
                        display: display_of(map, name),
                    };
                    match out.iter_mut().find(|f| f.name == *name) {
                        Some(slot) => *slot = field,
                        None => out.push(field),
                    }
                } else {
                    collect(child, out);
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|v| collect(v, out)),
        _ => {}
    }
}

fn display_of(map: &Map<String, Value>, name: &str) -> String {
    let sealed_here = map.values().filter(|v| Sealed::is_sealed(v)).count();
    [format!("{name}_display"), format!("{name}_masked"), format!("masked_{name}")]
        .iter()
        .filter_map(|k| map.get(k))
        .chain(map.get("masked").filter(|_| sealed_here == 1))
        .find_map(|v| v.as_str().map(str::to_string))
        .unwrap_or_else(|| HIDDEN.to_string())
}

/// The key references among `fields` that were forgotten (the person's key is gone, and
/// their stream links with it).
pub async fn erased_keys(db: &PgPool, fields: &[Field]) -> Result<HashSet<KeyRef>, sqlx::Error> {
    let ids: Vec<Uuid> = fields
        .iter()
        .map(|f| match f.key {
            KeyRef::Subject(id) | KeyRef::Link(id) => id,
        })
        .collect();
    let alive: Vec<Uuid> = sqlx::query_scalar(
        "SELECT subject_id FROM pii_subjects WHERE subject_id = ANY($1) \
         UNION ALL SELECT link_id FROM pii_stream_links WHERE link_id = ANY($1)",
    )
    .bind(&ids)
    .fetch_all(db)
    .await?;
    Ok(fields
        .iter()
        .map(|f| f.key)
        .filter(|k| match k {
            KeyRef::Subject(id) | KeyRef::Link(id) => !alive.contains(id),
        })
        .collect())
}

/// The `fields` of the detail: `[{name, masked, erased}]`.
pub fn fields_json(fields: &[Field], erased: &HashSet<KeyRef>) -> Value {
    Value::Array(
        fields
            .iter()
            .map(|f| {
                let gone = erased.contains(&f.key);
                json!({ "name": f.name, "masked": if gone { ERASED_TEXT.to_string() } else { f.display.clone() }, "erased": gone })
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sealed_fields_and_secrets_are_hidden_and_the_rest_kept() {
        let payload = json!({
            "phone": { "$pii": { "subject": Uuid::nil(), "kind": "phone", "nonce": "", "ct": "" } },
            "masked": "(11) *****-0001",
            "code": { "$secret": "s-1" },
            "list": [{ "$erased": true }, 3]
        });
        assert_eq!(
            masked(&payload),
            json!({ "phone": HIDDEN, "masked": "(11) *****-0001", "code": HIDDEN, "list": [HIDDEN, 3] })
        );
    }
}
