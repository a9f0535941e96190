//! The folded state of a cloud attempt, and `evolve`.

use crate::flow::SecretField;
use chrono::{DateTime, Duration, Utc};

use super::events::CloudEvent;
use super::messages::GENERIC_ERROR;
use super::step::CloudStep;
use crate::flow::PiiField;

/// Spec section 9: the pause between registering the serial and the token exchange.
pub const TOKEN_DELAY: Duration = Duration::seconds(5);
/// Spec section 9: the resend link stays hidden this long after a successful resend.
pub const RESEND_COUNTDOWN: Duration = Duration::seconds(10);

/// Which form (or the success modal) the visitor sees.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CloudPanel {
    /// Form 1: phone and serial.
    #[default]
    Details,
    /// Form 2: the SMS code.
    Code,
    /// The success modal, then `/cliente/hero`.
    Success,
}

impl CloudPanel {
    pub fn name(self) -> &'static str {
        match self {
            Self::Details => "details",
            Self::Code => "code",
            Self::Success => "success",
        }
    }
}

/// A step the runner owes the attempt, and from when.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pending {
    pub step: CloudStep,
    pub due_at: DateTime<Utc>,
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct CloudState {
    pub started: bool,
    pub panel: CloudPanel,
    /// Sealed msisdn (`55` + digits) as stored; the runner opens it.
    pub phone: Option<PiiField>,
    pub phone_masked: Option<String>,
    /// The serial as stored (sealed; opened for the owner's view and by the runner).
    pub serial: Option<PiiField>,
    /// Of the code currently valid (the latest send or resend).
    pub transaction_id: Option<String>,
    /// The code waiting to be validated.
    pub pincode: Option<SecretField>,
    pub pending: Option<Pending>,
    /// The server's or the runner's message for the red banner.
    pub error: Option<String>,
    /// When the latest successful resend happened (starts the 10 s countdown).
    pub resent_at: Option<DateTime<Utc>>,
    pub resends: u32,
    pub activated: bool,
}

impl CloudState {
    pub fn busy(&self) -> bool {
        self.pending.is_some()
    }

    /// When 'Reenviar código' shows again, if a countdown runs at `now`.
    pub fn resend_available_at(&self, now: DateTime<Utc>) -> Option<DateTime<Utc>> {
        self.resent_at.map(|at| at + RESEND_COUNTDOWN).filter(|until| *until > now)
    }

    fn due(mut self, step: CloudStep, due_at: DateTime<Utc>) -> Self {
        self.pending = Some(Pending { step, due_at });
        self.error = None;
        self
    }

    fn failed(mut self, message: &str) -> Self {
        self.pending = None;
        self.pincode = None;
        self.error = Some(message.to_string());
        self
    }

    /// A failure once the code was spent: back to form 1, a new code is needed.
    fn failed_after_code(mut self, message: &str) -> Self {
        self.panel = CloudPanel::Details;
        self.transaction_id = None;
        self.resent_at = None;
        self.failed(message)
    }
}

pub fn evolve(state: CloudState, event: &CloudEvent, at: DateTime<Utc>) -> CloudState {
    match event {
        CloudEvent::DetailsSubmitted { phone, phone_masked, serial } => CloudState {
            started: true,
            panel: CloudPanel::Details,
            phone: Some(phone.clone()),
            phone_masked: Some(phone_masked.clone()),
            serial: Some(serial.clone()),
            transaction_id: None,
            pincode: None,
            resent_at: None,
            resends: 0,
            ..state
        }
        .due(CloudStep::CheckPhone, at),
        CloudEvent::PhoneChecked {} => state.due(CloudStep::SendCode, at),
        CloudEvent::PhoneRefused { message } | CloudEvent::CodeSendFailed { message } => state.failed(message),
        CloudEvent::CodeSent { transaction_id } => CloudState {
            panel: CloudPanel::Code,
            transaction_id: transaction_id.clone(),
            pending: None,
            error: None,
            ..state
        },
        CloudEvent::ResendRequested {} => state.due(CloudStep::ResendCode, at),
        CloudEvent::CodeResent { transaction_id } => CloudState {
            transaction_id: transaction_id.clone(),
            pending: None,
            error: None,
            resent_at: Some(at),
            resends: state.resends + 1,
            ..state
        },
        CloudEvent::ResendFailed { message } | CloudEvent::CodeRejected { message } => state.failed(message),
        CloudEvent::DetailsReopened {} => CloudState {
            panel: CloudPanel::Details,
            pending: None,
            error: None,
            transaction_id: None,
            pincode: None,
            resent_at: None,
            ..state
        },
        CloudEvent::CodeSubmitted { pincode } => {
            CloudState { pincode: Some(pincode.clone()), ..state }.due(CloudStep::ValidateCode, at)
        }
        CloudEvent::CodeValidated {} => CloudState { pincode: None, ..state }.due(CloudStep::RegisterSerial, at),
        // The 5 s wait is a due time, so a restarted runner still honours it.
        CloudEvent::SerialRegistered {} => state.due(CloudStep::GetCustomToken, at + TOKEN_DELAY),
        CloudEvent::CustomTokenObtained {} => state.due(CloudStep::SignIn, at),
        CloudEvent::SerialRejected { message }
        | CloudEvent::CustomTokenFailed { message }
        | CloudEvent::SignInFailed { message } => state.failed_after_code(message),
        // Signed in is the last call: the account is active and the success modal shows.
        // `cloud.activated` follows in the same append and marks the funnel's end.
        CloudEvent::SignedIn {} | CloudEvent::Activated {} => {
            CloudState { panel: CloudPanel::Success, activated: true, pending: None, error: None, ..state }
        }
        CloudEvent::StepGaveUp { step, .. } => match CloudStep::from_name(step) {
            Some(step) if step.after_code() => state.failed_after_code(GENERIC_ERROR),
            _ => state.failed(GENERIC_ERROR),
        },
    }
}
