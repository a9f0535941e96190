//! Personal data (phone, CPF/CNPJ, e-mail) never goes into an event payload in clear.
//!
//! Each person ("subject") has a random data key, stored wrapped with the master key
//! (KEK) in `pii_subjects`. Payload fields hold a [`Sealed`] value (ciphertext under the
//! subject's key); a keyed HMAC of the normalized value finds the subject again
//! (`pii_lookup`), and `pii_stream_links` lists the streams that mention them.
//! [`Vault::forget`] deletes the key: every sealed field of that person, in the whole
//! history, then reads as erased (crypto-shredding) while the events themselves remain.

mod bound;
pub mod bulk;
mod crypto;
mod keys;
mod marker;
mod opened;
mod own;
mod person;
pub mod proof;
mod reveal;
mod sealed;
mod secret_box;
mod signing;
mod tagged;
mod vault;

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::error::StoreError;

pub use keys::Keys;
pub use marker::{clear_marker, CLEAR_MARKER};
pub use own::seal_with;
pub use sealed::{KeyRef, Opened, Sealed, ERASED_MARKER, SEALED_MARKER};
pub use secret_box::SecretBox;
pub use signing::{SigningKey, SHORTEST_TAG};
pub use vault::{StreamLink, Vault};

/// The kinds of personal data the portal handles.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PiiKind {
    Phone,
    CpfCnpj,
    Email,
    /// A staff member's sign-in e-mail: looked up in a namespace of its own (issue 26), so a
    /// visitor who types the same address makes a visitor subject apart from the staff one,
    /// and no visitor's erasure or look-up ever reaches a staff account.
    StaffEmail,
    /// A device's name as the visitor gave it to an upstream ("Notebook da Ana"): sealed
    /// under a key of the attempt itself, never looked up.
    DeviceName,
    /// A staff member's free-text reason for revealing a field, sealed beside that field
    /// (under the same person's key) so that it is erased with them; never looked up.
    StaffReason,
    /// A partner's id for its customer (the telecom and broadband partners): sealed under a
    /// key of the attempt, kept in its secrets, never in an event nor shown to anyone.
    PartnerCustomer,
    /// A support agent's note on an attempt (issue 27): sealed under a key of the attempt,
    /// never looked up nor shown to the visitor, forgotten with the people of the attempt.
    SupportNote,
    /// An activation licence code (typed, or from `?licenca=`; issue 26): sealed under the
    /// attempt's own key, found again through a keyed tag per attempt ([`PiiKind::is_tagged`]),
    /// shown in clear to the attempt's visitor.
    Licence,
    /// A cloud camera's serial number (issue 26): sealed and found as a licence is.
    Serial,
}

