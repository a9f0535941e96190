//! The desktop download on the server, scenario by scenario of the sandbox table: the attempt
//! API, the runner's steps against the phone auth, the document database and the antivirus
//! API, the installer route, and where the tokens and the phone go.

mod common;
mod download_support;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use async_trait::async_trait;
use download_support::World;
use events::flow::PlannedStep;
use events::flows::download::{DownloadEvent, DownloadFlow, DownloadState};
use orchestrator::config::DownloadConfig;
use orchestrator::flows::download::DownloadSteps;
use orchestrator::runner::worker::Tick;
use orchestrator::runner::{FlowRunner, FlowSteps, Runner, StepContext, StepError};
use serde_json::{json, Value};
use sqlx::PgPool;

const GENERIC: &str = "Algo não funcionou como esperado, procure nosso atendimento.";

#[sqlx::test(migrations = "../migrations")]
async fn one_partner_downloads_and_the_installer_is_served_under_the_spec_name(db: PgPool) {
    let world = World::start(db.clone()).await;
    let runner = world.runner();
    let visitor = world.on_code_panel(&runner, "(11) 91000-0001").await;
    let attempt = world.confirm_to(&runner, &visitor, "5511910000001", "download_done").await;

    assert_eq!(
        World::types(&attempt),
        [
            "download.started",
            "phone.submitted",
            "code.sent",
            "code.submitted",
            "code.confirmed",
            "user.found",
            "partners.listed",
            "download.granted",
        ]
    );
    assert_eq!(attempt["view"]["step"], 3);
    assert_eq!(attempt["view"]["downloads"], 1);
    assert_eq!(attempt["view"]["phone"], "(11) *****-0001");
    // The browser sees the phone field redacted.
    let submitted =
        attempt["events"].as_array().expect("events").iter().find(|e| e["type"] == "phone.submitted").cloned();
    assert_eq!(submitted.map(|e| e["data"]["phone"].clone()), Some(Value::Null));

    let response = world.installer(&visitor).await;
    assert_eq!(response.status().as_u16(), 200);
    assert_eq!(
        response.headers().get("content-disposition").and_then(|v| v.to_str().ok()),
        Some("attachment; filename=\"antivirus-installer.exe\"")
    );
    assert_eq!(response.headers().get("content-type").and_then(|v| v.to_str().ok()), Some("application/octet-stream"));
    let body = response.bytes().await.expect("body");
    assert!(body.starts_with(b"MZ"), "a Windows executable");

    // Sent whole: recorded once for the grant (the funnel's "file served"), by the portal;
    // a second download of the same grant adds nothing.
    let served = || async {
        sqlx::query_as::<_, (String,)>(
            "SELECT metadata->>'actor' FROM events WHERE stream_id = $1 AND event_type = 'installer.served'",
        )
        .bind(&visitor.id)
        .fetch_all(&db)
        .await
        .expect("served events")
    };
    let mut recorded = Vec::new();
    for _ in 0..50 {
        recorded = served().await;
        if !recorded.is_empty() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert_eq!(recorded, vec![("portal".to_string(),)]);
    assert!(world.installer(&visitor).await.bytes().await.expect("again").starts_with(b"MZ"));
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    assert_eq!(served().await.len(), 1, "one per grant");

    // The download call carried the spec's headers: the sandbox refuses it otherwise, and
    // its log shows one grant for this attempt.
    assert_eq!(world.calls("antivirus.av-desktop-url").await.len(), 1);

    // Another browser (no cookie, or another one) gets nothing.
    let stranger = world
        .http
        .get(world.app.url(&format!("/api/attempts/{}/installer", visitor.id)))
        .send()
        .await
        .expect("stranger");
    assert_eq!(stranger.status().as_u16(), 403);

    // Tokens: in the attempt's secrets, never in an event or the browser; the phone sealed.
    let stored: Vec<(String, String)> =
        sqlx::query_as("SELECT name, value FROM attempt_secrets WHERE stream_id = $1 ORDER BY name")
            .bind(&visitor.id)
            .fetch_all(&db)
            .await
            .expect("secrets");
    // Sealed at rest: only the master key opens them.
    let sealer = events::pii::SecretBox::from_keys(&events::pii::Keys::insecure_dev());
    let secrets: Vec<(String, String)> = stored
        .iter()
        .map(|(name, value)| {
            assert!(
                value.starts_with("v1.") && !value.contains("sbx-") && !value.contains("http"),
                "{name} is sealed: {value}"
            );
            (name.clone(), sealer.open(&visitor.id, name, value).expect("opens"))
        })
        .collect();
    // The typed SMS code is a secret too, named in its event only.
    let (codes, secrets): (Vec<_>, Vec<_>) = secrets.into_iter().partition(|(n, _)| n.starts_with("s-"));
    assert_eq!(codes.len(), 1, "the submitted code: {codes:?}");
    assert_eq!(world.events_containing(&codes[0].1).await, 0, "the code never enters an event");
    let names: Vec<&str> = secrets.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(
        names,
        ["download.installer_url", "download.phone_auth_session", "download.subscriptions", "download.user_token"]
    );
    let subscriptions: std::collections::BTreeMap<String, String> =
        serde_json::from_str(&secrets[2].1).expect("subscription map");
    assert_eq!(subscriptions.len(), 1);
    for subscription in subscriptions.values() {
        assert_eq!(world.events_containing(subscription).await, 0, "upstream subscription ids stay out of events");
    }
    for (name, value) in &secrets {
        assert_eq!(world.events_containing(value).await, 0, "{name} never enters an event");
        assert!(!attempt.to_string().contains(value.as_str()), "{name} never reaches the browser");
    }
    assert!(secrets.iter().any(|(n, v)| n == "download.user_token" && v.starts_with("sbx-user-")));
    assert_eq!(world.events_containing("910000001").await, 0, "the phone is sealed in every event");
}

#[sqlx::test(migrations = "../migrations")]
async fn two_partners_wait_for_the_visitor_then_the_chosen_one_downloads(db: PgPool) {
    let world = World::start(db).await;
    let runner = world.runner();
    let visitor = world.on_code_panel(&runner, "(11) 91000-0002").await;
    let attempt = world.confirm_to(&runner, &visitor, "5511910000002", "partner_choice").await;
    let partners = attempt["view"]["partners"].as_array().expect("partners").clone();
    assert_eq!(partners.len(), 2);
    assert!(partners[0]["logotype"].as_str().is_some_and(|l| l.ends_with(".svg")));
    assert_eq!(partners[1]["logotype"], "", "the second has no logotype: the page shows its default image");

    let (status, refused) = world.command(&visitor, json!({ "type": "choose_partner", "partner_id": "nope" })).await;
    assert_eq!((status, refused["field"].as_str()), (422, Some("partner")));

    let chosen = partners[1]["id"].as_str().expect("id");
    let (status, reply) = world.command(&visitor, json!({ "type": "choose_partner", "partner_id": chosen })).await;
    assert_eq!(status, 200, "{reply}");
    let attempt = world.drive_to(&runner, &visitor, "download_done").await;
    let types = World::types(&attempt);
    assert_eq!(&types[types.len() - 3..], ["partners.listed", "partner.chosen", "download.granted"]);
    let event = attempt["events"].as_array().expect("events").iter().find(|e| e["type"] == "partner.chosen").cloned();
    assert_eq!(event.map(|e| e["data"]["partner_id"].clone()), Some(json!(chosen)));
}

#[sqlx::test(migrations = "../migrations")]
async fn full_licences_list_the_devices_and_a_removal_retries_the_download(db: PgPool) {
    let world = World::start(db).await;
    let runner = world.runner();
    let visitor = world.on_code_panel(&runner, "(11) 91000-0003").await;
    let attempt = world.confirm_to(&runner, &visitor, "5511910000003", "licences_in_use").await;
    assert_eq!(attempt["view"]["licences"], "3/3");
    let devices = attempt["view"]["devices"].as_array().expect("devices").clone();
    assert_eq!(devices.len(), 3);
    assert!(devices[0]["first_login"].is_i64() && devices[0]["last_login"].is_i64());
    assert!(devices[0]["device_name"].as_str().is_some_and(|n| !n.is_empty()));

    let device = devices[1]["id"].as_str().expect("id");
    let (status, reply) = world.command(&visitor, json!({ "type": "remove_device", "device_id": device })).await;
    assert_eq!(status, 200, "{reply}");
    let attempt = world.drive_to(&runner, &visitor, "download_done").await;
    let types = World::types(&attempt);
    assert_eq!(
        &types[types.len() - 6..],
        [
            "partners.listed",
            "licences.full",
            "devices.listed",
            "device.removal_requested",
            "device.removed",
            "download.granted"
        ]
    );
    // Devices are referred to by this attempt's references; the upstream ids embed the phone.
    assert_eq!(device, "device-2");
    assert_eq!(world.events_containing("910000003").await, 0, "no clear phone, not even inside upstream ids");
    assert_eq!(world.calls("antivirus.remove-user-device").await.len(), 1);
    assert_eq!(world.installer(&visitor).await.status().as_u16(), 200);
}

#[sqlx::test(migrations = "../migrations")]
async fn a_failed_removal_stays_on_the_devices_with_its_snackbar(db: PgPool) {
    let world = World::start(db).await;
    let runner = world.runner();
    let visitor = world.on_code_panel(&runner, "(11) 91000-0005").await;
    let attempt = world.confirm_to(&runner, &visitor, "5511910000005", "licences_in_use").await;
    assert_eq!(attempt["view"]["licences"], "2/2");
    let device = attempt["view"]["devices"][0]["id"].as_str().expect("id").to_string();
    world.command(&visitor, json!({ "type": "remove_device", "device_id": device })).await;
    let attempt = world.drive_to(&runner, &visitor, "licences_in_use").await;
    assert_eq!(attempt["view"]["snackbar"]["message"], "Não foi possível remover o dispositivo.");
    assert_eq!(attempt["view"]["licences"], "2/2");
    let failed =
        attempt["events"].as_array().expect("events").iter().find(|e| e["type"] == "device.removal_failed").cloned();
    assert_eq!(
        failed.map(|e| e["data"].get("reason").cloned()),
        Some(None),
        "the upstream's reason is for support only"
    );
    assert_eq!(stored_reason(&world, "device.removal_failed").await, "HTTP 500 DEVICE_REMOVAL_FAILED");
}

#[sqlx::test(migrations = "../migrations")]
async fn a_plan_without_desktop_antivirus_says_so(db: PgPool) {
    let world = World::start(db).await;
    let runner = world.runner();
    let visitor = world.on_code_panel(&runner, "(11) 91000-0004").await;
    let attempt = world.confirm_to(&runner, &visitor, "5511910000004", "plan_without_antivirus").await;
    assert_eq!(World::types(&attempt).last().map(String::as_str), Some("plan.without_antivirus"));
    assert_eq!(world.installer(&visitor).await.status().as_u16(), 410, "nothing was granted");
}

#[sqlx::test(migrations = "../migrations")]
async fn partner_list_and_download_failures_show_the_error_panel_and_try_again_restarts(db: PgPool) {
    let world = World::start(db).await;
    let runner = world.runner();
    for (phone, msisdn, failure) in [
        ("(11) 91000-0006", "5511910000006", "partners.failed"),
        ("(11) 91000-0007", "5511910000007", "download.failed"),
    ] {
        let visitor = world.on_code_panel(&runner, phone).await;
        let attempt = world.confirm_to(&runner, &visitor, msisdn, "download_error").await;
        assert_eq!(World::types(&attempt).last().map(String::as_str), Some(failure), "{phone}");
        assert_eq!(attempt["view"]["snackbar"]["message"], GENERIC);
        let (status, reply) = world.command(&visitor, json!({ "type": "restart" })).await;
        assert_eq!(status, 200, "{reply}");
        assert_eq!(reply["view"]["panel"], "phone_entry");
        assert_eq!(reply["view"]["phone"], Value::Null);
    }
}

#[sqlx::test(migrations = "../migrations")]
async fn a_phone_outside_the_user_collection_is_not_found_and_can_try_again(db: PgPool) {
    let world = World::start(db).await;
    let runner = world.runner();
    let visitor = world.on_code_panel(&runner, "(21) 98765-4321").await;
    let attempt = world.confirm_to(&runner, &visitor, "5521987654321", "user_not_found").await;
    assert_eq!(World::types(&attempt).last().map(String::as_str), Some("user.not_found"));
    assert!(world.calls("antivirus.partners").await.is_empty(), "no partner call for an unknown user");
    let (_, reply) = world.command(&visitor, json!({ "type": "restart" })).await;
    assert_eq!(reply["view"]["panel"], "phone_entry");
    let (status, reply) = world.command(&visitor, json!({ "type": "submit_phone", "phone": "(11) 91000-0001" })).await;
    assert_eq!(status, 200, "{reply}");
    world.drive_to(&runner, &visitor, "code_entry").await;
}

#[sqlx::test(migrations = "../migrations")]
async fn a_wrong_code_is_refused_with_the_spec_message_then_the_right_one_works(db: PgPool) {
    let world = World::start(db).await;
    let runner = world.runner();
    let visitor = world.on_code_panel(&runner, "(11) 91000-0001").await;
    let code = world.sms_code("5511910000001").await;
    let wrong = if code == "000000" { "111111" } else { "000000" };
    world.command(&visitor, json!({ "type": "submit_code", "code": wrong })).await;
    let attempt = world.drive_to(&runner, &visitor, "code_entry").await;
    assert_eq!(attempt["view"]["code_error"], "Código inválido. Verifique o número digitado.");
    let rejected = attempt["events"].as_array().expect("events").iter().find(|e| e["type"] == "code.rejected").cloned();
    assert_eq!(
        rejected.map(|e| e["data"].get("reason").cloned()),
        Some(None),
        "the upstream's reason is for support only"
    );
    assert_eq!(stored_reason(&world, "code.rejected").await, "HTTP 400 INVALID_CODE");

    let (status, short) = world.command(&visitor, json!({ "type": "submit_code", "code": "123" })).await;
    assert_eq!(status, 422);
    assert_eq!(short, json!({ "message": "Código inválido. Verifique o número digitado.", "field": "code" }));

    world.confirm_to(&runner, &visitor, "5511910000001", "download_done").await;
}

#[sqlx::test(migrations = "../migrations")]
async fn the_phone_rule_and_the_early_resend_are_enforced_by_the_server(db: PgPool) {
    let world = World::start(db).await;
    let runner = world.runner();
    let (_, visitor, _) = world.start_attempt("mac", "Firefox").await;
    let visitor = visitor.expect("visitor");
    let (status, refused) =
        world.command(&visitor, json!({ "type": "submit_phone", "phone": "(11) 81000-0001" })).await;
    assert_eq!(status, 422);
    assert_eq!(refused, json!({ "message": "Número inválido. Verifique novamente.", "field": "phone" }));

    let visitor = world.on_code_panel(&runner, "(11) 91000-0001").await;
    let (status, early) = world.command(&visitor, json!({ "type": "resend_code" })).await;
    assert_eq!(status, 422);
    assert_eq!(early["field"], "resend");
    let message = early["message"].as_str().expect("message");
    assert!(message.starts_with("Reenviar código em ") && message.ends_with(" segundos"), "{message}");
    let seconds: i64 =
        message.trim_start_matches("Reenviar código em ").trim_end_matches(" segundos").parse().expect("n");
    assert!((85..=90).contains(&seconds), "{seconds}");
    assert_eq!(world.calls("phone-auth.send-code").await.len(), 1, "no second SMS");

    let (status, _, body) = world.start_attempt("linux", "Chrome").await;
    assert_eq!(status, 422);
    assert_eq!(body["field"], "os");
}

#[sqlx::test(migrations = "../migrations")]
async fn a_failed_sms_returns_to_the_phone_with_the_snackbar(db: PgPool) {
    let world = World::start(db).await;
    let runner = world.runner();
    world.fault(json!({ "endpoint": "phone-auth.send-code", "status": 500, "times": 1 })).await;
    let (_, visitor, _) = world.start_attempt("win_pc", "Chrome").await;
    let visitor = visitor.expect("visitor");
    world.command(&visitor, json!({ "type": "submit_phone", "phone": "(11) 91000-0001" })).await;
    let attempt = world.drive_to(&runner, &visitor, "phone_entry").await;
    assert_eq!(attempt["view"]["snackbar"]["message"], GENERIC);
    assert_eq!(World::types(&attempt).last().map(String::as_str), Some("code.send_failed"));
    // The fault was for one call: the next submission goes through.
    world.command(&visitor, json!({ "type": "submit_phone", "phone": "(11) 91000-0001" })).await;
    world.drive_to(&runner, &visitor, "code_entry").await;
}

#[sqlx::test(migrations = "../migrations")]
async fn click_here_asks_for_a_new_grant(db: PgPool) {
    let world = World::start(db).await;
    let runner = world.runner();
    let visitor = world.on_code_panel(&runner, "(11) 91000-0001").await;
    world.confirm_to(&runner, &visitor, "5511910000001", "download_done").await;
    let (status, reply) = world.command(&visitor, json!({ "type": "retry_download" })).await;
    assert_eq!(status, 200, "{reply}");
    assert_eq!(reply["view"]["busy"], true);
    let attempt = world.drive_to(&runner, &visitor, "download_done").await;
    assert_eq!(attempt["view"]["downloads"], 2);
    assert_eq!(world.calls("antivirus.av-desktop-url").await.len(), 2);
    assert_eq!(world.installer(&visitor).await.status().as_u16(), 200);
}

/// Calls to `endpoint` the sandbox holds unanswered.
async fn pending_calls(world: &World, endpoint: &str) -> usize {
    world.calls(endpoint).await.iter().filter(|call| call["outcome"] == "pending").count()
}

/// The `reason` the event of `event_type` keeps in the store (support's timeline reads it).
async fn stored_reason(world: &World, event_type: &str) -> String {
    sqlx::query_scalar("SELECT payload->>'reason' FROM events WHERE event_type = $1 ORDER BY position DESC LIMIT 1")
        .bind(event_type)
        .fetch_one(&world.db)
        .await
        .expect("the event is stored with its reason")
}

/// Issue 16, item 7: at most two downloads of one attempt's installer run at once (a double
/// click, a second tab); a third is refused in Portuguese while they last.
#[sqlx::test(migrations = "../migrations")]
async fn a_third_download_of_the_same_installer_at_once_is_refused(db: PgPool) {
    let world = World::start(db.clone()).await;
    let runner = world.runner();
    let visitor = world.on_code_panel(&runner, "(11) 91000-0001").await;
    world.confirm_to(&runner, &visitor, "5511910000001", "download_done").await;
    // The download manager holds its answers until the test releases them: the first two
    // downloads hold their places while the third asks.
    world.fault(json!({ "endpoint": "download-manager.installer", "latency_ms": 60000 })).await;
    let (first, second) = (world.installer(&visitor), world.installer(&visitor));
    let third = async {
        tokio::time::timeout(std::time::Duration::from_secs(30), async {
            while pending_calls(&world, "download-manager.installer").await < 2 {
                tokio::time::sleep(std::time::Duration::from_millis(10)).await;
            }
        })
        .await
        .expect("the first two downloads reach the download manager");
        let third = world.installer(&visitor).await;
        world.release_held_calls().await;
        third
    };
    let (first, second, third) = tokio::join!(first, second, third);
    assert_eq!((first.status().as_u16(), second.status().as_u16()), (200, 200));
    assert_eq!(third.status().as_u16(), 429);
    let body: Value = third.json().await.expect("json");
    assert_eq!(body["message"], orchestrator::texts::INSTALLER_BUSY);
    assert!(first.bytes().await.expect("body").starts_with(b"MZ"));
}

/// The download's own steps, except that the first try of `confirm_code` fails after its call
/// kept the user token (a try whose outcome never commits: a refused write, a lost claim).
/// `FORGETS` stands for a flow that forgets its secrets when the attempt completes.
struct FailsAfterKeeping<const FORGETS: bool> {
    steps: DownloadSteps,
    db: PgPool,
    failed: AtomicBool,
    seen: Seen,
}

/// In the failing try: whether the token it had just kept read back, and how many rows of it
/// were stored by then.
type Seen = Arc<Mutex<Option<(bool, usize)>>>;

#[async_trait]
impl<const FORGETS: bool> FlowSteps for FailsAfterKeeping<FORGETS> {
    type F = DownloadFlow;

    const FORGETS_SECRETS_WHEN_COMPLETED: bool = FORGETS;

    async fn run(
        &self,
        ctx: &StepContext,
        state: &DownloadState,
        step: &PlannedStep,
        key: &str,
    ) -> Result<Vec<DownloadEvent>, StepError> {
        let outcome = self.steps.run(ctx, state, step, key).await?;
        if step.name == "confirm_code" && !self.failed.swap(true, Ordering::SeqCst) {
            let read_back = ctx.secret(USER_TOKEN).await?.is_some();
            let stored = stored_secrets(&self.db, ctx.stream.as_str(), USER_TOKEN).await.len();
            *self.seen.lock().expect("lock") = Some((read_back, stored));
            return Err(StepError::Transient("the try fails after keeping the token".into()));
        }
        Ok(outcome)
    }
}

const USER_TOKEN: &str = "download.user_token";

/// The stored (sealed) values of the attempt's secret `name`.
async fn stored_secrets(db: &PgPool, stream_id: &str, name: &str) -> Vec<String> {
    sqlx::query_scalar("SELECT value FROM attempt_secrets WHERE stream_id = $1 AND name = $2")
        .bind(stream_id)
        .bind(name)
        .fetch_all(db)
        .await
        .expect("secrets")
}

/// A runner of [`FailsAfterKeeping`] against `world`'s sandbox, and what its failing try saw.
fn failing_runner<const FORGETS: bool>(world: &World) -> (Runner, Seen) {
    let seen = Arc::new(Mutex::new(None));
    let steps = FailsAfterKeeping::<FORGETS> {
        steps: DownloadSteps::new(DownloadConfig::default()),
        db: world.db.clone(),
        failed: AtomicBool::new(false),
        seen: seen.clone(),
    };
    (world.runner_with("download-test-runner", 3, |deps| Arc::new(FlowRunner::new(steps, deps))), seen)
}

/// Issue 24: a step's tokens are written in the transaction of its outcome. A try that fails
/// after keeping one leaves no row (within the try it read back at once); the retry's outcome
/// stores it sealed, and the next step reads it.
#[sqlx::test(migrations = "../migrations")]
async fn a_kept_token_is_stored_with_its_outcome_and_dropped_with_a_failed_try(db: PgPool) {
    let world = World::start(db.clone()).await;
    let (runner, seen) = failing_runner::<false>(&world);
    let visitor = world.on_code_panel(&runner, "(11) 91000-0001").await;
    let code = world.sms_code("5511910000001").await;
    let (status, reply) = world.command(&visitor, json!({ "type": "submit_code", "code": code })).await;
    assert_eq!(status, 200, "{reply}");

    let tick = runner.tick().await.expect("tick");
    assert_eq!(tick, Tick::Retrying { stream_id: visitor.id.clone(), step: "confirm_code".into() });
    assert_eq!(*seen.lock().expect("lock"), Some((true, 0)), "read back within the try, stored by none");
    assert!(stored_secrets(&db, &visitor.id, USER_TOKEN).await.is_empty(), "the failed try kept nothing");
    assert_eq!(
        stored_secrets(&db, &visitor.id, "download.phone_auth_session").await.len(),
        1,
        "the earlier step's token stays"
    );

    sqlx::query("UPDATE due_steps SET due_at = now()").execute(&db).await.expect("skip the back-off");
    let tick = runner.tick().await.expect("tick");
    assert_eq!(tick, Tick::Ran { stream_id: visitor.id.clone(), step: "confirm_code".into() });
    let stored = stored_secrets(&db, &visitor.id, USER_TOKEN).await;
    assert_eq!(stored.len(), 1, "stored with the outcome");
    assert!(stored[0].starts_with("v1.") && !stored[0].contains("sbx-"), "sealed: {}", stored[0]);
    let sealer = events::pii::SecretBox::from_keys(&events::pii::Keys::insecure_dev());
    let token = sealer.open(&visitor.id, USER_TOKEN, &stored[0]).expect("opens");
    assert!(token.starts_with("sbx-user-"), "the phone auth's token");

    // The next step found it: the user is looked up with it, not lost.
    let tick = runner.tick().await.expect("tick");
    assert_eq!(tick, Tick::Ran { stream_id: visitor.id.clone(), step: "find_user".into() });
    let attempt = world.attempt(&visitor).await;
    assert_eq!(World::types(&attempt).last().map(String::as_str), Some("user.found"));
    world.drive_to(&runner, &visitor, "download_done").await;
}

/// The tokens the completing step keeps are written before the completed attempt's secrets
/// are forgotten, in the same transaction: none is left behind.
#[sqlx::test(migrations = "../migrations")]
async fn a_completing_step_leaves_no_token_when_the_flow_forgets_them(db: PgPool) {
    let world = World::start(db.clone()).await;
    let (runner, _) = failing_runner::<true>(&world);
    let visitor = world.on_code_panel(&runner, "(11) 91000-0001").await;
    world.confirm_to(&runner, &visitor, "5511910000001", "download_done").await;
    let left: i64 = sqlx::query_scalar("SELECT count(*) FROM attempt_secrets WHERE stream_id = $1")
        .bind(&visitor.id)
        .fetch_one(&db)
        .await
        .expect("count");
    assert_eq!(left, 0, "the installer URL kept by the completing step was forgotten with the rest");
}
