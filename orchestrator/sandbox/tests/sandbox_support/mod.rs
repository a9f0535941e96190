//! Shared by the sandbox tests: a sandbox on an ephemeral port and a client that speaks to it
//! the way the orchestrator does.
#![allow(dead_code)]

use reqwest::header::{HeaderMap, HeaderValue};
use reqwest::{Method, RequestBuilder, StatusCode};
use sandbox::credentials as dev;
use sandbox::headers as h;
use sandbox::{spawn_on_loopback, SandboxConfig, SandboxHandle};
use serde_json::{json, Value};

pub struct Sandbox {
    pub handle: SandboxHandle,
    pub http: reqwest::Client,
}

impl Sandbox {
    pub async fn start() -> Self {
        Self::with_seed(7).await
    }

    pub async fn with_seed(seed: u64) -> Self {
        let handle = spawn_on_loopback(SandboxConfig { seed }).await.expect("sandbox starts");
        // Redirects are part of what the tests check (OAuth), so none are followed.
        let http = reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build().unwrap();
        Self { handle, http }
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.handle.base_url())
    }

    pub fn get(&self, path: &str) -> RequestBuilder {
        self.http.get(self.url(path))
    }

    pub fn post(&self, path: &str) -> RequestBuilder {
        self.http.post(self.url(path))
    }

    /// A partner-API / BFF call with every header a real one requires (brand default).
    pub fn partner(&self, method: Method, path: &str) -> RequestBuilder {
        self.partner_as(method, path, dev::BRAND_DEFAULT)
    }

    pub fn partner_as(&self, method: Method, path: &str, brand: &str) -> RequestBuilder {
        self.http.request(method, self.url(path)).headers(partner_headers(brand))
    }

    /// The newest code the inbox holds for `msisdn` (`55...`).
    pub async fn last_code(&self, msisdn: &str) -> String {
        let inbox: Value = self.get(&format!("/sms?to={msisdn}")).send().await.unwrap().json().await.unwrap();
        inbox[0]["code"].as_str().expect("a code in the inbox").to_string()
    }

    /// `/authentication/v1/send`: the transaction id and the code it sent.
    pub async fn activation_code(&self, msisdn: &str, brand: &str) -> (String, String) {
        let sent = self
            .partner_as(Method::POST, "/partner-api/authentication/v1/send", brand)
            .json(&json!({ "msisdn": msisdn }))
            .send()
            .await
            .unwrap();
        assert_eq!(sent.status(), StatusCode::OK);
        let body: Value = sent.json().await.unwrap();
        let transaction = body["transaction_id"].as_str().unwrap().to_string();
        (transaction, self.last_code(msisdn).await)
    }

    /// Sends and validates an activation code: the `fs-custom-token`.
    pub async fn verified(&self, msisdn: &str, brand: &str) -> String {
        let (transaction_id, pincode) = self.activation_code(msisdn, brand).await;
        let validated: Value = self
            .partner_as(Method::POST, "/partner-api/authentication/v1/validate", brand)
            .json(&json!({ "transaction_id": transaction_id, "pincode": pincode }))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        validated["fs-custom-token"].as_str().expect("fs-custom-token").to_string()
    }

    /// The desktop flow's user token for `national` (11 digits), through phone-auth.
    pub async fn desktop_user(&self, national: &str) -> String {
        let key = dev::PHONE_AUTH_API_KEY;
        let sent: Value = self
            .post(&format!("/phone-auth/v1/send-code?key={key}"))
            .json(&json!({ "phoneNumber": format!("+55{national}"), "recaptchaToken": "ok" }))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        let code = self.last_code(&format!("55{national}")).await;
        let confirmed: Value = self
            .post(&format!("/phone-auth/v1/confirm-code?key={key}"))
            .json(&json!({ "sessionInfo": sent["sessionInfo"], "code": code }))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        confirmed["idToken"].as_str().expect("idToken").to_string()
    }

    pub async fn advance(&self, seconds: i64) {
        let moved = self.post("/admin/clock").json(&json!({ "advance_seconds": seconds })).send().await.unwrap();
        assert_eq!(moved.status(), StatusCode::OK);
    }

    pub async fn fault(&self, fault: Value) -> Value {
        let set = self.post("/admin/faults").json(&fault).send().await.unwrap();
        assert_eq!(set.status(), StatusCode::CREATED, "{fault}");
        set.json().await.unwrap()
    }

    pub async fn calls(&self, endpoint: &str) -> Vec<Value> {
        self.get(&format!("/admin/calls?endpoint={endpoint}")).send().await.unwrap().json().await.unwrap()
    }
}

/// Every header the partner API requires, with the documented development values.
pub fn partner_headers(brand: &str) -> HeaderMap {
    let mut headers = HeaderMap::new();
    let mut set = |name: &'static str, value: &str| headers.insert(name, HeaderValue::from_str(value).unwrap());
    set(h::CORRELATION_ID, &uuid::Uuid::new_v4().to_string());
    set(h::REQUESTER_NAME, dev::REQUESTER_NAME);
    set(h::BRAND_NAME, brand);
    set(h::CLIENT_ID, dev::CLIENT_ID);
    set(h::CLIENT_SECRET, dev::CLIENT_SECRET);
    headers
}

/// Status and JSON body of an answer.
pub async fn read(response: reqwest::Response) -> (StatusCode, Value) {
    let status = response.status();
    let body = response.json().await.unwrap_or(Value::Null);
    (status, body)
}

/// A six-digit code that is not `code`.
pub fn other_than(code: &str) -> String {
    format!("{:06}", (code.parse::<u32>().unwrap() + 1) % 1_000_000)
}
