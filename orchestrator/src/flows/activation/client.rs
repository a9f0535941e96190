//! The activation's upstreams (spec section 7, "Security activation"; contracts in
//! `docs/upstreams.md`) as one typed client: a method per call, the headers the spec lists
//! (fresh correlation id, requester name, brand, client credentials) added here, server-side.
//! Each method answers a [`Reply`] (what the upstream said) or a [`StepError`] (no usable
//! answer: the runner tries again later).

use events::flows::activation::{Brand, DocumentKind};
use reqwest::{Method, Url};
use secrecy::ExposeSecret;
use serde::Serialize;
use serde_json::{json, Value};
use upstream_contract::credentials::{BRAND_AGILITY, BRAND_DEFAULT, BRAND_TIM};
use upstream_contract::headers::{API_KEY, BRAND_NAME, CLIENT_ID, CLIENT_SECRET, CORRELATION_ID, REQUESTER_NAME};
use uuid::Uuid;

use super::call::{url, Auth, Call};
use crate::runner::{CallLog, StepError};
use crate::upstream::Upstreams;

/// What an upstream answered to one call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reply<T> {
    /// 200 to 204 (spec section 7) with what the call returns.
    Done(T),
    /// Any other status: the upstream's refusal.
    Refused(u16),
    /// 200 to 204 without what the call must return.
    Malformed(u16),
}

/// A client-credentials token of the single sign-on host.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AccessToken {
    pub token: String,
    /// Seconds, when the host said.
    pub expires_in: Option<u64>,
}

/// The telecom partner's session after its log-in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PartnerSession {
    pub token: String,
    pub customer_id: String,
}

/// The body of `subscribe-by-hash` (`email` for the telecom partner only).
#[derive(Debug, Clone, Serialize)]
pub struct HashSubscription<'a> {
    pub partner: &'a str,
    pub msisdn: &'a str,
    pub hash: &'a str,
    pub subscription_id: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub email: Option<&'a str>,
}

/// The activation's upstreams, for one attempt's brand.
pub struct ActivationClient<'a> {
    http: &'a reqwest::Client,
    upstreams: &'a Upstreams,
    brand: Brand,
    calls: &'a CallLog,
}

impl<'a> ActivationClient<'a> {
    /// Records every call it makes (status, latency) in `calls`.
    pub fn new(http: &'a reqwest::Client, upstreams: &'a Upstreams, brand: Brand, calls: &'a CallLog) -> Self {
        Self { http, upstreams, brand, calls }
    }

    /// `POST /authentication/v1/send`: the transaction id of the code sent to `msisdn`.
    pub async fn send_code(&self, msisdn: &str, key: &str) -> Result<Reply<String>, StepError> {
        let target = url(&self.upstreams.urls.partner_api, "/authentication/v1/send")?;
        let answer = self
            .call("partner-api.authentication-send", Method::POST, target, Auth::Partner)
            .idempotent(key)
            .json(&json!({ "msisdn": msisdn }))
            .send()
            .await?;
        Ok(answer.reply(|a| a.text("/transaction_id")))
    }

    /// `POST /authentication/v1/validate`: the `fs-custom-token` of a right code.
    pub async fn validate_code(&self, transaction: &str, pincode: &str, key: &str) -> Result<Reply<String>, StepError> {
        let target = url(&self.upstreams.urls.partner_api, "/authentication/v1/validate")?;
        let body = json!({ "transaction_id": transaction, "pincode": pincode });
        let answer = self
            .call("partner-api.authentication-validate", Method::POST, target, Auth::Partner)
            .idempotent(key)
            .json(&body)
            .send()
            .await?;
        Ok(answer.reply(|a| a.text("/fs-custom-token")))
    }

    /// `POST /auth/v1/token` with our client credentials (the carrier flow).
    pub async fn sso_token(&self, key: &str) -> Result<Reply<AccessToken>, StepError> {
        let target = url(&self.upstreams.urls.sso, "/auth/v1/token")?;
        let body = json!({
            "clientId": self.upstreams.client_id,
            "clientSecret": self.upstreams.client_secret.expose_secret(),
            "grantType": "client_credentials",
        });
        let answer =
            self.call("sso.token", Method::POST, target, Auth::Caller).idempotent(key).json(&body).send().await?;
        Ok(answer.reply(|a| {
            let expires_in = a.body.get("expiresIn").and_then(Value::as_u64);
            a.text("/accessToken").map(|token| AccessToken { token, expires_in })
        }))
    }

