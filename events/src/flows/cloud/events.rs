//! What happens in a cloud activation attempt. Upstream tokens (`fs_custom_token`,
//! `custom_token`, `id_token`) are never here: the runner keeps them in the attempt's secrets.

use crate::flow::SecretField;
use serde::{Deserialize, Serialize};

use crate::flow::PiiField;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", content = "data")]
pub enum CloudEvent {
    /// Form 1 sent (first time or again after 'back'): the phone check is due.
    #[serde(rename = "details.submitted")]
    DetailsSubmitted {
        /// `55` plus the 11 digits; sealed before it is stored.
        phone: PiiField,
        /// `(11) *****-0001`, not personal data.
        phone_masked: String,
        /// The camera's serial, sealed under the phone's key (issue 26); a plain string in
        /// events written before.
        serial: PiiField,
    },
    #[serde(rename = "phone.checked")]
    PhoneChecked {},
    #[serde(rename = "phone.refused")]
    PhoneRefused { message: String },
    /// The upstream's transaction id goes to the attempt's secrets (issue 16), not here: it
    /// would reach the browser. Events recorded before that still carry it.
    #[serde(rename = "code.sent")]
    CodeSent {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        transaction_id: Option<String>,
    },
    #[serde(rename = "code.send_failed")]
    CodeSendFailed { message: String },
    #[serde(rename = "code.resend_requested")]
    ResendRequested {},
    /// As `code.sent`: the new transaction id is in the attempt's secrets.
    #[serde(rename = "code.resent")]
    CodeResent {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        transaction_id: Option<String>,
    },
    #[serde(rename = "code.resend_failed")]
    ResendFailed { message: String },
    /// The visitor went back from the code form to form 1.
    #[serde(rename = "details.reopened")]
    DetailsReopened {},
    /// The typed code, kept so the runner can validate it; single use, valid 5 minutes,
    /// never shown in a view.
    #[serde(rename = "code.submitted")]
    CodeSubmitted { pincode: SecretField },
    #[serde(rename = "code.validated")]
    CodeValidated {},
    #[serde(rename = "code.rejected")]
    CodeRejected { message: String },
    #[serde(rename = "serial.registered")]
    SerialRegistered {},
    #[serde(rename = "serial.rejected")]
    SerialRejected { message: String },
    #[serde(rename = "custom_token.obtained")]
    CustomTokenObtained {},
    #[serde(rename = "custom_token.failed")]
    CustomTokenFailed { message: String },
    #[serde(rename = "account.signed_in")]
    SignedIn {},
    #[serde(rename = "sign_in.failed")]
    SignInFailed { message: String },
    /// The cloud account is active: the success modal shows, then `/cliente/hero`.
    #[serde(rename = "cloud.activated")]
    Activated {},
    /// Appended by the runner after repeated transient failures of `step`.
    #[serde(rename = "step.gave_up")]
    StepGaveUp {
        step: String,
        #[serde(default)]
        reason: String,
    },
}

impl CloudEvent {
    /// The stored `event_type`.
    pub fn type_name(&self) -> &'static str {
        match self {
            Self::DetailsSubmitted { .. } => "details.submitted",
            Self::PhoneChecked {} => "phone.checked",
            Self::PhoneRefused { .. } => "phone.refused",
            Self::CodeSent { .. } => "code.sent",
            Self::CodeSendFailed { .. } => "code.send_failed",
            Self::ResendRequested {} => "code.resend_requested",
            Self::CodeResent { .. } => "code.resent",
            Self::ResendFailed { .. } => "code.resend_failed",
            Self::DetailsReopened {} => "details.reopened",
            Self::CodeSubmitted { .. } => "code.submitted",
            Self::CodeValidated {} => "code.validated",
            Self::CodeRejected { .. } => "code.rejected",
            Self::SerialRegistered {} => "serial.registered",
            Self::SerialRejected { .. } => "serial.rejected",
            Self::CustomTokenObtained {} => "custom_token.obtained",
            Self::CustomTokenFailed { .. } => "custom_token.failed",
            Self::SignedIn {} => "account.signed_in",
            Self::SignInFailed { .. } => "sign_in.failed",
            Self::Activated {} => "cloud.activated",
            Self::StepGaveUp { .. } => "step.gave_up",
        }
    }
}
