//! The attempt folded from its events: the panel on screen, the step running, the error in the
//! banner, and what later steps need.

use crate::flow::SecretField;
use chrono::{DateTime, Duration, Utc};

use super::events::{CodeRefusal, Event, Platform, Products, StepFailed};
use super::messages;
use super::validation::DocumentKind;
use super::variant::{Form, Step, Variant};
use crate::flow::PiiField;

/// Spec section 9: the activation's resend countdown.
pub const RESEND_COUNTDOWN_SECS: i64 = 60;

/// The panels of the activation template (spec section 2), plus the moment before the start.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Panel {
    #[default]
    Starting,
    PartnerLogin,
    SendCode,
    Email,
    CodeValidation,
    ProductList,
    RedirectStore,
}

impl Panel {
    pub fn as_str(self) -> &'static str {
        match self {
            Panel::Starting => "starting",
            Panel::PartnerLogin => "partner_login",
            Panel::SendCode => "send_code",
            Panel::Email => "email",
            Panel::CodeValidation => "code_validation",
            Panel::ProductList => "product_list",
            Panel::RedirectStore => "redirect_store",
        }
    }
}

#[derive(Debug, Clone, Default)]
pub struct State {
    pub variant: Option<Variant>,
    pub panel: Panel,
    /// The upstream step due now (the loading overlay is shown meanwhile).
    pub pending: Option<Step>,
    pub pending_since: Option<DateTime<Utc>>,
    /// Whether the pending `send_code` is a resend.
    pub resending: bool,
    /// The banner's message (spec section 8), until the visitor's next command.
    pub error: Option<String>,
    /// Licence from `?licenca=`.
    pub licence: Option<String>,
    pub licence_locked: bool,
    pub partner_code: Option<SecretField>,
    pub return_url: Option<String>,
    pub partner_login_url: Option<String>,
    pub customer_id: Option<String>,
    pub plan_id: Option<String>,
    pub phone: Option<PiiField>,
    pub phone_display: Option<String>,
    /// The licence the visitor submitted (or the locked one).
    pub serial: Option<String>,
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

impl State {
    /// The variant's form panel: send code or e-mail.
    pub fn form_panel(&self) -> Panel {
        match self.variant.map(Variant::form) {
            Some(Form::Email) => Panel::Email,
            _ => Panel::SendCode,
        }
    }

    /// Whether the resend countdown is still running at `now`.
    pub fn countdown_running(&self, now: DateTime<Utc>) -> bool {
        self.resend_until.is_some_and(|until| now < until)
    }

    /// Seconds left on the countdown, rounded up (60 right after a resend).
    pub fn resend_in(&self, now: DateTime<Utc>) -> i64 {
        match self.resend_until {
            Some(until) if now < until => {
                let millis = (until - now).num_milliseconds();
                (millis + 999) / 1000
            }
            _ => 0,
        }
    }

    fn run(mut self, step: Step, at: DateTime<Utc>) -> Self {
        self.pending = Some(step);
        self.pending_since = Some(at);
        self
    }

    fn idle(mut self) -> Self {
        self.pending = None;
        self.pending_since = None;
        self
    }

    fn fail(mut self, message: &str, panel: Panel) -> Self {
        self.error = Some(message.to_string());
        self.panel = panel;
        self.idle()
    }

    /// After `step` succeeded: the next step of the chain, or `done` when there is none.
    fn after(self, step: Step, at: DateTime<Utc>, done: impl FnOnce(Self) -> Self) -> Self {
        match self.variant.and_then(|v| v.step_after(step)) {
            Some(next) => self.run(next, at),
            None => done(self.idle()),
        }
    }

    /// Back on the partner-login panel after a failed look-up: its link is prepared if the
    /// attempt never had one (it started with `?code=`).
    fn offer_partner_login(self, at: DateTime<Utc>) -> Self {
        if self.partner_login_url.is_none() && self.return_url.is_some() {
            self.run(Step::PreparePartnerLogin, at)
        } else {
            self
        }
    }

