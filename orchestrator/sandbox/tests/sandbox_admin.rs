//! The sandbox's own surface over HTTP: SMS inbox, clock, faults, call log, idempotent replay,
//! determinism per seed, chatbot page, and the docs naming everything the code serves.

mod sandbox_support;

use std::time::{Duration, Instant};

use reqwest::{Method, StatusCode};
use sandbox::credentials as dev;
use sandbox::{scenarios as s, ENDPOINTS};
use sandbox_support::{read, Sandbox};
use serde_json::{json, Value};

const PHONE: &str = "5511976543210";

async fn check_phone(sandbox: &Sandbox) -> Result<reqwest::Response, reqwest::Error> {
    sandbox.post("/cloud-functions/checkPhone").json(&json!({ "msisdn": PHONE })).send().await
}

#[tokio::test]
async fn inbox_lists_codes_newest_first_as_json_and_as_a_page() {
    let sandbox = Sandbox::start().await;
    let page = sandbox.get("/sms").send().await.unwrap().text().await.unwrap();
    assert!(page.contains("Nenhuma mensagem enviada ainda"));

    for _ in 0..2 {
        sandbox.post("/cloud-functions/sendCode").json(&json!({ "msisdn": PHONE })).send().await.unwrap();
    }
    sandbox.activation_code("5521987654321", dev::BRAND_DEFAULT).await;
    let (status, inbox) = read(sandbox.get(&format!("/sms?to={PHONE}")).send().await.unwrap()).await;
    assert_eq!(status, StatusCode::OK);
    let inbox = inbox.as_array().unwrap();
    assert_eq!(inbox.len(), 2);
    let keys: Vec<&String> = inbox[0].as_object().unwrap().keys().collect();
    assert_eq!(keys, ["code", "sent_at", "text", "to"]);
    assert_eq!(inbox[0]["to"], PHONE);
    assert!(inbox[0]["sent_at"].as_str().unwrap() >= inbox[1]["sent_at"].as_str().unwrap());
    let newest = inbox[0]["code"].as_str().unwrap();
    assert!(newest.len() == 6 && newest.bytes().all(|b| b.is_ascii_digit()));

    let page = sandbox.get("/sms").send().await.unwrap();
    assert_eq!(page.headers()["content-type"], "text/html; charset=utf-8");
    let page = page.text().await.unwrap();
    assert!(page.contains("<html lang=\"pt-BR\">") && page.contains("Caixa de SMS do sandbox"));
    assert!(page.contains(newest) && page.contains("+55 (11) 97654-3210"), "{page}");

    assert_eq!(sandbox.get("/sms?to=11976543210").send().await.unwrap().status(), StatusCode::BAD_REQUEST);
    assert_eq!(read(sandbox.get("/sms?to=5531999999999").send().await.unwrap()).await.1, json!([]));
}

#[tokio::test]
async fn the_clock_only_moves_forward() {
    let sandbox = Sandbox::start().await;
    let now = |sandbox: &Sandbox| {
        let request = sandbox.get("/admin/clock").send();
        async move {
            let body: Value = request.await.unwrap().json().await.unwrap();
            chrono::DateTime::parse_from_rfc3339(body["now"].as_str().unwrap()).unwrap()
        }
    };
    let before = now(&sandbox).await;
    sandbox.advance(3600).await;
    assert!(now(&sandbox).await - before >= chrono::Duration::seconds(3600));
    for bad in [json!({ "advance_seconds": 0 }), json!({ "advance_seconds": -5 }), json!({ "seconds": 5 })] {
        let refused = sandbox.post("/admin/clock").json(&bad).send().await.unwrap();
        assert_eq!(refused.status(), StatusCode::BAD_REQUEST, "{bad}");
    }
}

