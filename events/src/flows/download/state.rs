//! The attempt's state, folded from its events.

use crate::flow::SecretField;
use chrono::{DateTime, Duration, Utc};

use super::events::{Device, DownloadEvent, Partner};
use super::messages::{GENERIC_FAILURE, REMOVAL_FAILURE};
use super::step::DownloadStep;
use super::validation::{DesktopOs, RESEND_SECONDS};
use crate::flow::PiiField;

/// Which panel the visitor is on (busy or not).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum DownloadPanel {
    #[default]
    PhoneEntry,
    CodeEntry,
    UserNotFound,
    PartnerChoice,
    DownloadDone,
    LicencesInUse,
    PlanWithoutAntivirus,
    DownloadError,
}

impl DownloadPanel {
    /// The panel name shared with the web machine and the vectors.
    pub fn name(self) -> &'static str {
        match self {
            DownloadPanel::PhoneEntry => "phone_entry",
            DownloadPanel::CodeEntry => "code_entry",
            DownloadPanel::UserNotFound => "user_not_found",
            DownloadPanel::PartnerChoice => "partner_choice",
            DownloadPanel::DownloadDone => "download_done",
            DownloadPanel::LicencesInUse => "licences_in_use",
            DownloadPanel::PlanWithoutAntivirus => "plan_without_antivirus",
            DownloadPanel::DownloadError => "download_error",
        }
    }

    /// The step the indicator highlights up to: 1 phone, 2 code, 3 download.
    pub fn indicator(self) -> u8 {
        match self {
            DownloadPanel::PhoneEntry => 1,
            DownloadPanel::CodeEntry | DownloadPanel::UserNotFound => 2,
            DownloadPanel::PartnerChoice
            | DownloadPanel::DownloadDone
            | DownloadPanel::LicencesInUse
            | DownloadPanel::PlanWithoutAntivirus
            | DownloadPanel::DownloadError => 3,
        }
    }
}

/// The upstream call the runner owes the attempt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Pending {
    SendCode,
    ResendCode,
    ConfirmCode,
    FindUser,
    ListPartners,
    RequestDownload,
    ListDevices,
    RemoveDevice(String),
}

impl Pending {
    /// The step this call is (its name is part of the idempotency key).
    pub fn step(&self) -> DownloadStep {
        match self {
            Pending::SendCode => DownloadStep::SendCode,
            Pending::ResendCode => DownloadStep::ResendCode,
            Pending::ConfirmCode => DownloadStep::ConfirmCode,
            Pending::FindUser => DownloadStep::FindUser,
            Pending::ListPartners => DownloadStep::ListPartners,
            Pending::RequestDownload => DownloadStep::RequestDownload,
            Pending::ListDevices => DownloadStep::ListDevices,
            Pending::RemoveDevice(_) => DownloadStep::RemoveDevice,
        }
    }
}

/// A snackbar raised by the latest event; `id` changes with every new one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Snackbar {
    pub id: u64,
    pub message: &'static str,
}

#[derive(Debug, Clone, Default)]
pub struct DownloadState {
    pub started: bool,
    pub os: Option<DesktopOs>,
    pub browser: String,
    pub phone: Option<PiiField>,
    pub masked_phone: Option<String>,
    pub panel: DownloadPanel,
    pub pending: Option<Pending>,
    /// When the last SMS went out: the resend countdown runs from here.
    pub code_sent_at: Option<DateTime<Utc>>,
    /// The code awaiting confirmation.
    pub code: Option<SecretField>,
    pub code_rejected: bool,
    pub partners: Vec<Partner>,
    /// The partner whose priority subscription the download uses.
    pub partner_id: Option<String>,
    pub devices: Vec<Device>,
    pub snackbar: Option<Snackbar>,
    /// How many download URLs were granted: each one makes the browser save the file.
    pub downloads: u32,
    /// Installers sent whole to the browser (at most one per grant).
    pub served: u32,
    /// How many times the visitor asked for the download again ("clique aqui").
    pub retries: u32,
    /// Domain events folded so far (snackbar ids).
    pub seen: u64,
    /// Time of the latest event: steps planned by it are due from then.
    pub updated_at: Option<DateTime<Utc>>,
}

impl DownloadState {
    /// When 'Reenviar código' may be used again.
    pub fn resend_at(&self) -> Option<DateTime<Utc>> {
        self.code_sent_at.map(|at| at + Duration::seconds(RESEND_SECONDS))
    }

    pub fn is_busy(&self) -> bool {
        self.pending.is_some()
    }

    fn raise(&mut self, message: &'static str) {
        self.snackbar = Some(Snackbar { id: self.seen, message });
    }

    /// A failure after the code was confirmed: the download-error panel and the snackbar.
    fn fail_download(&mut self) {
        self.panel = DownloadPanel::DownloadError;
        self.raise(GENERIC_FAILURE);
    }

    /// The send (or resend) failed: back where the visitor asked for it.
    fn fail_send(&mut self, was: Option<Pending>) {
        self.panel =
            if was == Some(Pending::ResendCode) { DownloadPanel::CodeEntry } else { DownloadPanel::PhoneEntry };
        self.raise(GENERIC_FAILURE);
    }

