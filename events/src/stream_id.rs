//! Stream names: `<flow>-<uuid>`, e.g. `activation-7c9e6679-7425-40de-944b-e07fc1f90ae7`.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use uuid::Uuid;

use crate::error::StoreError;

/// Longest accepted flow name; keeps ids readable and indexes small.
const MAX_FLOW_LEN: usize = 32;

/// A parsed, canonical stream id. The uuid is always lowercase hyphenated, so one
/// stream has exactly one spelling.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct StreamId {
    value: String,
    flow_len: usize,
}

impl StreamId {
    /// A fresh stream of `flow` with a random (v4) uuid.
    pub fn new(flow: &str) -> Result<Self, StoreError> {
        Self::from_parts(flow, Uuid::new_v4())
    }

    /// The stream of `flow` with a given uuid.
    pub fn from_parts(flow: &str, id: Uuid) -> Result<Self, StoreError> {
        if !valid_flow(flow) {
            return Err(StoreError::InvalidStreamId(format!("{flow}-{id}")));
        }
        Ok(Self { value: format!("{flow}-{}", id.hyphenated()), flow_len: flow.len() })
    }

    /// Parses `<flow>-<uuid>`; the uuid must be in lowercase hyphenated form.
    pub fn parse(s: &str) -> Result<Self, StoreError> {
        let invalid = || StoreError::InvalidStreamId(s.to_owned());
        let (flow, rest) = s.split_once('-').ok_or_else(invalid)?;
        if !valid_flow(flow) {
            return Err(invalid());
        }
        let id = Uuid::try_parse(rest).map_err(|_| invalid())?;
        // Reject other spellings (uppercase, simple, braced) so equality is textual.
        if id.hyphenated().to_string() != rest {
            return Err(invalid());
        }
        Ok(Self { value: s.to_owned(), flow_len: flow.len() })
    }

    /// The flow part (`activation`, `download`, `cloud`, ...), used for category reads.
    pub fn category(&self) -> &str {
        &self.value[..self.flow_len]
    }

    /// The uuid part.
    pub fn id(&self) -> Uuid {
        // Parsed and validated on construction.
        Uuid::try_parse(&self.value[self.flow_len + 1..]).unwrap_or_default()
    }

    pub fn as_str(&self) -> &str {
        &self.value
    }
}

fn valid_flow(flow: &str) -> bool {
    !flow.is_empty() && flow.len() <= MAX_FLOW_LEN && flow.bytes().all(|b| b.is_ascii_lowercase())
}

impl fmt::Display for StreamId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.value)
    }
}

impl fmt::Debug for StreamId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "StreamId({})", self.value)
    }
}

impl FromStr for StreamId {
    type Err = StoreError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::parse(s)
    }
}

impl AsRef<str> for StreamId {
    fn as_ref(&self) -> &str {
        &self.value
    }
}

impl Serialize for StreamId {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.value)
    }
}

impl<'de> Deserialize<'de> for StreamId {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let s = String::deserialize(deserializer)?;
        Self::parse(&s).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ID: &str = "7c9e6679-7425-40de-944b-e07fc1f90ae7";

    #[test]
    fn parses_flow_and_uuid() {
        let s = StreamId::parse(&format!("activation-{ID}")).expect("a valid id");
        assert_eq!(s.category(), "activation");
        assert_eq!(s.id().to_string(), ID);
        assert_eq!(s.to_string(), format!("activation-{ID}"));
        assert_eq!(s.as_str(), format!("activation-{ID}"));
    }

    #[test]
    fn new_makes_a_parsable_v4_id() {
        let s = StreamId::new("cloud").expect("a known category");
        assert_eq!(s.category(), "cloud");
        assert_eq!(s.id().get_version_num(), 4);
        assert_eq!(StreamId::parse(s.as_str()).expect("its own text parses"), s);
        assert_ne!(StreamId::new("cloud").expect("a known category"), s);
    }

    #[test]
    fn rejects_bad_flows() {
        for flow in ["", "Activation", "act1vation", "down_load", "ação", &"a".repeat(33)] {
            assert!(StreamId::new(flow).is_err(), "{flow:?} accepted");
            assert!(
                matches!(StreamId::parse(&format!("{flow}-{ID}")), Err(StoreError::InvalidStreamId(_))),
                "{flow:?} parsed"
            );
        }
    }

    #[test]
    fn rejects_bad_or_non_canonical_uuids() {
        for s in [
            "activation".to_owned(),
            "activation-".to_owned(),
            format!("activation-{}", ID.to_uppercase()),
            format!("activation-{}", ID.replace('-', "")),
            format!("activation-{{{ID}}}"),
            format!("activation-{ID}x"),
            format!("-{ID}"),
            "activation-not-a-uuid".to_owned(),
        ] {
            assert!(StreamId::parse(&s).is_err(), "{s:?} parsed");
        }
    }

    #[test]
    fn serde_is_a_plain_string() {
        let s = StreamId::parse(&format!("download-{ID}")).expect("a valid id");
        let json = serde_json::to_string(&s).expect("serialises");
        assert_eq!(json, format!("\"download-{ID}\""));
        assert_eq!(serde_json::from_str::<StreamId>(&json).expect("deserialises"), s);
        assert!(serde_json::from_str::<StreamId>("\"Download-x\"").is_err());
    }
}