#[tokio::test]
async fn a_status_fault_answers_the_next_n_calls_then_the_contract_again() {
    let sandbox = Sandbox::start().await;
    let fault = sandbox.fault(json!({ "endpoint": "cloud.check-phone", "status": 503, "times": 2 })).await;
    assert_eq!(fault["effect"], json!({ "kind": "status", "status": 503, "body": null }));
    for _ in 0..2 {
        let (status, body) = read(check_phone(&sandbox).await.unwrap()).await;
        assert_eq!((status, body["code"].as_str()), (StatusCode::SERVICE_UNAVAILABLE, Some("SANDBOX_FAULT")));
    }
    assert_eq!(check_phone(&sandbox).await.unwrap().status(), StatusCode::OK);
    let calls = sandbox.calls("cloud.check-phone").await;
    let outcomes: Vec<(&str, i64)> =
        calls.iter().map(|c| (c["outcome"].as_str().unwrap(), c["status"].as_i64().unwrap())).collect();
    assert_eq!(outcomes, [("fault", 503), ("fault", 503), ("answered", 200)]);
    assert_eq!(calls[0]["fault_id"], fault["id"]);
    assert_eq!(calls[0]["path"], "/cloud-functions/checkPhone");
    let faults: Value = sandbox.get("/admin/faults").send().await.unwrap().json().await.unwrap();
    assert_eq!(faults, json!([]), "an exhausted fault is gone");
}

#[tokio::test]
async fn latency_then_custom_body_and_clearing() {
    let sandbox = Sandbox::start().await;
    sandbox.fault(json!({ "endpoint": "cloud.*", "latency_ms": 300 })).await;
    let started = Instant::now();
    assert_eq!(check_phone(&sandbox).await.unwrap().status(), StatusCode::OK);
    assert!(started.elapsed() >= Duration::from_millis(300), "{:?}", started.elapsed());

    let status_body = json!({ "status": "error", "message": "Serviço em manutenção." });
    sandbox.fault(json!({ "endpoint": "cloud.check-phone", "status": 500, "body": status_body })).await;
    let listed: Value = sandbox.get("/admin/faults").send().await.unwrap().json().await.unwrap();
    assert_eq!(listed.as_array().unwrap().len(), 2);
    // The first matching fault applies: latency only.
    assert_eq!(check_phone(&sandbox).await.unwrap().status(), StatusCode::OK);

    assert_eq!(
        sandbox.http.delete(sandbox.url("/admin/faults")).send().await.unwrap().status(),
        StatusCode::NO_CONTENT
    );
    sandbox.fault(json!({ "endpoint": "cloud.check-phone", "status": 500, "body": status_body })).await;
    assert_eq!(read(check_phone(&sandbox).await.unwrap()).await, (StatusCode::INTERNAL_SERVER_ERROR, status_body));

    let refused =
        sandbox.post("/admin/faults").json(&json!({ "endpoint": "cloud.nada", "drop": true })).send().await.unwrap();
    let (status, body) = read(refused).await;
    assert_eq!((status, body["error"]["code"].as_str()), (StatusCode::BAD_REQUEST, Some("INVALID_FAULT")));
}

/// A test that needs a call in flight (the waiting line's browser test holds the portal's only
/// runner slot with one) holds it until it says so, not for a time it guesses.
#[tokio::test]
async fn a_call_held_by_its_latency_goes_on_when_the_test_releases_it() {
    let sandbox = Sandbox::start().await;
    sandbox.fault(json!({ "endpoint": "cloud.*", "latency_ms": 60000, "times": 1 })).await;
    // Unreleased, the call would take its whole minute: half of it is the bound.
    let held = tokio::time::timeout(Duration::from_secs(30), check_phone(&sandbox));
    let (answered, released) = tokio::join!(held, async {
        // Released once the call is in, as the browser test does.
        loop {
            let calls: Value = sandbox.get("/admin/calls").send().await.unwrap().json().await.unwrap();
            if calls.as_array().unwrap().iter().any(|call| call["outcome"] == "pending") {
                break;
            }
            tokio::task::yield_now().await;
        }
        sandbox.post("/admin/faults/release").send().await.unwrap().status()
    });
    assert_eq!(released, StatusCode::NO_CONTENT);
    let answered = answered.expect("answered once released, not after the latency").unwrap();
    assert_eq!(answered.status(), StatusCode::OK, "the contract ran");
}

