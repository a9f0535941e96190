//! The desktop download's upstreams over HTTP: phone auth, the document database, the
//! antivirus API for every scenario of the table, and the installer it grants.

mod sandbox_support;

use reqwest::StatusCode;
use sandbox::credentials as dev;
use sandbox::headers as h;
use sandbox::scenarios as s;
use sandbox_support::{other_than, read, Sandbox};
use serde_json::{json, Value};

const KEY: &str = dev::PHONE_AUTH_API_KEY;

#[tokio::test]
async fn phone_auth_sends_a_code_to_the_inbox_and_confirms_it_once() {
    let sandbox = Sandbox::start().await;
    let (status, sent) = read(
        sandbox
            .post(&format!("/phone-auth/v1/send-code?key={KEY}"))
            .json(&json!({ "phoneNumber": "+5511910000001", "recaptchaToken": "bot-check" }))
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let session = sent["sessionInfo"].as_str().unwrap().to_string();
    let code = sandbox.last_code("5511910000001").await;
    assert_eq!(code.len(), 6);

    let confirm = |code: String| {
        sandbox
            .post(&format!("/phone-auth/v1/confirm-code?key={KEY}"))
            .json(&json!({ "sessionInfo": session, "code": code }))
            .send()
    };
    let (status, wrong) = read(confirm(other_than(&code)).await.unwrap()).await;
    assert_eq!((status, wrong["error"]["message"].as_str()), (StatusCode::BAD_REQUEST, Some("INVALID_CODE")));

    let (status, confirmed) = read(confirm(code.clone()).await.unwrap()).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(confirmed["phoneNumber"], "+5511910000001");
    assert_eq!(confirmed["expiresIn"], "3600");
    assert!(confirmed["idToken"].as_str().unwrap().starts_with("sbx-user-"));

    let (status, again) = read(confirm(code).await.unwrap()).await;
    assert_eq!((status, again["error"]["message"].as_str()), (StatusCode::FORBIDDEN, Some("CODE_ALREADY_USED")));
}

#[tokio::test]
async fn phone_auth_refuses_bad_key_phone_bot_check_and_expired_codes() {
    let sandbox = Sandbox::start().await;
    let send = |key: &str, body: Value| sandbox.post(&format!("/phone-auth/v1/send-code?key={key}")).json(&body).send();
    let refused =
        |(status, body): (StatusCode, Value)| (status, body["error"]["message"].as_str().unwrap().to_string());

    let ok_body = json!({ "phoneNumber": "+5511910000001", "recaptchaToken": "x" });
    assert_eq!(
        refused(read(send("errada", ok_body.clone()).await.unwrap()).await),
        (StatusCode::BAD_REQUEST, "API_KEY_INVALID".into())
    );
    for phone in ["5511910000001", "+5511810000001", "+551191000000"] {
        let body = json!({ "phoneNumber": phone, "recaptchaToken": "x" });
        assert_eq!(
            refused(read(send(KEY, body).await.unwrap()).await),
            (StatusCode::BAD_REQUEST, "INVALID_PHONE_NUMBER".into()),
            "{phone}"
        );
    }
    let no_bot = json!({ "phoneNumber": "+5511910000001" });
    assert_eq!(
        refused(read(send(KEY, no_bot).await.unwrap()).await),
        (StatusCode::BAD_REQUEST, "MISSING_RECAPTCHA_TOKEN".into())
    );

    let (_, sent) = read(send(KEY, ok_body).await.unwrap()).await;
    let code = sandbox.last_code("5511910000001").await;
    sandbox.advance(15 * 60).await;
    let (status, body) = read(
        sandbox
            .post(&format!("/phone-auth/v1/confirm-code?key={KEY}"))
            .json(&json!({ "sessionInfo": sent["sessionInfo"], "code": code }))
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(refused((status, body)), (StatusCode::FORBIDDEN, "CODE_EXPIRED".into()));
}

fn run_query_body(phone: &str) -> Value {
    json!({ "structuredQuery": {
        "from": [{ "collectionId": "users" }],
        "where": { "fieldFilter": { "field": { "fieldPath": "msisdn" }, "op": "EQUAL", "value": { "stringValue": phone } } },
        "limit": 1,
    } })
}

const RUN_QUERY: &str = "/docdb/v1/projects/exa-sandbox/databases/(default)/documents:runQuery";

#[tokio::test]
async fn docdb_finds_table_users_only_with_their_own_token() {
    let sandbox = Sandbox::start().await;
    let query =
        |token: &str, phone: &str| sandbox.post(RUN_QUERY).bearer_auth(token).json(&run_query_body(phone)).send();

    let known = sandbox.desktop_user(s::DESKTOP_ONE_PARTNER).await;
    let (status, found) = read(query(&known, "+5511910000001").await.unwrap()).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(found[0]["document"]["fields"]["msisdn"]["stringValue"], "+5511910000001");

    let stranger = sandbox.desktop_user("11987654321").await;
    let (status, empty) = read(query(&stranger, "+5511987654321").await.unwrap()).await;
    assert_eq!(status, StatusCode::OK);
    assert!(empty[0].get("document").is_none() && empty[0]["readTime"].is_string(), "{empty}");

    let (status, denied) = read(query(&stranger, "+5511910000001").await.unwrap()).await;
    assert_eq!((status, denied["error"]["message"].as_str()), (StatusCode::FORBIDDEN, Some("PERMISSION_DENIED")));

    let (status, _) = read(query("sbx-user-forjado", "+5511910000001").await.unwrap()).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let (status, _) = read(sandbox.post(RUN_QUERY).json(&run_query_body("+5511910000001")).send().await.unwrap()).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let wrong_project = RUN_QUERY.replace("exa-sandbox", "outro");
    let (status, _) = read(
        sandbox.post(&wrong_project).bearer_auth(&known).json(&run_query_body("+5511910000001")).send().await.unwrap(),
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

/// Antivirus calls as the portal makes them.
struct Antivirus<'a> {
    sandbox: &'a Sandbox,
    token: String,
}

impl Antivirus<'_> {
    async fn partners(&self) -> (StatusCode, Value) {
        read(self.sandbox.get("/antivirus/v1/user/partners").header(h::USER_TOKEN, &self.token).send().await.unwrap())
            .await
    }

    async fn devices(&self, subscription: &str) -> (StatusCode, Value) {
        read(
            self.sandbox
                .get("/antivirus/v1/user/devices")
                .header(h::USER_TOKEN, &self.token)
                .header(h::SUBSCRIPTION_ID, subscription)
                .send()
                .await
                .unwrap(),
        )
        .await
    }

    async fn download(&self, subscription: &str) -> (StatusCode, Value) {
        read(
            self.sandbox
                .get("/antivirus/v1/fs/av-desktop-url")
                .header(h::USER_TOKEN, &self.token)
                .header("x-subscription-id", subscription)
                .header(h::DEVICE_ID, "chrome")
                .header(h::OS, "win_pc")
                .send()
                .await
                .unwrap(),
        )
        .await
    }

    async fn remove(&self, subscription: &str, device: &str) -> (StatusCode, Value) {
        read(
            self.sandbox
                .http
                .delete(self.sandbox.url("/antivirus/v1/user/remove-user-device"))
                .header(h::USER_TOKEN, &self.token)
                .header(h::SUBSCRIPTION_ID, subscription)
                .header(h::DEVICE_ID, device)
                .send()
                .await
                .unwrap(),
        )
        .await
    }

    /// The only partner's subscription id.
    async fn only_subscription(&self) -> String {
        let (status, partners) = self.partners().await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(partners.as_array().unwrap().len(), 1, "{partners}");
        partners[0]["prioritySubscriptionId"].as_str().unwrap().to_string()
    }
}

async fn antivirus_for<'s>(sandbox: &'s Sandbox, national: &str) -> Antivirus<'s> {
    Antivirus { sandbox, token: sandbox.desktop_user(national).await }
}

