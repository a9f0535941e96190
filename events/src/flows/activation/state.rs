//! The attempt folded from its events: the panel on screen, the step running, the error in the
//! banner, and what later steps need.

use crate::flow::SecretField;
use chrono::{DateTime, Duration, Utc};

use super::events::{ActivationEvent, CodeRefusal, Platform, Products, StepFailed};
use super::messages;
use super::step::ActivationStep;
use super::validation::DocumentKind;
use super::variant::{Form, Variant};
use crate::flow::PiiField;

/// Spec section 9: the activation's resend countdown.
pub const RESEND_COUNTDOWN_SECS: i64 = 60;

/// The panels of the activation template (spec section 2), plus the moment before the start.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ActivationPanel {
    #[default]
    Starting,
    PartnerLogin,
    SendCode,
    Email,
    CodeValidation,
    ProductList,
    RedirectStore,
}

impl ActivationPanel {
    pub fn name(self) -> &'static str {
        match self {
            ActivationPanel::Starting => "starting",
            ActivationPanel::PartnerLogin => "partner_login",
            ActivationPanel::SendCode => "send_code",
            ActivationPanel::Email => "email",
            ActivationPanel::CodeValidation => "code_validation",
            ActivationPanel::ProductList => "product_list",
            ActivationPanel::RedirectStore => "redirect_store",
        }
    }
}

#[derive(Debug, Clone, Default)]
pub struct ActivationState {
    pub variant: Option<Variant>,
    pub panel: ActivationPanel,
    /// The upstream step due now (the loading overlay is shown meanwhile).
    pub pending: Option<ActivationStep>,
    pub pending_since: Option<DateTime<Utc>>,
    /// Whether the pending `send_code` is a resend.
    pub resending: bool,
    /// The banner's message (spec section 8), until the visitor's next command.
    pub error: Option<String>,
    /// Licence from `?licenca=`.
    pub licence: Option<PiiField>,
    pub licence_locked: bool,
    pub partner_code: Option<SecretField>,
    pub partner_state: Option<SecretField>,
    pub return_url: Option<String>,
    pub partner_login_url: Option<String>,
    /// The partner knows the customer (their id is in the attempt's secrets).
    pub customer_known: bool,
    pub plan_id: Option<String>,
    pub phone: Option<PiiField>,
    pub phone_display: Option<String>,
    /// The licence the visitor submitted (or the locked one).
    pub serial: Option<PiiField>,
    pub document: Option<PiiField>,
    pub document_kind: Option<DocumentKind>,
    pub email: Option<PiiField>,
    /// End of the resend countdown (started by a successful resend).
    pub resend_until: Option<DateTime<Utc>>,
    pub pincode: Option<SecretField>,
    pub products: Option<Products>,
    pub redirected: Option<Platform>,
    pub chosen: Vec<String>,
}

impl ActivationState {
    /// The variant's form panel: send code or e-mail.
    pub fn form_panel(&self) -> ActivationPanel {
        match self.variant.map(Variant::form) {
            Some(Form::Email) => ActivationPanel::Email,
            _ => ActivationPanel::SendCode,
        }
    }

    /// Whether the resend countdown is still running at `now`.
    pub fn countdown_running(&self, now: DateTime<Utc>) -> bool {
        self.resend_until.is_some_and(|until| now < until)
    }

    /// Seconds left on the countdown, rounded up (60 right after a resend).
    pub fn resend_in(&self, now: DateTime<Utc>) -> i64 {
        match self.resend_until {
            // Never above 60: `now` may be another clock than the one that recorded the
            // resend, a little behind it.
            Some(until) if now < until => {
                let millis = (until - now).num_milliseconds();
                ((millis + 999) / 1000).min(RESEND_COUNTDOWN_SECS)
            }
            _ => 0,
        }
    }

    fn run(mut self, step: ActivationStep, at: DateTime<Utc>) -> Self {
        self.pending = Some(step);
        self.pending_since = Some(at);
        self
    }

    fn idle(mut self) -> Self {
        self.pending = None;
        self.pending_since = None;
        self
    }

