//! A personal-data field inside a domain event.
//!
//! `decide` is pure, so it cannot encrypt: it writes `PiiField::clear(kind, value)`, which
//! serializes to `{"$pii_clear": {"kind", "value"}}`. The orchestrator's append path replaces
//! every such marker by a sealed value before anything reaches the database, and refuses to
//! write one it cannot seal. Read back, the field holds the sealed `{"$pii": ...}` value;
//! a step that needs the clear text opens it through the vault.

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use crate::pii::{PiiKind, Sealed, CLEAR_MARKER};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct PiiField(Value);

impl PiiField {
    /// A clear value from a command, to be sealed on append.
    pub fn clear(kind: PiiKind, value: &str) -> Self {
        Self(json!({ CLEAR_MARKER: { "kind": kind.as_str(), "value": value } }))
    }

    /// The stored form (sealed, erased or, before the append, the clear marker).
    pub fn value(&self) -> &Value {
        &self.0
    }

    pub fn is_sealed(&self) -> bool {
        Sealed::is_sealed(&self.0)
    }

    /// The clear text while the field is still a marker (before it was stored).
    pub fn clear_text(&self) -> Option<&str> {
        self.0.get(CLEAR_MARKER)?.get("value")?.as_str()
    }

    /// The clear text while the field is a marker, or a plain string: a value read back opened
    /// (the owner's read) or written before its kind was sealed (licences and serials before
    /// issue 26, which old events still hold in clear).
    pub fn in_clear(&self) -> Option<&str> {
        match &self.0 {
            Value::String(plain) => Some(plain),
            _ => self.clear_text(),
        }
    }

    /// The field as a new event carries it again (a locked licence copied from the start into
    /// the submitted form): a sealed value as it is, anything in clear as a marker of `kind`,
    /// so that an old event's plain value is sealed when it is written again.
    pub fn carried(&self, kind: PiiKind) -> Self {
        match self.in_clear() {
            Some(clear) => Self::clear(kind, clear),
            None => self.clone(),
        }
    }

    /// What a view shows of the field: the clear text while it is a marker (a pure fold
    /// before storage) or after the owner's read opened it, `null` while sealed or erased.
    pub fn shown(&self) -> Value {
        match (&self.0, self.clear_text()) {
            (Value::String(opened), _) => Value::String(opened.clone()),
            (_, Some(clear)) => Value::String(clear.to_string()),
            _ => Value::Null,
        }
    }

    pub fn kind(&self) -> Option<PiiKind> {
        let kind = match self.0.get(CLEAR_MARKER) {
            Some(marker) => marker.get("kind")?.as_str()?.to_string(),
            None => self.0.get(crate::pii::SEALED_MARKER)?.get("kind")?.as_str()?.to_string(),
        };
        kind.parse().ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_clear_field_is_a_marker_naming_its_kind() {
        let field = PiiField::clear(PiiKind::Phone, "5511910000001");
        assert_eq!(
            serde_json::to_value(&field).expect("json"),
            json!({ "$pii_clear": { "kind": "phone", "value": "5511910000001" } })
        );
        assert_eq!(field.clear_text(), Some("5511910000001"));
        assert_eq!(field.kind(), Some(PiiKind::Phone));
        assert!(!field.is_sealed());
    }

    #[test]
    fn a_plain_string_is_a_value_in_clear_and_is_carried_as_a_marker() {
        // A licence written before issue 26 sealed licences: a plain string in the event.
        let legacy: PiiField = serde_json::from_value(json!("LIC-777")).expect("a plain string decodes");
        assert_eq!((legacy.in_clear(), legacy.shown()), (Some("LIC-777"), json!("LIC-777")));
        assert_eq!(legacy.carried(PiiKind::Licence), PiiField::clear(PiiKind::Licence, "LIC-777"));
        let sealed = PiiField(json!({ "$pii": { "link": "x", "kind": "licence", "nonce": "n", "ct": "c" } }));
        assert_eq!((sealed.in_clear(), sealed.shown()), (None, Value::Null));
        assert_eq!(sealed.carried(PiiKind::Licence), sealed);
    }
}