#[tokio::test]
async fn one_partner_grants_a_download_of_the_installer() {
    let sandbox = Sandbox::start().await;
    let av = antivirus_for(&sandbox, s::DESKTOP_ONE_PARTNER).await;
    let (_, partners) = av.partners().await;
    assert_eq!(partners[0]["name"], "Operadora Parceira");
    let logo = partners[0]["logotype"].as_str().unwrap();
    assert!(logo.starts_with(&sandbox.url("/antivirus/logos/")), "{logo}");
    let logo = sandbox.http.get(logo).send().await.unwrap();
    assert_eq!(logo.headers()["content-type"], "image/svg+xml");

    let subscription = av.only_subscription().await;
    let (status, granted) = av.download(&subscription).await;
    assert_eq!(status, StatusCode::OK);
    let url = granted["url"].as_str().unwrap();
    assert!(
        url.starts_with(&sandbox.url("/download-manager/files/")) && url.ends_with("/antivirus-installer.exe"),
        "{url}"
    );

    let file = sandbox.http.get(url).send().await.unwrap();
    assert_eq!(file.status(), StatusCode::OK);
    assert_eq!(file.headers()["content-type"], "application/octet-stream");
    assert_eq!(file.headers()["content-disposition"], "attachment; filename=\"antivirus-installer.exe\"");
    let bytes = file.bytes().await.unwrap();
    assert_eq!(&bytes[..2], b"MZ");

    // The link lasts an hour; forged links are unknown.
    let forged = url.replace("/files/dl", "/files/dlx");
    assert_eq!(sandbox.http.get(&forged).send().await.unwrap().status(), StatusCode::NOT_FOUND);
    sandbox.advance(3600).await;
    assert_eq!(sandbox.http.get(url).send().await.unwrap().status(), StatusCode::GONE);
}

