//! The activation end to end through the public API: the real app and step runner over a fresh
//! database, the sandbox upstreams on loopback, codes read from the sandbox's SMS inbox.

use std::sync::Arc;
use std::time::Duration;

use events::flows::activation::messages;
use orchestrator::config::ServeConfig;
use orchestrator::runner::{Runner, RunnerConfig};
use orchestrator::sandbox::{spawn_on_loopback, SandboxConfig, SandboxHandle};
use orchestrator::upstream::Upstreams;
use serde_json::{json, Value};
use sqlx::PgPool;

struct Harness {
    base: String,
    http: reqwest::Client,
    sandbox: SandboxHandle,
    db: PgPool,
    stop: Option<tokio::sync::watch::Sender<bool>>,
    _dist: tempfile::TempDir,
}

impl Drop for Harness {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(true);
        }
    }
}

async fn harness(db: PgPool) -> Harness {
    let sandbox = spawn_on_loopback(SandboxConfig { seed: 11 }).await.expect("sandbox");
    let dist = tempfile::tempdir().expect("dist");
    std::fs::write(dist.path().join("index.html"), "<!doctype html><title>SPA</title>").expect("index");
    let config = ServeConfig {
        database_url: String::new(),
        bind_addr: "127.0.0.1:0".parse().expect("addr"),
        web_dist: dist.path().to_path_buf(),
        sandbox_url: sandbox.base_url(),
        database_max_connections: 5,
        sandbox_mode: true,
        pii_kek_hex: None,
        pii_hmac_hex: None,
        runner_workers: 1,
    };
    let app = orchestrator::startup::build(
        db.clone(),
        events::pii::Keys::insecure_dev(),
        Upstreams::sandbox(&sandbox.base_url()),
        orchestrator::startup::site_config(&config),
    )
    .expect("app");
    let (stop, stopped) = tokio::sync::watch::channel(false);
    let runner_config = RunnerConfig { poll: Duration::from_millis(100), ..RunnerConfig::default() };
    let runner = app
        .registry_steps
        .iter()
        .fold(Runner::new(app.state.db.clone(), app.state.store.clone(), runner_config), |r, f| r.with_flow(Arc::clone(f)));
    let mut runner_stop = stopped.clone();
    tokio::spawn(async move {
        let _ = runner
            .run_until(async move {
                let _ = runner_stop.wait_for(|s| *s).await;
            })
            .await;
    });
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let addr = listener.local_addr().expect("addr");
    let state = app.state;
    let mut server_stop = stopped;
    tokio::spawn(async move {
        let _ = orchestrator::startup::serve(listener, state, &config, async move {
            let _ = server_stop.wait_for(|s| *s).await;
        })
        .await;
    });
    Harness {
        base: format!("http://{addr}"),
        http: reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build().expect("client"),
        sandbox,
        db,
        stop: Some(stop),
        _dist: dist,
    }
}

/// One visitor's attempt: its id and the browser's cookie.
struct Attempt<'a> {
    h: &'a Harness,
    id: String,
    cookie: String,
}

impl Harness {
    async fn start(&self, command: Value) -> Attempt<'_> {
        let response = self
            .http
            .post(format!("{}/api/attempts", self.base))
            .json(&json!({ "flow": "activation", "command": command }))
            .send()
            .await
            .expect("start");
        assert_eq!(response.status(), 201);
        let cookie = response.headers()["set-cookie"].to_str().expect("cookie").split(';').next().expect("pair").to_string();
        let body: Value = response.json().await.expect("json");
        Attempt { h: self, id: body["id"].as_str().expect("id").to_string(), cookie }
    }

    async fn code_for(&self, msisdn: &str) -> String {
        let inbox: Value = self
            .http
            .get(format!("{}/sms?to={msisdn}", self.sandbox.base_url()))
            .send()
            .await
            .expect("inbox")
            .json()
            .await
            .expect("json");
        inbox[0]["code"].as_str().expect("a code").to_string()
    }

    async fn sandbox_json(&self, path: &str) -> Value {
        self.http.get(format!("{}{path}", self.sandbox.base_url())).send().await.expect("sandbox").json().await.expect("json")
    }

    async fn advance_sandbox_clock(&self, seconds: i64) {
        let response = self
            .http
            .post(format!("{}/admin/clock", self.sandbox.base_url()))
            .json(&json!({ "advance_seconds": seconds }))
            .send()
            .await
            .expect("clock");
        assert!(response.status().is_success());
    }
}

