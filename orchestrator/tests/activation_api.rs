//! The activation end to end through the public API: the real app and step runner over a fresh
//! database, the sandbox upstreams on loopback, codes read from the sandbox's SMS inbox.

mod common;

use std::time::Duration;

use common::flows::{Visitor, World};
use events::flows::activation;
use serde_json::{json, Value};
use sqlx::PgPool;

async fn harness(db: PgPool) -> World {
    World::serving(db, 11).await
}

/// One visitor's attempt, with the world it lives in.
struct Attempt<'a> {
    h: &'a World,
    visitor: Visitor,
}

impl World {
    async fn start(&self, command: Value) -> Attempt<'_> {
        self.start_in(None, command).await
    }

    /// An attempt started by the browser that holds `cookie`.
    async fn start_in(&self, cookie: Option<&str>, command: Value) -> Attempt<'_> {
        let (status, visitor, body) = self.open_in(cookie, "activation", command).await;
        assert_eq!(status, 201, "{body}");
        Attempt { h: self, visitor: visitor.expect("id and cookie") }
    }
}

impl Attempt<'_> {
    /// Sends a command: `Ok(reply)` on 200, `Err((status, body))` otherwise.
    async fn send(&self, command: Value) -> Result<Value, (u16, Value)> {
        match self.h.command(&self.visitor, command).await {
            (200, body) => Ok(body),
            refused => Err(refused),
        }
    }

    async fn ok(&self, command: Value) -> Value {
        self.send(command.clone()).await.unwrap_or_else(|e| panic!("{command} refused: {e:?}"))
    }

    async fn view(&self) -> Value {
        self.h.attempt(&self.visitor).await["view"].clone()
    }

    /// The view once no step is running (the runner finished what was due).
    async fn settled(&self) -> Value {
        self.h.wait(&self.visitor, Duration::from_secs(45), |view| view["busy"] == false).await["view"].clone()
    }
}

const PHONE: &str = "(11) 98765-4321";
const MSISDN: &str = "5511987654321";

async fn at_code_panel<'a>(h: &'a World, start: Value, submit: Value) -> Attempt<'a> {
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
    let code = h.sms_code(MSISDN).await;
    let view = submit_code(&attempt, &code).await;
    assert_eq!((view["panel"].as_str(), view["error"].clone()), (Some("redirect_store"), Value::Null));

    let subscriptions = h.sandbox_json("/admin/subscriptions").await;
    assert_eq!(subscriptions.as_array().map(Vec::len), Some(1));
    assert_eq!(
        (subscriptions[0]["serial"].as_str(), subscriptions[0]["msisdn"].as_str()),
        (Some("EXA-2026-0001"), Some(MSISDN))
    );
    // The subscription carried the step's idempotency key.
    let calls = h.sandbox_json("/admin/calls?endpoint=bff.subscribe-serial").await;
    let key = calls[0]["idempotency_key"].as_str().expect("idempotency key");
    assert!(key.starts_with(&attempt.visitor.id) && key.contains(":subscribe_serial:"), "{key}");

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
    // Issue 14, defect 7: a command that changes nothing answered 500; it answers the view.
    let again = attempt.ok(json!({"type": "record_store_redirect", "platform": "android"})).await;
    assert_eq!(
        (again["events"].clone(), again["view"]["panel"].as_str()),
        (json!([]), Some("redirect_store")),
        "{again}"
    );
}

/// Issue 24: a step due at once is claimed by the transaction that planned it: a command's (and
/// handed to the runner) or the step's before it (and run next in the same slot). Its
/// `step.started` says when it was claimed, which is then that transaction's own time, the
/// time the event before it was recorded with; a claim of its own would come later.
#[sqlx::test(migrations = "../migrations")]
async fn each_step_due_at_once_is_claimed_by_the_transaction_that_planned_it(db: PgPool) {
    let h = harness(db.clone()).await;
    let attempt = at_code_panel(
        &h,
        json!({"type": "start", "variant": "standard"}),
        json!({"type": "submit_phone", "phone": PHONE, "licence": "EXA-2026-0001"}),
    )
    .await;
    let code = h.sms_code(MSISDN).await;
    assert_eq!(submit_code(&attempt, &code).await["panel"], "redirect_store");

    let steps: Vec<(String, String, bool)> = sqlx::query_as(
        "SELECT s.payload->>'step', before.event_type,
                (s.payload->>'started_at')::timestamptz = before.recorded_at
           FROM events s JOIN events before ON before.stream_id = s.stream_id AND before.version = s.version - 1
          WHERE s.stream_id = $1 AND s.event_type = 'step.started'
          ORDER BY s.version",
    )
    .bind(&attempt.visitor.id)
    .fetch_all(&db)
    .await
    .expect("steps");
    assert_eq!(
        steps,
        [
            ("send_code".to_string(), "phone.submitted".to_string(), true),
            ("validate_code".to_string(), "code.submitted".to_string(), true),
            ("subscribe_serial".to_string(), "code.validated".to_string(), true),
        ],
        "each step, the event it followed, and whether that event's transaction claimed it"
    );
}

