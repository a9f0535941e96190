//! The security activation's upstreams over HTTP: partner API (authentication, authorization),
//! SSO, identity provider, BFF, the telecom partner and the broadband partner's OAuth.

mod sandbox_support;

use reqwest::{Method, StatusCode};
use sandbox::credentials as dev;
use sandbox::headers as h;
use sandbox::scenarios as s;
use sandbox_support::{other_than, partner_headers, read, Sandbox};
use serde_json::{json, Value};

const PHONE: &str = "5511987654321";

fn code_of(body: &Value) -> &str {
    body["error"]["code"].as_str().unwrap_or_default()
}

async fn validate(sandbox: &Sandbox, transaction_id: &str, pincode: &str) -> (StatusCode, Value) {
    read(
        sandbox
            .partner(Method::POST, "/partner-api/authentication/v1/validate")
            .json(&json!({ "transaction_id": transaction_id, "pincode": pincode }))
            .send()
            .await
            .unwrap(),
    )
    .await
}

#[tokio::test]
async fn send_and_validate_a_code_once() {
    let sandbox = Sandbox::start().await;
    let (transaction_id, code) = sandbox.activation_code(PHONE, dev::BRAND_DEFAULT).await;
    let inbox: Value = sandbox.get(&format!("/sms?to={PHONE}")).send().await.unwrap().json().await.unwrap();
    assert!(inbox[0]["text"].as_str().unwrap().contains(&code));

    let (status, validated) = validate(&sandbox, &transaction_id, &code).await;
    assert_eq!(status, StatusCode::OK);
    assert!(validated["fs-custom-token"].as_str().unwrap().starts_with("sbx-fscustom-"));
    let (status, again) = validate(&sandbox, &transaction_id, &code).await;
    assert_eq!((status, code_of(&again)), (StatusCode::FORBIDDEN, "CODE_ALREADY_USED"));
}

#[tokio::test]
async fn five_wrong_codes_then_406() {
    let sandbox = Sandbox::start().await;
    let (transaction_id, code) = sandbox.activation_code(PHONE, dev::BRAND_DEFAULT).await;
    for _ in 0..5 {
        let (status, wrong) = validate(&sandbox, &transaction_id, &other_than(&code)).await;
        assert_eq!((status, code_of(&wrong)), (StatusCode::BAD_REQUEST, "INVALID_CODE"));
    }
    let (status, locked) = validate(&sandbox, &transaction_id, &code).await;
    assert_eq!((status, code_of(&locked)), (StatusCode::NOT_ACCEPTABLE, "TOO_MANY_ATTEMPTS"));
}

#[tokio::test]
async fn activation_codes_expire_after_15_minutes() {
    let sandbox = Sandbox::start().await;
    let (transaction_id, code) = sandbox.activation_code(PHONE, dev::BRAND_DEFAULT).await;
    sandbox.advance(14 * 60).await;
    let (transaction_2, code_2) = sandbox.activation_code(PHONE, dev::BRAND_DEFAULT).await;
    sandbox.advance(60).await;
    let (status, expired) = validate(&sandbox, &transaction_id, &code).await;
    assert_eq!((status, code_of(&expired)), (StatusCode::FORBIDDEN, "CODE_EXPIRED"));
    assert_eq!(validate(&sandbox, &transaction_2, &code_2).await.0, StatusCode::OK);

    let (status, unknown) = validate(&sandbox, "00000000-0000-4000-8000-000000000000", &code).await;
    assert_eq!((status, code_of(&unknown)), (StatusCode::NOT_FOUND, "TRANSACTION_NOT_FOUND"));
    let (status, malformed) = validate(&sandbox, &transaction_2, "12a").await;
    assert_eq!((status, code_of(&malformed)), (StatusCode::BAD_REQUEST, "INVALID_PINCODE"));
}

