//! Sealing many attempts' personal data in memory, for bulk loads (`replay seed`): the same
//! keys, key wrapping, look-up hashes, stream links and field encryption as [`super::Vault`]
//! and the orchestrator's append path, returning the rows to COPY into `pii_subjects`,
//! `pii_lookup`, `pii_stream_links` and `pii_value_tags` instead of making round trips per field.

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use serde_json::Value;
use uuid::Uuid;

use super::clear_marker;
use super::crypto::{self, field_aad, lookup_hmac};
use super::{KeyRef, Keys, PiiKind, Sealed};
use crate::error::StoreError;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SubjectRow {
    pub subject_id: Uuid,
    pub wrapped_key: Vec<u8>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LookupRow {
    pub kind: PiiKind,
    pub hmac: Vec<u8>,
    pub subject_id: Uuid,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LinkRow {
    pub subject_id: Uuid,
    pub stream_id: String,
    pub link_id: Uuid,
    pub linked_at: DateTime<Utc>,
}

/// A licence's or serial's keyed tag on the link whose key sealed it (`pii_value_tags`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TagRow {
    pub kind: PiiKind,
    pub hmac: Vec<u8>,
    pub link_id: Uuid,
}

/// The rows a batch of sealing created, to write before (or with) its events.
#[derive(Debug, Default)]
pub struct BulkRows {
    pub subjects: Vec<SubjectRow>,
    pub lookups: Vec<LookupRow>,
    pub links: Vec<LinkRow>,
    pub tags: Vec<TagRow>,
}

pub struct BulkSealer {
    keys: Keys,
    /// Everyone seen so far, by look-up hash: their subject and data key.
    people: HashMap<(PiiKind, Vec<u8>), (Uuid, [u8; 32])>,
    /// The current stream: its id, its links by subject and its own subject (device names).
    stream: String,
    links: HashMap<Uuid, Uuid>,
    own: Option<(Uuid, [u8; 32])>,
    /// The current stream's tags already written (a licence carried into a later event is
    /// tagged once: the table's key is the triple).
    tagged: std::collections::HashSet<(PiiKind, Vec<u8>, Uuid)>,
    rows: BulkRows,
}

impl BulkSealer {
    pub fn new(keys: Keys) -> Self {
        Self {
            keys,
            people: HashMap::new(),
            stream: String::new(),
            links: HashMap::new(),
            own: None,
            tagged: std::collections::HashSet::new(),
            rows: BulkRows::default(),
        }
    }

    /// Starts sealing the events of another stream.
    pub fn begin_stream(&mut self, stream: &str) {
        self.stream = stream.to_string();
        self.links.clear();
        self.own = None;
        self.tagged.clear();
    }

    /// How many people (looked-up subjects) were seen.
    pub fn people(&self) -> usize {
        self.people.len()
    }

    /// The look-up hashes of the people `payload` names that this sealer has not met yet: to
    /// find in the database (a history seeded before) and hand back with [`Self::remember`].
    pub fn unknown_lookups(&self, payload: &Value, out: &mut Vec<(PiiKind, Vec<u8>)>) -> Result<(), StoreError> {
        if let Some((kind, clear)) = clear_marker(payload)? {
            if kind.is_looked_up() {
                let mac = lookup_hmac(&self.keys.hmac, kind, &kind.normalize(clear));
                if !self.people.contains_key(&(kind, mac.clone())) {
                    out.push((kind, mac));
                }
            }
            return Ok(());
        }
        match payload {
            Value::Object(map) => map.values().try_for_each(|v| self.unknown_lookups(v, out)),
            Value::Array(items) => items.iter().try_for_each(|v| self.unknown_lookups(v, out)),
            _ => Ok(()),
        }
    }

    /// A person already in the database: their subject and wrapped key, so their new fields
    /// are sealed under it instead of a second subject.
    pub fn remember(
        &mut self,
        kind: PiiKind,
        hmac: Vec<u8>,
        subject: Uuid,
        wrapped_key: &[u8],
    ) -> Result<(), StoreError> {
        let key = crypto::unwrap_key_any(&self.keys, subject, wrapped_key)?;
        self.people.insert((kind, hmac), (subject, key));
        Ok(())
    }

    /// Replaces every `{"$pii_clear": ...}` marker in `payload` by its sealed value, as the
    /// orchestrator's append path does, recording new subjects, look-ups, links and tags:
    /// licences and serials under the stream's own key.
    pub fn seal_markers(&mut self, payload: &mut Value, at: DateTime<Utc>) -> Result<(), StoreError> {
        if let Some((kind, clear)) = clear_marker(payload)? {
            let clear = clear.to_string();
            *payload = self.seal(kind, &clear, at)?.to_value();
            return Ok(());
        }
        match payload {
            Value::Object(map) => map.values_mut().try_for_each(|v| self.seal_markers(v, at)),
            Value::Array(items) => items.iter_mut().try_for_each(|v| self.seal_markers(v, at)),
            _ => Ok(()),
        }
    }

    fn seal(&mut self, kind: PiiKind, clear: &str, at: DateTime<Utc>) -> Result<Sealed, StoreError> {
        let normalized = kind.normalize(clear);
        let (subject, key) = if kind.is_looked_up() {
            let mac = lookup_hmac(&self.keys.hmac, kind, &normalized);
            match self.people.get(&(kind, mac.clone())) {
                Some(known) => *known,
                None => {
                    let person = self.new_subject()?;
                    self.rows.lookups.push(LookupRow { kind, hmac: mac.clone(), subject_id: person.0 });
                    self.people.insert((kind, mac), person);
                    person
                }
            }
        } else {
            match self.own {
                Some(own) => own,
                None => {
                    let own = self.new_subject()?;
                    self.own = Some(own);
                    own
                }
            }
        };
        let link_id = match self.links.get(&subject) {
            Some(link) => *link,
            None => {
                let link = Uuid::new_v4();
                self.links.insert(subject, link);
                self.rows.links.push(LinkRow {
                    subject_id: subject,
                    stream_id: self.stream.clone(),
                    link_id: link,
                    linked_at: at,
                });
                link
            }
        };
        if kind.is_tagged() {
            let hmac = lookup_hmac(&self.keys.hmac, kind, &normalized);
            if self.tagged.insert((kind, hmac.clone(), link_id)) {
                self.rows.tags.push(TagRow { kind, hmac, link_id });
            }
        }
        let (nonce, ct) = crypto::encrypt(&key, &field_aad(subject, kind), normalized.as_bytes())?;
        Ok(Sealed { key: KeyRef::Link(link_id), kind, nonce: nonce.to_vec(), ct })
    }

    fn new_subject(&mut self) -> Result<(Uuid, [u8; 32]), StoreError> {
        let subject = Uuid::new_v4();
        let key = crypto::random_key();
        let wrapped_key = crypto::wrap_key(&self.keys.kek, subject, &key)?;
        self.rows.subjects.push(SubjectRow { subject_id: subject, wrapped_key });
        Ok((subject, key))
    }

    /// The rows created since the last call.
    pub fn take_rows(&mut self) -> BulkRows {
        std::mem::take(&mut self.rows)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn one_person_across_streams_gets_one_subject_and_a_link_per_stream() {
        let mut sealer = BulkSealer::new(Keys::insecure_dev());
        let at = Utc::now();
        let marker = || json!({ "phone": { "$pii_clear": { "kind": "phone", "value": "(11) 91000-0001" } } });
        let mut sealed = Vec::new();
        for stream in ["download-a", "cloud-b"] {
            sealer.begin_stream(stream);
            let mut payload = marker();
            sealer.seal_markers(&mut payload, at).expect("seals");
            assert!(Sealed::is_sealed(&payload["phone"]));
            sealed.push(payload["phone"]["$pii"]["link"].clone());
        }
        assert_ne!(sealed[0], sealed[1]);
        let rows = sealer.take_rows();
        assert_eq!((rows.subjects.len(), rows.lookups.len(), rows.links.len()), (1, 1, 2));
        assert_eq!(rows.lookups[0].hmac, lookup_hmac(&Keys::insecure_dev().hmac, PiiKind::Phone, "11910000001"));
    }

    #[test]
    fn a_serial_is_sealed_under_the_attempts_own_key_and_tagged_once_on_its_link() {
        let mut sealer = BulkSealer::new(Keys::insecure_dev());
        sealer.begin_stream("cloud-a");
        let mut payload = json!({
            "serial": { "$pii_clear": { "kind": "serial", "value": "PSN-1" } },
            "phone": { "$pii_clear": { "kind": "phone", "value": "5511910000001" } }
        });
        sealer.seal_markers(&mut payload, Utc::now()).expect("seals");
        // The same serial in a later event of the stream: tagged once.
        let mut again = json!({ "serial": { "$pii_clear": { "kind": "serial", "value": "PSN-1" } } });
        sealer.seal_markers(&mut again, Utc::now()).expect("seals");
        assert_ne!(payload["serial"]["$pii"]["link"], payload["phone"]["$pii"]["link"]);
        assert_eq!(payload["serial"]["$pii"]["link"], again["serial"]["$pii"]["link"]);
        let rows = sealer.take_rows();
        assert_eq!((rows.subjects.len(), rows.lookups.len(), rows.links.len()), (2, 1, 2));
        let own = rows
            .links
            .iter()
            .find(|l| Some(l.link_id.to_string()) == payload["serial"]["$pii"]["link"].as_str().map(str::to_string));
        assert_eq!(
            rows.tags,
            vec![TagRow {
                kind: PiiKind::Serial,
                hmac: lookup_hmac(&Keys::insecure_dev().hmac, PiiKind::Serial, "PSN-1"),
                link_id: own.expect("the serial's link").link_id
            }]
        );
    }
}