    /// Where a failed step leaves the visitor.
    fn panel_for_failed(&self, step: Option<Step>) -> Panel {
        match step {
            Some(Step::PreparePartnerLogin | Step::LookUpCustomer) => Panel::PartnerLogin,
            Some(Step::SendCode) if self.resending => Panel::CodeValidation,
            Some(Step::ValidateCode) => Panel::CodeValidation,
            Some(_) => self.form_panel(),
            None => self.panel,
        }
    }
}

pub fn evolve(state: State, event: &Event, at: DateTime<Utc>) -> State {
    match event {
        Event::Started(started) => {
            let mut state = State {
                variant: Some(started.variant),
                licence: started.licence.clone(),
                licence_locked: started.licence_locked,
                partner_code: started.partner_code.clone(),
                return_url: started.return_url.clone(),
                ..State::default()
            };
            state.panel = state.form_panel();
            match (started.variant, &started.partner_code) {
                (Variant::Broadband, Some(_)) => state.run(Step::LookUpCustomer, at),
                (Variant::Broadband, None) => {
                    state.panel = Panel::PartnerLogin;
                    state.run(Step::PreparePartnerLogin, at)
                }
                _ => state,
            }
        }
        Event::PartnerLoginPrepared { authorize_url } => {
            let mut state = state.idle();
            state.partner_login_url = Some(authorize_url.clone());
            state
        }
        Event::CustomerFound { customer_id } => {
            let mut state = state.idle();
            state.customer_id = Some(customer_id.clone());
            state.panel = Panel::SendCode;
            state
        }
        Event::CustomerNotFound(_) => state.fail(messages::CUSTOMER_NOT_FOUND, Panel::PartnerLogin).offer_partner_login(at),
        Event::PhoneSubmitted(submitted) => {
            let mut state = state;
            state.error = None;
            state.phone = Some(submitted.phone.clone());
            state.phone_display = Some(submitted.phone_display.clone());
            state.serial = submitted.licence.clone();
            state.document = submitted.document.clone();
            state.document_kind = submitted.document_kind;
            state.resending = false;
            let first = state.variant.and_then(|v| v.before_code().first().copied()).unwrap_or(Step::SendCode);
            state.run(first, at)
        }
        Event::EmailSubmitted(submitted) => {
            let mut state = state;
            state.error = None;
            state.phone = Some(submitted.phone.clone());
            state.phone_display = Some(submitted.phone_display.clone());
            state.email = Some(submitted.email.clone());
            state.resending = false;
            let first = state.variant.and_then(|v| v.before_code().first().copied()).unwrap_or(Step::SendCode);
            state.run(first, at)
        }
        Event::PartnerLoggedIn { customer_id } => {
            let mut state = state;
            state.customer_id = Some(customer_id.clone());
            state.after(Step::PartnerLogin, at, |s| s)
        }
        Event::PartnerLoginRefused(_) => {
            let panel = state.form_panel();
            state.fail(messages::PARTNER_LOGIN_REFUSED, panel)
        }
        Event::PartnerPlanFound { plan_id } => {
            let mut state = state;
            state.plan_id = Some(plan_id.clone());
            state.after(Step::FetchAccount, at, |s| s)
        }
        Event::CarrierTokenObtained {} => state.after(Step::CarrierToken, at, |s| s),
        Event::DocumentAuthorized { .. } => state.after(Step::AuthorizeDocument, at, |s| s),
        Event::DocumentRefused(_) | Event::AuthorizationRefused(_) => {
            let panel = state.form_panel();
            state.fail(messages::NOT_AUTHORIZED, panel)
        }
        Event::CodeSent { resend } => {
            let mut state = state.idle();
            state.panel = Panel::CodeValidation;
            state.resending = false;
            state.resend_until = resend.then(|| at + Duration::seconds(RESEND_COUNTDOWN_SECS));
            state
        }
        Event::CodeSendFailed(_) => {
            let panel = state.panel_for_failed(Some(Step::SendCode));
            let mut state = state.fail(messages::GENERIC, panel);
            state.resending = false;
            state
        }
        Event::CodeResendRequested {} => {
            let mut state = state;
            state.error = None;
            state.resending = true;
            state.run(Step::SendCode, at)
        }
        Event::CodeSubmitted { pincode } => {
            let mut state = state;
            state.error = None;
            state.pincode = Some(pincode.clone());
            state.run(Step::ValidateCode, at)
        }
        Event::CodeValidated {} => {
            let mut state = state;
            state.pincode = None;
            let first = state.variant.and_then(|v| v.after_code().first().copied());
            match first {
                Some(step) => state.run(step, at),
                None => state.idle(),
            }
        }
        Event::CodeRejected { reason, .. } => {
            let message = match reason {
                CodeRefusal::Expired => messages::CODE_EXPIRED,
                CodeRefusal::Locked => messages::CODE_LOCKED,
                CodeRefusal::Wrong => messages::CODE_WRONG,
            };
            let mut state = state.fail(message, Panel::CodeValidation);
            state.pincode = None;
            state
        }
        Event::AuthorizationGranted {} => state.after(Step::Authorize, at, |s| s),
        Event::IdentityVerified {} => state.after(Step::VerifyToken, at, |s| s),
        Event::PacksFetched { products, .. } => {
            let mut state = state.idle();
            if products.any() {
                state.products = Some(*products);
                state.panel = Panel::ProductList;
                state
            } else {
                // A plan that grants none of the three products: nothing to list.
                let panel = state.form_panel();
                state.fail(messages::NOT_AUTHORIZED, panel)
            }
        }
        Event::Subscribed {} => {
            let mut state = state.idle();
            state.panel = Panel::RedirectStore;
            state
        }
        Event::SerialNotFound(_) => {
            let panel = state.form_panel();
            state.fail(messages::SERIAL_NOT_FOUND, panel)
        }
        Event::StepFailed(StepFailed { step, .. }) | Event::StepGaveUp { step, .. } => {
            let step = Step::parse(step);
            let panel = state.panel_for_failed(step);
            let mut state = state.fail(messages::GENERIC, panel);
            state.resending = false;
            match step {
                Some(Step::LookUpCustomer) => state.offer_partner_login(at),
                _ => state,
            }
        }
        Event::StoreRedirected { platform } => {
            let mut state = state;
            state.redirected = Some(*platform);
            state
        }
        Event::ProductChosen { product, .. } => {
            let mut state = state;
            state.chosen.push(product.clone());
            state
        }
    }
}
