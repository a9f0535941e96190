//! What the visitor's browser shows: the panel, its step in the indicator and its data.
//! No token, no clear phone (only the masked display).

use chrono::{DateTime, Utc};
use serde_json::{json, Value};

use super::state::{Stage, State};
use super::validation::INVALID_CODE;

impl Stage {
    /// The panel name shared with the web machine and the vectors.
    pub fn panel(self) -> &'static str {
        match self {
            Stage::PhoneEntry => "phone_entry",
            Stage::CodeEntry => "code_entry",
            Stage::UserNotFound => "user_not_found",
            Stage::PartnerChoice => "partner_choice",
            Stage::DownloadDone => "download_done",
            Stage::LicencesInUse => "licences_in_use",
            Stage::PlanWithoutAntivirus => "plan_without_antivirus",
            Stage::DownloadError => "download_error",
        }
    }

    /// The step the indicator highlights up to: 1 phone, 2 code, 3 download.
    pub fn step(self) -> u8 {
        match self {
            Stage::PhoneEntry => 1,
            Stage::CodeEntry | Stage::UserNotFound => 2,
            Stage::PartnerChoice
            | Stage::DownloadDone
            | Stage::LicencesInUse
            | Stage::PlanWithoutAntivirus
            | Stage::DownloadError => 3,
        }
    }
}

pub fn view(state: &State, now: DateTime<Utc>) -> Value {
    let resend_in = state.resend_at().map(|at| ((at - now).num_milliseconds().max(0) + 999) / 1000);
    let partners: Vec<Value> = state
        .partners
        .iter()
        .map(|p| json!({ "id": p.id, "name": p.name, "logotype": p.logotype }))
        .collect();
    json!({
        "panel": state.stage.panel(),
        "step": state.stage.step(),
        "busy": state.is_busy(),
        "os": state.os.map(|os| os.as_str()),
        "phone": state.masked_phone,
        "resend_in": resend_in,
        "code_error": state.code_rejected.then_some(INVALID_CODE),
        "partners": partners,
        "devices": state.devices,
        "licences": format!("{n}/{n}", n = state.devices.len()),
        "snackbar": state.snackbar.as_ref().map(|s| json!({ "id": s.id, "message": s.message })),
        "downloads": state.downloads,
    })
}
