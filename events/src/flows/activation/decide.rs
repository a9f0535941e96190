//! The visitor's commands, checked against the panel on screen and the spec's field rules.

use crate::flow::SecretField;
use chrono::{DateTime, Utc};

use super::commands::ActivationCommand;
use super::events::{ActivationEvent, EmailSubmitted, PhoneSubmitted, Started};
use super::messages;
use super::state::{ActivationPanel, ActivationState};
use super::validation::{CpfCnpj, Email, Licence, Msisdn, Pincode};
use super::variant::Variant;
use crate::flow::{Guards, PiiField, Rejection};
use crate::pii::PiiKind;

/// The broadband partner's return page, the only place its OAuth provider may send visitors.
pub const BROADBAND_RETURN_PATH: &str = "/seguranca/ativarbrisanet";

/// Longest `?code=` we pass on (OAuth codes are far shorter).
const MAX_PARTNER_CODE: usize = 512;

fn not_now() -> Rejection {
    Rejection::general(messages::NOT_NOW)
}

/// Whether a visitor's command may act on `panel` now (right panel, no call running).
fn on_panel(state: &ActivationState, panel: ActivationPanel) -> Result<(), Rejection> {
    if state.panel == panel && state.pending.is_none() {
        Ok(())
    } else {
        Err(not_now())
    }
}

/// Download buttons of the product list one attempt may press (issue 15: bounded attempts).
pub const MAX_PRODUCT_CHOICES: usize = 20;

pub fn decide(
    state: &ActivationState,
    command: ActivationCommand,
    now: DateTime<Utc>,
) -> Result<Vec<ActivationEvent>, Rejection> {
    match command {
        ActivationCommand::Start { variant, licenca, code, state: oauth_state, return_url } => {
            start(state, variant, licenca, code, oauth_state, return_url)
        }
        ActivationCommand::SubmitPhone { phone, licence, cpf_cnpj } => submit_phone(state, &phone, licence, cpf_cnpj),
        ActivationCommand::SubmitEmail { phone, email } => submit_email(state, &phone, &email),
        ActivationCommand::ResendCode {} => {
            on_panel(state, ActivationPanel::CodeValidation)?;
            if state.countdown_running(now) {
                return Err(Rejection::general(messages::WAIT_COUNTDOWN));
            }
            Ok(vec![ActivationEvent::CodeResendRequested {}])
        }
        ActivationCommand::SubmitCode { pincode, terms_accepted } => {
            on_panel(state, ActivationPanel::CodeValidation)?;
            // Spec section 4: the validate button is disabled during the resend countdown.
            if state.countdown_running(now) {
                return Err(Rejection::general(messages::WAIT_COUNTDOWN));
            }
            let pincode = Pincode::parse(&pincode)?;
            if !terms_accepted {
                return Err(Rejection::field("terms", messages::TERMS_REQUIRED));
            }
            Ok(vec![ActivationEvent::CodeSubmitted { pincode: SecretField::clear(pincode.as_str()) }])
        }
        ActivationCommand::RecordStoreRedirect { platform } => {
            on_panel(state, ActivationPanel::RedirectStore)?;
            // Recorded once; a reload that redirects again adds nothing.
            Ok(match state.redirected {
                Some(_) => vec![],
                None => vec![ActivationEvent::StoreRedirected { platform }],
            })
        }
        ActivationCommand::ChooseProduct { product, platform } => {
            on_panel(state, ActivationPanel::ProductList)?;
            // Each press is an event: a visitor (or a script) may not grow the attempt for ever.
            if state.chosen.len() >= MAX_PRODUCT_CHOICES {
                return Err(Rejection::general(messages::TOO_MANY_CHOICES));
            }
            let granted = state.products.map(|p| p.granted()).unwrap_or_default();
            if !granted.contains(&product.as_str()) {
                return Err(not_now());
            }
            Ok(vec![ActivationEvent::ProductChosen { product, platform }])
        }
    }
}

fn start(
    state: &ActivationState,
    variant: Variant,
    licenca: Option<String>,
    code: Option<String>,
    oauth_state: Option<String>,
    return_url: Option<String>,
) -> Result<Vec<ActivationEvent>, Rejection> {
    if state.variant.is_some() {
        return Err(not_now());
    }
    // `?licenca=` prefills and locks the licence; a value the form could not hold is ignored.
    let licence = match variant.needs_licence() {
        true => licenca
            .as_deref()
            .and_then(|l| Licence::parse(l).ok())
            .map(|l| PiiField::clear(PiiKind::Licence, l.as_str())),
        false => None,
    };
    let licence_locked = variant.needs_licence() && (licence.is_some() || variant.licence_always_locked());
    // A malformed code or state is kept out (the look-up refuses the return without them).
    let partner_token = |value: Option<String>| match variant {
        Variant::Broadband => {
            value.map(|c| c.trim().to_string()).filter(|c| is_partner_token(c)).map(|c| SecretField::clear(&c))
        }
        _ => None,
    };
    let partner_code = partner_token(code);
    let partner_state = partner_code.as_ref().and(partner_token(oauth_state));
    // The OAuth `redirect_uri`: only our own return page, refused (not ignored) otherwise. The
    // server checks its origin against the configured one before the flow sees it.
    let return_url = match variant {
        Variant::Broadband => match return_url {
            Some(url) if !is_return_url(&url) => {
                return Err(Rejection::field(super::messages::RETURN_URL_FIELD, super::messages::RETURN_URL_REFUSED));
            }
            url => url,
        },
        _ => None,
    };
    Ok(vec![ActivationEvent::Started(Started {
        variant,
        brand: variant.brand(),
        licence,
        licence_locked,
        partner_code,
        partner_state,
        return_url,
    })])
}

