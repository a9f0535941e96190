//! Which commands the attempt accepts, and the events they become.

use crate::flow::SecretField;
use chrono::{DateTime, Utc};

use super::commands::DownloadCommand;
use super::events::DownloadEvent;
use super::messages::{
    resend_message, BUSY, INVALID_BROWSER, INVALID_OS, OUT_OF_STEP, TOO_MANY_RETRIES, UNKNOWN_CHOICE,
};
use super::state::{DownloadPanel, DownloadState};
use super::validation::{BrowserName, DesktopOs, DesktopPhone, SmsCode};
use crate::flow::{Guards, PiiField, Rejection};
use crate::pii::PiiKind;

/// "clique aqui" (download again) one attempt may use (issue 15: bounded attempts).
pub const MAX_DOWNLOAD_RETRIES: u32 = 10;

pub fn decide(
    state: &DownloadState,
    command: DownloadCommand,
    now: DateTime<Utc>,
) -> Result<Vec<DownloadEvent>, Rejection> {
    if let DownloadCommand::Start { os, browser } = command {
        return start(state, &os, &browser);
    }
    if !state.started {
        return Err(Rejection::general(OUT_OF_STEP));
    }
    if state.is_busy() {
        return Err(Rejection::general(BUSY));
    }
    match command {
        DownloadCommand::Start { .. } => Err(Rejection::general(OUT_OF_STEP)),
        DownloadCommand::SubmitPhone { phone } => {
            expect(state, &[DownloadPanel::PhoneEntry])?;
            let phone = DesktopPhone::parse(&phone)?;
            Ok(vec![DownloadEvent::PhoneSubmitted {
                phone: PiiField::clear(PiiKind::Phone, &phone.msisdn()),
                masked: phone.masked(),
            }])
        }
        DownloadCommand::ResendCode {} => {
            expect(state, &[DownloadPanel::CodeEntry])?;
            match state.resend_at() {
                Some(at) if now < at => {
                    // Rounded up, like the countdown the page shows.
                    let left = ((at - now).num_milliseconds() + 999) / 1000;
                    Err(Rejection::field("resend", &resend_message(left)))
                }
                _ => Ok(vec![DownloadEvent::CodeResendRequested {}]),
            }
        }
        DownloadCommand::SubmitCode { code } => {
            expect(state, &[DownloadPanel::CodeEntry])?;
            let code = SmsCode::parse(&code)?;
            Ok(vec![DownloadEvent::CodeSubmitted { code: SecretField::clear(code.as_str()) }])
        }
        DownloadCommand::ChoosePartner { partner_id } => {
            expect(state, &[DownloadPanel::PartnerChoice])?;
            if !state.partners.iter().any(|p| p.id == partner_id && p.has_subscription) {
                return Err(Rejection::field("partner", UNKNOWN_CHOICE));
            }
            Ok(vec![DownloadEvent::PartnerChosen { partner_id }])
        }
        DownloadCommand::RemoveDevice { device_id } => {
            expect(state, &[DownloadPanel::LicencesInUse])?;
            if !state.devices.iter().any(|d| d.id == device_id) {
                return Err(Rejection::field("device", UNKNOWN_CHOICE));
            }
            Ok(vec![DownloadEvent::DeviceRemovalRequested { device_id }])
        }
        DownloadCommand::RetryDownload {} => {
            expect(state, &[DownloadPanel::DownloadDone])?;
            // Each retry calls the upstream and appends events: bounded per attempt.
            if state.retries >= MAX_DOWNLOAD_RETRIES {
                return Err(Rejection::general(TOO_MANY_RETRIES));
            }
            Ok(vec![DownloadEvent::DownloadRetryRequested {}])
        }
        DownloadCommand::Restart {} => {
            expect(state, &[DownloadPanel::UserNotFound, DownloadPanel::DownloadError])?;
            Ok(vec![DownloadEvent::Restarted {}])
        }
    }
}

fn start(state: &DownloadState, os: &str, browser: &str) -> Result<Vec<DownloadEvent>, Rejection> {
    if state.started {
        return Err(Rejection::general(OUT_OF_STEP));
    }
    let os = DesktopOs::parse(os).ok_or_else(|| Rejection::field("os", INVALID_OS))?;
    let browser = BrowserName::parse(browser).ok_or_else(|| Rejection::field("browser", INVALID_BROWSER))?;
    Ok(vec![DownloadEvent::Started { os, browser: browser.as_str().to_string() }])
}

fn expect(state: &DownloadState, panels: &[DownloadPanel]) -> Result<(), Rejection> {
    if panels.contains(&state.panel) {
        Ok(())
    } else {
        Err(Rejection::general(OUT_OF_STEP))
    }
}

/// What the decided events will do that the limits watch: a code to the phone typed or to the
/// attempt's, a code check.
pub fn guards(decided: &[DownloadEvent]) -> Guards {
    decided.iter().fold(Guards::default(), |guards, event| {
        guards.and(match event {
            DownloadEvent::PhoneSubmitted { phone, .. } => Guards::sms_to(phone.clear_text()),
            DownloadEvent::CodeResendRequested {} => Guards::resend(),
            DownloadEvent::CodeSubmitted { .. } => Guards::code_check(),
            _ => Guards::default(),
        })
    })
}