#[tokio::test]
async fn a_time_out_holds_the_answer_after_the_contract_ran() {
    let sandbox = Sandbox::start().await;
    sandbox.fault(json!({ "endpoint": "cloud.send-code", "timeout": true, "hold_ms": 5000, "times": 1 })).await;
    let sent = sandbox
        .post("/cloud-functions/sendCode")
        .json(&json!({ "msisdn": PHONE }))
        .timeout(Duration::from_millis(300))
        .send()
        .await;
    assert!(sent.unwrap_err().is_timeout());
    let inbox: Value = sandbox.get(&format!("/sms?to={PHONE}")).send().await.unwrap().json().await.unwrap();
    assert_eq!(inbox.as_array().unwrap().len(), 1, "the code was sent; only the answer was lost");
    assert_eq!(sandbox.calls("cloud.send-code").await[0]["outcome"], "timeout");

    sandbox
        .fault(
            json!({ "endpoint": "cloud.send-code", "timeout": true, "hold_ms": 5000, "phase": "before", "times": 1 }),
        )
        .await;
    let sent = sandbox
        .post("/cloud-functions/sendCode")
        .json(&json!({ "msisdn": PHONE }))
        .timeout(Duration::from_millis(300))
        .send()
        .await;
    assert!(sent.unwrap_err().is_timeout());
    let inbox: Value = sandbox.get(&format!("/sms?to={PHONE}")).send().await.unwrap().json().await.unwrap();
    assert_eq!(inbox.as_array().unwrap().len(), 1, "before the contract: nothing sent");
}

#[tokio::test]
async fn a_dropped_connection_gets_no_answer_at_all() {
    let sandbox = Sandbox::start().await;
    sandbox.fault(json!({ "endpoint": "cloud.check-phone", "drop": true, "times": 1 })).await;
    let dropped = check_phone(&sandbox).await.unwrap_err();
    assert!(!dropped.is_timeout() && dropped.status().is_none(), "{dropped:?}");
    assert_eq!(check_phone(&sandbox).await.unwrap().status(), StatusCode::OK);
    let outcomes: Vec<Value> = sandbox.calls("cloud.check-phone").await.iter().map(|c| c["outcome"].clone()).collect();
    assert_eq!(outcomes, [json!("dropped"), json!("answered")]);
}

#[tokio::test]
async fn a_fraction_of_calls_is_faulted_the_same_way_for_a_seed() {
    let faulted = |seed| async move {
        let sandbox = Sandbox::with_seed(seed).await;
        sandbox.fault(json!({ "endpoint": "cloud.check-phone", "status": 500, "fraction": 0.5 })).await;
        let mut pattern = Vec::new();
        for _ in 0..40 {
            pattern.push(check_phone(&sandbox).await.unwrap().status() == StatusCode::INTERNAL_SERVER_ERROR);
        }
        pattern
    };
    let first = faulted(11).await;
    let hits = first.iter().filter(|hit| **hit).count();
    assert!((8..=32).contains(&hits), "{hits} of 40");
    assert_eq!(faulted(11).await, first);
}