#[sqlx::test(migrations = "../migrations")]
async fn the_server_checks_the_fields_with_the_spec_messages(db: PgPool) {
    let h = harness(db).await;
    let attempt = h.start(json!({"type": "start", "variant": "carrier"})).await;
    for (command, field, message) in [
        (
            json!({"type": "submit_phone", "phone": "(10) 98765-4321", "cpf_cnpj": "529.982.247-25"}),
            "phone",
            activation::INVALID_PHONE,
        ),
        (
            json!({"type": "submit_phone", "phone": PHONE, "cpf_cnpj": "1234567890123"}),
            "cpf_cnpj",
            activation::INVALID_CPF_CNPJ,
        ),
        (
            json!({"type": "submit_phone", "phone": PHONE, "cpf_cnpj": "222.222.222-22"}),
            "cpf_cnpj",
            activation::INVALID_CPF,
        ),
        (
            json!({"type": "submit_phone", "phone": PHONE, "cpf_cnpj": "11.222.333/0001-82"}),
            "cpf_cnpj",
            activation::INVALID_CNPJ,
        ),
    ] {
        let (status, body) = attempt.send(command).await.expect_err("refused");
        assert_eq!((status, body["field"].as_str(), body["message"].as_str()), (422, Some(field), Some(message)));
    }
    let standard = h.start(json!({"type": "start", "variant": "standard"})).await;
    let (status, body) =
        standard.send(json!({"type": "submit_phone", "phone": PHONE, "licence": ""})).await.expect_err("refused");
    assert_eq!((status, body["message"].as_str()), (422, Some(activation::MISSING_LICENCE)));
}

