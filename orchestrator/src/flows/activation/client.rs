//! HTTP to the activation's upstreams: the headers the spec lists (fresh correlation id,
//! requester name, brand, client credentials) added here, server-side, and answers sorted into
//! "the upstream answered" (any status: the flow records it) and "try again later".

use events::flows::activation::Brand;
use reqwest::{Method, RequestBuilder, Url};
use secrecy::ExposeSecret;
use serde_json::Value;
use uuid::Uuid;

use crate::runner::StepError;
use crate::upstream::Upstreams;

pub use upstream_contract::headers::{
    API_KEY, BRAND_NAME, CLIENT_ID, CLIENT_SECRET, CORRELATION_ID, IDEMPOTENCY_KEY, REQUESTER_NAME,
};
use upstream_contract::credentials::{BRAND_AGILITY, BRAND_DEFAULT, BRAND_TIM};

/// The brand names upstreams know (spec section 1: a default brand and two telecom-partner
/// variants).
pub fn brand_name(brand: Brand) -> &'static str {
    match brand {
        Brand::Default => BRAND_DEFAULT,
        Brand::Agility => BRAND_AGILITY,
        Brand::Tim => BRAND_TIM,
    }
}

/// What an upstream answered: its status and JSON body (`Null` when there was none).
#[derive(Debug, Clone)]
pub struct Answer {
    pub status: u16,
    pub body: Value,
}

impl Answer {
    /// Spec section 7: 200 to 204 are success.
    pub fn ok(&self) -> bool {
        (200..=204).contains(&self.status)
    }

    /// A string field of the body, by JSON pointer (`/authorization/custom_token`).
    pub fn text(&self, pointer: &str) -> Option<String> {
        self.body.pointer(pointer).and_then(Value::as_str).map(str::to_string).filter(|s| !s.is_empty())
    }
}

/// Which headers a call carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Auth {
    /// Correlation id, requester, brand and client credentials (partner API, BFF).
    Partner,
    /// Correlation id, requester and brand only (`/auth/v1/token`: credentials in the body).
    Caller,
    /// The telecom partner's API key.
    ApiKey,
    /// Nothing of ours (identity provider: its key is in the query).
    None,
}

/// One upstream call being built.
pub struct Call {
    request: RequestBuilder,
}

impl Call {
    pub fn new(http: &reqwest::Client, upstreams: &Upstreams, method: Method, url: Url, auth: Auth, brand: Brand) -> Self {
        let mut request = http.request(method, url).timeout(upstreams.timeout);
        if matches!(auth, Auth::Partner | Auth::Caller) {
            request = request
                .header(CORRELATION_ID, Uuid::new_v4().to_string())
                .header(REQUESTER_NAME, &upstreams.requester_name)
                .header(BRAND_NAME, brand_name(brand));
        }
        if auth == Auth::Partner {
            request = request
                .header(CLIENT_ID, &upstreams.client_id)
                .header(CLIENT_SECRET, upstreams.client_secret.expose_secret());
        }
        if auth == Auth::ApiKey {
            request = request.header(API_KEY, upstreams.hero_api_key.expose_secret());
        }
        Self { request }
    }

    pub fn bearer(mut self, token: &str) -> Self {
        self.request = self.request.bearer_auth(token);
        self
    }

    /// The step's key, the same on every retry, so the upstream acts once.
    pub fn idempotent(mut self, key: &str) -> Self {
        self.request = self.request.header(IDEMPOTENCY_KEY, key);
        self
    }

    pub fn json(mut self, body: &Value) -> Self {
        self.request = self.request.json(body);
        self
    }

    /// Sends the call. No answer, or a gateway's 502/503/504, is worth retrying; any other
    /// status is the upstream's answer.
    pub async fn send(self) -> Result<Answer, StepError> {
        let response = self.request.send().await.map_err(|e| StepError::Transient(format!("upstream unreachable: {e}")))?;
        let status = response.status().as_u16();
        if matches!(status, 502..=504) {
            return Err(StepError::Transient(format!("upstream gateway answered {status}")));
        }
        let text = response.text().await.map_err(|e| StepError::Transient(format!("reading upstream answer: {e}")))?;
        let body = serde_json::from_str(&text).unwrap_or(Value::Null);
        Ok(Answer { status, body })
    }
}

/// `base` + `path`, or a transient error naming the bad configuration.
pub fn url(base: &str, path: &str) -> Result<Url, StepError> {
    Url::parse(&format!("{}{}", base.trim_end_matches('/'), path))
        .map_err(|e| StepError::Transient(format!("upstream URL {base}{path}: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn success_is_200_to_204() {
        let answer = |status| Answer { status, body: Value::Null };
        assert!(answer(200).ok() && answer(204).ok());
        assert!(!answer(205).ok() && !answer(403).ok());
    }

    #[test]
    fn text_reads_nested_fields() {
        let answer = Answer { status: 200, body: json!({"authorization": {"custom_token": "t"}, "e": ""}) };
        assert_eq!(answer.text("/authorization/custom_token").as_deref(), Some("t"));
        assert_eq!(answer.text("/e"), None);
        assert_eq!(answer.text("/missing"), None);
    }
}