    /// `POST /authorization/api/v1/authorize/cpf` or `/cnpj`: the document's `fs-auth-token`.
    pub async fn authorize_document(
        &self,
        access_token: &str,
        kind: DocumentKind,
        document: &str,
        key: &str,
    ) -> Result<Reply<String>, StepError> {
        let (path, body) = match kind {
            DocumentKind::Cpf => ("/authorization/api/v1/authorize/cpf", json!({ "cpf": document })),
            DocumentKind::Cnpj => ("/authorization/api/v1/authorize/cnpj", json!({ "cnpj": document })),
        };
        let target = url(&self.upstreams.urls.partner_api, path)?;
        let endpoint = match kind {
            DocumentKind::Cpf => "partner-api.authorize-cpf",
            DocumentKind::Cnpj => "partner-api.authorize-cnpj",
        };
        let answer = self
            .call(endpoint, Method::POST, target, Auth::Partner)
            .bearer(access_token)
            .idempotent(key)
            .json(&body)
            .send()
            .await?;
        Ok(answer.reply(|a| a.text("/fs-auth-token")))
    }

    /// `POST /authorization/api/v1/authorize` with both tokens (the carrier flow): the
    /// authorization's custom token.
    pub async fn authorize(
        &self,
        fs_auth_token: &str,
        fs_merge_token: &str,
        key: &str,
    ) -> Result<Reply<String>, StepError> {
        let mut target = url(&self.upstreams.urls.partner_api, "/authorization/api/v1/authorize")?;
        target.query_pairs_mut().append_pair("extref_fixo", "false").append_pair("data_validated", "true");
        let body = json!({ "fs-auth-token": fs_auth_token, "fs-merge-token": fs_merge_token });
        let answer = self
            .call("partner-api.authorize", Method::POST, target, Auth::Partner)
            .idempotent(key)
            .json(&body)
            .send()
            .await?;
        Ok(answer.reply(|a| a.text("/authorization/custom_token")))
    }

    /// The identity provider's `verifyCustomToken`, keyed by the brand's project: an id token.
    pub async fn verify_custom_token(&self, custom_token: &str, key: &str) -> Result<Reply<String>, StepError> {
        let api_key = match self.brand {
            Brand::Tim => self.upstreams.identity_key_tim.expose_secret(),
            Brand::Default | Brand::Agility => self.upstreams.identity_key_default.expose_secret(),
        };
        let base = url(&self.upstreams.urls.identity, "/v1/verifyCustomToken")?;
        let target = Url::parse_with_params(base.as_str(), [("key", api_key)])
            .map_err(|e| StepError::Transient(format!("identity URL: {e}")))?;
        let body = json!({ "token": custom_token, "returnSecureToken": true });
        let answer = self
            .call("identity.verify-custom-token", Method::POST, target, Auth::None)
            .idempotent(key)
            .json(&body)
            .send()
            .await?;
        Ok(answer.reply(|a| a.text("/idToken")))
    }

    /// `GET /bff/api/v2/packs`: the names of every item of every pack.
    pub async fn packs(&self, id_token: &str) -> Result<Reply<Vec<String>>, StepError> {
        let target = url(self.bff(), "/bff/api/v2/packs")?;
        let answer = self.call("bff.packs", Method::GET, target, Auth::Partner).bearer(id_token).send().await?;
        Ok(answer.reply(|a| Some(item_names(&a.body))))
    }

    /// `POST /bff/api/v2/subscription/subscribe-serial`.
    pub async fn subscribe_serial(&self, serial: &str, msisdn: &str, key: &str) -> Result<Reply<()>, StepError> {
        let target = url(self.bff(), "/bff/api/v2/subscription/subscribe-serial")?;
        let body = json!({ "serial": serial, "msisdn": msisdn });
        let answer = self
            .call("bff.subscribe-serial", Method::POST, target, Auth::Partner)
            .idempotent(key)
            .json(&body)
            .send()
            .await?;
        Ok(answer.reply(|_| Some(())))
    }

    /// `POST /bff/api/v2/subscription/subscribe-by-hash`.
    pub async fn subscribe_by_hash(
        &self,
        subscription: &HashSubscription<'_>,
        key: &str,
    ) -> Result<Reply<()>, StepError> {
        let target = url(self.bff(), "/bff/api/v2/subscription/subscribe-by-hash")?;
        let body = serde_json::to_value(subscription).map_err(|e| StepError::Transient(format!("encoding: {e}")))?;
        let answer = self
            .call("bff.subscribe-by-hash", Method::POST, target, Auth::Partner)
            .idempotent(key)
            .json(&body)
            .send()
            .await?;
        Ok(answer.reply(|_| Some(())))
    }

    /// The telecom partner's `POST /api/hero/auth/login`.
    pub async fn partner_login(&self, email: &str, key: &str) -> Result<Reply<PartnerSession>, StepError> {
        let target = url(&self.upstreams.urls.hero, "/api/hero/auth/login")?;
        let answer = self
            .call("hero.login", Method::POST, target, Auth::ApiKey)
            .idempotent(key)
            .json(&json!({ "login": email }))
            .send()
            .await?;
        Ok(answer.reply(|a| {
            let (token, customer_id) = (a.text("/token")?, a.text("/customer_id")?);
            Some(PartnerSession { token, customer_id })
        }))
    }

