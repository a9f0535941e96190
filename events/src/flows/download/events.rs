//! What happens in a desktop download attempt. Stored `type` names are the serde tags.
//!
//! No event carries a token (the user token and the granted URL live in the attempt's
//! secrets) and the phone is only a [`PiiField`] plus a masked display.

use crate::flow::SecretField;
use serde::{Deserialize, Serialize};

use super::validation::DesktopOs;
use crate::flow::PiiField;

/// A partner plan of the user (`GET /v1/user/partners`). Its `prioritySubscriptionId` is not
/// here: upstream ids may embed the phone, so they stay in the attempt's secrets and the event
/// only says whether there is one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Partner {
    pub id: String,
    pub name: String,
    /// Image URL; empty when the partner has none (the client shows a default image).
    #[serde(default)]
    pub logotype: String,
    /// Whether the partner has a `prioritySubscriptionId` to download with.
    #[serde(default)]
    pub has_subscription: bool,
}

/// A device holding one of the user's licences (`GET /v1/user/devices`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Device {
    /// This attempt's reference to the device (`device-1`, ...); the upstream's id, which may
    /// embed the phone, stays in the attempt's secrets.
    pub id: String,
    /// Sealed like the phone: a name people give their computers often carries their own.
    pub device_name: PiiField,
    #[serde(default)]
    pub os_type: String,
    #[serde(default)]
    pub os_version: String,
    #[serde(default)]
    pub country: String,
    /// Unix seconds of the first login, when known.
    #[serde(default)]
    pub first_login: Option<i64>,
    /// Unix seconds of the last login, when known.
    #[serde(default)]
    pub last_login: Option<i64>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", content = "data")]
pub enum DownloadEvent {
    /// The page opened the attempt: the route's `os` and the detected browser name.
    #[serde(rename = "download.started")]
    Started { os: DesktopOs, browser: String },

    /// A valid phone was submitted; the runner sends the SMS next.
    #[serde(rename = "phone.submitted")]
    PhoneSubmitted { phone: PiiField, masked: String },
    #[serde(rename = "code.sent")]
    CodeSent {},
    /// The visitor asked for a new code after the countdown.
    #[serde(rename = "code.resend_requested")]
    CodeResendRequested {},
    #[serde(rename = "code.resent")]
    CodeResent {},
    /// The phone-auth service refused or failed to send (first send or resend).
    #[serde(rename = "code.send_failed")]
    CodeSendFailed { reason: String },

    /// A 6-digit code to confirm. One-time and short-lived, so it may be stored; see
    /// `docs/download-flow.md`.
    #[serde(rename = "code.submitted")]
    CodeSubmitted { code: SecretField },
    /// The service confirmed the code; the user token went to the attempt's secrets.
    #[serde(rename = "code.confirmed")]
    CodeConfirmed {},
    #[serde(rename = "code.rejected")]
    CodeRejected { reason: String },

    /// The phone is in the user collection.
    #[serde(rename = "user.found")]
    UserFound {},
    #[serde(rename = "user.not_found")]
    UserNotFound {},
    /// The user collection could not be read (an error answer, not "no document").
    #[serde(rename = "user.lookup_failed")]
    UserLookupFailed { reason: String },

    #[serde(rename = "partners.listed")]
    PartnersListed { partners: Vec<Partner> },
    #[serde(rename = "partners.failed")]
    PartnersFailed { reason: String },
    /// The visitor picked one of several partners.
    #[serde(rename = "partner.chosen")]
    PartnerChosen { partner_id: String },

    /// The antivirus API granted a download URL (kept in the attempt's secrets).
    #[serde(rename = "download.granted")]
    DownloadGranted {},
    /// The portal finished sending the granted installer to the visitor's browser (recorded
    /// by the installer route, once per grant: the funnel's "file served").
    #[serde(rename = "installer.served")]
    InstallerServed {},
    /// 403 `NO_FREE_LICENSE`.
    #[serde(rename = "licences.full")]
    LicencesFull {},
    /// 403 `SDK_NOT_ALLOWED_FOR_SUBSCRIPTION`.
    #[serde(rename = "plan.without_antivirus")]
    PlanWithoutAntivirus {},
    /// Any other refusal of the download URL.
    #[serde(rename = "download.failed")]
    DownloadFailed { reason: String },
    /// 'click here' on the download-done panel.
    #[serde(rename = "download.retry_requested")]
    DownloadRetryRequested {},

    #[serde(rename = "devices.listed")]
    DevicesListed { devices: Vec<Device> },
    #[serde(rename = "devices.failed")]
    DevicesFailed { reason: String },
    /// The visitor confirmed 'Sim' on disconnecting a device.
    #[serde(rename = "device.removal_requested")]
    DeviceRemovalRequested { device_id: String },
    #[serde(rename = "device.removed")]
    DeviceRemoved { device_id: String },
    #[serde(rename = "device.removal_failed")]
    DeviceRemovalFailed { device_id: String, reason: String },

    /// 'Tentar novamente': back to phone entry.
    #[serde(rename = "attempt.restarted")]
    Restarted {},

    /// Appended by the runner after repeated transient failures of a step.
    #[serde(rename = "step.gave_up")]
    StepGaveUp {
        step: String,
        #[serde(default)]
        reason: String,
    },
}

impl DownloadEvent {
    /// The stored type name.
    pub fn type_name(&self) -> &'static str {
        match self {
            DownloadEvent::Started { .. } => "download.started",
            DownloadEvent::PhoneSubmitted { .. } => "phone.submitted",
            DownloadEvent::CodeSent {} => "code.sent",
            DownloadEvent::CodeResendRequested {} => "code.resend_requested",
            DownloadEvent::CodeResent {} => "code.resent",
            DownloadEvent::CodeSendFailed { .. } => "code.send_failed",
            DownloadEvent::CodeSubmitted { .. } => "code.submitted",
            DownloadEvent::CodeConfirmed {} => "code.confirmed",
            DownloadEvent::CodeRejected { .. } => "code.rejected",
            DownloadEvent::UserFound {} => "user.found",
            DownloadEvent::UserNotFound {} => "user.not_found",
            DownloadEvent::UserLookupFailed { .. } => "user.lookup_failed",
            DownloadEvent::PartnersListed { .. } => "partners.listed",
            DownloadEvent::PartnersFailed { .. } => "partners.failed",
            DownloadEvent::PartnerChosen { .. } => "partner.chosen",
            DownloadEvent::DownloadGranted {} => "download.granted",
            DownloadEvent::InstallerServed {} => "installer.served",
            DownloadEvent::LicencesFull {} => "licences.full",
            DownloadEvent::PlanWithoutAntivirus {} => "plan.without_antivirus",
            DownloadEvent::DownloadFailed { .. } => "download.failed",
            DownloadEvent::DownloadRetryRequested {} => "download.retry_requested",
            DownloadEvent::DevicesListed { .. } => "devices.listed",
            DownloadEvent::DevicesFailed { .. } => "devices.failed",
            DownloadEvent::DeviceRemovalRequested { .. } => "device.removal_requested",
            DownloadEvent::DeviceRemoved { .. } => "device.removed",
            DownloadEvent::DeviceRemovalFailed { .. } => "device.removal_failed",
            DownloadEvent::Restarted {} => "attempt.restarted",
            DownloadEvent::StepGaveUp { .. } => "step.gave_up",
        }
    }
}