impl Attempt<'_> {
    /// Sends a command: `Ok(reply)` on 200, `Err((status, body))` otherwise.
    async fn send(&self, command: Value) -> Result<Value, (u16, Value)> {
        let response = self
            .h
            .http
            .post(format!("{}/api/attempts/{}/commands", self.h.base, self.id))
            .header("cookie", &self.cookie)
            .header("idempotency-key", uuid::Uuid::new_v4().to_string())
            .json(&command)
            .send()
            .await
            .expect("command");
        let status = response.status().as_u16();
        let body: Value = response.json().await.expect("json");
        if status == 200 {
            Ok(body)
        } else {
            Err((status, body))
        }
    }

    async fn ok(&self, command: Value) -> Value {
        self.send(command.clone()).await.unwrap_or_else(|e| panic!("{command} refused: {e:?}"))
    }

    async fn view(&self) -> Value {
        let response = self
            .h
            .http
            .get(format!("{}/api/attempts/{}", self.h.base, self.id))
            .header("cookie", &self.cookie)
            .send()
            .await
            .expect("get");
        let body: Value = response.json().await.expect("json");
        body["view"].clone()
    }

    /// The view once no step is running (the runner finished what was due).
    async fn settled(&self) -> Value {
        for _ in 0..300 {
            let view = self.view().await;
            if view["busy"] == false {
                return view;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("attempt {} still busy: {}", self.id, self.view().await);
    }
}

const PHONE: &str = "(11) 98765-4321";
const MSISDN: &str = "5511987654321";

async fn at_code_panel<'a>(h: &'a Harness, start: Value, submit: Value) -> Attempt<'a> {
    let attempt = h.start(start).await;
    attempt.settled().await;
    attempt.ok(submit).await;
    let view = attempt.settled().await;
    assert_eq!(view["panel"], "code_validation", "{view}");
    attempt
}

async fn submit_code(attempt: &Attempt<'_>, code: &str) -> Value {
    attempt.ok(json!({"type": "submit_code", "pincode": code, "terms_accepted": true})).await;
    attempt.settled().await
}

fn wrong(code: &str) -> String {
    format!("{:06}", (code.parse::<u32>().expect("digits") + 1) % 1_000_000)
}

#[sqlx::test(migrations = "../migrations")]
async fn standard_activation_subscribes_the_serial_and_redirects(db: PgPool) {
    let h = harness(db).await;
    let attempt = at_code_panel(
        &h,
        json!({"type": "start", "variant": "standard"}),
        json!({"type": "submit_phone", "phone": PHONE, "licence": "EXA-2026-0001"}),
    )
    .await;
    assert_eq!(attempt.view().await["phone_display"], "(11) *****-4321");
    let code = h.code_for(MSISDN).await;
    let view = submit_code(&attempt, &code).await;
    assert_eq!((view["panel"].as_str(), view["error"].clone()), (Some("redirect_store"), Value::Null));

    let subscriptions = h.sandbox_json("/admin/subscriptions").await;
    assert_eq!(subscriptions.as_array().map(Vec::len), Some(1));
    assert_eq!((subscriptions[0]["serial"].as_str(), subscriptions[0]["msisdn"].as_str()), (Some("EXA-2026-0001"), Some(MSISDN)));
    // The subscription carried the step's idempotency key.
    let calls = h.sandbox_json("/admin/calls?endpoint=bff.subscribe-serial").await;
    let key = calls[0]["idempotency_key"].as_str().expect("idempotency key");
    assert!(key.starts_with(&attempt.id) && key.contains(":subscribe_serial:"), "{key}");

    // Every partner call carried its own fresh correlation id.
    let all = h.sandbox_json("/admin/calls").await;
    let ids: Vec<&str> = all
        .as_array()
        .expect("calls")
        .iter()
        .filter(|c| c["endpoint"].as_str().is_some_and(|e| e.starts_with("partner-api.") || e.starts_with("bff.")))
        .map(|c| c["correlation_id"].as_str().expect("correlation id"))
        .collect();
    assert_eq!(ids.len(), 3, "send, validate, subscribe: {all}");
    assert!(ids.iter().all(|id| uuid::Uuid::parse_str(id).is_ok()));
    assert_eq!(ids.iter().collect::<std::collections::HashSet<_>>().len(), 3);

    attempt.ok(json!({"type": "record_store_redirect", "platform": "android"})).await;
}

