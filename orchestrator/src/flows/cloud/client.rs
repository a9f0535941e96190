//! The cloud functions: the spec's five wrappers (send code, validate code, register serial,
//! get custom token, sign in with token) and the phone check that runs before sending.
//! Contract: `docs/upstreams.md`, "Cloud activation". Every answer carries `status`
//! (`success` or `error`) and a Portuguese `message` the page shows as is.

use std::time::Duration;

use reqwest::StatusCode;
use secrecy::{ExposeSecret, SecretString};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::json;
use upstream_contract::headers;

use crate::runner::CallLog;
pub use crate::upstream::call::CallError;
use crate::upstream::calls::sanitize;
use crate::upstream::transient::transient_kind;

#[derive(Debug, Deserialize)]
struct Envelope {
    status: Option<String>,
    message: Option<String>,
    code: Option<String>,
    /// Errors raised in front of the functions (a gateway, the idempotency layer) nest them.
    error: Option<NestedError>,
}

#[derive(Debug, Deserialize)]
struct NestedError {
    code: Option<String>,
}

impl Envelope {
    fn code(&self) -> Option<&str> {
        self.code.as_deref().or_else(|| self.error.as_ref().and_then(|e| e.code.as_deref()))
    }
}

/// Client of the cloud functions at `base` (for example `http://127.0.0.1:8090/cloud-functions`).
#[derive(Clone)]
pub struct CloudClient {
    http: reqwest::Client,
    base: String,
    timeout: Duration,
    calls: CallLog,
}

#[derive(Deserialize)]
struct Sent {
    transaction_id: String,
}

#[derive(Deserialize)]
struct Validated {
    fs_custom_token: String,
}

#[derive(Deserialize)]
struct CustomToken {
    custom_token: String,
}

#[derive(Deserialize)]
struct SignedIn {
    id_token: String,
}

#[derive(Deserialize)]
struct Empty {}

impl CloudClient {
    /// Records every call it makes (status, latency) in `calls`.
    pub fn new(http: reqwest::Client, base: &str, timeout: Duration, calls: CallLog) -> Self {
        Self { http, base: base.trim_end_matches('/').to_string(), timeout, calls }
    }

    /// `POST /checkPhone {msisdn}`.
    pub async fn check_phone(&self, msisdn: &str, key: &str) -> Result<(), CallError> {
        self.post::<Empty>("checkPhone", json!({ "msisdn": msisdn }), key).await.map(|_| ())
    }

    /// `POST /sendCode {msisdn}` → the transaction id.
    pub async fn send_code(&self, msisdn: &str, key: &str) -> Result<String, CallError> {
        Ok(self.post::<Sent>("sendCode", json!({ "msisdn": msisdn }), key).await?.transaction_id)
    }

    /// `POST /validateCode {transaction_id, pincode}` → `fs_custom_token`.
    pub async fn validate_code(
        &self,
        transaction_id: &str,
        pincode: &str,
        key: &str,
    ) -> Result<SecretString, CallError> {
        let body = json!({ "transaction_id": transaction_id, "pincode": pincode });
        Ok(SecretString::from(self.post::<Validated>("validateCode", body, key).await?.fs_custom_token))
    }

    /// `POST /registerSerial {serial, msisdn}`.
    pub async fn register_serial(&self, serial: &str, msisdn: &str, key: &str) -> Result<(), CallError> {
        self.post::<Empty>("registerSerial", json!({ "serial": serial, "msisdn": msisdn }), key).await.map(|_| ())
    }

    /// `POST /getCustomToken {"fs-auth-token"}` → `custom_token`.
    pub async fn get_custom_token(&self, fs_auth_token: &SecretString, key: &str) -> Result<SecretString, CallError> {
        let body = json!({ "fs-auth-token": fs_auth_token.expose_secret() });
        Ok(SecretString::from(self.post::<CustomToken>("getCustomToken", body, key).await?.custom_token))
    }

    /// `POST /signInWithToken {token, returnSecureToken: true}` → `id_token`.
    pub async fn sign_in_with_token(&self, token: &SecretString, key: &str) -> Result<SecretString, CallError> {
        let body = json!({ "token": token.expose_secret(), "returnSecureToken": true });
        Ok(SecretString::from(self.post::<SignedIn>("signInWithToken", body, key).await?.id_token))
    }

    async fn post<T: DeserializeOwned>(&self, function: &str, body: impl Serialize, key: &str) -> Result<T, CallError> {
        let request =
            self.http.post(format!("{}/{function}", self.base)).header(headers::IDEMPOTENCY_KEY, key).json(&body);
        crate::upstream::call::send(&self.calls, endpoint_name(function), request, self.timeout, |status, body| {
            classify(function, StatusCode::from_u16(status).unwrap_or(StatusCode::BAD_GATEWAY), body)
        })
        .await
    }
}

