//! The attempt's state, folded from its events.

use crate::flow::SecretField;
use chrono::{DateTime, Duration, Utc};

use super::events::{Device, Event, Partner};
use super::validation::{DesktopOs, GENERIC_FAILURE, REMOVAL_FAILURE, RESEND_SECONDS};
use crate::flow::PiiField;

/// Which panel the visitor is on (busy or not).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Stage {
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
    /// The step's stable name (part of its idempotency key).
    pub fn step_name(&self) -> &'static str {
        match self {
            Pending::SendCode => "send_code",
            Pending::ResendCode => "resend_code",
            Pending::ConfirmCode => "confirm_code",
            Pending::FindUser => "find_user",
            Pending::ListPartners => "list_partners",
            Pending::RequestDownload => "request_download",
            Pending::ListDevices => "list_devices",
            Pending::RemoveDevice(_) => "remove_device",
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
pub struct State {
    pub started: bool,
    pub os: Option<DesktopOs>,
    pub browser: String,
    pub phone: Option<PiiField>,
    pub masked_phone: Option<String>,
    pub stage: Stage,
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
    /// Domain events folded so far (snackbar ids).
    pub seen: u64,
    /// Time of the latest event: steps planned by it are due from then.
    pub updated_at: Option<DateTime<Utc>>,
}

impl State {
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
        self.stage = Stage::DownloadError;
        self.raise(GENERIC_FAILURE);
    }

    /// The send (or resend) failed: back where the visitor asked for it.
    fn fail_send(&mut self, was: Option<Pending>) {
        self.stage = if was == Some(Pending::ResendCode) { Stage::CodeEntry } else { Stage::PhoneEntry };
        self.raise(GENERIC_FAILURE);
    }

    /// Partners are in: one is used directly, several are offered, none means no antivirus.
    fn take_partners(&mut self, partners: &[Partner]) {
        self.partners = partners.to_vec();
        match partners {
            [] => self.stage = Stage::PlanWithoutAntivirus,
            [only] if only.has_subscription => {
                self.partner_id = Some(only.id.clone());
                self.pending = Some(Pending::RequestDownload);
            }
            [_] => self.fail_download(),
            _ => self.stage = Stage::PartnerChoice,
        }
    }

    /// What a runner's give-up means depends on the step that gave up.
    fn give_up(&mut self, step: &str, was: Option<Pending>) {
        let Some(pending) = was else { return };
        if pending.step_name() != step {
            // An old step's give-up after the attempt moved on: nothing was waiting on it.
            self.pending = Some(pending);
            return;
        }
        match pending {
            Pending::SendCode | Pending::ResendCode => self.fail_send(Some(pending)),
            Pending::ConfirmCode => {
                self.stage = Stage::CodeEntry;
                self.code = None;
                self.raise(GENERIC_FAILURE);
            }
            Pending::FindUser | Pending::ListPartners | Pending::RequestDownload | Pending::ListDevices => {
                self.fail_download()
            }
            Pending::RemoveDevice(_) => {
                self.stage = Stage::LicencesInUse;
                self.raise(REMOVAL_FAILURE);
            }
        }
    }
}

/// Folds one event. `at` is when it was recorded (the resend countdown starts there).
pub fn evolve(mut state: State, event: &Event, at: DateTime<Utc>) -> State {
    state.seen += 1;
    state.updated_at = Some(at);
    state.snackbar = None;
    let was = state.pending.take();
    match event {
        Event::Started { os, browser } => {
            state.started = true;
            state.os = Some(*os);
            state.browser = browser.clone();
            state.stage = Stage::PhoneEntry;
        }
        Event::PhoneSubmitted { phone, masked } => {
            state.phone = Some(phone.clone());
            state.masked_phone = Some(masked.clone());
            state.pending = Some(Pending::SendCode);
        }
        Event::CodeSent {} | Event::CodeResent {} => {
            state.stage = Stage::CodeEntry;
            state.code_sent_at = Some(at);
            state.code_rejected = false;
        }
        Event::CodeResendRequested {} => state.pending = Some(Pending::ResendCode),
        Event::CodeSendFailed { .. } => state.fail_send(was),
        Event::CodeSubmitted { code } => {
            state.code = Some(code.clone());
            state.code_rejected = false;
            state.pending = Some(Pending::ConfirmCode);
        }
        Event::CodeConfirmed {} => {
            state.code = None;
            state.pending = Some(Pending::FindUser);
        }
        Event::CodeRejected { .. } => {
            state.code = None;
            state.code_rejected = true;
        }
        Event::UserFound {} => state.pending = Some(Pending::ListPartners),
        Event::UserNotFound {} => state.stage = Stage::UserNotFound,
        Event::UserLookupFailed { .. } => state.fail_download(),
        Event::PartnersListed { partners } => state.take_partners(partners),
        Event::PartnersFailed { .. } => state.fail_download(),
        Event::PartnerChosen { partner_id } => {
            state.partner_id = Some(partner_id.clone());
            state.pending = Some(Pending::RequestDownload);
        }
        Event::DownloadGranted {} => {
            state.stage = Stage::DownloadDone;
            state.downloads += 1;
        }
        Event::LicencesFull {} => state.pending = Some(Pending::ListDevices),
        Event::PlanWithoutAntivirus {} => state.stage = Stage::PlanWithoutAntivirus,
        Event::DownloadFailed { .. } => state.fail_download(),
        Event::DownloadRetryRequested {} => state.pending = Some(Pending::RequestDownload),
        Event::DevicesListed { devices } => {
            state.stage = Stage::LicencesInUse;
            state.devices = devices.clone();
        }
        Event::DevicesFailed { .. } => state.fail_download(),
        Event::DeviceRemovalRequested { device_id } => state.pending = Some(Pending::RemoveDevice(device_id.clone())),
        Event::DeviceRemoved { device_id } => {
            state.devices.retain(|d| &d.id != device_id);
            state.pending = Some(Pending::RequestDownload);
        }
        Event::DeviceRemovalFailed { .. } => {
            state.stage = Stage::LicencesInUse;
            state.raise(REMOVAL_FAILURE);
        }
        Event::Restarted {} => {
            state = State {
                started: true,
                os: state.os,
                browser: std::mem::take(&mut state.browser),
                downloads: state.downloads,
                seen: state.seen,
                updated_at: state.updated_at,
                ..State::default()
            };
        }
        Event::StepGaveUp { step, .. } => state.give_up(step, was),
    }
    state
}
