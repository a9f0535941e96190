//! What the visitor's browser asks of a cloud activation attempt.

use serde::Deserialize;

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum CloudCommand {
    /// Form 1 the first time: `{"type": "start", "phone": "(11) 91234-5678", "serial": "..."}`.
    Start { phone: String, serial: String },
    /// Form 1 again, after 'back' or after a failure that returned to it.
    SubmitDetails { phone: String, serial: String },
    /// 'Reenviar código'.
    Resend {},
    /// Back from the code form to form 1.
    Back {},
    /// Form 2: `{"type": "submit_code", "code": "123456"}`.
    SubmitCode { code: String },
}

impl CloudCommand {
    /// The command's `type`, as metrics and refusals name it.
    pub fn name(&self) -> &'static str {
        match self {
            Self::Start { .. } => "start",
            Self::SubmitDetails { .. } => "submit_details",
            Self::Resend { .. } => "resend",
            Self::Back { .. } => "back",
            Self::SubmitCode { .. } => "submit_code",
        }
    }
}
