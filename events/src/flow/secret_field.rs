//! A one-time secret inside a domain event: an SMS code the visitor typed, a partner's OAuth
//! code. `decide` writes `SecretField::clear(value)`; the orchestrator's append path moves the
//! value into the attempt's short-lived secrets and stores only `{"$secret": "<name>"}` in the
//! event, so no code or token ever sits in the history. A step reads it back by that name.

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

/// Marks a clear value that must be moved to the attempt's secrets before it is stored.
pub const SECRET_CLEAR_MARKER: &str = "$secret_clear";
/// Marks a value kept in the attempt's secrets under the given name.
pub const SECRET_MARKER: &str = "$secret";

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct SecretField(Value);

impl SecretField {
    pub fn clear(value: &str) -> Self {
        Self(json!({ SECRET_CLEAR_MARKER: value }))
    }

    pub fn value(&self) -> &Value {
        &self.0
    }

    /// The clear text while the field is still a marker (before it was stored).
    pub fn clear_text(&self) -> Option<&str> {
        self.0.get(SECRET_CLEAR_MARKER)?.as_str()
    }

    /// The name under which the stored field's value sits in the attempt's secrets.
    pub fn stash_name(&self) -> Option<&str> {
        self.0.get(SECRET_MARKER)?.as_str()
    }
}

impl From<&str> for SecretField {
    fn from(value: &str) -> Self {
        Self::clear(value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_clear_secret_is_a_marker_and_a_stored_one_a_name() {
        let clear = SecretField::clear("123456");
        assert_eq!(serde_json::to_value(&clear).expect("json"), json!({ "$secret_clear": "123456" }));
        assert_eq!(clear.clear_text(), Some("123456"));
        assert_eq!(clear.stash_name(), None);
        let stored: SecretField = serde_json::from_value(json!({ "$secret": "s-1" })).expect("parse");
        assert_eq!(stored.stash_name(), Some("s-1"));
        assert_eq!(stored.clear_text(), None);
    }
}
