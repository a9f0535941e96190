//! What the visitor's browser shows: the panel and its data. Never a token, never personal
//! data in clear (only the masked displays the events carry).

use chrono::{DateTime, Utc};
use serde_json::{json, Value};

use super::state::{ActivationPanel, ActivationState};
use crate::flow::{Outcome, PiiField};

pub fn view(state: &ActivationState, now: DateTime<Utc>) -> Value {
    let products = match (state.panel, state.products) {
        (ActivationPanel::ProductList, Some(products)) => products.granted(),
        _ => Vec::new(),
    };
    json!({
        "panel": state.panel.name(),
        "variant": state.variant,
        // The loading overlay: a call is running (or the attempt is not started yet).
        "busy": state.pending.is_some() || state.panel == ActivationPanel::Starting,
        "error": state.error,
        // Opened for the attempt's own visitor (`PiiKind::shown_to_owner`), `null` elsewhere.
        "licence": state.licence.as_ref().map(PiiField::shown),
        "licence_locked": state.licence_locked,
        "phone_display": state.phone_display,
        "resend_in": state.resend_in(now),
        "products": products,
        "plan_id": state.plan_id,
        "partner_login_url": state.partner_login_url,
    })
}

/// Done at the product list (carrier) or the store redirect (every other variant); refused
/// while the banner shows a message.
pub fn outcome(state: &ActivationState) -> Outcome {
    match (&state.panel, &state.error) {
        (ActivationPanel::ProductList | ActivationPanel::RedirectStore, _) => Outcome::Completed,
        (_, Some(message)) => Outcome::refused(message.clone()),
        _ => Outcome::Open,
    }
}