#[tokio::test]
async fn two_partners_either_grants() {
    let sandbox = Sandbox::start().await;
    let av = antivirus_for(&sandbox, s::DESKTOP_TWO_PARTNERS).await;
    let (_, partners) = av.partners().await;
    let partners = partners.as_array().unwrap();
    assert_eq!(partners.len(), 2);
    assert_eq!(partners[1]["logotype"], "", "the second partner has no logotype: the portal shows its default");
    for partner in partners {
        let (status, granted) = av.download(partner["prioritySubscriptionId"].as_str().unwrap()).await;
        assert_eq!(status, StatusCode::OK, "{partner}");
        assert!(granted["url"].is_string());
    }
}

#[tokio::test]
async fn licences_full_until_a_device_is_removed() {
    let sandbox = Sandbox::start().await;
    let av = antivirus_for(&sandbox, s::DESKTOP_LICENCES_FULL).await;
    let subscription = av.only_subscription().await;
    let (status, refused) = av.download(&subscription).await;
    assert_eq!((status, refused["code"].as_str()), (StatusCode::FORBIDDEN, Some("NO_FREE_LICENSE")));

    let (status, devices) = av.devices(&subscription).await;
    assert_eq!(status, StatusCode::OK);
    let devices = devices.as_array().unwrap().clone();
    assert_eq!(devices.len(), 3);
    let first = &devices[0];
    for field in ["id", "device_name", "os_type", "os_version", "country"] {
        assert!(first[field].is_string(), "{field} in {first}");
    }
    assert!(first["first_login"]["seconds"].is_i64() && first["last_login"]["seconds"].is_i64());

    let (status, missing) = av.remove(&subscription, "dev-nao-existe").await;
    assert_eq!((status, missing["code"].as_str()), (StatusCode::NOT_FOUND, Some("DEVICE_NOT_FOUND")));
    let (status, _) = av.remove(&subscription, first["id"].as_str().unwrap()).await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    assert_eq!(av.devices(&subscription).await.1.as_array().unwrap().len(), 2);
    let (status, granted) = av.download(&subscription).await;
    assert_eq!(status, StatusCode::OK);
    assert!(granted["url"].is_string());
}