impl PiiKind {
    pub fn as_str(self) -> &'static str {
        match self {
            PiiKind::Phone => "phone",
            PiiKind::CpfCnpj => "cpf_cnpj",
            PiiKind::Email => "email",
            PiiKind::StaffEmail => "staff_email",
            PiiKind::StaffReason => "staff_reason",
            PiiKind::DeviceName => "device_name",
            PiiKind::PartnerCustomer => "partner_customer",
            PiiKind::SupportNote => "support_note",
            PiiKind::Licence => "licence",
            PiiKind::Serial => "serial",
        }
    }

    /// Whether a value of this kind identifies a person across attempts (and so gets a keyed
    /// look-up). Other kinds are sealed under a key of the one attempt that holds them.
    pub fn is_looked_up(self) -> bool {
        !matches!(
            self,
            PiiKind::DeviceName
                | PiiKind::PartnerCustomer
                | PiiKind::SupportNote
                | PiiKind::StaffReason
                | PiiKind::Licence
                | PiiKind::Serial
        )
    }

    /// Whether a value of this kind is sealed under the attempt's own key (so an erasure that
    /// reaches the attempt shreds it, whichever phone was typed beside it) and tagged per attempt
    /// with a keyed hash, so support still finds the attempts by it while that key exists:
    /// licences and serials. A code is no person (a device is sold, a licence is shared), so it
    /// gets no subject of its own.
    pub fn is_tagged(self) -> bool {
        matches!(self, PiiKind::Licence | PiiKind::Serial)
    }

    /// Whether the attempt's own visitor is shown the clear value (their device names are how
    /// they choose one to disconnect); other kinds reach the browser only masked.
    pub fn shown_to_owner(self) -> bool {
        matches!(self, PiiKind::DeviceName | PiiKind::Licence | PiiKind::Serial)
    }

    /// Canonical form used for look-ups, so `(11) 98765-4321` and `11987654321` are
    /// the same person: digits only for phones and CPF/CNPJ, trimmed lowercase e-mail.
    pub fn normalize(self, value: &str) -> String {
        match self {
            PiiKind::Phone => value.chars().filter(|c| c.is_ascii_digit()).collect(),
            // The alphanumeric CNPJ (from July 2026) keeps its letters.
            PiiKind::CpfCnpj => {
                value.chars().filter(char::is_ascii_alphanumeric).map(|c| c.to_ascii_uppercase()).collect()
            }
            PiiKind::Email | PiiKind::StaffEmail => value.trim().to_lowercase(),
            PiiKind::DeviceName | PiiKind::PartnerCustomer | PiiKind::SupportNote | PiiKind::StaffReason => {
                value.trim().to_string()
            }
            // As the flows tidy a typed code (`flow::typed_code`): no whitespace anywhere.
            PiiKind::Licence | PiiKind::Serial => value.chars().filter(|c| !c.is_whitespace()).collect(),
        }
    }
}

impl fmt::Display for PiiKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for PiiKind {
    type Err = StoreError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "phone" => Ok(PiiKind::Phone),
            "cpf_cnpj" => Ok(PiiKind::CpfCnpj),
            "email" => Ok(PiiKind::Email),
            "staff_email" => Ok(PiiKind::StaffEmail),
            "staff_reason" => Ok(PiiKind::StaffReason),
            "device_name" => Ok(PiiKind::DeviceName),
            "partner_customer" => Ok(PiiKind::PartnerCustomer),
            "support_note" => Ok(PiiKind::SupportNote),
            "licence" => Ok(PiiKind::Licence),
            "serial" => Ok(PiiKind::Serial),
            other => Err(StoreError::Crypto(format!("unknown personal-data kind {other:?}"))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalizes_per_kind() {
        assert_eq!(PiiKind::Phone.normalize("(11) 98765-4321"), "11987654321");
        assert_eq!(PiiKind::CpfCnpj.normalize("123.456.789-09"), "12345678909");
        assert_eq!(PiiKind::CpfCnpj.normalize("12.abc.345/01DE-35"), "12ABC34501DE35");
        assert_eq!(PiiKind::Email.normalize("  Ana@Exemplo.COM "), "ana@exemplo.com");
        assert_eq!(PiiKind::StaffEmail.normalize("  Ana@Exemplo.COM "), "ana@exemplo.com");
        assert_eq!(PiiKind::Serial.normalize(" PSN 0001\t"), "PSN0001");
        assert_eq!(PiiKind::Licence.normalize("EXA-2026 abcd"), "EXA-2026abcd");
    }

    #[test]
    fn kind_names_round_trip() {
        for k in [
            PiiKind::Phone,
            PiiKind::CpfCnpj,
            PiiKind::Email,
            PiiKind::StaffEmail,
            PiiKind::StaffReason,
            PiiKind::DeviceName,
            PiiKind::PartnerCustomer,
            PiiKind::SupportNote,
            PiiKind::Licence,
            PiiKind::Serial,
        ] {
            assert_eq!(k.as_str().parse::<PiiKind>().unwrap(), k);
            assert_eq!(serde_json::to_value(k).unwrap(), serde_json::json!(k.as_str()));
        }
        assert!("cpf".parse::<PiiKind>().is_err());
    }
}