    /// The telecom partner's `GET /api/hero/accounts/info`: the plan id.
    pub async fn partner_plan(&self, token: &str) -> Result<Reply<String>, StepError> {
        let target = url(&self.upstreams.urls.hero, "/api/hero/accounts/info")?;
        let answer = self.call("hero.account-info", Method::GET, target, Auth::ApiKey).bearer(token).send().await?;
        Ok(answer.reply(|a| a.text("/plan/id")))
    }

    /// The broadband partner's OAuth authorization page for our client (spec: response type,
    /// scope offline, a random state), with the PKCE S256 `challenge` (RFC 7636).
    pub fn partner_authorize_url(&self, return_url: &str, state: &str, challenge: &str) -> Result<Url, StepError> {
        let base = url(&self.upstreams.urls.oauth, "/authorize")?;
        Url::parse_with_params(
            base.as_str(),
            [
                ("client_id", self.upstreams.oauth_client_id.as_str()),
                ("redirect_uri", return_url),
                ("response_type", "code"),
                ("scope", "offline"),
                ("state", state),
                ("code_challenge", challenge),
                ("code_challenge_method", "S256"),
            ],
        )
        .map_err(|e| StepError::Transient(format!("authorization URL: {e}")))
    }

    /// The provider's token endpoint: the partner's one-time `code` for an access token,
    /// server-side, with our client credentials and the PKCE `verifier`.
    pub async fn exchange_partner_code(
        &self,
        code: &str,
        redirect_uri: &str,
        verifier: &str,
    ) -> Result<Reply<String>, StepError> {
        let target = url(&self.upstreams.urls.oauth, "/token")?;
        let form = [
            ("grant_type", "authorization_code"),
            ("code", code),
            ("redirect_uri", redirect_uri),
            ("client_id", self.upstreams.oauth_client_id.as_str()),
            ("client_secret", self.upstreams.oauth_client_secret.expose_secret()),
            ("code_verifier", verifier),
        ];
        let answer = self.call("oauth.token", Method::POST, target, Auth::None).form(&form).send().await?;
        Ok(answer.reply(|a| a.text("/access_token")))
    }

    /// The provider's customer information for the exchanged token: the customer id.
    pub async fn partner_customer(&self, access_token: &str) -> Result<Reply<String>, StepError> {
        let target = url(&self.upstreams.urls.oauth, "/customer")?;
        let answer = self.call("oauth.customer", Method::GET, target, Auth::None).bearer(access_token).send().await?;
        Ok(answer.reply(|a| a.text("/customer_id")))
    }

    /// The back-for-front-end of the brand (the carrier has its own).
    fn bff(&self) -> &str {
        match self.brand {
            Brand::Tim => &self.upstreams.urls.bff_tim,
            Brand::Default | Brand::Agility => &self.upstreams.urls.bff_default,
        }
    }

    fn call(&self, endpoint: &'static str, method: Method, url: Url, auth: Auth) -> Call<'a> {
        let upstreams = self.upstreams;
        let mut request = self.http.request(method, url);
        if matches!(auth, Auth::Partner | Auth::Caller) {
            request = request
                .header(CORRELATION_ID, Uuid::new_v4().to_string())
                .header(REQUESTER_NAME, &upstreams.requester_name)
                .header(BRAND_NAME, brand_name(self.brand));
        }
        if auth == Auth::Partner {
            request = request
                .header(CLIENT_ID, &upstreams.client_id)
                .header(CLIENT_SECRET, upstreams.client_secret.expose_secret());
        }
        if auth == Auth::ApiKey {
            request = request.header(API_KEY, upstreams.hero_api_key.expose_secret());
        }
        Call { request, endpoint, calls: self.calls, timeout: upstreams.timeout }
    }
}

/// The brand names upstreams know (spec section 1: a default brand and two telecom-partner
/// variants).
pub fn brand_name(brand: Brand) -> &'static str {
    match brand {
        Brand::Default => BRAND_DEFAULT,
        Brand::Agility => BRAND_AGILITY,
        Brand::Tim => BRAND_TIM,
    }
}

/// The item names of a packs answer (`products[].items[].name`).
pub fn item_names(body: &Value) -> Vec<String> {
    body.get("products")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|pack| pack.get("items").and_then(Value::as_array))
        .flatten()
        .filter_map(|item| item.get("name").and_then(Value::as_str))
        .map(str::to_string)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pack_items_are_read_from_every_pack() {
        let body = json!({"products": [
            {"items": [{"name": "FS"}, {"name": "CL"}]},
            {"items": [{"name": "EXAGES"}]},
            {"name": "no items"}
        ]});
        assert_eq!(item_names(&body), vec!["FS", "CL", "EXAGES"]);
        assert!(item_names(&json!({})).is_empty());
    }

    #[test]
    fn the_telecom_subscription_alone_carries_an_email() {
        let mut subscription =
            HashSubscription { partner: "p", msisdn: "5511", hash: "h", subscription_id: "s", email: None };
        assert!(serde_json::to_value(&subscription).expect("encodes").get("email").is_none());
        subscription.email = Some("a@b.c");
        assert_eq!(serde_json::to_value(&subscription).expect("encodes")["email"], "a@b.c");
    }
}
