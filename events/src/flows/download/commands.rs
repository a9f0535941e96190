//! What the visitor's browser asks of a desktop download attempt.

use serde::Deserialize;

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum DownloadCommand {
    /// Opens the attempt: the route's `os` and the browser name the client detected.
    Start {
        os: String,
        browser: String,
    },
    /// The phone as typed (masked or bare digits).
    SubmitPhone {
        phone: String,
    },
    /// 'Reenviar código', once the 90 s countdown is over.
    ResendCode {},
    SubmitCode {
        code: String,
    },
    /// A partner card selected on the choice panel, then 'Continuar'.
    ChoosePartner {
        partner_id: String,
    },
    /// 'Sim' in the disconnect-device confirmation.
    RemoveDevice {
        device_id: String,
    },
    /// 'clique aqui' on the download-done panel.
    RetryDownload {},
    /// 'Tentar novamente' on the user-not-found and download-error panels.
    Restart {},
}

impl DownloadCommand {
    /// The command's `type`, as metrics and refusals name it.
    pub fn name(&self) -> &'static str {
        match self {
            Self::Start { .. } => "start",
            Self::SubmitPhone { .. } => "submit_phone",
            Self::ResendCode { .. } => "resend_code",
            Self::SubmitCode { .. } => "submit_code",
            Self::ChoosePartner { .. } => "choose_partner",
            Self::RemoveDevice { .. } => "remove_device",
            Self::RetryDownload { .. } => "retry_download",
            Self::Restart { .. } => "restart",
        }
    }
}