    /// Partners are in: one is used directly, several are offered, none means no antivirus.
    fn take_partners(&mut self, partners: &[Partner]) {
        self.partners = partners.to_vec();
        match partners {
            [] => self.panel = DownloadPanel::PlanWithoutAntivirus,
            [only] if only.has_subscription => {
                self.partner_id = Some(only.id.clone());
                self.pending = Some(Pending::RequestDownload);
            }
            [_] => self.fail_download(),
            _ => self.panel = DownloadPanel::PartnerChoice,
        }
    }

    /// What a runner's give-up means depends on the step that gave up.
    fn give_up(&mut self, step: &str, was: Option<Pending>) {
        let Some(pending) = was else { return };
        if DownloadStep::from_name(step) != Some(pending.step()) {
            // An old step's give-up after the attempt moved on: nothing was waiting on it.
            self.pending = Some(pending);
            return;
        }
        match pending {
            Pending::SendCode | Pending::ResendCode => self.fail_send(Some(pending)),
            Pending::ConfirmCode => {
                self.panel = DownloadPanel::CodeEntry;
                self.code = None;
                self.raise(GENERIC_FAILURE);
            }
            Pending::FindUser | Pending::ListPartners | Pending::RequestDownload | Pending::ListDevices => {
                self.fail_download()
            }
            Pending::RemoveDevice(_) => {
                self.panel = DownloadPanel::LicencesInUse;
                self.raise(REMOVAL_FAILURE);
            }
        }
    }
}

/// Folds one event. `at` is when it was recorded (the resend countdown starts there).
pub fn evolve(mut state: DownloadState, event: &DownloadEvent, at: DateTime<Utc>) -> DownloadState {
    state.seen += 1;
    state.updated_at = Some(at);
    state.snackbar = None;
    let was = state.pending.take();
    match event {
        DownloadEvent::Started { os, browser } => {
            state.started = true;
            state.os = Some(*os);
            state.browser = browser.clone();
            state.panel = DownloadPanel::PhoneEntry;
        }
        DownloadEvent::PhoneSubmitted { phone, masked } => {
            state.phone = Some(phone.clone());
            state.masked_phone = Some(masked.clone());
            state.pending = Some(Pending::SendCode);
        }
        DownloadEvent::CodeSent {} | DownloadEvent::CodeResent {} => {
            state.panel = DownloadPanel::CodeEntry;
            state.code_sent_at = Some(at);
            state.code_rejected = false;
        }
        DownloadEvent::CodeResendRequested {} => state.pending = Some(Pending::ResendCode),
        DownloadEvent::CodeSendFailed { .. } => state.fail_send(was),
        DownloadEvent::CodeSubmitted { code } => {
            state.code = Some(code.clone());
            state.code_rejected = false;
            state.pending = Some(Pending::ConfirmCode);
        }
        DownloadEvent::CodeConfirmed {} => {
            state.code = None;
            state.pending = Some(Pending::FindUser);
        }
        DownloadEvent::CodeRejected { .. } => {
            state.code = None;
            state.code_rejected = true;
        }
        DownloadEvent::UserFound {} => state.pending = Some(Pending::ListPartners),
        DownloadEvent::UserNotFound {} => state.panel = DownloadPanel::UserNotFound,
        DownloadEvent::UserLookupFailed { .. } => state.fail_download(),
        DownloadEvent::PartnersListed { partners } => state.take_partners(partners),
        DownloadEvent::PartnersFailed { .. } => state.fail_download(),
        DownloadEvent::PartnerChosen { partner_id } => {
            state.partner_id = Some(partner_id.clone());
            state.pending = Some(Pending::RequestDownload);
        }
        DownloadEvent::DownloadGranted {} => {
            state.panel = DownloadPanel::DownloadDone;
            state.downloads += 1;
        }
        DownloadEvent::InstallerServed {} => state.served += 1,
        DownloadEvent::LicencesFull {} => state.pending = Some(Pending::ListDevices),
        DownloadEvent::PlanWithoutAntivirus {} => state.panel = DownloadPanel::PlanWithoutAntivirus,
        DownloadEvent::DownloadFailed { .. } => state.fail_download(),
        DownloadEvent::DownloadRetryRequested {} => {
            state.retries += 1;
            state.pending = Some(Pending::RequestDownload);
        }
        DownloadEvent::DevicesListed { devices } => {
            state.panel = DownloadPanel::LicencesInUse;
            state.devices = devices.clone();
        }
        DownloadEvent::DevicesFailed { .. } => state.fail_download(),
        DownloadEvent::DeviceRemovalRequested { device_id } => {
            state.pending = Some(Pending::RemoveDevice(device_id.clone()))
        }
        DownloadEvent::DeviceRemoved { device_id } => {
            state.devices.retain(|d| &d.id != device_id);
            state.pending = Some(Pending::RequestDownload);
        }
        DownloadEvent::DeviceRemovalFailed { .. } => {
            state.panel = DownloadPanel::LicencesInUse;
            state.raise(REMOVAL_FAILURE);
        }
        DownloadEvent::Restarted {} => {
            state = DownloadState {
                started: true,
                os: state.os,
                browser: std::mem::take(&mut state.browser),
                downloads: state.downloads,
                seen: state.seen,
                updated_at: state.updated_at,
                ..DownloadState::default()
            };
        }
        DownloadEvent::StepGaveUp { step, .. } => state.give_up(step, was),
    }
    state
}
