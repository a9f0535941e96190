//! The desktop download's upstreams (spec §7 "Desktop download"): phone authentication, the
//! document database's `runQuery` and the antivirus API v1. Contracts: `docs/upstreams.md`,
//! "Desktop download".

use std::time::Duration;

use axum::body::Bytes;
use reqwest::{Method, RequestBuilder, StatusCode};
use secrecy::{ExposeSecret, SecretString};
use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::{json, Value};
use upstream_contract::headers;

use crate::runner::CallLog;
pub use crate::upstream::call::CallError;
use crate::upstream::transient::transient_kind;

/// The phone-auth service's answer to a confirmed code.
pub struct UserToken {
    pub token: SecretString,
    /// Seconds the token lives, as the service says.
    pub expires_in: Option<u64>,
}

/// Where the calls go and the keys they carry.
pub struct DesktopClient {
    http: reqwest::Client,
    calls: CallLog,
    timeout: Duration,
    phone_auth: String,
    phone_auth_key: SecretString,
    docdb: String,
    docdb_project: String,
    antivirus: String,
}

pub struct Endpoints<'a> {
    pub phone_auth: &'a str,
    pub phone_auth_key: &'a SecretString,
    pub docdb: &'a str,
    pub docdb_project: &'a str,
    pub antivirus: &'a str,
    /// Where every call is recorded (status, latency).
    pub calls: &'a CallLog,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Sent {
    session_info: String,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Confirmed {
    id_token: String,
    #[serde(default)]
    expires_in: Option<String>,
}

/// A partner as `GET /v1/user/partners` answers it.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct UpstreamPartner {
    pub id: String,
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub logotype: Option<String>,
    #[serde(default)]
    pub priority_subscription_id: Option<String>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct Seconds {
    pub seconds: i64,
}

/// A device as `GET /v1/user/devices` answers it.
#[derive(Debug, Clone, Deserialize)]
pub struct UpstreamDevice {
    pub id: String,
    #[serde(default)]
    pub device_name: String,
    #[serde(default)]
    pub first_login: Option<Seconds>,
    #[serde(default)]
    pub last_login: Option<Seconds>,
    #[serde(default)]
    pub os_type: String,
    #[serde(default)]
    pub os_version: String,
    #[serde(default)]
    pub country: String,
}

#[derive(Deserialize)]
struct Granted {
    url: String,
}

impl DesktopClient {
    pub fn new(http: reqwest::Client, timeout: Duration, at: Endpoints<'_>) -> Self {
        Self {
            http,
            calls: at.calls.clone(),
            timeout,
            phone_auth: at.phone_auth.trim_end_matches('/').to_string(),
            phone_auth_key: at.phone_auth_key.clone(),
            docdb: at.docdb.trim_end_matches('/').to_string(),
            docdb_project: at.docdb_project.to_string(),
            antivirus: at.antivirus.trim_end_matches('/').to_string(),
        }
    }

    /// Sends the SMS; returns the session that confirms its code.
    pub async fn send_code(&self, msisdn: &str, bot_check: &str, key: &str) -> Result<SecretString, CallError> {
        let body = json!({ "phoneNumber": msisdn, "recaptchaToken": bot_check });
        let request = self
            .http
            .post(format!("{}/v1/send-code", self.phone_auth))
            .query(&[("key", self.phone_auth_key.expose_secret())])
            .header(headers::IDEMPOTENCY_KEY, key)
            .json(&body);
        let sent: Sent = self.call("phone-auth.send-code", request).await?;
        Ok(SecretString::from(sent.session_info))
    }

    /// Confirms the code; returns the user token.
    pub async fn confirm_code(&self, session: &SecretString, code: &str, key: &str) -> Result<UserToken, CallError> {
        let body = json!({ "sessionInfo": session.expose_secret(), "code": code });
        let request = self
            .http
            .post(format!("{}/v1/confirm-code", self.phone_auth))
            .query(&[("key", self.phone_auth_key.expose_secret())])
            .header(headers::IDEMPOTENCY_KEY, key)
            .json(&body);
        let confirmed: Confirmed = self.call("phone-auth.confirm-code", request).await?;
        Ok(UserToken {
            token: SecretString::from(confirmed.id_token),
            expires_in: confirmed.expires_in.and_then(|s| s.parse().ok()),
        })
    }

    /// Whether the user collection has a document whose `msisdn` is this phone.
    pub async fn user_exists(&self, token: &SecretString, msisdn: &str, key: &str) -> Result<bool, CallError> {
        let body = json!({ "structuredQuery": {
            "from": [{ "collectionId": "users" }],
            "where": { "fieldFilter": {
                "field": { "fieldPath": "msisdn" }, "op": "EQUAL", "value": { "stringValue": msisdn } } },
            "limit": 1 } });
        let url = format!("{}/v1/projects/{}/databases/(default)/documents:runQuery", self.docdb, self.docdb_project);
        let request =
            self.http.post(url).bearer_auth(token.expose_secret()).header(headers::IDEMPOTENCY_KEY, key).json(&body);
        let rows: Vec<Value> = self.call("docdb.run-query", request).await?;
        // The first document's msisdn must be the phone itself (spec §7).
        let found =
            rows.first().and_then(|row| row.pointer("/document/fields/msisdn/stringValue")).and_then(Value::as_str);
        Ok(found == Some(msisdn))
    }

    pub async fn partners(&self, token: &SecretString) -> Result<Vec<UpstreamPartner>, CallError> {
        let request = self.antivirus(Method::GET, "/v1/user/partners", token);
        self.call("antivirus.partners", request).await
    }

