//! The upstream calls of the cloud flow and their stable names.

/// The upstream calls of the flow, in the order they normally run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CloudStep {
    CheckPhone,
    SendCode,
    ResendCode,
    ValidateCode,
    RegisterSerial,
    GetCustomToken,
    SignIn,
}

impl CloudStep {
    pub const ALL: [CloudStep; 7] = [
        Self::CheckPhone,
        Self::SendCode,
        Self::ResendCode,
        Self::ValidateCode,
        Self::RegisterSerial,
        Self::GetCustomToken,
        Self::SignIn,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Self::CheckPhone => "check_phone",
            Self::SendCode => "send_code",
            Self::ResendCode => "resend_code",
            Self::ValidateCode => "validate_code",
            Self::RegisterSerial => "register_serial",
            Self::GetCustomToken => "get_custom_token",
            Self::SignIn => "sign_in",
        }
    }

    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|step| step.name() == name)
    }

    /// Once the code is spent, a failure sends the visitor back to form 1 for a new code.
    pub(super) fn after_code(self) -> bool {
        matches!(self, Self::RegisterSerial | Self::GetCustomToken | Self::SignIn)
    }
}
