//! What the browser shows: the panel, the loader, the banner's message and the countdown.
//! No token, no pincode, no transaction id, no phone in clear.

use chrono::{DateTime, SecondsFormat, Utc};
use serde_json::{json, Value};

use super::state::{CloudPanel, CloudState};
use crate::flow::{Outcome, PiiField};

/// Where the visitor goes once the cloud account is active.
pub const SUCCESS_REDIRECT: &str = "/cliente/hero";
/// Spec section 9: the success modal shows this long before the redirect.
pub const SUCCESS_MODAL_MS: u64 = 3000;

pub fn view(state: &CloudState, now: DateTime<Utc>) -> Value {
    let mut view = json!({
        "panel": state.panel.name(),
        "loading": state.busy(),
        "error": state.error,
        "phone": state.phone_masked,
        "serial": state.serial.as_ref().map(PiiField::shown),
        "step": state.pending.map(|pending| pending.step.name()),
        "resend_available_at": state
            .resend_available_at(now)
            .map(|at| at.to_rfc3339_opts(SecondsFormat::Millis, true)),
        "resend": resend(state, now),
    });
    if state.panel == CloudPanel::Success {
        view["redirect_to"] = json!(SUCCESS_REDIRECT);
        view["redirect_after_ms"] = json!(SUCCESS_MODAL_MS);
    }
    view
}

/// The resend control of the code panel: the link, or the countdown after a successful resend.
fn resend(state: &CloudState, now: DateTime<Utc>) -> Option<&'static str> {
    match (state.panel, state.resend_available_at(now)) {
        (CloudPanel::Code, Some(_)) => Some("countdown"),
        (CloudPanel::Code, None) => Some("link"),
        _ => None,
    }
}

/// Done at the success modal; refused while the red banner shows a message.
pub fn outcome(state: &CloudState) -> Outcome {
    match (&state.panel, &state.error) {
        (CloudPanel::Success, _) => Outcome::Completed,
        (_, Some(message)) => Outcome::refused(message.clone()),
        _ => Outcome::Open,
    }
}