#[sqlx::test(migrations = "../migrations")]
async fn the_server_checks_the_fields_with_the_spec_messages(db: PgPool) {
    let h = harness(db).await;
    let attempt = h.start(json!({"type": "start", "variant": "carrier"})).await;
    for (command, field, message) in [
        (json!({"type": "submit_phone", "phone": "(10) 98765-4321", "cpf_cnpj": "529.982.247-25"}), "phone", messages::INVALID_PHONE),
        (json!({"type": "submit_phone", "phone": PHONE, "cpf_cnpj": "1234567890123"}), "cpf_cnpj", messages::INVALID_CPF_CNPJ),
        (json!({"type": "submit_phone", "phone": PHONE, "cpf_cnpj": "222.222.222-22"}), "cpf_cnpj", messages::INVALID_CPF),
        (json!({"type": "submit_phone", "phone": PHONE, "cpf_cnpj": "11.222.333/0001-82"}), "cpf_cnpj", messages::INVALID_CNPJ),
    ] {
        let (status, body) = attempt.send(command).await.expect_err("refused");
        assert_eq!((status, body["field"].as_str(), body["message"].as_str()), (422, Some(field), Some(message)));
    }
    let standard = h.start(json!({"type": "start", "variant": "standard"})).await;
    let (status, body) = standard.send(json!({"type": "submit_phone", "phone": PHONE, "licence": ""})).await.expect_err("refused");
    assert_eq!((status, body["message"].as_str()), (422, Some(messages::MISSING_LICENCE)));
}

#[sqlx::test(migrations = "../migrations")]
async fn code_refusals_show_the_spec_messages(db: PgPool) {
    let h = harness(db).await;
    let attempt = at_code_panel(
        &h,
        json!({"type": "start", "variant": "insurance"}),
        json!({"type": "submit_phone", "phone": PHONE, "licence": "BRD-1"}),
    )
    .await;
    let code = h.code_for(MSISDN).await;
    // A wrong code: the upstream answers 403.
    let view = submit_code(&attempt, &wrong(&code)).await;
    assert_eq!((view["panel"].as_str(), view["error"].as_str()), (Some("code_validation"), Some(messages::CODE_EXPIRED)));
    // Four more wrong codes, then the sixth attempt is refused with 406 even when right.
    for _ in 0..4 {
        submit_code(&attempt, &wrong(&code)).await;
    }
    let view = submit_code(&attempt, &code).await;
    assert_eq!(view["error"], messages::CODE_LOCKED);

    // An expired code (the sandbox clock moves 16 minutes): 403.
    let other = at_code_panel(
        &h,
        json!({"type": "start", "variant": "standard"}),
        json!({"type": "submit_phone", "phone": "(21) 99876-5432", "licence": "EXA-2"}),
    )
    .await;
    let code = h.code_for("5521998765432").await;
    h.advance_sandbox_clock(16 * 60).await;
    let view = submit_code(&other, &code).await;
    assert_eq!(view["error"], messages::CODE_EXPIRED);
}

#[sqlx::test(migrations = "../migrations")]
async fn serial_not_found_and_send_failure(db: PgPool) {
    let h = harness(db).await;
    let attempt = at_code_panel(
        &h,
        json!({"type": "start", "variant": "standard"}),
        json!({"type": "submit_phone", "phone": PHONE, "licence": "SERIALINEXISTENTE"}),
    )
    .await;
    let view = submit_code(&attempt, &h.code_for(MSISDN).await).await;
    assert_eq!((view["panel"].as_str(), view["error"].as_str()), (Some("send_code"), Some(messages::SERIAL_NOT_FOUND)));

    let failing = h.start(json!({"type": "start", "variant": "standard"})).await;
    failing.ok(json!({"type": "submit_phone", "phone": "(11) 92000-0001", "licence": "EXA-3"})).await;
    let view = failing.settled().await;
    assert_eq!((view["panel"].as_str(), view["error"].as_str()), (Some("send_code"), Some(messages::GENERIC)));
}

