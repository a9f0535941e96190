//! What the visitor's browser asks for. Field values arrive as typed (masked); `decide` parses
//! them with the spec's rules.

use serde::Deserialize;

use super::events::Platform;
use super::variant::Variant;

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ActivationCommand {
    /// Opens an activation page with its query parameters (`licenca`, `code`).
    Start {
        variant: Variant,
        #[serde(default)]
        licenca: Option<String>,
        #[serde(default)]
        code: Option<String>,
        /// The OAuth `state` the partner sent back with `code` (broadband partner).
        #[serde(default)]
        state: Option<String>,
        /// The page the partner OAuth provider returns to (broadband partner).
        #[serde(default)]
        return_url: Option<String>,
    },
    /// The send-code panel: phone plus licence, CPF/CNPJ or nothing, by variant.
    SubmitPhone {
        phone: String,
        #[serde(default)]
        licence: Option<String>,
        #[serde(default)]
        cpf_cnpj: Option<String>,
    },
    /// The e-mail panel (telecom partner).
    SubmitEmail {
        phone: String,
        email: String,
    },
    ResendCode {},
    /// The code-validation panel: the code and the terms checkbox.
    SubmitCode {
        pincode: String,
        #[serde(default)]
        terms_accepted: bool,
    },
    /// The browser left for the store after the 3 s wait.
    RecordStoreRedirect {
        platform: Platform,
    },
    /// A download button of the product list.
    ChooseProduct {
        product: String,
        platform: Platform,
    },
}

impl ActivationCommand {
    /// The command's `type`, as metrics and refusals name it.
    pub fn name(&self) -> &'static str {
        match self {
            Self::Start { .. } => "start",
            Self::SubmitPhone { .. } => "submit_phone",
            Self::SubmitEmail { .. } => "submit_email",
            Self::ResendCode { .. } => "resend_code",
            Self::SubmitCode { .. } => "submit_code",
            Self::RecordStoreRedirect { .. } => "record_store_redirect",
            Self::ChooseProduct { .. } => "choose_product",
        }
    }
}
