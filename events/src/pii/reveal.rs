//! Opening sealed fields: one field, or every sealed field of a payload with one key query.

use serde_json::Value;

use super::crypto::{self, field_aad};
use super::vault::{Keyring, Vault};
use super::{KeyRef, Opened, PiiKind, Sealed};
use crate::error::StoreError;

impl Vault {
    /// Opens one sealed field (`{"$pii": ...}`): its clear text, or `Erased` when the
    /// subject was forgotten.
    pub async fn open(&self, sealed: &Value) -> Result<Opened, StoreError> {
        let sealed = Sealed::from_value(sealed)?;
        let keys = self.data_keys(&[sealed.key]).await?;
        open_with(&keys, &sealed)
    }

    /// Replaces, anywhere in `payload`, each sealed field by its clear text or by
    /// `{"$erased": true}`. One key query for the whole payload.
    pub async fn reveal_payload(&self, payload: &mut Value) -> Result<(), StoreError> {
        self.reveal_payload_where(payload, |_| true).await
    }

    /// [`Vault::reveal_payload`] for the sealed fields whose kind `wanted` accepts; the
    /// others stay sealed.
    pub async fn reveal_payload_where(
        &self,
        payload: &mut Value,
        wanted: impl Fn(PiiKind) -> bool + Copy,
    ) -> Result<(), StoreError> {
        self.reveal_payloads_where(std::iter::once(payload), wanted).await
    }

    /// [`Vault::reveal_payload_where`] over many payloads (an attempt's history) with one key
    /// query for them all: a page's view is one round trip, not one an event (issue 24).
    pub async fn reveal_payloads_where<'a>(
        &self,
        payloads: impl IntoIterator<Item = &'a mut Value>,
        wanted: impl Fn(PiiKind) -> bool + Copy,
    ) -> Result<(), StoreError> {
        let payloads: Vec<&mut Value> = payloads.into_iter().collect();
        let mut refs = Vec::new();
        for payload in &payloads {
            collect_refs(payload, &mut refs, wanted)?;
        }
        if refs.is_empty() {
            return Ok(());
        }
        refs.sort();
        refs.dedup();
        let keys = self.data_keys(&refs).await?;
        payloads.into_iter().try_for_each(|payload| replace_sealed(payload, &keys, wanted))
    }
}

fn open_with(keys: &Keyring, sealed: &Sealed) -> Result<Opened, StoreError> {
    let Some((subject, key)) = keys.get(&sealed.key) else {
        return Ok(Opened::Erased);
    };
    let clear = crypto::decrypt(key, &field_aad(*subject, sealed.kind), &sealed.nonce, &sealed.ct)?;
    String::from_utf8(clear).map(Opened::Clear).map_err(|_| StoreError::Crypto("sealed value is not UTF-8".into()))
}

fn collect_refs(
    value: &Value,
    out: &mut Vec<KeyRef>,
    wanted: impl Fn(PiiKind) -> bool + Copy,
) -> Result<(), StoreError> {
    if Sealed::is_sealed(value) {
        let sealed = Sealed::from_value(value)?;
        if wanted(sealed.kind) {
            out.push(sealed.key);
        }
        return Ok(());
    }
    match value {
        Value::Array(items) => items.iter().try_for_each(|v| collect_refs(v, out, wanted)),
        Value::Object(map) => map.values().try_for_each(|v| collect_refs(v, out, wanted)),
        _ => Ok(()),
    }
}

fn replace_sealed(
    value: &mut Value,
    keys: &Keyring,
    wanted: impl Fn(PiiKind) -> bool + Copy,
) -> Result<(), StoreError> {
    if Sealed::is_sealed(value) {
        let sealed = Sealed::from_value(value)?;
        if wanted(sealed.kind) {
            *value = open_with(keys, &sealed)?.into_value();
        }
        return Ok(());
    }
    match value {
        Value::Array(items) => items.iter_mut().try_for_each(|v| replace_sealed(v, keys, wanted)),
        Value::Object(map) => map.values_mut().try_for_each(|v| replace_sealed(v, keys, wanted)),
        _ => Ok(()),
    }
}
