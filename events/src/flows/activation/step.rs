//! The upstream calls of the activation chains and their stable names.

use serde::{Deserialize, Serialize};

/// An upstream call of the chain (its name is the runner's step name).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ActivationStep {
    /// Builds the partner OAuth authorization URL (random state kept server-side).
    PreparePartnerLogin,
    /// `GET /bff/api/v2/brisanet/customer/about/{code}`
    LookUpCustomer,
    /// `POST /api/hero/auth/login`
    PartnerLogin,
    /// `GET /api/hero/accounts/info`
    FetchAccount,
    /// `POST /auth/v1/token`
    CarrierToken,
    /// `POST /authorization/api/v1/authorize/cpf` or `/cnpj`
    AuthorizeDocument,
    /// `POST /authentication/v1/send`
    SendCode,
    /// `POST /authentication/v1/validate`
    ValidateCode,
    /// `POST /authorization/api/v1/authorize` (auth + merge tokens)
    Authorize,
    /// The identity provider's `verifyCustomToken`
    VerifyToken,
    /// `GET /bff/api/v2/packs`
    FetchPacks,
    /// `POST /bff/api/v2/subscription/subscribe-serial`
    SubscribeSerial,
    /// `POST /bff/api/v2/subscription/subscribe-by-hash`
    SubscribeByHash,
}

impl ActivationStep {
    pub const ALL: [ActivationStep; 13] = [
        ActivationStep::PreparePartnerLogin,
        ActivationStep::LookUpCustomer,
        ActivationStep::PartnerLogin,
        ActivationStep::FetchAccount,
        ActivationStep::CarrierToken,
        ActivationStep::AuthorizeDocument,
        ActivationStep::SendCode,
        ActivationStep::ValidateCode,
        ActivationStep::Authorize,
        ActivationStep::VerifyToken,
        ActivationStep::FetchPacks,
        ActivationStep::SubscribeSerial,
        ActivationStep::SubscribeByHash,
    ];

    pub fn name(self) -> &'static str {
        match self {
            ActivationStep::PreparePartnerLogin => "prepare_partner_login",
            ActivationStep::LookUpCustomer => "look_up_customer",
            ActivationStep::PartnerLogin => "partner_login",
            ActivationStep::FetchAccount => "fetch_account",
            ActivationStep::CarrierToken => "carrier_token",
            ActivationStep::AuthorizeDocument => "authorize_document",
            ActivationStep::SendCode => "send_code",
            ActivationStep::ValidateCode => "validate_code",
            ActivationStep::Authorize => "authorize",
            ActivationStep::VerifyToken => "verify_token",
            ActivationStep::FetchPacks => "fetch_packs",
            ActivationStep::SubscribeSerial => "subscribe_serial",
            ActivationStep::SubscribeByHash => "subscribe_by_hash",
        }
    }

    pub fn from_name(name: &str) -> Option<ActivationStep> {
        ActivationStep::ALL.into_iter().find(|step| step.name() == name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for step in ActivationStep::ALL {
            assert_eq!(ActivationStep::from_name(step.name()), Some(step));
        }
    }
}
