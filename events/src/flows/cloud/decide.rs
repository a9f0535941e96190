//! `decide`: the visitor's commands checked against the spec's rules and the attempt's state.

use crate::flow::SecretField;
use chrono::{DateTime, Utc};

use super::commands::CloudCommand;
use super::events::CloudEvent;
use super::messages::{BUSY, OUT_OF_ORDER};
use super::state::{CloudPanel, CloudState};
use super::validation::{CloudPhone, Pincode, Serial};
use crate::flow::{Guards, PiiField, Rejection};
use crate::pii::PiiKind;

pub fn decide(state: &CloudState, command: CloudCommand, now: DateTime<Utc>) -> Result<Vec<CloudEvent>, Rejection> {
    match command {
        CloudCommand::Start { phone, serial } => {
            if state.started {
                return Err(Rejection::general(OUT_OF_ORDER));
            }
            details(&phone, &serial)
        }
        CloudCommand::SubmitDetails { phone, serial } => {
            ready_on(state, CloudPanel::Details)?;
            details(&phone, &serial)
        }
        CloudCommand::Resend {} => {
            ready_on(state, CloudPanel::Code)?;
            if let Some(until) = state.resend_available_at(now) {
                let seconds = ((until - now).num_milliseconds() + 999) / 1000;
                return Err(Rejection::general(&format!("Aguarde {seconds} segundos para reenviar o código.")));
            }
            Ok(vec![CloudEvent::ResendRequested {}])
        }
        CloudCommand::Back {} => {
            ready_on(state, CloudPanel::Code)?;
            Ok(vec![CloudEvent::DetailsReopened {}])
        }
        CloudCommand::SubmitCode { code } => {
            ready_on(state, CloudPanel::Code)?;
            let pincode = Pincode::parse(&code)?;
            Ok(vec![CloudEvent::CodeSubmitted { pincode: SecretField::clear(pincode.as_str()) }])
        }
    }
}

/// The attempt is started, idle and showing `panel`.
fn ready_on(state: &CloudState, panel: CloudPanel) -> Result<(), Rejection> {
    if !state.started || state.activated || state.panel != panel {
        return Err(Rejection::general(OUT_OF_ORDER));
    }
    if state.busy() {
        return Err(Rejection::general(BUSY));
    }
    Ok(())
}

/// Form 1: the phone first, then the serial, as the form shows them.
fn details(phone: &str, serial: &str) -> Result<Vec<CloudEvent>, Rejection> {
    let phone = CloudPhone::parse(phone)?;
    let serial = Serial::parse(serial)?;
    Ok(vec![CloudEvent::DetailsSubmitted {
        phone: PiiField::clear(PiiKind::Phone, &phone.msisdn()),
        phone_masked: phone.masked(),
        serial: PiiField::clear(PiiKind::Serial, serial.as_str()),
    }])
}

/// What the decided events will do that the limits watch: a code to the phone form 1 sets or
/// to the attempt's, a code check.
pub fn guards(decided: &[CloudEvent]) -> Guards {
    decided.iter().fold(Guards::default(), |guards, event| {
        guards.and(match event {
            CloudEvent::DetailsSubmitted { phone, .. } => Guards::sms_to(phone.clear_text()),
            CloudEvent::ResendRequested {} => Guards::resend(),
            CloudEvent::CodeSubmitted { .. } => Guards::code_check(),
            _ => Guards::default(),
        })
    })
}
