//! The six activation variants as configuration: which panel opens, which fields the form
//! has, which upstream steps run before the code is sent and after it is validated.

use serde::{Deserialize, Serialize};

/// One activation page of the spec's route table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Variant {
    /// `/seguranca/ativar`
    Standard,
    /// `/seguranca/ativarbradescoseguros`
    Insurance,
    /// `/seguranca/ativarsumicity`: the licence comes from the portal's link, input disabled.
    PartnerPortal,
    /// `/seguranca/ativarbrisanet`: partner OAuth, customer look-up, subscribe by hash.
    Broadband,
    /// `/seguranca/ativaragility`: e-mail panel, partner login, subscribe by hash.
    Telecom,
    /// `/seguranca/tim`: phone + CPF/CNPJ, authorize, packs, product list.
    Carrier,
}

/// The brand sent upstream (`X-Brand-Name`) and choosing the identity-provider key.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Brand {
    Default,
    Agility,
    Tim,
}

/// An upstream call of the chain (its name is the runner's step name).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Step {
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

impl Step {
    pub const ALL: [Step; 13] = [
        Step::PreparePartnerLogin,
        Step::LookUpCustomer,
        Step::PartnerLogin,
        Step::FetchAccount,
        Step::CarrierToken,
        Step::AuthorizeDocument,
        Step::SendCode,
        Step::ValidateCode,
        Step::Authorize,
        Step::VerifyToken,
        Step::FetchPacks,
        Step::SubscribeSerial,
        Step::SubscribeByHash,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Step::PreparePartnerLogin => "prepare_partner_login",
            Step::LookUpCustomer => "look_up_customer",
            Step::PartnerLogin => "partner_login",
            Step::FetchAccount => "fetch_account",
            Step::CarrierToken => "carrier_token",
            Step::AuthorizeDocument => "authorize_document",
            Step::SendCode => "send_code",
            Step::ValidateCode => "validate_code",
            Step::Authorize => "authorize",
            Step::VerifyToken => "verify_token",
            Step::FetchPacks => "fetch_packs",
            Step::SubscribeSerial => "subscribe_serial",
            Step::SubscribeByHash => "subscribe_by_hash",
        }
    }

    pub fn parse(name: &str) -> Option<Step> {
        Step::ALL.into_iter().find(|step| step.as_str() == name)
    }
}

/// The panel the visitor fills in before the code is sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    /// Phone plus licence, or phone plus CPF/CNPJ (carrier), or phone only (broadband).
    SendCode,
    /// Phone plus e-mail (telecom partner).
    Email,
}

impl Variant {
    pub const ALL: [Variant; 6] = [
        Variant::Standard,
        Variant::Insurance,
        Variant::PartnerPortal,
        Variant::Broadband,
        Variant::Telecom,
        Variant::Carrier,
    ];

    pub fn brand(self) -> Brand {
        match self {
            Variant::Telecom => Brand::Agility,
            Variant::Carrier => Brand::Tim,
            _ => Brand::Default,
        }
    }

    pub fn form(self) -> Form {
        match self {
            Variant::Telecom => Form::Email,
            _ => Form::SendCode,
        }
    }

    /// Whether the send-code panel asks for a licence (subscribed by serial).
    pub fn needs_licence(self) -> bool {
        matches!(self, Variant::Standard | Variant::Insurance | Variant::PartnerPortal)
    }

    /// Whether the send-code panel asks for a CPF/CNPJ (carrier).
    pub fn needs_document(self) -> bool {
        self == Variant::Carrier
    }

    /// The partner portal's licence field is always disabled (its value comes from the link).
    pub fn licence_always_locked(self) -> bool {
        self == Variant::PartnerPortal
    }

    /// Steps between the form and sending the code.
    pub fn before_code(self) -> &'static [Step] {
        match self {
            Variant::Telecom => &[Step::PartnerLogin, Step::FetchAccount],
            Variant::Carrier => &[Step::CarrierToken, Step::AuthorizeDocument],
            _ => &[],
        }
    }

    /// Steps after a valid code (spec section 4: subscribe by serial, by hash, or authorize
    /// then fetch packs).
    pub fn after_code(self) -> &'static [Step] {
        match self {
            Variant::Standard | Variant::Insurance | Variant::PartnerPortal => &[Step::SubscribeSerial],
            Variant::Broadband | Variant::Telecom => &[Step::SubscribeByHash],
            Variant::Carrier => &[Step::Authorize, Step::VerifyToken, Step::FetchPacks],
        }
    }

    /// The step after `step` in this variant's chain; `None` at the end of a chain.
    pub fn step_after(self, step: Step) -> Option<Step> {
        for chain in [self.before_code(), self.after_code()] {
            if let Some(i) = chain.iter().position(|s| *s == step) {
                return match chain.get(i + 1) {
                    Some(next) => Some(*next),
                    None if chain == self.before_code() => Some(Step::SendCode),
                    None => None,
                };
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chains_follow_the_spec() {
        assert_eq!(Variant::Carrier.step_after(Step::CarrierToken), Some(Step::AuthorizeDocument));
        assert_eq!(Variant::Carrier.step_after(Step::AuthorizeDocument), Some(Step::SendCode));
        assert_eq!(Variant::Carrier.step_after(Step::Authorize), Some(Step::VerifyToken));
        assert_eq!(Variant::Carrier.step_after(Step::FetchPacks), None);
        assert_eq!(Variant::Telecom.step_after(Step::FetchAccount), Some(Step::SendCode));
        assert_eq!(Variant::Standard.step_after(Step::SubscribeSerial), None);
        for step in Step::ALL {
            assert_eq!(Step::parse(step.as_str()), Some(step));
        }
    }
}