/// What the runner relies on: a retry with the same key after a lost answer does not
/// subscribe twice, and the call log proves it.
#[tokio::test]
async fn a_retry_with_the_same_idempotency_key_does_not_subscribe_twice() {
    let sandbox = Sandbox::start().await;
    let phone = "5511987654321";
    sandbox.verified(phone, dev::BRAND_DEFAULT).await;
    sandbox.fault(json!({ "endpoint": "bff.subscribe-serial", "drop": true, "times": 1 })).await;
    let subscribe = |key: &str, serial: &str| {
        sandbox
            .partner(Method::POST, "/bff-default/bff/api/v2/subscription/subscribe-serial")
            .header("Idempotency-Key", key)
            .json(&json!({ "serial": serial, "msisdn": phone }))
            .send()
    };
    assert!(subscribe("passo-1", "LIC-9").await.is_err(), "the first answer is lost");
    let retried = subscribe("passo-1", "LIC-9").await.unwrap();
    assert_eq!(retried.status(), StatusCode::OK);
    assert_eq!(retried.headers()["idempotent-replayed"], "true");
    let retried: Value = retried.json().await.unwrap();

    let subscriptions: Value = sandbox.get("/admin/subscriptions").send().await.unwrap().json().await.unwrap();
    assert_eq!(subscriptions.as_array().unwrap().len(), 1);
    assert_eq!(subscriptions[0]["subscription_id"], retried["subscription_id"]);

    let calls = sandbox.calls("bff.subscribe-serial").await;
    let seen: Vec<(&str, &str)> =
        calls.iter().map(|c| (c["idempotency_key"].as_str().unwrap(), c["outcome"].as_str().unwrap())).collect();
    assert_eq!(seen, [("passo-1", "dropped"), ("passo-1", "replayed")]);
    assert!(calls[0]["correlation_id"].is_string() && calls[0]["at"].is_string());

    let (status, reused) = read(subscribe("passo-1", "LIC-10").await.unwrap()).await;
    assert_eq!(
        (status, reused["error"]["code"].as_str()),
        (StatusCode::UNPROCESSABLE_ENTITY, Some("IDEMPOTENCY_KEY_REUSED"))
    );
    // A refused call is not stored: the same key may try again.
    let (status, _) = read(subscribe("passo-2", s::SERIAL_NOT_FOUND).await.unwrap()).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(sandbox.calls("bff.subscribe-serial").await.last().unwrap()["outcome"], "answered");

    assert_eq!(sandbox.http.delete(sandbox.url("/admin/calls")).send().await.unwrap().status(), StatusCode::NO_CONTENT);
    assert_eq!(sandbox.calls("bff.subscribe-serial").await.len(), 0);
}

#[tokio::test]
async fn the_same_seed_replays_the_same_ids_and_codes() {
    let run = |seed| async move {
        let sandbox = Sandbox::with_seed(seed).await;
        let mut seen = Vec::new();
        for _ in 0..3 {
            seen.push(sandbox.activation_code(PHONE, dev::BRAND_DEFAULT).await);
        }
        seen
    };
    let first = run(42).await;
    assert_eq!(run(42).await, first);
    assert_ne!(run(43).await, first);
}

/// `POST /admin/reset` (issue 14): a run starts from the seeded state, whatever came before.
#[tokio::test]
async fn reset_puts_everything_back_to_the_seed() {
    let sandbox = Sandbox::with_seed(7).await;
    let first = sandbox.activation_code(PHONE, dev::BRAND_DEFAULT).await;
    sandbox.fault(json!({ "endpoint": "cloud.*", "status": 503 })).await;
    sandbox.advance(3600).await;
    assert!(!sandbox.calls("partner-api.authentication-send").await.is_empty());

    let reset = sandbox.post("/admin/reset").send().await.unwrap();
    assert_eq!(reset.status(), StatusCode::NO_CONTENT);

    assert!(sandbox.calls("partner-api.authentication-send").await.is_empty(), "calls forgotten");
    let faults: Value = sandbox.get("/admin/faults").send().await.unwrap().json().await.unwrap();
    assert_eq!(faults, json!([]), "faults cleared");
    let inbox: Value = sandbox.get(&format!("/sms?to={PHONE}")).send().await.unwrap().json().await.unwrap();
    assert_eq!(inbox, json!([]), "inbox emptied");
    let subscriptions: Value = sandbox.get("/admin/subscriptions").send().await.unwrap().json().await.unwrap();
    assert_eq!(subscriptions, json!([]));
    let clock: Value = sandbox.get("/admin/clock").send().await.unwrap().json().await.unwrap();
    let now = chrono::DateTime::parse_from_rfc3339(clock["now"].as_str().unwrap()).unwrap();
    assert!((now.to_utc() - chrono::Utc::now()).num_seconds().abs() < 60, "clock back to the wall clock");
    // The seeded random stream starts again: the same transaction and code as the first run.
    assert_eq!(sandbox.activation_code(PHONE, dev::BRAND_DEFAULT).await, first);
}

#[tokio::test]
async fn chatbot_page_and_avatar() {
    let sandbox = Sandbox::start().await;
    for path in ["/chatbot/?p=hero", "/chatbot?p=hero"] {
        let page = sandbox.get(path).send().await.unwrap();
        assert_eq!(page.status(), StatusCode::OK, "{path}");
        let html = page.text().await.unwrap();
        assert!(html.contains("<html lang=\"pt-BR\">") && html.contains("Assistente EXA"));
        assert!(html.contains("src=\"/chatbot/avatar.svg\""));
    }
    assert_eq!(sandbox.get("/chatbot/?p=outro").send().await.unwrap().status(), StatusCode::NOT_FOUND);
    let avatar = sandbox.get("/chatbot/avatar.svg").send().await.unwrap();
    assert_eq!(avatar.headers()["content-type"], "image/svg+xml");
    assert!(avatar.text().await.unwrap().starts_with("<svg"));
}

