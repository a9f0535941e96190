//! The clear-value marker `decide` writes for personal data (`crate::flow::PiiField::clear`),
//! read the one way every sealing path (the append path, the bulk seeder) reads it.

use serde_json::Value;

use super::PiiKind;

/// Key of the object marking a clear value that must be sealed before it is stored.
pub const CLEAR_MARKER: &str = "$pii_clear";

/// The kind and clear text of a `{"$pii_clear": {kind, value}}` marker; `None` when `value` is
/// no marker, an error when it is a malformed one. The one reading of the marker every sealing
/// path (the append path, the bulk seeder) shares.
pub fn clear_marker(value: &Value) -> Result<Option<(PiiKind, &str)>, crate::StoreError> {
    let Some(marker) = value.as_object().and_then(|map| map.get(CLEAR_MARKER)) else { return Ok(None) };
    let kind: PiiKind = marker
        .get("kind")
        .and_then(Value::as_str)
        .ok_or_else(|| crate::StoreError::Crypto("personal-data marker without a kind".into()))?
        .parse()?;
    let clear = marker
        .get("value")
        .and_then(Value::as_str)
        .ok_or_else(|| crate::StoreError::Crypto("personal-data marker without a value".into()))?;
    Ok(Some((kind, clear)))
}
