//! Which personal data an attempt *proved*: the phones whose SMS code the attempt confirmed.
//! Pure: it reads the stream's events in order and names the sealed fields' keys, never a
//! clear value; the rule itself is `events::pii::proof`, which the funnel's people count uses too.
//!
//! A phone is proved in an attempt when the attempt's code was confirmed while that phone was
//! the one the code went to: the last phone a form carried before `code.validated` (activation,
//! cloud) or `code.confirmed` (download). A phone typed and then replaced ("Voltar" in the
//! cloud flow, "Tentar novamente" in the download) proved nothing, nor did a CPF/CNPJ or an
//! e-mail: anyone can type someone else's.

use std::collections::BTreeSet;

use events::pii::proof::Proof;
pub use events::pii::proof::CONFIRMED;
use events::pii::KeyRef;
use serde_json::Value;

/// The key references (links, or subjects in events older than links) of the phones the
/// attempt proved, given its events' `(type, payload)` in stream order.
pub fn proved_phones<'a>(events: impl IntoIterator<Item = (&'a str, &'a Value)>) -> BTreeSet<KeyRef> {
    let mut proof = Proof::default();
    for (event_type, payload) in events {
        proof.observe(event_type, payload);
    }
    proof.proved().clone()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use uuid::Uuid;

    fn sealed(kind: &str, link: Uuid) -> Value {
        json!({ "$pii": { "link": link, "kind": kind, "nonce": "AAAA", "ct": "AAAA" } })
    }

    fn proved(events: &[(&str, Value)]) -> BTreeSet<KeyRef> {
        proved_phones(events.iter().map(|(t, p)| (*t, p)))
    }

    #[test]
    fn a_phone_replaced_before_the_code_proves_nothing_and_the_confirmed_one_is_proved() {
        let (attacker, victim) = (Uuid::new_v4(), Uuid::new_v4());
        let events = [
            ("details.submitted", json!({ "phone": sealed("phone", attacker), "serial": "PSN-1" })),
            ("code.sent", json!({})),
            ("details.reopened", json!({})),
            ("details.submitted", json!({ "phone": sealed("phone", victim), "serial": "PSN-1" })),
            ("code.sent", json!({})),
        ];
        assert_eq!(proved(&events), BTreeSet::new());
        let mut confirmed = events.to_vec();
        confirmed.push(("code.validated", json!({})));
        assert_eq!(proved(&confirmed), BTreeSet::from([KeyRef::Link(victim)]));
    }

    #[test]
    fn a_download_restarted_with_another_phone_proves_each_phone_it_confirmed() {
        let (first, second) = (Uuid::new_v4(), Uuid::new_v4());
        let events = [
            ("phone.submitted", json!({ "phone": sealed("phone", first), "masked": "(11) *****-0001" })),
            ("code.confirmed", json!({})),
            ("attempt.restarted", json!({})),
            ("phone.submitted", json!({ "phone": sealed("phone", second), "masked": "(11) *****-0002" })),
            ("code.confirmed", json!({})),
        ];
        assert_eq!(proved(&events), BTreeSet::from([KeyRef::Link(first), KeyRef::Link(second)]));
    }

    #[test]
    fn a_document_or_an_e_mail_beside_the_phone_is_never_proved() {
        let (phone, document, email) = (Uuid::new_v4(), Uuid::new_v4(), Uuid::new_v4());
        let events = [
            ("phone.submitted", json!({ "phone": sealed("phone", phone), "document": sealed("cpf_cnpj", document) })),
            ("email.submitted", json!({ "phone": sealed("phone", phone), "email": sealed("email", email) })),
            ("code.validated", json!({})),
        ];
        assert_eq!(proved(&events), BTreeSet::from([KeyRef::Link(phone)]));
    }

    #[test]
    fn a_code_rejected_proves_nothing() {
        let phone = Uuid::new_v4();
        let events = [
            ("phone.submitted", json!({ "phone": sealed("phone", phone) })),
            ("code.submitted", json!({ "pincode": { "$secret": "s-1" } })),
            ("code.rejected", json!({ "reason": "invalid" })),
        ];
        assert_eq!(proved(&events), BTreeSet::new());
    }
}