/// The endpoint's name in `upstream_contract::endpoints`, for the call log.
fn endpoint_name(function: &str) -> &'static str {
    match function {
        "checkPhone" => "cloud.check-phone",
        "sendCode" => "cloud.send-code",
        "validateCode" => "cloud.validate-code",
        "registerSerial" => "cloud.register-serial",
        "getCustomToken" => "cloud.custom-token",
        "signInWithToken" => "cloud.sign-in",
        _ => "cloud.unknown",
    }
}

/// Success, refusal or "try again", from the status and the body.
fn classify<T: DeserializeOwned>(function: &str, status: StatusCode, body: &[u8]) -> Result<T, CallError> {
    let envelope: Option<Envelope> = serde_json::from_slice(body).ok();
    // "Not now" (a gateway, throttling, a repeat of a call still running under the same key).
    if let Some(kind) = transient_kind(status.as_u16(), body) {
        return Err(CallError::Transient(format!("{function}: {kind}")));
    }
    let refused = |envelope: Option<Envelope>| {
        let (message, code) = envelope
            .map(|e| {
                let code = e.code().map(str::to_string);
                // The visitor reads it: no control characters, no endless text.
                (e.message.map(|m| sanitize(&m)).filter(|m| !m.is_empty()), code)
            })
            .unwrap_or((None, None));
        CallError::Refused { status: status.as_u16(), code, message }
    };
    if !status.is_success() {
        return Err(refused(envelope));
    }
    // A 2xx must still say success; an explicit "error" is a refusal.
    if envelope.as_ref().and_then(|e| e.status.as_deref()) != Some("success") {
        return match envelope {
            Some(envelope) if envelope.status.is_some() => Err(refused(Some(envelope))),
            _ => Err(CallError::Transient(format!("{function}: HTTP {} without a status", status.as_u16()))),
        };
    }
    serde_json::from_slice(body).map_err(|e| CallError::Transient(format!("{function}: unexpected answer: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Deserialize, PartialEq)]
    struct Tx {
        transaction_id: String,
    }

    #[test]
    fn success_needs_the_success_status_and_the_fields() {
        let ok = br#"{"status":"success","message":"ok","transaction_id":"t-1"}"#;
        assert_eq!(classify::<Tx>("f", StatusCode::OK, ok).unwrap(), Tx { transaction_id: "t-1".into() });
        let missing = br#"{"status":"success","message":"ok"}"#;
        assert!(matches!(classify::<Tx>("f", StatusCode::OK, missing), Err(CallError::Transient(_))));
        let said_error = r#"{"status":"error","message":"Não."}"#.as_bytes();
        assert!(matches!(
            classify::<Tx>("f", StatusCode::OK, said_error),
            Err(CallError::Refused { status: 200, message: Some(message), .. }) if message == "Não."
        ));
    }

    #[test]
    fn refusals_carry_the_upstream_message_and_code() {
        let body =
            r#"{"status":"error","message":"Número de série não encontrado.","code":"SERIAL_NOT_FOUND"}"#.as_bytes();
        match classify::<Tx>("f", StatusCode::NOT_FOUND, body) {
            Err(CallError::Refused { status, code, message }) => {
                assert_eq!(
                    (status, code.as_deref(), message.as_deref()),
                    (404, Some("SERIAL_NOT_FOUND"), Some("Número de série não encontrado."))
                );
            }
            other => panic!("{other:?}"),
        }
        // A 500 with a message is the upstream's deliberate answer.
        let body = r#"{"status":"error","message":"Não foi possível enviar o código agora."}"#.as_bytes();
        assert!(matches!(
            classify::<Tx>("f", StatusCode::INTERNAL_SERVER_ERROR, body),
            Err(CallError::Refused { status: 500, .. })
        ));
        assert!(matches!(
            classify::<Tx>("f", StatusCode::FORBIDDEN, b"not json"),
            Err(CallError::Refused { message: None, .. })
        ));
    }

    #[test]
    fn a_call_still_running_upstream_is_retried() {
        let body = br#"{"error":{"code":"IDEMPOTENCY_KEY_IN_USE","message":"in use"}}"#;
        assert!(matches!(classify::<Tx>("f", StatusCode::CONFLICT, body), Err(CallError::Transient(_))));
        let body = br#"{"status":"error","message":"outro telefone","code":"SERIAL_IN_USE"}"#;
        assert!(matches!(classify::<Tx>("f", StatusCode::CONFLICT, body), Err(CallError::Refused { status: 409, .. })));
    }

    #[test]
    fn unavailable_and_throttled_answers_are_retried() {
        for status in [
            StatusCode::SERVICE_UNAVAILABLE,
            StatusCode::BAD_GATEWAY,
            StatusCode::GATEWAY_TIMEOUT,
            StatusCode::TOO_MANY_REQUESTS,
        ] {
            let body = br#"{"status":"error","message":"Falha simulada."}"#;
            assert!(matches!(classify::<Tx>("f", status, body), Err(CallError::Transient(_))), "{status}");
        }
    }
}