#[sqlx::test(migrations = "../migrations")]
async fn the_resend_countdown_is_enforced_by_the_server(db: PgPool) {
    let h = harness(db).await;
    let attempt = at_code_panel(
        &h,
        json!({"type": "start", "variant": "standard"}),
        json!({"type": "submit_phone", "phone": PHONE, "licence": "EXA-4"}),
    )
    .await;
    attempt.ok(json!({"type": "resend_code"})).await;
    let view = attempt.settled().await;
    assert_eq!(view["panel"], "code_validation");
    let left = view["resend_in"].as_i64().expect("seconds");
    assert!((58..=60).contains(&left), "{left}");
    let inbox = h.sandbox_json(&format!("/sms?to={MSISDN}")).await;
    assert_eq!(inbox.as_array().map(Vec::len), Some(2), "a second code was sent");
    for command in [json!({"type": "resend_code"}), json!({"type": "submit_code", "pincode": "123456", "terms_accepted": true})] {
        let (status, body) = attempt.send(command).await.expect_err("refused during the countdown");
        assert_eq!((status, body["message"].as_str()), (422, Some(messages::WAIT_COUNTDOWN)));
    }
}

#[sqlx::test(migrations = "../migrations")]
async fn carrier_lists_the_granted_products_or_shows_the_authorize_error(db: PgPool) {
    let h = harness(db).await;
    let attempt = at_code_panel(
        &h,
        json!({"type": "start", "variant": "carrier"}),
        json!({"type": "submit_phone", "phone": "(11) 93000-0002", "cpf_cnpj": "529.982.247-25"}),
    )
    .await;
    let view = submit_code(&attempt, &h.code_for("5511930000002").await).await;
    assert_eq!((view["panel"].as_str(), view["products"].clone()), (Some("product_list"), json!(["seguranca", "cloud"])));
    attempt.ok(json!({"type": "choose_product", "product": "cloud", "platform": "desktop"})).await;
    // The carrier's calls went to the carrier brand's BFF with the `tim` brand.
    let packs = h.sandbox_json("/admin/calls?endpoint=bff.packs").await;
    assert_eq!(packs.as_array().map(Vec::len), Some(1));

    let refused = at_code_panel(
        &h,
        json!({"type": "start", "variant": "carrier"}),
        json!({"type": "submit_phone", "phone": "(11) 92000-0002", "cpf_cnpj": "11.222.333/0001-81"}),
    )
    .await;
    let view = submit_code(&refused, &h.code_for("5511920000002").await).await;
    assert_eq!((view["panel"].as_str(), view["error"].as_str()), (Some("send_code"), Some(messages::NOT_AUTHORIZED)));

    let cpf_refused = h.start(json!({"type": "start", "variant": "carrier"})).await;
    cpf_refused.ok(json!({"type": "submit_phone", "phone": PHONE, "cpf_cnpj": "111.444.777-35"})).await;
    let view = cpf_refused.settled().await;
    assert_eq!((view["panel"].as_str(), view["error"].as_str()), (Some("send_code"), Some(messages::NOT_AUTHORIZED)));
}

#[sqlx::test(migrations = "../migrations")]
async fn broadband_goes_through_the_partner_oauth_and_subscribes_by_hash(db: PgPool) {
    let h = harness(db).await;
    let return_url = "http://127.0.0.1:18380/seguranca/ativarbrisanet";
    let landing = h.start(json!({"type": "start", "variant": "broadband", "return_url": return_url})).await;
    let view = landing.settled().await;
    assert_eq!(view["panel"], "partner_login");
    let authorize = reqwest::Url::parse(view["partner_login_url"].as_str().expect("url")).expect("parses");
    let query: std::collections::HashMap<_, _> = authorize.query_pairs().into_owned().collect();
    assert_eq!(query["client_id"], "exa-portal-brisanet");
    assert_eq!(query["redirect_uri"], return_url);
    assert_eq!(query["scope"], "offline");
    assert_eq!(query["state"].len(), 32);

    // The visitor approves on the partner's page and comes back with ?code=.
    let mut approve = authorize.clone();
    approve.set_path(&authorize.path().replace("/authorize", "/approve"));
    approve.query_pairs_mut().append_pair("customer", "com-cobertura");
    let back = h.http.get(approve).send().await.expect("approve");
    let location = reqwest::Url::parse(back.headers()["location"].to_str().expect("location")).expect("url");
    let code = location.query_pairs().find(|(k, _)| k == "code").map(|(_, v)| v.into_owned()).expect("code");

    let attempt = at_code_panel(
        &h,
        json!({"type": "start", "variant": "broadband", "code": code}),
        json!({"type": "submit_phone", "phone": PHONE}),
    )
    .await;
    let view = submit_code(&attempt, &h.code_for(MSISDN).await).await;
    assert_eq!(view["panel"], "redirect_store", "{view}");
    let subscriptions = h.sandbox_json("/admin/subscriptions").await;
    assert_eq!((subscriptions[0]["kind"].as_str(), subscriptions[0]["partner"].as_str()), (Some("hash"), Some("brisanet")));

    let uncovered = h.start(json!({"type": "start", "variant": "broadband", "code": "SEMCOBERTURA"})).await;
    let view = uncovered.settled().await;
    assert_eq!((view["panel"].as_str(), view["error"].as_str()), (Some("partner_login"), Some(messages::CUSTOMER_NOT_FOUND)));
}

