//! What the visitor's browser shows: the panel, its step in the indicator and its data.
//! No token, no clear phone (only the masked display).

use chrono::{DateTime, Utc};
use serde_json::{json, Value};

use super::state::DownloadState;
use super::messages::INVALID_CODE;

pub fn view(state: &DownloadState, now: DateTime<Utc>) -> Value {
    let resend_in = state.resend_at().map(|at| ((at - now).num_milliseconds().max(0) + 999) / 1000);
    let partners: Vec<Value> = state
        .partners
        .iter()
        .map(|p| json!({ "id": p.id, "name": p.name, "logotype": p.logotype }))
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
        "devices": state.devices,
        "licences": format!("{n}/{n}", n = state.devices.len()),
        "snackbar": state.snackbar.as_ref().map(|s| json!({ "id": s.id, "message": s.message })),
        "downloads": state.downloads,
    })
}