#[tokio::test]
async fn plan_without_antivirus() {
    let sandbox = Sandbox::start().await;
    let av = antivirus_for(&sandbox, s::DESKTOP_SDK_NOT_ALLOWED).await;
    let subscription = av.only_subscription().await;
    let (status, refused) = av.download(&subscription).await;
    assert_eq!((status, refused["code"].as_str()), (StatusCode::FORBIDDEN, Some("SDK_NOT_ALLOWED_FOR_SUBSCRIPTION")));
}

#[tokio::test]
async fn licences_full_and_removal_fails() {
    let sandbox = Sandbox::start().await;
    let av = antivirus_for(&sandbox, s::DESKTOP_REMOVAL_FAILS).await;
    let subscription = av.only_subscription().await;
    assert_eq!(av.download(&subscription).await.1["code"], "NO_FREE_LICENSE");
    let (_, devices) = av.devices(&subscription).await;
    assert_eq!(devices.as_array().unwrap().len(), 2);
    let (status, failed) = av.remove(&subscription, devices[0]["id"].as_str().unwrap()).await;
    assert_eq!((status, failed["code"].as_str()), (StatusCode::INTERNAL_SERVER_ERROR, Some("DEVICE_REMOVAL_FAILED")));
    assert_eq!(av.devices(&subscription).await.1.as_array().unwrap().len(), 2);
}

#[tokio::test]
async fn partner_list_and_download_url_failures() {
    let sandbox = Sandbox::start().await;
    let av = antivirus_for(&sandbox, s::DESKTOP_PARTNERS_FAIL).await;
    assert_eq!(av.partners().await.0, StatusCode::INTERNAL_SERVER_ERROR);

    let av = antivirus_for(&sandbox, s::DESKTOP_DOWNLOAD_FAILS).await;
    let subscription = av.only_subscription().await;
    assert_eq!(av.download(&subscription).await.0, StatusCode::INTERNAL_SERVER_ERROR);
}

#[tokio::test]
async fn antivirus_checks_token_subscription_and_headers() {
    let sandbox = Sandbox::start().await;
    let av = antivirus_for(&sandbox, s::DESKTOP_ONE_PARTNER).await;
    let subscription = av.only_subscription().await;

    let forged = Antivirus { sandbox: &sandbox, token: "sbx-user-forjado".into() };
    assert_eq!(forged.partners().await.0, StatusCode::UNAUTHORIZED);
    let (status, missing) = read(sandbox.get("/antivirus/v1/user/partners").send().await.unwrap()).await;
    assert_eq!((status, missing["code"].as_str()), (StatusCode::BAD_REQUEST, Some("MISSING_HEADER")));

    // Another user's subscription is not theirs.
    let other = antivirus_for(&sandbox, s::DESKTOP_LICENCES_FULL).await;
    let (status, refused) = other.devices(&subscription).await;
    assert_eq!((status, refused["code"].as_str()), (StatusCode::NOT_FOUND, Some("SUBSCRIPTION_NOT_FOUND")));

    let bad_os = sandbox
        .get("/antivirus/v1/fs/av-desktop-url")
        .header(h::USER_TOKEN, &av.token)
        .header(h::SUBSCRIPTION_ID, &subscription)
        .header(h::DEVICE_ID, "firefox")
        .header(h::OS, "linux")
        .send()
        .await
        .unwrap();
    let (status, refused) = read(bad_os).await;
    assert_eq!((status, refused["code"].as_str()), (StatusCode::BAD_REQUEST, Some("INVALID_OS")));

    // A phone outside the table has no partners.
    let stranger = antivirus_for(&sandbox, "11987654321").await;
    assert_eq!(stranger.partners().await, (StatusCode::OK, json!([])));

    // The user token expires after an hour.
    sandbox.advance(3600).await;
    assert_eq!(av.partners().await.1["code"], "TOKEN_EXPIRED");
}