#[tokio::test]
async fn partner_calls_require_their_headers() {
    let sandbox = Sandbox::start().await;
    let send = |request: reqwest::RequestBuilder| async move {
        read(request.json(&json!({ "msisdn": PHONE })).send().await.unwrap()).await
    };
    let path = "/partner-api/authentication/v1/send";
    let full = || sandbox.partner(Method::POST, path);
    let with = |name: &'static str, value: Option<&str>| {
        let mut headers = partner_headers(dev::BRAND_DEFAULT);
        match value {
            Some(value) => headers.insert(name, value.parse().unwrap()),
            None => headers.remove(name),
        };
        sandbox.post(path).headers(headers)
    };

    for name in [h::CORRELATION_ID, h::REQUESTER_NAME, h::BRAND_NAME, h::CLIENT_ID, h::CLIENT_SECRET] {
        let (status, body) = send(with(name, None)).await;
        assert_eq!((status, code_of(&body)), (StatusCode::BAD_REQUEST, "MISSING_HEADER"), "{name}");
    }
    let (status, body) = send(with(h::CORRELATION_ID, Some("123"))).await;
    assert_eq!((status, code_of(&body)), (StatusCode::BAD_REQUEST, "INVALID_CORRELATION_ID"));
    let (status, body) = send(with(h::REQUESTER_NAME, Some("outro-sistema"))).await;
    assert_eq!((status, code_of(&body)), (StatusCode::FORBIDDEN, "UNKNOWN_REQUESTER"));
    let (status, body) = send(with(h::BRAND_NAME, Some("vivo"))).await;
    assert_eq!((status, code_of(&body)), (StatusCode::BAD_REQUEST, "UNKNOWN_BRAND"));
    let (status, body) = send(with(h::CLIENT_SECRET, Some("errado"))).await;
    assert_eq!((status, code_of(&body)), (StatusCode::UNAUTHORIZED, "INVALID_CLIENT"));
    let (status, _) = send(full()).await;
    assert_eq!(status, StatusCode::OK);
    let (status, body) = read(full().json(&json!({ "msisdn": "5511512345678" })).send().await.unwrap()).await;
    assert_eq!((status, code_of(&body)), (StatusCode::BAD_REQUEST, "INVALID_MSISDN"));
    let (status, body) = read(full().body("{}").send().await.unwrap()).await;
    assert_eq!((status, code_of(&body)), (StatusCode::UNSUPPORTED_MEDIA_TYPE, "UNSUPPORTED_MEDIA_TYPE"));
}

