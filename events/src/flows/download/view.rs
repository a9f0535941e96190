//! What the visitor's browser shows: the panel, its step in the indicator and its data.
//! No token, no clear phone (only the masked display).

use chrono::{DateTime, Utc};
use serde_json::{json, Value};

use super::messages::{self, INVALID_CODE};
use super::state::{DownloadPanel, DownloadState};
use crate::flow::Outcome;

pub fn view(state: &DownloadState, now: DateTime<Utc>) -> Value {
    let resend_in = state.resend_at().map(|at| ((at - now).num_milliseconds().max(0) + 999) / 1000);
    let partners: Vec<Value> =
        state.partners.iter().map(|p| json!({ "id": p.id, "name": p.name, "logotype": p.logotype })).collect();
    let devices: Vec<Value> = state
        .devices
        .iter()
        .map(|d| {
            json!({
                "id": d.id,
                "device_name": d.device_name.shown(),
                "os_type": d.os_type,
                "os_version": d.os_version,
                "country": d.country,
                "first_login": d.first_login,
                "last_login": d.last_login,
            })
        })
        .collect();
    json!({
        "panel": state.panel.name(),
        "step": state.panel.indicator(),
        "busy": state.is_busy(),
        "os": state.os.map(|os| os.as_str()),
        "phone": state.masked_phone,
        "resend_in": resend_in,
        "code_error": state.code_rejected.then_some(INVALID_CODE),
        "partners": partners,
        "devices": devices,
        "licences": format!("{n}/{n}", n = state.devices.len()),
        "snackbar": state.snackbar.as_ref().map(|s| json!({ "id": s.id, "message": s.message })),
        "downloads": state.downloads,
    })
}

/// Done once the installer is granted; refused on the spec's refusal screens (their titles are
/// what the visitor read) or while a snackbar shows.
pub fn outcome(state: &DownloadState) -> Outcome {
    match state.panel {
        DownloadPanel::DownloadDone => Outcome::Completed,
        DownloadPanel::UserNotFound => Outcome::refused(messages::USER_NOT_FOUND),
        DownloadPanel::LicencesInUse => Outcome::refused(messages::LICENCES_IN_USE),
        DownloadPanel::PlanWithoutAntivirus => Outcome::refused(messages::PLAN_WITHOUT_ANTIVIRUS),
        DownloadPanel::DownloadError => Outcome::refused(messages::DOWNLOAD_ERROR),
        _ => match &state.snackbar {
            Some(snackbar) => Outcome::refused(snackbar.message),
            None => Outcome::Open,
        },
    }
}