#[sqlx::test(migrations = "../migrations")]
async fn telecom_logs_in_keeps_the_plan_and_subscribes_by_hash(db: PgPool) {
    let h = harness(db).await;
    let attempt = at_code_panel(
        &h,
        json!({"type": "start", "variant": "telecom"}),
        json!({"type": "submit_email", "phone": PHONE, "email": "ana@exemplo.test"}),
    )
    .await;
    let plan = attempt.view().await["plan_id"].as_str().expect("plan id").to_string();
    let view = submit_code(&attempt, &h.code_for(MSISDN).await).await;
    assert_eq!(view["panel"], "redirect_store", "{view}");
    let subscriptions = h.sandbox_json("/admin/subscriptions").await;
    assert_eq!(
        (subscriptions[0]["partner"].as_str(), subscriptions[0]["hash"].as_str(), subscriptions[0]["email"].as_str()),
        (Some("agility"), Some(plan.as_str()), Some("ana@exemplo.test"))
    );

    let refused = h.start(json!({"type": "start", "variant": "telecom"})).await;
    refused.ok(json!({"type": "submit_email", "phone": PHONE, "email": "joao@sem-assinatura.test"})).await;
    let view = refused.settled().await;
    assert_eq!((view["panel"].as_str(), view["error"].as_str()), (Some("email"), Some(messages::PARTNER_LOGIN_REFUSED)));
}

/// Every event of carrier, telecom and standard attempts: no token and no clear personal data.
#[sqlx::test(migrations = "../migrations")]
async fn no_event_payload_holds_a_token_or_clear_personal_data(db: PgPool) {
    let h = harness(db.clone()).await;
    let carrier = at_code_panel(
        &h,
        json!({"type": "start", "variant": "carrier"}),
        json!({"type": "submit_phone", "phone": PHONE, "cpf_cnpj": "529.982.247-25"}),
    )
    .await;
    assert_eq!(submit_code(&carrier, &h.code_for(MSISDN).await).await["panel"], "product_list");
    let telecom = at_code_panel(
        &h,
        json!({"type": "start", "variant": "telecom"}),
        json!({"type": "submit_email", "phone": "(21) 99876-5432", "email": "Bia.Souza@Exemplo.test"}),
    )
    .await;
    assert_eq!(submit_code(&telecom, &h.code_for("5521998765432").await).await["panel"], "redirect_store");

    let payloads: Vec<(String, String)> =
        sqlx::query_as("SELECT event_type, payload::text FROM events WHERE stream_id LIKE 'activation-%'")
            .fetch_all(&h.db)
            .await
            .expect("events");
    assert!(payloads.len() > 20, "{} events", payloads.len());
    let types: Vec<&str> = payloads.iter().map(|(t, _)| t.as_str()).collect();
    for expected in ["phone.submitted", "document.authorized", "code.validated", "authorization.granted", "identity.verified", "packs.fetched", "partner.plan_found", "subscription.created", "step.started"] {
        assert!(types.contains(&expected), "no {expected} in {types:?}");
    }
    let forbidden = ["5511987654321", "11987654321", "98765-4321", "52998224725", "529.982.247-25", "bia.souza", "exemplo.test", "sbx-", "$pii_clear"];
    for (event_type, payload) in &payloads {
        for needle in forbidden {
            assert!(!payload.to_lowercase().contains(&needle.to_lowercase()), "{event_type} holds {needle}: {payload}");
        }
    }
    // The tokens are in the attempt's secrets until the attempt ends, then cleared.
    let left: i64 = sqlx::query_scalar("SELECT count(*) FROM attempt_secrets WHERE stream_id = $1")
        .bind(&carrier.id)
        .fetch_one(&db)
        .await
        .expect("count");
    assert_eq!(left, 0);
}