#[tokio::test]
async fn sending_fails_for_the_scenario_phone() {
    let sandbox = Sandbox::start().await;
    let (status, body) = read(
        sandbox
            .partner(Method::POST, "/partner-api/authentication/v1/send")
            .json(&json!({ "msisdn": format!("55{}", s::SEND_CODE_FAILS) }))
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!((status, code_of(&body)), (StatusCode::INTERNAL_SERVER_ERROR, "SMS_PROVIDER_ERROR"));
    let inbox: Value =
        sandbox.get(&format!("/sms?to=55{}", s::SEND_CODE_FAILS)).send().await.unwrap().json().await.unwrap();
    assert_eq!(inbox, json!([]));
}

async fn authorize(sandbox: &Sandbox, query: &str, body: Value, brand: &str) -> (StatusCode, Value) {
    read(
        sandbox
            .partner_as(Method::POST, &format!("/partner-api/authorization/api/v1/authorize{query}"), brand)
            .json(&body)
            .send()
            .await
            .unwrap(),
    )
    .await
}

#[tokio::test]
async fn authorize_returns_a_custom_token_or_the_error_response() {
    let sandbox = Sandbox::start().await;
    let token = sandbox.verified(PHONE, dev::BRAND_DEFAULT).await;
    let query = "?extref_fixo=false&data_validated=true";
    let (status, granted) = authorize(&sandbox, query, json!({ "fs-auth-token": token }), dev::BRAND_DEFAULT).await;
    assert_eq!(status, StatusCode::OK);
    assert!(granted["authorization"]["custom_token"].as_str().unwrap().starts_with("sbx-custom-"));

    let (status, body) =
        authorize(&sandbox, "?data_validated=true", json!({ "fs-auth-token": token }), dev::BRAND_DEFAULT).await;
    assert_eq!((status, code_of(&body)), (StatusCode::BAD_REQUEST, "INVALID_QUERY"));
    let (status, body) =
        authorize(&sandbox, query, json!({ "fs-auth-token": "sbx-fscustom-forjado" }), dev::BRAND_DEFAULT).await;
    assert_eq!((status, code_of(&body)), (StatusCode::UNAUTHORIZED, "INVALID_TOKEN"));

    let refused_phone = format!("55{}", s::AUTHORIZE_REFUSED);
    let token = sandbox.verified(&refused_phone, dev::BRAND_DEFAULT).await;
    let (status, body) = authorize(&sandbox, query, json!({ "fs-auth-token": token }), dev::BRAND_DEFAULT).await;
    assert_eq!((status, code_of(&body)), (StatusCode::FORBIDDEN, "PRODUCT_NOT_REGISTERED"));
}

async fn sso_token(sandbox: &Sandbox, body: Value) -> (StatusCode, Value) {
    let request = sandbox
        .http
        .post(sandbox.url("/sso/auth/v1/token"))
        .header(h::CORRELATION_ID, uuid::Uuid::new_v4().to_string())
        .header(h::REQUESTER_NAME, dev::REQUESTER_NAME)
        .header(h::BRAND_NAME, dev::BRAND_TIM);
    read(request.json(&body).send().await.unwrap()).await
}

#[tokio::test]
async fn sso_issues_client_credentials_tokens() {
    let sandbox = Sandbox::start().await;
    let good =
        json!({ "clientId": dev::CLIENT_ID, "clientSecret": dev::CLIENT_SECRET, "grantType": "client_credentials" });
    let (status, token) = sso_token(&sandbox, good).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!((token["tokenType"].as_str(), token["expiresIn"].as_i64()), (Some("Bearer"), Some(3600)));
    assert!(token["accessToken"].as_str().unwrap().starts_with("sbx-access-"));

    let wrong = json!({ "clientId": dev::CLIENT_ID, "clientSecret": "x", "grantType": "client_credentials" });
    let (status, body) = sso_token(&sandbox, wrong).await;
    assert_eq!((status, code_of(&body)), (StatusCode::UNAUTHORIZED, "INVALID_CLIENT"));
    let grant = json!({ "clientId": dev::CLIENT_ID, "clientSecret": dev::CLIENT_SECRET, "grantType": "password" });
    let (status, body) = sso_token(&sandbox, grant).await;
    assert_eq!((status, code_of(&body)), (StatusCode::BAD_REQUEST, "UNSUPPORTED_GRANT_TYPE"));
}

async fn carrier_access_token(sandbox: &Sandbox) -> String {
    let body =
        json!({ "clientId": dev::CLIENT_ID, "clientSecret": dev::CLIENT_SECRET, "grantType": "client_credentials" });
    sso_token(sandbox, body).await.1["accessToken"].as_str().unwrap().to_string()
}

async fn by_document(sandbox: &Sandbox, kind: &str, document: &str, access: &str) -> (StatusCode, Value) {
    read(
        sandbox
            .partner_as(Method::POST, &format!("/partner-api/authorization/api/v1/authorize/{kind}"), dev::BRAND_TIM)
            .bearer_auth(access)
            .json(&json!({ kind: document }))
            .send()
            .await
            .unwrap(),
    )
    .await
}

/// The carrier flow end to end: SSO token, authorize by CPF, authorize with the auth and merge
/// tokens, identity provider with the carrier's key, packs.
#[tokio::test]
async fn carrier_flow_reaches_the_packs_of_the_phone() {
    let sandbox = Sandbox::start().await;
    let access = carrier_access_token(&sandbox).await;
    let (status, by_cpf) = by_document(&sandbox, "cpf", "52998224725", &access).await;
    assert_eq!(status, StatusCode::OK);
    let auth_token = by_cpf["fs-auth-token"].as_str().unwrap().to_string();
    let phone = format!("55{}", s::PACKS_FS_CL);
    let merge_token = sandbox.verified(&phone, dev::BRAND_TIM).await;

    let body = json!({ "fs-auth-token": auth_token, "fs-merge-token": merge_token });
    let (status, granted) = authorize(&sandbox, "?extref_fixo=false&data_validated=true", body, dev::BRAND_TIM).await;
    assert_eq!(status, StatusCode::OK);
    let custom_token = granted["authorization"]["custom_token"].as_str().unwrap();

    let verify = |key: &'static str| {
        sandbox
            .post(&format!("/identity/v1/verifyCustomToken?key={key}"))
            .json(&json!({ "token": custom_token, "returnSecureToken": true }))
            .send()
    };
    let (status, mismatch) = read(verify(dev::IDENTITY_KEY_DEFAULT).await.unwrap()).await;
    assert_eq!((status, mismatch["error"]["message"].as_str()), (StatusCode::BAD_REQUEST, Some("CREDENTIAL_MISMATCH")));
    let (status, bad_key) = read(verify("chave-errada").await.unwrap()).await;
    assert_eq!((status, bad_key["error"]["message"].as_str()), (StatusCode::BAD_REQUEST, Some("API_KEY_INVALID")));
    let (status, signed_in) = read(verify(dev::IDENTITY_KEY_TIM).await.unwrap()).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(signed_in["expiresIn"], "3600");
    let id_token = signed_in["idToken"].as_str().unwrap();

    let (status, packs) = read(
        sandbox
            .partner_as(Method::GET, "/bff-tim/bff/api/v2/packs", dev::BRAND_TIM)
            .bearer_auth(id_token)
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let names: Vec<&str> = packs["products"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|product| product["items"].as_array().unwrap())
        .map(|item| item["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["FS", "CL"]);

    let (status, _) = read(sandbox.partner(Method::GET, "/bff-tim/bff/api/v2/packs").send().await.unwrap()).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let (status, _) =
        read(sandbox.partner(Method::GET, "/bff-tim/bff/api/v2/packs").bearer_auth(custom_token).send().await.unwrap())
            .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "a custom token is not an id token");
}

async fn packs_of(sandbox: &Sandbox, national: &str) -> Vec<Vec<String>> {
    let merge = sandbox.verified(&format!("55{national}"), dev::BRAND_DEFAULT).await;
    let (_, granted) = authorize(
        sandbox,
        "?extref_fixo=false&data_validated=true",
        json!({ "fs-auth-token": merge }),
        dev::BRAND_DEFAULT,
    )
    .await;
    let custom = granted["authorization"]["custom_token"].clone();
    let signed_in: Value = sandbox
        .post(&format!("/identity/v1/verifyCustomToken?key={}", dev::IDENTITY_KEY_DEFAULT))
        .json(&json!({ "token": custom, "returnSecureToken": true }))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let packs: Value = sandbox
        .partner(Method::GET, "/bff-default/bff/api/v2/packs")
        .bearer_auth(signed_in["idToken"].as_str().unwrap())
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    packs["products"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["items"].as_array().unwrap().iter().map(|i| i["name"].as_str().unwrap().to_string()).collect())
        .collect()
}

#[tokio::test]
async fn packs_follow_the_scenario_table() {
    let sandbox = Sandbox::start().await;
    assert_eq!(packs_of(&sandbox, s::PACKS_FS_ONLY).await, [vec!["FS"]]);
    assert_eq!(packs_of(&sandbox, s::PACKS_PAR_ONLY).await, [vec!["PAR"]]);
    assert_eq!(packs_of(&sandbox, "11987654321").await, [vec!["FS", "CL"], vec!["EXAGES"]]);
}

#[tokio::test]
async fn authorize_by_cpf_and_cnpj() {
    let sandbox = Sandbox::start().await;
    let access = carrier_access_token(&sandbox).await;
    let (status, body) = by_document(&sandbox, "cpf", s::CPF_REFUSED, &access).await;
    assert_eq!((status, code_of(&body)), (StatusCode::FORBIDDEN, "CPF_NOT_AUTHORIZED"));
    let (status, body) = by_document(&sandbox, "cpf", "52998224726", &access).await;
    assert_eq!((status, code_of(&body)), (StatusCode::BAD_REQUEST, "INVALID_CPF"));
    let (status, body) = by_document(&sandbox, "cnpj", "11222333000181", &access).await;
    assert_eq!(status, StatusCode::OK);
    assert!(body["fs-auth-token"].as_str().unwrap().starts_with("sbx-fsauth-"));
    let (status, body) = by_document(&sandbox, "cnpj", "11222333000180", &access).await;
    assert_eq!((status, code_of(&body)), (StatusCode::BAD_REQUEST, "INVALID_CNPJ"));
    let (status, body) = by_document(&sandbox, "cpf", "52998224725", "sbx-access-forjado").await;
    assert_eq!((status, code_of(&body)), (StatusCode::UNAUTHORIZED, "INVALID_TOKEN"));
}

async fn subscribe_serial(sandbox: &Sandbox, serial: &str, msisdn: &str) -> (StatusCode, Value) {
    read(
        sandbox
            .partner(Method::POST, "/bff-default/bff/api/v2/subscription/subscribe-serial")
            .json(&json!({ "serial": serial, "msisdn": msisdn }))
            .send()
            .await
            .unwrap(),
    )
    .await
}

#[tokio::test]
async fn subscribe_serial_needs_a_verified_phone_and_a_known_serial() {
    let sandbox = Sandbox::start().await;
    let (status, body) = subscribe_serial(&sandbox, "LIC-123", PHONE).await;
    assert_eq!((status, code_of(&body)), (StatusCode::FORBIDDEN, "MSISDN_NOT_VERIFIED"));

    sandbox.verified(PHONE, dev::BRAND_DEFAULT).await;
    let (status, body) = subscribe_serial(&sandbox, s::SERIAL_NOT_FOUND, PHONE).await;
    assert_eq!((status, code_of(&body)), (StatusCode::NOT_FOUND, "SERIAL_NOT_FOUND"));
    let (status, body) = subscribe_serial(&sandbox, "1234567890123456789012", PHONE).await;
    assert_eq!((status, code_of(&body)), (StatusCode::BAD_REQUEST, "INVALID_SERIAL"));

    let (status, first) = subscribe_serial(&sandbox, "LIC-123", PHONE).await;
    assert_eq!((status, first["status"].as_str()), (StatusCode::OK, Some("ACTIVE")));
    let (_, again) = subscribe_serial(&sandbox, "LIC-123", PHONE).await;
    assert_eq!(again["subscription_id"], first["subscription_id"], "the same phone gets its subscription back");

    let other = "5521987654321";
    sandbox.verified(other, dev::BRAND_DEFAULT).await;
    let (status, body) = subscribe_serial(&sandbox, "LIC-123", other).await;
    assert_eq!((status, code_of(&body)), (StatusCode::CONFLICT, "SERIAL_IN_USE"));

    let subscriptions: Value = sandbox.get("/admin/subscriptions").send().await.unwrap().json().await.unwrap();
    assert_eq!(subscriptions.as_array().unwrap().len(), 1);
    assert_eq!(subscriptions[0]["serial"], "LIC-123");
}

async fn hero_login(sandbox: &Sandbox, email: &str) -> (StatusCode, Value) {
    read(
        sandbox
            .post("/hero/api/hero/auth/login")
            .header(h::API_KEY, dev::HERO_API_KEY)
            .json(&json!({ "login": email }))
            .send()
            .await
            .unwrap(),
    )
    .await
}

async fn subscribe_by_hash(sandbox: &Sandbox, body: Value) -> (StatusCode, Value) {
    read(
        sandbox
            .partner_as(Method::POST, "/bff-default/bff/api/v2/subscription/subscribe-by-hash", dev::BRAND_AGILITY)
            .json(&body)
            .send()
            .await
            .unwrap(),
    )
    .await
}

#[tokio::test]
async fn telecom_partner_login_account_and_subscribe_by_hash() {
    let sandbox = Sandbox::start().await;
    let (status, refused) = hero_login(&sandbox, "joao@sem-assinatura.test").await;
    assert_eq!((status, code_of(&refused)), (StatusCode::NOT_FOUND, "SUBSCRIPTION_NOT_FOUND"));
    let (status, refused) = hero_login(&sandbox, "sem-arroba").await;
    assert_eq!((status, code_of(&refused)), (StatusCode::BAD_REQUEST, "INVALID_LOGIN"));
    let (status, _) =
        read(sandbox.post("/hero/api/hero/auth/login").json(&json!({ "login": "a@b.test" })).send().await.unwrap())
            .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "X-Api-Key is required");

    let (status, login) = hero_login(&sandbox, "Ana@Exemplo.test").await;
    assert_eq!(status, StatusCode::OK);
    let customer_id = login["customer_id"].as_str().unwrap().to_string();
    assert_eq!(
        hero_login(&sandbox, "ana@exemplo.test").await.1["customer_id"],
        customer_id.as_str(),
        "stable per e-mail"
    );

    let info = |token: String| {
        sandbox.get("/hero/api/hero/accounts/info").header(h::API_KEY, dev::HERO_API_KEY).bearer_auth(token).send()
    };
    let (status, account) = read(info(login["token"].as_str().unwrap().to_string()).await.unwrap()).await;
    assert_eq!(status, StatusCode::OK);
    let plan = account["plan"]["id"].as_str().unwrap().to_string();
    assert_eq!(info("sbx-hero-forjado".into()).await.unwrap().status(), StatusCode::UNAUTHORIZED);

    let body = |hash: &str, email: Option<&str>| json!({ "partner": dev::TELECOM_PARTNER_NAME, "msisdn": PHONE, "hash": hash, "subscription_id": customer_id, "email": email });
    let (status, refused) = subscribe_by_hash(&sandbox, body(&plan, Some("ana@exemplo.test"))).await;
    assert_eq!((status, code_of(&refused)), (StatusCode::FORBIDDEN, "MSISDN_NOT_VERIFIED"));
    sandbox.verified(PHONE, dev::BRAND_AGILITY).await;
    let (status, refused) = subscribe_by_hash(&sandbox, body("plan-outro", Some("ana@exemplo.test"))).await;
    assert_eq!((status, code_of(&refused)), (StatusCode::UNPROCESSABLE_ENTITY, "HASH_MISMATCH"));
    let (status, refused) = subscribe_by_hash(&sandbox, body(&plan, None)).await;
    assert_eq!((status, code_of(&refused)), (StatusCode::BAD_REQUEST, "MISSING_EMAIL"));
    let (status, done) = subscribe_by_hash(&sandbox, body(&plan, Some("ana@exemplo.test"))).await;
    assert_eq!((status, done["status"].as_str()), (StatusCode::OK, Some("ACTIVE")));
}

#[tokio::test]
async fn broadband_partner_oauth_customer_look_up_and_subscription() {
    let sandbox = Sandbox::start().await;
    let portal = "http://127.0.0.1:8080/seguranca/ativarbrisanet";
    // RFC 7636, appendix B.
    let verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
    let challenge = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";
    let authorize = format!(
        "/oauth/authorize?client_id={}&redirect_uri={portal}&response_type=token&scope=offline&state=abc\
         &code_challenge={challenge}&code_challenge_method=S256",
        dev::OAUTH_CLIENT_ID
    );
    let page = sandbox.get(&authorize).send().await.unwrap();
    assert_eq!(page.status(), StatusCode::OK);
    let html = page.text().await.unwrap();
    assert!(html.contains("Autorizar e continuar") && html.contains("action=\"approve\""), "{html}");
    let refused = sandbox.get(&authorize.replace("scope=offline", "scope=email")).send().await.unwrap();
    assert_eq!(refused.status(), StatusCode::BAD_REQUEST);
    let refused = sandbox.get(&authorize.replace(dev::OAUTH_CLIENT_ID, "outro")).send().await.unwrap();
    assert_eq!(refused.status(), StatusCode::BAD_REQUEST);
    for without_pkce in [
        authorize.replace("&code_challenge_method=S256", "&code_challenge_method=plain"),
        authorize.replace(&format!("&code_challenge={challenge}"), ""),
    ] {
        let refused = sandbox.get(&without_pkce).send().await.unwrap();
        assert_eq!(refused.status(), StatusCode::BAD_REQUEST, "{without_pkce}");
    }

    let approve = authorize.replace("/oauth/authorize", "/oauth/approve");
    let back = sandbox.get(&format!("{approve}&customer=com-cobertura")).send().await.unwrap();
    assert_eq!(back.status(), StatusCode::FOUND);
    let location = reqwest::Url::parse(back.headers()["location"].to_str().unwrap()).unwrap();
    assert_eq!(location.path(), "/seguranca/ativarbrisanet");
    let query: std::collections::HashMap<_, _> = location.query_pairs().into_owned().collect();
    assert_eq!(query["state"], "abc");
    let code = query["code"].clone();

    let about = |code: String| {
        sandbox.partner(Method::GET, &format!("/bff-default/bff/api/v2/brisanet/customer/about/{code}")).send()
    };
    let (status, customer) = read(about(code.clone()).await.unwrap()).await;
    assert_eq!(status, StatusCode::OK);
    let customer_id = customer["customer_id"].as_str().unwrap().to_string();
    assert!(customer_id.starts_with("BRS-"));
    let (status, refused) = read(about(s::CUSTOMER_WITHOUT_COVERAGE.into()).await.unwrap()).await;
    assert_eq!((status, code_of(&refused)), (StatusCode::NOT_FOUND, "CUSTOMER_NOT_ELIGIBLE"));
    let (status, refused) = read(about("oc-desconhecido".into()).await.unwrap()).await;
    assert_eq!((status, code_of(&refused)), (StatusCode::NOT_FOUND, "CUSTOMER_NOT_FOUND"));

    let without = sandbox.get(&format!("{approve}&customer=sem-cobertura")).send().await.unwrap();
    let without = reqwest::Url::parse(without.headers()["location"].to_str().unwrap()).unwrap();
    let uncovered_code = without.query_pairs().find(|(k, _)| k == "code").map(|(_, v)| v.into_owned()).unwrap();
    let (status, refused) = read(about(uncovered_code.clone()).await.unwrap()).await;
    assert_eq!((status, code_of(&refused)), (StatusCode::NOT_FOUND, "CUSTOMER_NOT_ELIGIBLE"));

    sandbox.verified(PHONE, dev::BRAND_DEFAULT).await;
    let hash_body = |hash: &str, id: &str| json!({ "partner": dev::BROADBAND_PARTNER, "msisdn": PHONE, "hash": hash, "subscription_id": id });
    let (status, refused) = subscribe_by_hash(&sandbox, hash_body(dev::BROADBAND_PLAN_HASH, "BRS-00000000")).await;
    assert_eq!((status, code_of(&refused)), (StatusCode::NOT_FOUND, "CUSTOMER_NOT_FOUND"));
    let (status, refused) = subscribe_by_hash(&sandbox, hash_body("outro", &customer_id)).await;
    assert_eq!((status, code_of(&refused)), (StatusCode::UNPROCESSABLE_ENTITY, "HASH_MISMATCH"));
    let (status, done) = subscribe_by_hash(&sandbox, hash_body(dev::BROADBAND_PLAN_HASH, &customer_id)).await;
    assert_eq!((status, done["status"].as_str()), (StatusCode::OK, Some("ACTIVE")));
    let body = json!({ "partner": "vivo", "msisdn": PHONE, "hash": "x", "subscription_id": "y" });
    assert_eq!(code_of(&subscribe_by_hash(&sandbox, body).await.1), "UNKNOWN_PARTNER");

    // The code also exchanges for a token, once and only with the PKCE verifier, and the
    // token reads the customer.
    let token_form = |code: &str| {
        [
            ("grant_type", "authorization_code"),
            ("code", code),
            ("redirect_uri", portal),
            ("client_id", dev::OAUTH_CLIENT_ID),
            ("client_secret", dev::OAUTH_CLIENT_SECRET),
            ("code_verifier", verifier),
        ]
        .map(|(k, v)| (k.to_string(), v.to_string()))
    };
    let oauth = &sandbox;
    let exchange = |form: [(String, String); 6]| async move {
        read(oauth.post("/oauth/token").form(&form).send().await.unwrap()).await
    };
    let customer_of = |token: String| async move {
        read(oauth.get("/oauth/customer").bearer_auth(token).send().await.unwrap()).await
    };
    let mut wrong_verifier = token_form(&code);
    wrong_verifier[5].1 = "outro-verificador-com-43-caracteres-aaaaaaaaa".into();
    let (status, refused) = exchange(wrong_verifier).await;
    assert_eq!((status, refused["error"].as_str()), (StatusCode::BAD_REQUEST, Some("invalid_grant")));
    let (status, token) = exchange(token_form(&code)).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!((token["token_type"].as_str(), token["scope"].as_str()), (Some("Bearer"), Some("offline")));
    let (status, again) = exchange(token_form(&code)).await;
    assert_eq!((status, again["error"].as_str()), (StatusCode::BAD_REQUEST, Some("invalid_grant")));
    let (status, info) = customer_of(token["access_token"].as_str().unwrap().to_string()).await;
    assert_eq!((status, info["customer_id"].as_str()), (StatusCode::OK, Some(customer_id.as_str())));

    // An uncovered customer's token reads no customer.
    let (_, uncovered_token) = exchange(token_form(&uncovered_code)).await;
    let (status, refused) = customer_of(uncovered_token["access_token"].as_str().unwrap().to_string()).await;
    assert_eq!((status, refused["error"].as_str()), (StatusCode::NOT_FOUND, Some("not_eligible")));

    let mut bad_secret = token_form(&code);
    bad_secret[4].1 = "errado".into();
    let (status, refused) = exchange(bad_secret).await;
    assert_eq!((status, refused["error"].as_str()), (StatusCode::UNAUTHORIZED, Some("invalid_client")));

    // Codes last ten minutes.
    sandbox.advance(600).await;
    assert_eq!(about(code).await.unwrap().status(), StatusCode::NOT_FOUND);
}
