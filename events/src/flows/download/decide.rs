//! Which commands the attempt accepts, and the events they become.

use crate::flow::SecretField;
use chrono::{DateTime, Utc};

use super::commands::Command;
use super::events::Event;
use super::state::{Stage, State};
use super::validation::{BrowserName, DesktopOs, DesktopPhone, SmsCode, INVALID_CODE, INVALID_PHONE};
use crate::flow::{PiiField, Rejection};
use crate::pii::PiiKind;

/// The route's `os` is not one of the spec's values (the page redirects before this).
pub const INVALID_OS: &str = "Sistema operacional não suportado.";
/// The client sent no usable browser name.
pub const INVALID_BROWSER: &str = "Não identificamos seu navegador. Atualize a página e tente novamente.";
/// A command arrived while an upstream call is running.
pub const BUSY: &str = "Aguarde, estamos processando sua solicitação.";
/// A command that does not fit the panel on screen (a stale tab, a replayed request).
pub const OUT_OF_STEP: &str = "Esta etapa não está mais disponível. Atualize a página e tente novamente.";
/// Choice of a partner or device that is not on the list.
pub const UNKNOWN_CHOICE: &str = "Opção inválida. Atualize a página e tente novamente.";

pub fn decide(state: &State, command: Command, now: DateTime<Utc>) -> Result<Vec<Event>, Rejection> {
    if let Command::Start { os, browser } = command {
        return start(state, &os, &browser);
    }
    if !state.started {
        return Err(Rejection::general(OUT_OF_STEP));
    }
    if state.is_busy() {
        return Err(Rejection::general(BUSY));
    }
    match command {
        Command::Start { .. } => Err(Rejection::general(OUT_OF_STEP)),
        Command::SubmitPhone { phone } => {
            expect(state, &[Stage::PhoneEntry])?;
            let phone = DesktopPhone::parse(&phone).map_err(|_| Rejection::field("phone", INVALID_PHONE))?;
            Ok(vec![Event::PhoneSubmitted {
                phone: PiiField::clear(PiiKind::Phone, &phone.msisdn()),
                masked: phone.masked(),
            }])
        }
        Command::ResendCode {} => {
            expect(state, &[Stage::CodeEntry])?;
            match state.resend_at() {
                Some(at) if now < at => {
                    // Rounded up, like the countdown the page shows.
                    let left = ((at - now).num_milliseconds() + 999) / 1000;
                    Err(Rejection::field("resend", &resend_message(left)))
                }
                _ => Ok(vec![Event::CodeResendRequested {}]),
            }
        }
        Command::SubmitCode { code } => {
            expect(state, &[Stage::CodeEntry])?;
            let code = SmsCode::parse(&code).map_err(|_| Rejection::field("code", INVALID_CODE))?;
            Ok(vec![Event::CodeSubmitted { code: SecretField::clear(code.as_str()) }])
        }
        Command::ChoosePartner { partner_id } => {
            expect(state, &[Stage::PartnerChoice])?;
            if !state.partners.iter().any(|p| p.id == partner_id && p.has_subscription) {
                return Err(Rejection::field("partner", UNKNOWN_CHOICE));
            }
            Ok(vec![Event::PartnerChosen { partner_id }])
        }
        Command::RemoveDevice { device_id } => {
            expect(state, &[Stage::LicencesInUse])?;
            if !state.devices.iter().any(|d| d.id == device_id) {
                return Err(Rejection::field("device", UNKNOWN_CHOICE));
            }
            Ok(vec![Event::DeviceRemovalRequested { device_id }])
        }
        Command::RetryDownload {} => {
            expect(state, &[Stage::DownloadDone])?;
            Ok(vec![Event::DownloadRetryRequested {}])
        }
        Command::Restart {} => {
            expect(state, &[Stage::UserNotFound, Stage::DownloadError])?;
            Ok(vec![Event::Restarted {}])
        }
    }
}

/// The spec's countdown text, which is also the early-resend refusal.
pub fn resend_message(seconds: i64) -> String {
    format!("Reenviar código em {seconds} segundos")
}

fn start(state: &State, os: &str, browser: &str) -> Result<Vec<Event>, Rejection> {
    if state.started {
        return Err(Rejection::general(OUT_OF_STEP));
    }
    let os = DesktopOs::parse(os).ok_or_else(|| Rejection::field("os", INVALID_OS))?;
    let browser = BrowserName::parse(browser).ok_or_else(|| Rejection::field("browser", INVALID_BROWSER))?;
    Ok(vec![Event::Started { os, browser: browser.as_str().to_string() }])
}

fn expect(state: &State, stages: &[Stage]) -> Result<(), Rejection> {
    if stages.contains(&state.stage) {
        Ok(())
    } else {
        Err(Rejection::general(OUT_OF_STEP))
    }
}
