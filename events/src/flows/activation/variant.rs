//! The six activation variants as configuration: which panel opens, which fields the form
//! has, which upstream steps run before the code is sent and after it is validated.

use serde::{Deserialize, Serialize};

use super::step::ActivationStep;

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
    pub fn before_code(self) -> &'static [ActivationStep] {
        match self {
            Variant::Telecom => &[ActivationStep::PartnerLogin, ActivationStep::FetchAccount],
            Variant::Carrier => &[ActivationStep::CarrierToken, ActivationStep::AuthorizeDocument],
            _ => &[],
        }
    }

    /// Steps after a valid code (spec section 4: subscribe by serial, by hash, or authorize
    /// then fetch packs).
    pub fn after_code(self) -> &'static [ActivationStep] {
        match self {
            Variant::Standard | Variant::Insurance | Variant::PartnerPortal => &[ActivationStep::SubscribeSerial],
            Variant::Broadband | Variant::Telecom => &[ActivationStep::SubscribeByHash],
            Variant::Carrier => &[ActivationStep::Authorize, ActivationStep::VerifyToken, ActivationStep::FetchPacks],
        }
    }

    /// The step after `step` in this variant's chain; `None` at the end of a chain.
    pub fn step_after(self, step: ActivationStep) -> Option<ActivationStep> {
        for chain in [self.before_code(), self.after_code()] {
            if let Some(i) = chain.iter().position(|s| *s == step) {
                return match chain.get(i + 1) {
                    Some(next) => Some(*next),
                    None if chain == self.before_code() => Some(ActivationStep::SendCode),
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
        assert_eq!(Variant::Carrier.step_after(ActivationStep::CarrierToken), Some(ActivationStep::AuthorizeDocument));
        assert_eq!(Variant::Carrier.step_after(ActivationStep::AuthorizeDocument), Some(ActivationStep::SendCode));
        assert_eq!(Variant::Carrier.step_after(ActivationStep::Authorize), Some(ActivationStep::VerifyToken));
        assert_eq!(Variant::Carrier.step_after(ActivationStep::FetchPacks), None);
        assert_eq!(Variant::Telecom.step_after(ActivationStep::FetchAccount), Some(ActivationStep::SendCode));
        assert_eq!(Variant::Standard.step_after(ActivationStep::SubscribeSerial), None);
    }
}
