//! Which phones an attempt *proved*: those whose SMS code it confirmed. Pure, folded event by
//! event; it names the sealed fields' keys, never a clear value. Erasure follows only what a
//! person proved (orchestrator `support::erase::proof`), and the funnel counts people by the
//! phone an attempt proved (`funnel::track`): one rule for both.
//!
//! A phone is proved when the attempt's code was confirmed while that phone was the one the code
//! went to: the last phone a form carried before `code.validated` (activation, cloud) or
//! `code.confirmed` (download). A phone typed and then replaced proved nothing, nor did a
//! CPF/CNPJ or an e-mail: anyone can type someone else's.

use std::collections::BTreeSet;

use serde_json::Value;

use super::{KeyRef, PiiKind, Sealed};

/// The event types that say the code sent to the attempt's phone was confirmed.
pub const CONFIRMED: [&str; 2] = ["code.validated", "code.confirmed"];

/// The phones proved so far, fed the attempt's events in stream order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Proof {
    current: Option<KeyRef>,
    proved: BTreeSet<KeyRef>,
    last: Option<KeyRef>,
}

impl Proof {
    pub fn observe(&mut self, event_type: &str, payload: &Value) {
        if let Some(phone) = last_phone(payload) {
            self.current = Some(phone);
        }
        if CONFIRMED.contains(&event_type) {
            if let Some(phone) = self.current {
                self.proved.insert(phone);
                self.last = Some(phone);
            }
        }
    }

    /// Every phone proved.
    pub fn proved(&self) -> &BTreeSet<KeyRef> {
        &self.proved
    }

    /// The phone proved last (a download restarted with another phone proves both).
    pub fn last_proved(&self) -> Option<KeyRef> {
        self.last
    }
}

/// The key of the last sealed phone field in `payload` (depth first, in document order).
pub fn last_phone(payload: &Value) -> Option<KeyRef> {
    if Sealed::is_sealed(payload) {
        return Sealed::from_value(payload).ok().filter(|s| s.kind == PiiKind::Phone).map(|s| s.key);
    }
    match payload {
        Value::Object(map) => map.values().rev().find_map(last_phone),
        Value::Array(items) => items.iter().rev().find_map(last_phone),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use uuid::Uuid;

    fn sealed(kind: &str, link: Uuid) -> Value {
        json!({ "$pii": { "link": link, "kind": kind, "nonce": "AAAA", "ct": "AAAA" } })
    }

    #[test]
    fn the_last_proved_phone_is_the_one_confirmed_last() {
        let (first, second) = (Uuid::new_v4(), Uuid::new_v4());
        let mut proof = Proof::default();
        proof.observe("phone.submitted", &json!({ "phone": sealed("phone", first) }));
        assert_eq!(proof.last_proved(), None, "typed, not proved");
        proof.observe("code.confirmed", &json!({}));
        proof.observe("phone.submitted", &json!({ "phone": sealed("phone", second), "e": sealed("email", first) }));
        assert_eq!(proof.last_proved(), Some(KeyRef::Link(first)));
        proof.observe("code.confirmed", &json!({}));
        assert_eq!(proof.last_proved(), Some(KeyRef::Link(second)));
        assert_eq!(proof.proved().len(), 2);
    }
}
