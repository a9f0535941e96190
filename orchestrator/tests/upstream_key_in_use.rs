//! Issue 14, defect 3: a real upstream keeps working after our client's time-out; the retry
//! reuses the idempotency key and meets `409 IDEMPOTENCY_KEY_IN_USE`. Each of the three clients
//! must take it as "not now" (a runner retry), not as the upstream's refusal, and the retry
//! after the work finished gets the first call's answer: one code sent, not two.
//!
//! Against the real sandbox over loopback: a fault's latency on a write with a key is the
//! upstream's own work, done after the key is taken and finished even when the caller left;
//! the test holds it until it releases it, so no machine is too slow for the first two calls.

use std::time::Duration;

use events::flows::activation::Brand;
use orchestrator::flows::activation::{ActivationClient, Reply};
use orchestrator::flows::cloud::client::{CallError as CloudError, CloudClient};
use orchestrator::flows::download::client::{CallError, DesktopClient, Endpoints};
use orchestrator::runner::{CallLog, StepError};
use orchestrator::upstream::Upstreams;
use sandbox::{spawn_on_loopback, SandboxConfig, SandboxHandle};
use serde_json::{json, Value};

/// The client's own time-out. The upstream's work lasts until the test releases it.
const TIMEOUT: Duration = Duration::from_millis(400);
const WORK: Duration = Duration::from_secs(60);

async fn slow_sandbox(endpoint: &str) -> SandboxHandle {
    let sandbox = spawn_on_loopback(SandboxConfig { seed: 14 }).await.expect("sandbox");
    let answer = reqwest::Client::new()
        .post(format!("{}/admin/faults", sandbox.base_url()))
        .json(&json!({ "endpoint": endpoint, "latency_ms": WORK.as_millis() as u64, "times": 1 }))
        .send()
        .await
        .expect("fault");
    assert_eq!(answer.status().as_u16(), 201);
    sandbox
}

/// Ends the upstream's held work.
async fn release(sandbox: &SandboxHandle) {
    let released = reqwest::Client::new()
        .post(format!("{}/admin/faults/release", sandbox.base_url()))
        .send()
        .await
        .expect("release");
    assert_eq!(released.status().as_u16(), 204);
}

