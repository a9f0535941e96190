//! What happened in an activation attempt. Personal data is a [`PiiField`] (sealed when
//! stored, `null` in the browser) next to a masked, non-personal display; upstream tokens
//! are never here (they live in the attempt's secrets).

use crate::flow::SecretField;
use serde::{Deserialize, Serialize};

use super::validation::DocumentKind;
use super::variant::{Brand, Variant};
use crate::flow::PiiField;

/// The products a carrier plan grants (spec section 4, "Products flags").
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Products {
    pub seguranca: bool,
    pub cloud: bool,
    pub gestao: bool,
}

impl Products {
    /// `PAR` or `EXAGES` give gestao, `FS` gives seguranca, `CL` gives cloud.
    pub fn from_item_names<'a>(names: impl IntoIterator<Item = &'a str>) -> Self {
        names.into_iter().fold(Self::default(), |mut products, name| {
            match name.trim() {
                "PAR" | "EXAGES" => products.gestao = true,
                "FS" => products.seguranca = true,
                "CL" => products.cloud = true,
                _ => {}
            }
            products
        })
    }

    /// Granted products in display order: security, cloud, digital management.
    pub fn granted(&self) -> Vec<&'static str> {
        [(self.seguranca, "seguranca"), (self.cloud, "cloud"), (self.gestao, "gestao")]
            .into_iter()
            .filter_map(|(on, name)| on.then_some(name))
            .collect()
    }

    pub fn any(&self) -> bool {
        self.seguranca || self.cloud || self.gestao
    }
}

/// Why a code was refused, from the validate call's status (spec section 8).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CodeRefusal {
    /// 403: invalid or expired.
    Expired,
    /// 406: too many wrong codes.
    Locked,
    /// Any other answer.
    Wrong,
}

/// Where the visitor is sent after the 3 s wait.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Platform {
    Ios,
    Android,
    Desktop,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Started {
    pub variant: Variant,
    pub brand: Brand,
    /// From `?licenca=`, or `None`. Sealed under the attempt's own key (no phone is typed yet);
    /// a plain string in events written before issue 26.
    pub licence: Option<PiiField>,
    /// The licence field is disabled (`?licenca=` given, or the partner portal).
    pub licence_locked: bool,
    /// The broadband partner's `?code=` (a single-use OAuth authorization code).
    /// Kept in the attempt's secrets, never in the event (see `SecretField`).
    pub partner_code: Option<SecretField>,
    /// The OAuth `state` that came back with the code, checked by the look-up step against
    /// the one the portal issued. A secret like the code (absent from older events).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub partner_state: Option<SecretField>,
    /// Where the partner OAuth provider sends the visitor back (broadband partner).
    #[serde(default)]
    pub return_url: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PhoneSubmitted {
    pub phone: PiiField,
    pub phone_display: String,
    /// Typed: sealed under the key of `phone`; locked: the start's sealed licence, carried.
    pub licence: Option<PiiField>,
    pub document: Option<PiiField>,
    pub document_kind: Option<DocumentKind>,
    pub document_display: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EmailSubmitted {
    pub phone: PiiField,
    pub phone_display: String,
    pub email: PiiField,
    pub email_display: String,
}

/// An upstream answered something the flow has no specific branch for.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StepFailed {
    pub step: String,
    /// The upstream's HTTP status; `None` when there was no answer.
    pub status: Option<u16>,
}

/// An upstream's refusal with its status, for support.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Refused {
    pub status: Option<u16>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", content = "data")]
pub enum ActivationEvent {
    #[serde(rename = "attempt.started")]
    Started(Started),
    /// The partner OAuth authorization URL for the partner-login button.
    #[serde(rename = "partner.login_prepared")]
    PartnerLoginPrepared { authorize_url: String },
    /// The broadband partner knows the customer. Their id stays server-side, sealed in the
    /// attempt's secrets (issue 17): neither the event nor the browser gets it.
    #[serde(rename = "customer.found")]
    CustomerFound {},
    #[serde(rename = "customer.not_found")]
    CustomerNotFound(Refused),
    #[serde(rename = "phone.submitted")]
    PhoneSubmitted(PhoneSubmitted),
    #[serde(rename = "email.submitted")]
    EmailSubmitted(EmailSubmitted),
    /// The telecom partner accepted the e-mail. The customer id stays server-side, sealed in
    /// the attempt's secrets (issue 17): an arbitrary e-mail tells a prober nothing more.
    #[serde(rename = "partner.logged_in")]
    PartnerLoggedIn {},
    #[serde(rename = "partner.login_refused")]
    PartnerLoginRefused(Refused),
    /// The telecom partner's plan id (`hash_agility_plan`).
    #[serde(rename = "partner.plan_found")]
    PartnerPlanFound { plan_id: String },
    #[serde(rename = "carrier.token_obtained")]
    CarrierTokenObtained {},
    #[serde(rename = "document.authorized")]
    DocumentAuthorized { kind: DocumentKind },
    #[serde(rename = "document.refused")]
    DocumentRefused(Refused),
    #[serde(rename = "code.sent")]
    CodeSent { resend: bool },
    #[serde(rename = "code.send_failed")]
    CodeSendFailed(Refused),
    #[serde(rename = "code.resend_requested")]
    CodeResendRequested {},
    /// The visitor's 6-digit code (single use, valid 15 minutes), for the validate step.
    #[serde(rename = "code.submitted")]
    CodeSubmitted { pincode: SecretField },
    #[serde(rename = "code.validated")]
    CodeValidated {},
    #[serde(rename = "code.rejected")]
    CodeRejected { reason: CodeRefusal, status: Option<u16> },
    #[serde(rename = "authorization.granted")]
    AuthorizationGranted {},
    #[serde(rename = "authorization.refused")]
    AuthorizationRefused(Refused),
    #[serde(rename = "identity.verified")]
    IdentityVerified {},
    #[serde(rename = "packs.fetched")]
    PacksFetched { items: Vec<String>, products: Products },
    #[serde(rename = "subscription.created")]
    Subscribed {},
    #[serde(rename = "serial.not_found")]
    SerialNotFound(Refused),
    #[serde(rename = "step.failed")]
    StepFailed(StepFailed),
    /// Appended by the runner after repeated transient failures of a step.
    #[serde(rename = "step.gave_up")]
    StepGaveUp {
        step: String,
        #[serde(default)]
        reason: String,
    },
    #[serde(rename = "store.redirected")]
    StoreRedirected { platform: Platform },
    #[serde(rename = "product.chosen")]
    ProductChosen { product: String, platform: Platform },
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn product_flags_from_pack_items() {
        let products = Products::from_item_names(["FS", "CL", "EXAGES", "XYZ"]);
        assert_eq!(products, Products { seguranca: true, cloud: true, gestao: true });
        assert_eq!(Products::from_item_names(["PAR"]).granted(), vec!["gestao"]);
        assert!(!Products::from_item_names(["XYZ"]).any());
    }

    #[test]
    fn events_are_tagged_with_their_type() {
        let value = serde_json::to_value(ActivationEvent::CodeSent { resend: false }).unwrap();
        assert_eq!(value, json!({"type": "code.sent", "data": {"resend": false}}));
        let value = serde_json::to_value(ActivationEvent::CodeValidated {}).unwrap();
        assert_eq!(value, json!({"type": "code.validated", "data": {}}));
    }
}
