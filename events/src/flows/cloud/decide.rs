//! `decide`: the visitor's commands checked against the spec's rules and the attempt's state.

use crate::flow::SecretField;
use chrono::{DateTime, Utc};

use super::commands::CloudCommand;
use super::events::CloudEvent;
use super::state::{CloudState, Panel};
use super::validation::{CloudPhone, Pincode, Serial};
use crate::flow::{PiiField, Rejection};
use crate::pii::PiiKind;

/// A step is running: the loader covers the form, so this only answers a replayed click.
pub const BUSY: &str = "Aguarde, estamos processando sua solicitação.";
/// The command belongs to another panel (a stale tab, a replayed request).
pub const OUT_OF_ORDER: &str = "Esta etapa não está disponível agora. Atualize a página e tente novamente.";

pub fn decide(state: &CloudState, command: CloudCommand, now: DateTime<Utc>) -> Result<Vec<CloudEvent>, Rejection> {
    match command {
        CloudCommand::Start { phone, serial } => {
            if state.started {
                return Err(Rejection::general(OUT_OF_ORDER));
            }
            details(&phone, &serial)
        }
        CloudCommand::SubmitDetails { phone, serial } => {
            ready_on(state, Panel::Details)?;
            details(&phone, &serial)
        }
        CloudCommand::Resend => {
            ready_on(state, Panel::Code)?;
            if let Some(until) = state.resend_available_at(now) {
                let seconds = ((until - now).num_milliseconds() + 999) / 1000;
                return Err(Rejection::general(&format!("Aguarde {seconds} segundos para reenviar o código.")));
            }
            Ok(vec![CloudEvent::ResendRequested {}])
        }
        CloudCommand::Back => {
            ready_on(state, Panel::Code)?;
            Ok(vec![CloudEvent::DetailsReopened {}])
        }
        CloudCommand::SubmitCode { code } => {
            ready_on(state, Panel::Code)?;
            let pincode = Pincode::parse(&code).map_err(|message| Rejection::field("code", message))?;
            Ok(vec![CloudEvent::CodeSubmitted { pincode: SecretField::clear(pincode.as_str()) }])
        }
    }
}

/// The attempt is started, idle and showing `panel`.
fn ready_on(state: &CloudState, panel: Panel) -> Result<(), Rejection> {
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
    let phone = CloudPhone::parse(phone).map_err(|message| Rejection::field("phone", message))?;
    let serial = Serial::parse(serial).map_err(|message| Rejection::field("serial", message))?;
    Ok(vec![CloudEvent::DetailsSubmitted {
        phone: PiiField::clear(PiiKind::Phone, &phone.msisdn()),
        phone_masked: phone.masked(),
        serial: serial.as_str().to_string(),
    }])
}