    fn fail(mut self, message: &str, panel: ActivationPanel) -> Self {
        self.error = Some(message.to_string());
        self.panel = panel;
        self.idle()
    }

    /// After `step` succeeded: the next step of the chain, or `done` when there is none.
    fn after(self, step: ActivationStep, at: DateTime<Utc>, done: impl FnOnce(Self) -> Self) -> Self {
        match self.variant.and_then(|v| v.step_after(step)) {
            Some(next) => self.run(next, at),
            None => done(self.idle()),
        }
    }

    /// Back on the partner-login panel after a failed look-up: its link is prepared if the
    /// attempt never had one (it started with `?code=`).
    fn offer_partner_login(self, at: DateTime<Utc>) -> Self {
        if self.partner_login_url.is_none() && self.return_url.is_some() {
            self.run(ActivationStep::PreparePartnerLogin, at)
        } else {
            self
        }
    }

    /// Where a failed step leaves the visitor.
    fn panel_for_failed(&self, step: Option<ActivationStep>) -> ActivationPanel {
        match step {
            Some(ActivationStep::PreparePartnerLogin | ActivationStep::LookUpCustomer) => ActivationPanel::PartnerLogin,
            Some(ActivationStep::SendCode) if self.resending => ActivationPanel::CodeValidation,
            Some(ActivationStep::ValidateCode) => ActivationPanel::CodeValidation,
            Some(_) => self.form_panel(),
            None => self.panel,
        }
    }
}

