//! One upstream call, the one way every flow's client sends (issue 24: three send loops were
//! written apart): the time-out, the transport errors, the capped body read, and the call
//! record the support timeline shows. What an answer means is the client's: it classifies the
//! status and body into its own answer, and says which failures are worth another try
//! ([`Classified`]), which the record then carries.

use std::time::Duration;

use reqwest::RequestBuilder;

use super::transient::{read_body, transport_kind, MAX_ANSWER_BYTES};
use crate::upstream::calls::CallLog;

/// Why an upstream call did not succeed: the one answer the cloud and download clients give
/// beside their success type (the activation client's `Reply` also tells a 2xx without the
/// expected field, which that flow records as a failure rather than retries).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CallError {
    /// The upstream answered and said no: its status, its error code and its message for the
    /// visitor, when it gave them (for example 403 `NO_FREE_LICENSE`).
    #[error("refused: {}", refusal_reason(*status, code.as_deref()))]
    Refused { status: u16, code: Option<String>, message: Option<String> },
    /// No usable answer (network, time-out, 408/425/429/502/503/504, a broken body): try again.
    #[error("transient: {0}")]
    Transient(String),
}

fn refusal_reason(status: u16, code: Option<&str>) -> String {
    match code {
        Some(code) => format!("HTTP {status} {code}"),
        None => format!("HTTP {status}"),
    }
}

impl CallError {
    /// A refusal with the upstream's error code (empty counts as none) and no message.
    pub fn refused(status: u16, code: Option<String>) -> Self {
        CallError::Refused { status, code: code.filter(|c| !c.is_empty()), message: None }
    }

    /// A short, token-free reason for an event: `HTTP 403 NO_FREE_LICENSE`, or the transient one.
    pub fn reason(&self) -> String {
        match self {
            CallError::Refused { status, code, .. } => refusal_reason(*status, code.as_deref()),
            CallError::Transient(reason) => reason.clone(),
        }
    }

    /// The upstream's error code of a refusal.
    pub fn code(&self) -> Option<&str> {
        match self {
            CallError::Refused { code, .. } => code.as_deref(),
            CallError::Transient(_) => None,
        }
    }
}

impl Classified for CallError {
    fn transient(reason: String) -> Self {
        CallError::Transient(reason)
    }

    fn transient_reason(&self) -> Option<&str> {
        match self {
            CallError::Transient(reason) => Some(reason),
            CallError::Refused { .. } => None,
        }
    }
}

/// A client's error type: "try again" and its reason, or the upstream's own refusal.
pub trait Classified: Sized {
    /// "Try again later", with a reason naming the endpoint (never a token).
    fn transient(reason: String) -> Self;
    /// The reason, when this is worth another try; `None` for the upstream's refusal.
    fn transient_reason(&self) -> Option<&str>;
}

/// Sends `request` to `endpoint` (its name in `upstream_contract::endpoints`) within `timeout`
/// and hands the status and body to `classify`. No answer, or a body that cannot be read
/// within [`MAX_ANSWER_BYTES`], is transient. Every call is recorded in `calls` with its
/// status, latency and, when transient, the reason.
pub async fn send<T, E: Classified>(
    calls: &CallLog,
    endpoint: &str,
    request: RequestBuilder,
    timeout: Duration,
    classify: impl FnOnce(u16, &[u8]) -> Result<T, E>,
) -> Result<T, E> {
    let timer = calls.start(endpoint);
    let response = match request.timeout(timeout).send().await {
        Ok(response) => response,
        Err(error) => {
            let kind = transport_kind(&error);
            timer.record(None, Some(kind));
            return Err(E::transient(format!("{endpoint}: {kind}")));
        }
    };
    let status = response.status().as_u16();
    let body = match read_body(response, MAX_ANSWER_BYTES).await {
        Ok(body) => body,
        Err(kind) => {
            timer.record(Some(status), Some(kind));
            return Err(E::transient(format!("{endpoint}: reading the answer: {kind}")));
        }
    };
    let outcome = classify(status, &body);
    timer.record(Some(status), outcome.as_ref().err().and_then(Classified::transient_reason));
    outcome
}