#[tokio::test]
async fn index_health_endpoints_and_not_found() {
    let sandbox = Sandbox::start().await;
    let index = sandbox.get("/").send().await.unwrap().text().await.unwrap();
    assert!(index.contains(&sandbox.url("/bff-tim")) && index.contains("href=\"/sms\""));
    assert_eq!(read(sandbox.get("/health").send().await.unwrap()).await, (StatusCode::OK, json!({ "status": "ok" })));
    let endpoints: Vec<String> = sandbox.get("/admin/endpoints").send().await.unwrap().json().await.unwrap();
    assert_eq!(endpoints, ENDPOINTS);
    let (status, body) = read(sandbox.get("/nada").send().await.unwrap()).await;
    assert_eq!((status, body["error"]["code"].as_str()), (StatusCode::NOT_FOUND, Some("NOT_FOUND")));
}

fn doc(name: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs").join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|error| panic!("{}: {error}", path.display()))
}

#[test]
fn docs_name_every_endpoint_scenario_and_credential() {
    let upstreams = doc("upstreams.md");
    for endpoint in ENDPOINTS {
        assert!(upstreams.contains(&format!("`{endpoint}`")), "docs/upstreams.md misses `{endpoint}`");
    }
    let urls = sandbox::upstream_urls("http://127.0.0.1:8090");
    let urls = serde_json::to_value(urls).unwrap();
    for (kind, url) in urls.as_object().unwrap() {
        assert!(upstreams.contains(&format!("`{kind}`")), "docs/upstreams.md misses `{kind}`");
        assert!(upstreams.contains(url.as_str().unwrap()), "docs/upstreams.md misses {url}");
    }

    let sandbox = doc("sandbox.md");
    let phone = |national: &str| format!("({}) {}-{}", &national[..2], &national[2..7], &national[7..]);
    for national in [
        s::DESKTOP_ONE_PARTNER,
        s::DESKTOP_TWO_PARTNERS,
        s::DESKTOP_LICENCES_FULL,
        s::DESKTOP_SDK_NOT_ALLOWED,
        s::DESKTOP_REMOVAL_FAILS,
        s::DESKTOP_PARTNERS_FAIL,
        s::DESKTOP_DOWNLOAD_FAILS,
        s::SEND_CODE_FAILS,
        s::AUTHORIZE_REFUSED,
        s::PACKS_FS_ONLY,
        s::CLOUD_PHONE_REFUSED,
    ] {
        assert!(sandbox.contains(&phone(national)), "docs/sandbox.md misses {}", phone(national));
    }
    for input in [s::SERIAL_NOT_FOUND, "111.444.777-35", s::CUSTOMER_WITHOUT_COVERAGE, s::EMAIL_WITHOUT_SUBSCRIPTION] {
        assert!(sandbox.contains(input), "docs/sandbox.md misses {input}");
    }
    for value in [
        dev::CLIENT_ID,
        dev::CLIENT_SECRET,
        dev::REQUESTER_NAME,
        dev::BRAND_DEFAULT,
        dev::BRAND_AGILITY,
        dev::BRAND_TIM,
        dev::IDENTITY_KEY_DEFAULT,
        dev::IDENTITY_KEY_TIM,
        dev::PHONE_AUTH_API_KEY,
        dev::DOCDB_PROJECT,
        dev::HERO_API_KEY,
        dev::OAUTH_CLIENT_ID,
        dev::OAUTH_CLIENT_SECRET,
        dev::BROADBAND_PARTNER,
        dev::BROADBAND_PLAN_HASH,
        dev::TELECOM_PARTNER_NAME,
    ] {
        assert!(sandbox.contains(&format!("`{value}`")), "docs/sandbox.md misses `{value}`");
    }
}
