//! The upstream calls of the desktop download and their stable names.

/// The upstream calls of the flow, in the order they normally run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DownloadStep {
    SendCode,
    ResendCode,
    ConfirmCode,
    FindUser,
    ListPartners,
    RequestDownload,
    ListDevices,
    RemoveDevice,
}

impl DownloadStep {
    pub const ALL: [DownloadStep; 8] = [
        Self::SendCode,
        Self::ResendCode,
        Self::ConfirmCode,
        Self::FindUser,
        Self::ListPartners,
        Self::RequestDownload,
        Self::ListDevices,
        Self::RemoveDevice,
    ];

    /// The step's stable name (part of its idempotency key).
    pub fn name(self) -> &'static str {
        match self {
            Self::SendCode => "send_code",
            Self::ResendCode => "resend_code",
            Self::ConfirmCode => "confirm_code",
            Self::FindUser => "find_user",
            Self::ListPartners => "list_partners",
            Self::RequestDownload => "request_download",
            Self::ListDevices => "list_devices",
            Self::RemoveDevice => "remove_device",
        }
    }

    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|step| step.name() == name)
    }
}