/// Asks again, as the runner's retry would, while the released work is still finishing (the
/// key still in use); returns the first other answer and how many asks were in use.
async fn after_the_work<T, E>(
    mut ask: impl AsyncFnMut() -> Result<T, E>,
    in_use: impl Fn(&E) -> bool,
) -> (Result<T, E>, usize) {
    let mut in_use_asks = 0;
    tokio::time::timeout(Duration::from_secs(30), async {
        loop {
            match ask().await {
                Err(error) if in_use(&error) => in_use_asks += 1,
                answer => return (answer, in_use_asks),
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    })
    .await
    .expect("the released work finishes")
}

async fn inbox(sandbox: &SandboxHandle, phone: &str) -> usize {
    let messages: Value = reqwest::get(format!("{}/sms?to={phone}", sandbox.base_url()))
        .await
        .expect("inbox")
        .json()
        .await
        .expect("json");
    messages.as_array().map_or(0, Vec::len)
}

fn upstreams(sandbox: &SandboxHandle) -> Upstreams {
    Upstreams { timeout: TIMEOUT, ..Upstreams::sandbox(&sandbox.base_url()) }
}

fn transient(error: &StepError) -> &str {
    match error {
        StepError::Transient(reason) => reason,
    }
}

#[tokio::test]
async fn the_activation_client_retries_a_key_still_in_use() {
    let sandbox = slow_sandbox("partner-api.authentication-send").await;
    let (http, upstreams, calls) = (reqwest::Client::new(), upstreams(&sandbox), CallLog::default());
    let client = ActivationClient::new(&http, &upstreams, Brand::Default, &calls);
    let key = "activation-test:send_code:2";

    let first = client.send_code("5511987654321", key).await.expect_err("our time-out fires first");
    assert!(transient(&first).contains("time-out"), "{first}");
    let second = client.send_code("5511987654321", key).await;
    match &second {
        Err(error) => assert!(transient(error).contains("IDEMPOTENCY_KEY_IN_USE"), "{error}"),
        Ok(reply) => panic!("a call still running upstream was taken as its answer: {reply:?}"),
    }
    release(&sandbox).await;
    let (third, in_use) = after_the_work(
        async || client.send_code("5511987654321", key).await,
        |error| transient(error).contains("IDEMPOTENCY_KEY_IN_USE"),
    )
    .await;
    let third = third.expect("the stored answer");
    assert!(matches!(third, Reply::Done(_)), "{third:?}");
    assert_eq!(inbox(&sandbox, "5511987654321").await, 1, "one code sent for every call");

    let statuses: Vec<Option<u16>> = calls.calls().iter().map(|c| c.status).collect();
    let mut expected = vec![None, Some(409)];
    expected.extend(std::iter::repeat_n(Some(409), in_use));
    expected.push(Some(200));
    assert_eq!(statuses, expected, "every call is logged with its status");
    assert!(calls.calls().iter().all(|c| c.endpoint == "partner-api.authentication-send"));
}

#[tokio::test]
async fn the_download_client_retries_a_key_still_in_use() {
    let sandbox = slow_sandbox("phone-auth.send-code").await;
    let upstreams = upstreams(&sandbox);
    let calls = CallLog::default();
    let client = DesktopClient::new(
        reqwest::Client::new(),
        TIMEOUT,
        Endpoints {
            phone_auth: &upstreams.urls.phone_auth,
            phone_auth_key: &upstreams.phone_auth_api_key,
            docdb: &upstreams.urls.docdb,
            docdb_project: "exa-sandbox",
            antivirus: &upstreams.urls.antivirus,
            calls: &calls,
        },
    );
    let key = "download-test:send_code:2";

    let first = client.send_code("+5511910000001", "bot-check", key).await;
    assert!(matches!(&first, Err(CallError::Transient(reason)) if reason.contains("time-out")), "{:?}", first.err());
    let second = client.send_code("+5511910000001", "bot-check", key).await;
    assert!(
        matches!(&second, Err(CallError::Transient(reason)) if reason.contains("IDEMPOTENCY_KEY_IN_USE")),
        "a call still running upstream must be retried, not refused: {:?}",
        second.err()
    );
    release(&sandbox).await;
    let (third, _) = after_the_work(
        async || client.send_code("+5511910000001", "bot-check", key).await,
        |error| matches!(error, CallError::Transient(reason) if reason.contains("IDEMPOTENCY_KEY_IN_USE")),
    )
    .await;
    assert!(third.is_ok(), "the stored answer");
    assert_eq!(inbox(&sandbox, "5511910000001").await, 1, "one code sent for every call");
}

#[tokio::test]
async fn the_cloud_client_retries_a_key_still_in_use() {
    let sandbox = slow_sandbox("cloud.send-code").await;
    let upstreams = upstreams(&sandbox);
    let client = CloudClient::new(reqwest::Client::new(), &upstreams.urls.cloud_functions, TIMEOUT, CallLog::default());
    let key = "cloud-test:send_code:2";

    assert!(matches!(client.send_code("5511976543210", key).await, Err(CloudError::Transient(_))));
    let second = client.send_code("5511976543210", key).await;
    assert!(
        matches!(&second, Err(CloudError::Transient(reason)) if reason.contains("IDEMPOTENCY_KEY_IN_USE")),
        "{:?}",
        second.err()
    );
    release(&sandbox).await;
    let (third, _) = after_the_work(
        async || client.send_code("5511976543210", key).await,
        |error| matches!(error, CloudError::Transient(reason) if reason.contains("IDEMPOTENCY_KEY_IN_USE")),
    )
    .await;
    assert!(third.is_ok(), "the stored answer");
    assert_eq!(inbox(&sandbox, "5511976543210").await, 1, "one code sent for every call");
}

/// The rule is written once: the same answers are transient for every client.
#[test]
fn one_rule_for_every_client() {
    use orchestrator::upstream::transient::transient_kind;
    let body =
        br#"{"error":{"code":"IDEMPOTENCY_KEY_IN_USE","message":"a call with this Idempotency-Key is still running"}}"#;
    assert!(transient_kind(409, body).is_some());
    assert!(transient_kind(409, br#"{"status":"error","code":"SERIAL_IN_USE"}"#).is_none());
}