pub fn evolve(state: ActivationState, event: &ActivationEvent, at: DateTime<Utc>) -> ActivationState {
    match event {
        ActivationEvent::Started(started) => {
            let mut state = ActivationState {
                variant: Some(started.variant),
                licence: started.licence.clone(),
                licence_locked: started.licence_locked,
                partner_code: started.partner_code.clone(),
                partner_state: started.partner_state.clone(),
                return_url: started.return_url.clone(),
                ..ActivationState::default()
            };
            state.panel = state.form_panel();
            match (started.variant, &started.partner_code) {
                (Variant::Broadband, Some(_)) => state.run(ActivationStep::LookUpCustomer, at),
                (Variant::Broadband, None) => {
                    state.panel = ActivationPanel::PartnerLogin;
                    state.run(ActivationStep::PreparePartnerLogin, at)
                }
                _ => state,
            }
        }
        ActivationEvent::PartnerLoginPrepared { authorize_url } => {
            let mut state = state.idle();
            state.partner_login_url = Some(authorize_url.clone());
            state
        }
        ActivationEvent::CustomerFound {} => {
            let mut state = state.idle();
            state.customer_known = true;
            state.panel = ActivationPanel::SendCode;
            state
        }
        ActivationEvent::CustomerNotFound(_) => {
            state.fail(messages::CUSTOMER_NOT_FOUND, ActivationPanel::PartnerLogin).offer_partner_login(at)
        }
        ActivationEvent::PhoneSubmitted(submitted) => {
            let mut state = state;
            state.error = None;
            state.phone = Some(submitted.phone.clone());
            state.phone_display = Some(submitted.phone_display.clone());
            state.serial = submitted.licence.clone();
            state.document = submitted.document.clone();
            state.document_kind = submitted.document_kind;
            state.resending = false;
            let first =
                state.variant.and_then(|v| v.before_code().first().copied()).unwrap_or(ActivationStep::SendCode);
            state.run(first, at)
        }
        ActivationEvent::EmailSubmitted(submitted) => {
            let mut state = state;
            state.error = None;
            state.phone = Some(submitted.phone.clone());
            state.phone_display = Some(submitted.phone_display.clone());
            state.email = Some(submitted.email.clone());
            state.resending = false;
            let first =
                state.variant.and_then(|v| v.before_code().first().copied()).unwrap_or(ActivationStep::SendCode);
            state.run(first, at)
        }
        ActivationEvent::PartnerLoggedIn {} => {
            let mut state = state;
            state.customer_known = true;
            state.after(ActivationStep::PartnerLogin, at, |s| s)
        }
        ActivationEvent::PartnerLoginRefused(_) => {
            let panel = state.form_panel();
            state.fail(messages::PARTNER_LOGIN_REFUSED, panel)
        }
        ActivationEvent::PartnerPlanFound { plan_id } => {
            let mut state = state;
            state.plan_id = Some(plan_id.clone());
            state.after(ActivationStep::FetchAccount, at, |s| s)
        }
        ActivationEvent::CarrierTokenObtained {} => state.after(ActivationStep::CarrierToken, at, |s| s),
        ActivationEvent::DocumentAuthorized { .. } => state.after(ActivationStep::AuthorizeDocument, at, |s| s),
        ActivationEvent::DocumentRefused(_) | ActivationEvent::AuthorizationRefused(_) => {
            let panel = state.form_panel();
            state.fail(messages::NOT_AUTHORIZED, panel)
        }
        ActivationEvent::CodeSent { resend } => {
            let mut state = state.idle();
            state.panel = ActivationPanel::CodeValidation;
            state.resending = false;
            state.resend_until = resend.then(|| at + Duration::seconds(RESEND_COUNTDOWN_SECS));
            state
        }
        ActivationEvent::CodeSendFailed(_) => {
            let panel = state.panel_for_failed(Some(ActivationStep::SendCode));
            let mut state = state.fail(messages::GENERIC, panel);
            state.resending = false;
            state
        }
        ActivationEvent::CodeResendRequested {} => {
            let mut state = state;
            state.error = None;
            state.resending = true;
            state.run(ActivationStep::SendCode, at)
        }
        ActivationEvent::CodeSubmitted { pincode } => {
            let mut state = state;
            state.error = None;
            state.pincode = Some(pincode.clone());
            state.run(ActivationStep::ValidateCode, at)
        }
        ActivationEvent::CodeValidated {} => {
            let mut state = state;
            state.pincode = None;
            let first = state.variant.and_then(|v| v.after_code().first().copied());
            match first {
                Some(step) => state.run(step, at),
                None => state.idle(),
            }
        }
        ActivationEvent::CodeRejected { reason, .. } => {
            let message = match reason {
                CodeRefusal::Expired => messages::CODE_EXPIRED,
                CodeRefusal::Locked => messages::CODE_LOCKED,
                CodeRefusal::Wrong => messages::CODE_WRONG,
            };
            let mut state = state.fail(message, ActivationPanel::CodeValidation);
            state.pincode = None;
            state
        }
        ActivationEvent::AuthorizationGranted {} => state.after(ActivationStep::Authorize, at, |s| s),
        ActivationEvent::IdentityVerified {} => state.after(ActivationStep::VerifyToken, at, |s| s),
        ActivationEvent::PacksFetched { products, .. } => {
            let mut state = state.idle();
            if products.any() {
                state.products = Some(*products);
                state.panel = ActivationPanel::ProductList;
                state
            } else {
                // A plan that grants none of the three products: nothing to list.
                let panel = state.form_panel();
                state.fail(messages::NOT_AUTHORIZED, panel)
            }
        }
        ActivationEvent::Subscribed {} => {
            let mut state = state.idle();
            state.panel = ActivationPanel::RedirectStore;
            state
        }
        ActivationEvent::SerialNotFound(_) => {
            let panel = state.form_panel();
            state.fail(messages::SERIAL_NOT_FOUND, panel)
        }
        ActivationEvent::StepFailed(StepFailed { step, .. }) | ActivationEvent::StepGaveUp { step, .. } => {
            let step = ActivationStep::from_name(step);
            let panel = state.panel_for_failed(step);
            let mut state = state.fail(messages::GENERIC, panel);
            state.resending = false;
            match step {
                Some(ActivationStep::LookUpCustomer) => state.offer_partner_login(at),
                _ => state,
            }
        }
        ActivationEvent::StoreRedirected { platform } => {
            let mut state = state;
            state.redirected = Some(*platform);
            state
        }
        ActivationEvent::ProductChosen { product, .. } => {
            let mut state = state;
            state.chosen.push(product.clone());
            state
        }
    }
}
