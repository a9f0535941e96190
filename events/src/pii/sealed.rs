//! The JSON form of an encrypted payload field:
//! `{"$pii": {"link": "<uuid>", "kind": "phone", "nonce": "<b64>", "ct": "<b64>"}}` in an
//! attempt's events, `{"$pii": {"subject": "<uuid>", ...}}` outside them (staff e-mails) and
//! in events written before links had ids.

use base64::engine::general_purpose::STANDARD as B64;
use base64::Engine;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use uuid::Uuid;

use super::PiiKind;
use crate::error::StoreError;

/// Key of the object that marks a sealed field.
pub const SEALED_MARKER: &str = "$pii";
/// Key of the object that replaces a field whose subject was forgotten.
pub const ERASED_MARKER: &str = "$erased";

/// Whose key opens a sealed field.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum KeyRef {
    /// The person's key, named by their subject id.
    Subject(Uuid),
    /// The person's link to one attempt stream (`pii_stream_links.link_id`): a different id
    /// in every stream, deleted with the person's key, so an erased person's attempts share
    /// no identifier that could tie them together again.
    Link(Uuid),
}

/// An encrypted personal-data value, to put in an event payload instead of the clear
/// value. Serializes to the `{"$pii": {...}}` shape.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(into = "SealedJson", try_from = "SealedJson")]
pub struct Sealed {
    pub key: KeyRef,
    pub kind: PiiKind,
    pub(crate) nonce: Vec<u8>,
    pub(crate) ct: Vec<u8>,
}

/// A sealed field after opening.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Opened {
    Clear(String),
    /// The subject's key was deleted ([`super::Vault::forget`]).
    Erased,
}

impl Opened {
    /// The value a revealed payload carries: the clear string or `{"$erased": true}`.
    pub fn into_value(self) -> Value {
        match self {
            Opened::Clear(s) => Value::String(s),
            Opened::Erased => json!({ ERASED_MARKER: true }),
        }
    }
}

impl Sealed {
    /// The JSON value to store in a payload.
    pub fn to_value(&self) -> Value {
        // Serialization of this type cannot fail (strings and a uuid only).
        serde_json::to_value(self).unwrap_or(Value::Null)
    }

    /// Whether `value` has the sealed shape (`{"$pii": ...}` and nothing else).
    pub fn is_sealed(value: &Value) -> bool {
        value.as_object().is_some_and(|o| o.len() == 1 && o.contains_key(SEALED_MARKER))
    }

    /// Parses a sealed field.
    pub fn from_value(value: &Value) -> Result<Self, StoreError> {
        if !Self::is_sealed(value) {
            return Err(StoreError::Crypto("value is not a sealed field".into()));
        }
        Sealed::deserialize(value).map_err(|e| StoreError::Crypto(format!("malformed sealed field: {e}")))
    }
}

impl From<Sealed> for Value {
    fn from(s: Sealed) -> Value {
        s.to_value()
    }
}

#[derive(Serialize, Deserialize)]
struct SealedJson {
    #[serde(rename = "$pii")]
    pii: SealedBody,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct SealedBody {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    subject: Option<Uuid>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    link: Option<Uuid>,
    kind: PiiKind,
    nonce: String,
    ct: String,
}

impl From<Sealed> for SealedJson {
    fn from(s: Sealed) -> Self {
        SealedJson {
            pii: SealedBody {
                subject: match s.key {
                    KeyRef::Subject(id) => Some(id),
                    KeyRef::Link(_) => None,
                },
                link: match s.key {
                    KeyRef::Link(id) => Some(id),
                    KeyRef::Subject(_) => None,
                },
                kind: s.kind,
                nonce: B64.encode(&s.nonce),
                ct: B64.encode(&s.ct),
            },
        }
    }
}

impl TryFrom<SealedJson> for Sealed {
    type Error = String;
    fn try_from(j: SealedJson) -> Result<Self, String> {
        let key = match (j.pii.subject, j.pii.link) {
            (Some(subject), None) => KeyRef::Subject(subject),
            (None, Some(link)) => KeyRef::Link(link),
            _ => return Err("a sealed field names exactly one subject or link".into()),
        };
        Ok(Sealed {
            key,
            kind: j.pii.kind,
            nonce: B64.decode(&j.pii.nonce).map_err(|e| format!("nonce: {e}"))?,
            ct: B64.decode(&j.pii.ct).map_err(|e| format!("ct: {e}"))?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_shape_round_trips() {
        let s =
            Sealed { key: KeyRef::Subject(Uuid::nil()), kind: PiiKind::CpfCnpj, nonce: vec![1, 2, 3], ct: vec![4, 5] };
        let v = s.to_value();
        assert_eq!(v, json!({"$pii": {"subject": Uuid::nil(), "kind": "cpf_cnpj", "nonce": "AQID", "ct": "BAU="}}));
        assert!(Sealed::is_sealed(&v));
        assert_eq!(Sealed::from_value(&v).unwrap(), s);
    }

    #[test]
    fn a_linked_field_names_its_link_and_no_subject() {
        let link = Uuid::from_u128(7);
        let s = Sealed { key: KeyRef::Link(link), kind: PiiKind::Phone, nonce: vec![1], ct: vec![2] };
        let v = s.to_value();
        assert_eq!(v, json!({"$pii": {"link": link, "kind": "phone", "nonce": "AQ==", "ct": "Ag=="}}));
        assert_eq!(Sealed::from_value(&v).unwrap(), s);
        let both = json!({"$pii": {"link": link, "subject": link, "kind": "phone", "nonce": "AQ==", "ct": "Ag=="}});
        assert!(Sealed::from_value(&both).is_err());
    }

    #[test]
    fn rejects_other_shapes() {
        assert!(!Sealed::is_sealed(&json!("11987654321")));
        assert!(!Sealed::is_sealed(&json!({"$pii": {}, "x": 1})));
        assert!(Sealed::from_value(&json!({"$pii": {"subject": "nope"}})).is_err());
        assert_eq!(Opened::Erased.into_value(), json!({"$erased": true}));
    }
}