/// An OAuth code or state as providers issue them: URL-safe characters only.
fn is_partner_token(code: &str) -> bool {
    !code.is_empty()
        && code.len() <= MAX_PARTNER_CODE
        && code.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~'))
}

/// An absolute http(s) URL of our own broadband return page, nothing appended.
fn is_return_url(url: &str) -> bool {
    let Some(rest) = url.strip_prefix("https://").or_else(|| url.strip_prefix("http://")) else {
        return false;
    };
    let Some((host, path)) = rest.split_once('/') else { return false };
    !host.is_empty()
        && host.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b':' | b'[' | b']'))
        && format!("/{path}") == BROADBAND_RETURN_PATH
}

fn submit_phone(
    state: &ActivationState,
    phone: &str,
    licence: Option<String>,
    cpf_cnpj: Option<String>,
) -> Result<Vec<ActivationEvent>, Rejection> {
    on_panel(state, ActivationPanel::SendCode)?;
    let variant = state.variant.ok_or_else(not_now)?;
    if variant.form() != super::variant::Form::SendCode {
        return Err(not_now());
    }
    // Fields in screen order; the first wrong one answers.
    let msisdn = Msisdn::parse(phone)?;
    let document = match variant.needs_document() {
        true => Some(CpfCnpj::parse(cpf_cnpj.as_deref().unwrap_or(""))?),
        false => None,
    };
    let licence = match (variant.needs_licence(), state.licence_locked) {
        (false, _) => None,
        // A locked field keeps the link's value (or stays empty on a portal link without one).
        // The start checked it; sealed since, it is carried as it is.
        (true, true) => match &state.licence {
            Some(locked) => Some(locked.carried(PiiKind::Licence)),
            None => Some(PiiField::clear(PiiKind::Licence, Licence::parse("")?.as_str())),
        },
        (true, false) => {
            Some(PiiField::clear(PiiKind::Licence, Licence::parse(licence.as_deref().unwrap_or(""))?.as_str()))
        }
    };
    Ok(vec![ActivationEvent::PhoneSubmitted(PhoneSubmitted {
        phone: PiiField::clear(PiiKind::Phone, msisdn.as_str()),
        phone_display: msisdn.masked(),
        licence,
        document_kind: document.as_ref().map(CpfCnpj::kind),
        document_display: document.as_ref().map(CpfCnpj::masked),
        document: document.map(|d| PiiField::clear(PiiKind::CpfCnpj, d.as_str())),
    })])
}

fn submit_email(state: &ActivationState, phone: &str, email: &str) -> Result<Vec<ActivationEvent>, Rejection> {
    on_panel(state, ActivationPanel::Email)?;
    let msisdn = Msisdn::parse(phone)?;
    let email = Email::parse(email)?;
    Ok(vec![ActivationEvent::EmailSubmitted(EmailSubmitted {
        phone: PiiField::clear(PiiKind::Phone, msisdn.as_str()),
        phone_display: msisdn.masked(),
        email: PiiField::clear(PiiKind::Email, email.as_str()),
        email_display: email.masked(),
    })])
}

/// What the decided events will do that the limits watch: a code to the phone typed or to the
/// attempt's, a code check, the telecom partner's log-in with the e-mail typed.
pub fn guards(decided: &[ActivationEvent]) -> Guards {
    decided.iter().fold(Guards::default(), |guards, event| {
        guards.and(match event {
            ActivationEvent::PhoneSubmitted(submitted) => Guards::sms_to(submitted.phone.clear_text()),
            ActivationEvent::EmailSubmitted(submitted) => Guards {
                partner_login: Some(submitted.email.clear_text().unwrap_or_default().trim().to_lowercase()),
                ..Guards::sms_to(submitted.phone.clear_text())
            },
            ActivationEvent::CodeResendRequested {} => Guards::resend(),
            ActivationEvent::CodeSubmitted { .. } => Guards::code_check(),
            _ => Guards::default(),
        })
    })
}