/// Issue 26: the licence a link brings (`?licenca=`) and the one typed are sealed in the stored
/// events; the visitor's page reads them as before, and the subscription step opens the one
/// it sends.
#[sqlx::test(migrations = "../migrations")]
async fn licences_are_sealed_in_the_events_and_read_in_clear_by_their_visitor(db: PgPool) {
    let h = harness(db).await;
    let attempt = h.start(json!({"type": "start", "variant": "insurance", "licenca": "EXA-LINK-0001"})).await;
    let started = h.attempt(&attempt.visitor).await;
    assert_eq!(
        (started["view"]["licence"].as_str(), started["view"]["licence_locked"].as_bool()),
        (Some("EXA-LINK-0001"), Some(true))
    );
    assert_eq!(started["events"][0]["data"]["licence"], "EXA-LINK-0001", "the browser reads the same event as before");
    attempt.settled().await;
    attempt.ok(json!({"type": "submit_phone", "phone": PHONE})).await;
    attempt.settled().await;
    let code = h.sms_code(MSISDN).await;
    let view = submit_code(&attempt, &code).await;
    assert_eq!(view["panel"], "redirect_store", "{view}");
    let subscriptions = h.sandbox_json("/admin/subscriptions").await;
    assert_eq!(subscriptions[0]["serial"], "EXA-LINK-0001", "the step opened the sealed licence");
    assert_eq!(h.events_containing("EXA-LINK-0001").await, 0, "no event holds the licence in clear");

    let typed = at_code_panel(
        &h,
        json!({"type": "start", "variant": "standard"}),
        json!({"type": "submit_phone", "phone": "(11) 98765-4322", "licence": "EXA-TYPED-0002"}),
    )
    .await;
    let events = h.attempt(&typed.visitor).await["events"].clone();
    let submitted =
        events.as_array().expect("events").iter().find(|e| e["type"] == "phone.submitted").expect("submitted");
    assert_eq!(submitted["data"]["licence"], "EXA-TYPED-0002");
    assert_eq!(h.events_containing("EXA-TYPED-0002").await, 0, "no event holds the typed licence in clear");
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
    let code = h.sms_code(MSISDN).await;
    // A wrong code (a typo): the upstream answers 400, and the visitor is asked to check the
    // message, not sent to request a new code (issue 14).
    let view = submit_code(&attempt, &wrong(&code)).await;
    assert_eq!(
        (view["panel"].as_str(), view["error"].as_str()),
        (Some("code_validation"), Some(activation::CODE_WRONG))
    );
    // Four more wrong codes, then the sixth try is refused with the spec's 406 text even when
    // right: by our own limit (issue 17), before the upstream is asked.
    for _ in 0..4 {
        submit_code(&attempt, &wrong(&code)).await;
    }
    let validations = h.calls("partner-api.authentication-validate").await.len();
    assert_eq!(validations, 5, "the five wrong codes were checked upstream");
    let (status, body) = attempt
        .send(json!({"type": "submit_code", "pincode": code, "terms_accepted": true}))
        .await
        .expect_err("refused");
    assert_eq!(
        (status, body["message"].as_str(), body["rule"].as_str()),
        (429, Some(activation::CODE_LOCKED), Some("wrong_codes"))
    );
    assert_eq!(h.calls("partner-api.authentication-validate").await.len(), validations, "no upstream call");
    let recorded = h.refusals(&attempt.visitor).await;
    assert_eq!(recorded.len(), 1, "the refusal is in the attempt: {recorded:?}");
    assert_eq!(
        (recorded[0]["rule"].as_str(), recorded[0]["command"].as_str()),
        (Some("wrong_codes"), Some("submit_code"))
    );
    // No code is sent once none can be checked (issue 29): "Reenviar código" is refused by the
    // same rule, so the page can say what to do next instead of costing an SMS.
    let sends = h.calls("partner-api.authentication-send").await.len();
    let (status, body) = attempt.send(json!({"type": "resend_code"})).await.expect_err("refused");
    assert_eq!((status, body["rule"].as_str()), (429, Some("wrong_codes")));
    assert_eq!(h.calls("partner-api.authentication-send").await.len(), sends, "no SMS sent");

    // An expired code (the sandbox clock moves 16 minutes): 403.
    let other = at_code_panel(
        &h,
        json!({"type": "start", "variant": "standard"}),
        json!({"type": "submit_phone", "phone": "(21) 99876-5432", "licence": "EXA-2"}),
    )
    .await;
    let code = h.sms_code("5521998765432").await;
    h.advance_clock(16 * 60).await;
    let view = submit_code(&other, &code).await;
    assert_eq!(view["error"], activation::CODE_EXPIRED);
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
    let view = submit_code(&attempt, &h.sms_code(MSISDN).await).await;
    assert_eq!(
        (view["panel"].as_str(), view["error"].as_str()),
        (Some("send_code"), Some(activation::SERIAL_NOT_FOUND))
    );

    let failing = h.start(json!({"type": "start", "variant": "standard"})).await;
    failing.ok(json!({"type": "submit_phone", "phone": "(11) 92000-0001", "licence": "EXA-3"})).await;
    let view = failing.settled().await;
    assert_eq!((view["panel"].as_str(), view["error"].as_str()), (Some("send_code"), Some(activation::GENERIC)));
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
    for command in
        [json!({"type": "resend_code"}), json!({"type": "submit_code", "pincode": "123456", "terms_accepted": true})]
    {
        let (status, body) = attempt.send(command).await.expect_err("refused during the countdown");
        assert_eq!((status, body["message"].as_str()), (422, Some(activation::WAIT_COUNTDOWN)));
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
    let view = submit_code(&attempt, &h.sms_code("5511930000002").await).await;
    assert_eq!(
        (view["panel"].as_str(), view["products"].clone()),
        (Some("product_list"), json!(["seguranca", "cloud"]))
    );
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
    let view = submit_code(&refused, &h.sms_code("5511920000002").await).await;
    assert_eq!((view["panel"].as_str(), view["error"].as_str()), (Some("send_code"), Some(activation::NOT_AUTHORIZED)));

    let cpf_refused = h.start(json!({"type": "start", "variant": "carrier"})).await;
    cpf_refused.ok(json!({"type": "submit_phone", "phone": PHONE, "cpf_cnpj": "111.444.777-35"})).await;
    let view = cpf_refused.settled().await;
    assert_eq!((view["panel"].as_str(), view["error"].as_str()), (Some("send_code"), Some(activation::NOT_AUTHORIZED)));
}

/// The broadband partner's login page from a landing attempt: its authorization URL and the
/// visitor's way back from the partner's consent page (`customer`: which button).
async fn consent(h: &World, landing: &Attempt<'_>, customer: &str) -> reqwest::Url {
    let view = landing.settled().await;
    assert_eq!(view["panel"], "partner_login");
    let authorize = reqwest::Url::parse(view["partner_login_url"].as_str().expect("url")).expect("parses");
    let mut approve = authorize.clone();
    approve.set_path(&authorize.path().replace("/authorize", "/approve"));
    approve.query_pairs_mut().append_pair("customer", customer);
    let back = h.http.get(approve).send().await.expect("approve");
    reqwest::Url::parse(back.headers()["location"].to_str().expect("location")).expect("url")
}

/// The `code` and `state` the partner sent back, as the return page sends them (with its own
/// address, where a refused return prepares a new login).
fn returned(back: &reqwest::Url) -> Value {
    let query: std::collections::HashMap<_, _> = back.query_pairs().into_owned().collect();
    json!({"type": "start", "variant": "broadband", "code": query["code"], "state": query["state"], "return_url": RETURN_URL})
}

const RETURN_URL: &str = "http://127.0.0.1:18380/seguranca/ativarbrisanet";

#[sqlx::test(migrations = "../migrations")]
async fn broadband_goes_through_the_partner_oauth_and_subscribes_by_hash(db: PgPool) {
    let h = harness(db).await;
    let landing = h.start(json!({"type": "start", "variant": "broadband", "return_url": RETURN_URL})).await;
    let view = landing.settled().await;
    let authorize = reqwest::Url::parse(view["partner_login_url"].as_str().expect("url")).expect("parses");
    let query: std::collections::HashMap<_, _> = authorize.query_pairs().into_owned().collect();
    assert_eq!(query["client_id"], "exa-portal-brisanet");
    assert_eq!(query["redirect_uri"], RETURN_URL);
    assert_eq!(query["scope"], "offline");
    assert_eq!(
        (query["state"].len(), query["code_challenge"].len(), query["code_challenge_method"].as_str()),
        (43, 43, "S256")
    );

    // The visitor approves on the partner's page and comes back, in the same browser, with
    // ?code=&state=: the code is exchanged server-side (PKCE) and the customer read.
    let back = consent(&h, &landing, "com-cobertura").await;
    let attempt = h.start_in(Some(&landing.visitor.cookie), returned(&back)).await;
    assert_eq!(attempt.settled().await["panel"], "send_code");
    attempt.ok(json!({"type": "submit_phone", "phone": PHONE})).await;
    let view = attempt.settled().await;
    assert_eq!(view["panel"], "code_validation", "{view}");
    let view = submit_code(&attempt, &h.sms_code(MSISDN).await).await;
    assert_eq!(view["panel"], "redirect_store", "{view}");
    let subscriptions = h.sandbox_json("/admin/subscriptions").await;
    assert_eq!(
        (subscriptions[0]["kind"].as_str(), subscriptions[0]["partner"].as_str()),
        (Some("hash"), Some("brisanet"))
    );
    let exchanges = h.sandbox_json("/admin/calls?endpoint=oauth.token").await;
    assert_eq!(exchanges.as_array().map(Vec::len), Some(1), "one exchange: {exchanges}");

    // A customer whose plan has no coverage: the spec's look-up failure.
    let landing = h.start(json!({"type": "start", "variant": "broadband", "return_url": RETURN_URL})).await;
    let back = consent(&h, &landing, "sem-cobertura").await;
    let uncovered = h.start_in(Some(&landing.visitor.cookie), returned(&back)).await;
    let view = uncovered.settled().await;
    assert_eq!(
        (view["panel"].as_str(), view["error"].as_str()),
        (Some("partner_login"), Some(activation::CUSTOMER_NOT_FOUND))
    );
}

/// Issue 16, item 5: a return the portal did not send the visitor on is refused with the
/// spec's look-up failure, and its code never reaches the token endpoint.
#[sqlx::test(migrations = "../migrations")]
async fn forged_replayed_and_planted_partner_returns_are_refused(db: PgPool) {
    let h = harness(db).await;
    let refused = |view: &Value| (view["panel"].clone(), view["error"].clone());
    let expected = (json!("partner_login"), json!(activation::CUSTOMER_NOT_FOUND));

    // A code with no state, and a code with a state the portal never issued.
    let landing = h.start(json!({"type": "start", "variant": "broadband", "return_url": RETURN_URL})).await;
    let back = consent(&h, &landing, "com-cobertura").await;
    let mut forged = returned(&back);
    forged.as_object_mut().expect("object").remove("state");
    let attempt = h.start_in(Some(&landing.visitor.cookie), forged.clone()).await;
    assert_eq!(refused(&attempt.settled().await), expected);
    forged["state"] = json!("c3RhdGUtcXVlLW8tcG9ydGFsLW51bmNhLWVtaXRpdS0xMjM0NTY");
    let attempt = h.start_in(Some(&landing.visitor.cookie), forged).await;
    assert_eq!(refused(&attempt.settled().await), expected);

    // The real return planted in another visitor's browser (login CSRF): refused.
    let planted = h.start(returned(&back)).await;
    assert_eq!(refused(&planted.settled().await), expected);
    let exchanges = h.sandbox_json("/admin/calls?endpoint=oauth.token").await;
    assert_eq!(exchanges.as_array().map(Vec::len), Some(0), "no forged code was exchanged: {exchanges}");

    // The real return in its own browser goes on; the same return a second time does not.
    let first = h.start_in(Some(&landing.visitor.cookie), returned(&back)).await;
    assert_eq!(first.settled().await["panel"], "send_code");
    let replayed = h.start_in(Some(&landing.visitor.cookie), returned(&back)).await;
    assert_eq!(refused(&replayed.settled().await), expected);

    // A state past its 30 minutes: the database's clock decides.
    let landing = h.start(json!({"type": "start", "variant": "broadband", "return_url": RETURN_URL})).await;
    let back = consent(&h, &landing, "com-cobertura").await;
    sqlx::query("UPDATE oauth_states SET expires_at = now() - interval '1 second' WHERE consumed_by IS NULL")
        .execute(&h.db)
        .await
        .expect("age the state");
    let late = h.start_in(Some(&landing.visitor.cookie), returned(&back)).await;
    assert_eq!(refused(&late.settled().await), expected);

    // Nothing of the round trip rests in clear: the verifiers are sealed, the states hashed.
    // Two landings, and each of the five refused returns offered the partner login again.
    let rows: Vec<(Vec<u8>, String)> =
        sqlx::query_as("SELECT state_hash, verifier FROM oauth_states").fetch_all(&h.db).await.expect("rows");
    assert_eq!(rows.len(), 7);
    assert!(rows.iter().all(|(hash, verifier)| hash.len() == 32 && verifier.starts_with("v1.")), "{rows:?}");
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
    let view = submit_code(&attempt, &h.sms_code(MSISDN).await).await;
    assert_eq!(view["panel"], "redirect_store", "{view}");
    let subscriptions = h.sandbox_json("/admin/subscriptions").await;
    assert_eq!(
        (subscriptions[0]["partner"].as_str(), subscriptions[0]["hash"].as_str(), subscriptions[0]["email"].as_str()),
        (Some("agility"), Some(plan.as_str()), Some("ana@exemplo.test"))
    );

    let refused = h.start(json!({"type": "start", "variant": "telecom"})).await;
    refused.ok(json!({"type": "submit_email", "phone": PHONE, "email": "joao@sem-assinatura.test"})).await;
    let view = refused.settled().await;
    assert_eq!(
        (view["panel"].as_str(), view["error"].as_str()),
        (Some("email"), Some(activation::PARTNER_LOGIN_REFUSED))
    );
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
    assert_eq!(submit_code(&carrier, &h.sms_code(MSISDN).await).await["panel"], "product_list");
    let telecom = at_code_panel(
        &h,
        json!({"type": "start", "variant": "telecom"}),
        json!({"type": "submit_email", "phone": "(21) 99876-5432", "email": "Bia.Souza@Exemplo.test"}),
    )
    .await;
    assert_eq!(submit_code(&telecom, &h.sms_code("5521998765432").await).await["panel"], "redirect_store");

    let payloads: Vec<(String, String)> =
        sqlx::query_as("SELECT event_type, payload::text FROM events WHERE stream_id LIKE 'activation-%'")
            .fetch_all(&h.db)
            .await
            .expect("events");
    assert!(payloads.len() > 20, "{} events", payloads.len());
    let types: Vec<&str> = payloads.iter().map(|(t, _)| t.as_str()).collect();
    for expected in [
        "phone.submitted",
        "document.authorized",
        "code.validated",
        "authorization.granted",
        "identity.verified",
        "packs.fetched",
        "partner.plan_found",
        "subscription.created",
        "step.started",
    ] {
        assert!(types.contains(&expected), "no {expected} in {types:?}");
    }
    let forbidden = [
        "5511987654321",
        "11987654321",
        "98765-4321",
        "52998224725",
        "529.982.247-25",
        "bia.souza",
        "exemplo.test",
        "sbx-",
        "$pii_clear",
    ];
    for (event_type, payload) in &payloads {
        for needle in forbidden {
            assert!(!payload.to_lowercase().contains(&needle.to_lowercase()), "{event_type} holds {needle}: {payload}");
        }
    }
    // The tokens are in the attempt's secrets until the attempt ends, then cleared.
    let left: i64 = sqlx::query_scalar("SELECT count(*) FROM attempt_secrets WHERE stream_id = $1")
        .bind(&carrier.visitor.id)
        .fetch_one(&db)
        .await
        .expect("count");
    assert_eq!(left, 0);
}