    pub async fn devices(&self, token: &SecretString, subscription: &str) -> Result<Vec<UpstreamDevice>, CallError> {
        let request =
            self.antivirus(Method::GET, "/v1/user/devices", token).header(headers::SUBSCRIPTION_ID, subscription);
        self.call("antivirus.devices", request).await
    }

    /// The installer's download URL for this browser and OS.
    pub async fn desktop_url(
        &self,
        token: &SecretString,
        subscription: &str,
        browser: &str,
        os: &str,
    ) -> Result<String, CallError> {
        let request = self
            .antivirus(Method::GET, "/v1/fs/av-desktop-url", token)
            .header(headers::SUBSCRIPTION_ID, subscription)
            .header(headers::DEVICE_ID, browser)
            .header(headers::OS, os);
        let granted: Granted = self.call("antivirus.av-desktop-url", request).await?;
        Ok(granted.url)
    }

    pub async fn remove_device(
        &self,
        token: &SecretString,
        subscription: &str,
        device: &str,
        key: &str,
    ) -> Result<(), CallError> {
        let request = self
            .antivirus(Method::DELETE, "/v1/user/remove-user-device", token)
            .header(headers::SUBSCRIPTION_ID, subscription)
            .header(headers::DEVICE_ID, device)
            .header(headers::IDEMPOTENCY_KEY, key);
        self.exchange("antivirus.remove-user-device", request).await.map(|_| ())
    }

    fn antivirus(&self, method: Method, path: &str, token: &SecretString) -> RequestBuilder {
        self.http
            .request(method, format!("{}{path}", self.antivirus))
            .header(headers::USER_TOKEN, token.expose_secret())
    }

    /// Sends the call (`crate::upstream::call::send`) and reads its answer: the body of a
    /// 2xx, or why not.
    async fn exchange(&self, endpoint: &str, request: RequestBuilder) -> Result<Bytes, CallError> {
        crate::upstream::call::send(&self.calls, endpoint, request, self.timeout, |status, body| {
            classify_status(endpoint, StatusCode::from_u16(status).unwrap_or(StatusCode::BAD_GATEWAY), body)
                .map(|()| Bytes::copy_from_slice(body))
        })
        .await
    }

    async fn call<T: DeserializeOwned>(&self, endpoint: &str, request: RequestBuilder) -> Result<T, CallError> {
        let body = self.exchange(endpoint, request).await?;
        serde_json::from_slice(&body).map_err(|e| CallError::Transient(format!("{endpoint}: unexpected answer: {e}")))
    }
}

/// `Ok` for 200 to 204 (spec §7), a refusal with the upstream's error code, or "try again".
fn classify_status(endpoint: &str, status: StatusCode, body: &[u8]) -> Result<(), CallError> {
    if (200..=204).contains(&status.as_u16()) {
        return Ok(());
    }
    // "Not now" (a gateway, throttling, a repeat of a call still running under the same key).
    if let Some(kind) = transient_kind(status.as_u16(), body) {
        return Err(CallError::Transient(format!("{endpoint}: {kind}")));
    }
    Err(CallError::refused(status.as_u16(), Some(error_code(body))))
}

/// The error code in either style the desktop upstreams use (`docs/upstreams.md`, error
/// bodies): antivirus `{"code": "NO_FREE_LICENSE"}`, google `{"error": {"message": "INVALID_CODE"}}`.
/// Kept only when it looks like a code, so no free text (or token) lands in an event.
pub fn error_code(body: &[u8]) -> String {
    let Ok(value) = serde_json::from_slice::<Value>(body) else { return String::new() };
    let candidates = [value.get("code"), value.pointer("/error/message"), value.pointer("/error/code")];
    let code = candidates
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .find(|code| {
            !code.is_empty()
                && code.len() <= 64
                && code.bytes().all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_')
        })
        .unwrap_or_default()
        .to_string();
    code
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_codes_are_read_in_both_styles_and_nothing_else() {
        assert_eq!(
            error_code(br#"{"code":"NO_FREE_LICENSE","message":"all 3 licences are in use"}"#),
            "NO_FREE_LICENSE"
        );
        assert_eq!(
            error_code(br#"{"error":{"code":403,"message":"INVALID_CODE","status":"PERMISSION_DENIED"}}"#),
            "INVALID_CODE"
        );
        assert_eq!(error_code(br#"{"message":"token sbx-user-abc is bad"}"#), "");
        assert_eq!(error_code(br#"{"code":"sbx-user-abc"}"#), "");
        assert_eq!(error_code(b"not json"), "");
    }

    #[test]
    fn statuses_split_into_success_refusal_and_retry() {
        assert_eq!(classify_status("e", StatusCode::NO_CONTENT, b""), Ok(()));
        assert_eq!(
            classify_status("e", StatusCode::FORBIDDEN, br#"{"code":"SDK_NOT_ALLOWED_FOR_SUBSCRIPTION"}"#),
            Err(CallError::refused(403, Some("SDK_NOT_ALLOWED_FOR_SUBSCRIPTION".into())))
        );
        assert_eq!(classify_status("e", StatusCode::INTERNAL_SERVER_ERROR, b"{}"), Err(CallError::refused(500, None)));
        assert!(matches!(classify_status("e", StatusCode::SERVICE_UNAVAILABLE, b""), Err(CallError::Transient(_))));
        assert!(matches!(
            classify_status("e", StatusCode::PARTIAL_CONTENT, b""),
            Err(CallError::Refused { status: 206, .. })
        ));
    }

    #[test]
    fn reasons_name_status_and_code() {
        assert_eq!(CallError::refused(500, Some(String::new())).reason(), "HTTP 500");
        assert_eq!(CallError::refused(403, Some("NO_FREE_LICENSE".into())).reason(), "HTTP 403 NO_FREE_LICENSE");
    }
}
