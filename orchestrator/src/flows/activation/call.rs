//! One activation upstream call: the headers it carries, the request being built, and how its
//! answer is read (a transient trouble becomes a retry; any other status is the upstream's).

use reqwest::{RequestBuilder, Url};
use serde_json::Value;
use upstream_contract::headers::IDEMPOTENCY_KEY;

use super::client::Reply;
use crate::runner::{CallLog, StepError};
use crate::upstream::transient::transient_kind;

/// Which headers a call carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Auth {
    /// Correlation id, requester and brand and client credentials (partner API, BFF).
    Partner,
    /// Correlation id, requester and brand only (`/auth/v1/token`: credentials in the body).
    Caller,
    /// The telecom partner's API key.
    ApiKey,
    /// Nothing of ours (identity provider: its key is in the query).
    None,
}

/// What an upstream answered: its status and JSON body (`Null` when there was none).
#[derive(Debug, Clone)]
pub(super) struct Answer {
    pub(super) status: u16,
    pub(super) body: Value,
}

impl Answer {
    /// Spec section 7: 200 to 204 are success.
    pub(super) fn ok(&self) -> bool {
        (200..=204).contains(&self.status)
    }

    /// A string field of the body, by JSON pointer (`/authorization/custom_token`).
    pub(super) fn text(&self, pointer: &str) -> Option<String> {
        self.body.pointer(pointer).and_then(Value::as_str).map(str::to_string).filter(|s| !s.is_empty())
    }

    /// Refused outside 200 to 204; else what `read` finds, or malformed.
    pub(super) fn reply<T>(&self, read: impl FnOnce(&Self) -> Option<T>) -> Reply<T> {
        if !self.ok() {
            return Reply::Refused(self.status);
        }
        match read(self) {
            Some(value) => Reply::Done(value),
            None => Reply::Malformed(self.status),
        }
    }
}

/// One upstream call being built.
pub(super) struct Call<'a> {
    pub(super) request: RequestBuilder,
    /// The endpoint's name in `upstream_contract::endpoints`, for the call log.
    pub(super) endpoint: &'static str,
    pub(super) calls: &'a CallLog,
    pub(super) timeout: std::time::Duration,
}

impl Call<'_> {
    pub(super) fn bearer(mut self, token: &str) -> Self {
        self.request = self.request.bearer_auth(token);
        self
    }

    /// The step's key, the same on every retry, so the upstream acts once.
    pub(super) fn idempotent(mut self, key: &str) -> Self {
        self.request = self.request.header(IDEMPOTENCY_KEY, key);
        self
    }

    pub(super) fn json(mut self, body: &Value) -> Self {
        self.request = self.request.json(body);
        self
    }

    pub(super) fn form(mut self, fields: &[(&str, &str)]) -> Self {
        self.request = self.request.form(fields);
        self
    }

    /// Sends the call (`crate::upstream::call::send`). An answer that says "not now" (a
    /// gateway's 502/503/504, throttling, a repeat of a call still running under the same key:
    /// see [`crate::upstream::transient`]) is worth retrying; any other status is the upstream's
    /// answer.
    pub(super) async fn send(self) -> Result<Answer, StepError> {
        let endpoint = self.endpoint;
        crate::upstream::call::send(self.calls, endpoint, self.request, self.timeout, |status, bytes| {
            if let Some(kind) = transient_kind(status, bytes) {
                return Err(StepError::Transient(format!("{endpoint}: {kind}")));
            }
            Ok(Answer { status, body: serde_json::from_slice(bytes).unwrap_or(Value::Null) })
        })
        .await
    }
}

/// `base` + `path`, or a transient error naming the bad configuration.
pub(super) fn url(base: &str, path: &str) -> Result<Url, StepError> {
    Url::parse(&format!("{}{}", base.trim_end_matches('/'), path))
        // The configured base is not named: an operator may have put a key in it.
        .map_err(|e| StepError::Transient(format!("upstream URL for {path}: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn answer(status: u16, body: Value) -> Answer {
        Answer { status, body }
    }

    #[test]
    fn success_is_200_to_204() {
        assert!(answer(200, Value::Null).ok() && answer(204, Value::Null).ok());
        assert!(!answer(205, Value::Null).ok() && !answer(403, Value::Null).ok());
    }

    #[test]
    fn text_reads_nested_fields() {
        let answer = answer(200, json!({"authorization": {"custom_token": "t"}, "e": ""}));
        assert_eq!(answer.text("/authorization/custom_token").as_deref(), Some("t"));
        assert_eq!(answer.text("/e"), None);
        assert_eq!(answer.text("/missing"), None);
    }

    #[test]
    fn a_reply_is_done_refused_or_malformed() {
        let token = |a: &Answer| a.text("/t");
        assert_eq!(answer(201, json!({"t": "x"})).reply(token), Reply::Done("x".to_string()));
        assert_eq!(answer(403, json!({"t": "x"})).reply(token), Reply::Refused(403));
        assert_eq!(answer(200, json!({})).reply(token), Reply::Malformed(200));
    }
}
