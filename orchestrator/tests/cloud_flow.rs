//! The cloud activation end to end on the server: the attempt API, the runner's steps against
//! the sandbox's cloud functions, the 5 s due time, and where the tokens go.

mod cloud_support;
mod common;

use std::time::Duration;

use chrono::{DateTime, Utc};
use cloud_support::{error_shown, panel_is, World};
use serde_json::{json, Value};
use sqlx::PgPool;

const PHONE: &str = "(11) 97654-3210";
const MSISDN: &str = "5511976543210";
// Generous: the machine is shared, and a loaded PostgreSQL slows every step down.
const LIMIT: Duration = Duration::from_secs(45);

/// Form 1 accepted and the code sent: the visitor is on form 2.
async fn on_code_form(
    world: &World,
    phone: &str,
    serial: &str,
) -> (cloud_support::Visitor, orchestrator::runner::Runner) {
    let (status, visitor, body) = world.start_attempt(phone, serial).await;
    assert_eq!(status, 201, "{body}");
    let visitor = visitor.expect("attempt and cookie");
    assert_eq!(body["view"]["panel"], "details");
    assert_eq!(body["view"]["loading"], true, "the phone check is due");
    let runner = world.runner("runner-a");
    let attempt = world.drive(&runner, &visitor, LIMIT, |v| v["panel"] == "code" || error_shown(v)).await;
    assert_eq!(attempt["view"]["panel"], "code", "{attempt:#}");
    (visitor, runner)
}

fn at(event: &Value) -> DateTime<Utc> {
    event["at"].as_str().expect("at").parse().expect("time")
}

#[sqlx::test(migrations = "../migrations")]
async fn the_happy_path_waits_five_seconds_and_keeps_the_tokens_out_of_events(db: PgPool) {
    let world = World::start(db.clone()).await;
    let (visitor, runner) = on_code_form(&world, PHONE, "PSN-0001").await;
    let code = world.sms_code(MSISDN).await;

    let (status, reply) = world.command(&visitor, json!({ "type": "submit_code", "code": code })).await;
    assert_eq!(status, 200, "{reply}");
    assert_eq!(reply["view"]["loading"], true);
    let attempt = world.drive(&runner, &visitor, LIMIT, |v| v["panel"] == "success").await;

    assert_eq!(
        World::types(&attempt),
        [
            "details.submitted",
            "phone.checked",
            "code.sent",
            "code.submitted",
            "code.validated",
            "serial.registered",
            "custom_token.obtained",
            "account.signed_in",
            "cloud.activated",
        ]
    );
    assert_eq!(attempt["view"]["redirect_to"], "/cliente/hero");
    let events = attempt["events"].as_array().expect("events");
    let registered = events.iter().find(|e| e["type"] == "serial.registered").expect("registered");
    let obtained = events.iter().find(|e| e["type"] == "custom_token.obtained").expect("token");
    let waited = at(obtained) - at(registered);
    assert!(waited >= chrono::Duration::seconds(5), "the token came {waited} after the serial");
    let token_calls = world.calls("cloud.custom-token").await;
    assert_eq!(token_calls.len(), 1, "one token call, after the wait: {token_calls:#?}");

    // Activated: the attempt's tokens and code are forgotten (the id token was never kept), and
    // none of the upstream's tokens (all `sbx-cloud-…` in the sandbox) entered an event or
    // reached the browser.
    let left: i64 = sqlx::query_scalar("SELECT count(*) FROM attempt_secrets WHERE stream_id = $1")
        .bind(&visitor.id)
        .fetch_one(&db)
        .await
        .expect("secrets");
    assert_eq!(left, 0, "no secret outlives the activation");
    let issued = world.calls("cloud.sign-in").await;
    assert_eq!(issued.len(), 1, "one sign-in with the custom token: {issued:#?}");
    assert_eq!(world.events_containing("sbx-cloud-").await, 0, "no token enters an event");
    // The upstream's transaction id was kept with the secrets, not in `code.sent`.
    let with_transaction: i64 =
        sqlx::query_scalar("SELECT count(*) FROM events WHERE stream_id = $1 AND payload ? 'transaction_id'")
            .bind(&visitor.id)
            .fetch_one(&db)
            .await
            .expect("events");
    assert_eq!(with_transaction, 0, "no transaction id in an event");
    assert!(!attempt.to_string().contains("sbx-cloud-"), "no token reaches the browser");
    assert_eq!(world.events_containing("976543210").await, 0, "the phone is sealed");
    // The serial too (issue 26): sealed in the stored event, in clear in what its visitor reads.
    assert_eq!(world.events_containing("PSN-0001").await, 0, "the serial is sealed");
    assert_eq!(events[0]["data"]["serial"], "PSN-0001", "the browser reads the same event as before");
    let subscriptions = world.sandbox_json("/admin/subscriptions").await;
    let cloud: Vec<&Value> =
        subscriptions.as_array().expect("list").iter().filter(|s| s["kind"] == "cloud-serial").collect();
    assert_eq!(cloud.len(), 1);
    assert_eq!((cloud[0]["serial"].as_str(), cloud[0]["msisdn"].as_str()), (Some("PSN-0001"), Some(MSISDN)));
}

#[sqlx::test(migrations = "../migrations")]
async fn the_phone_check_refuses_the_scenario_phone_with_its_message(db: PgPool) {
    let world = World::start(db).await;
    let (_, visitor, _) = world.start_attempt("(11) 94000-0001", "PSN-0001").await;
    let visitor = visitor.expect("visitor");
    let attempt = world.drive(&world.runner("r"), &visitor, LIMIT, error_shown).await;
    assert_eq!(attempt["view"]["panel"], "details");
    assert_eq!(
        attempt["view"]["error"],
        "Este telefone não pode ativar o EXA Cloud. Verifique o número ou fale com o suporte."
    );
    assert_eq!(World::types(&attempt), ["details.submitted", "phone.refused"]);
    assert!(world.calls("cloud.send-code").await.is_empty(), "no code is sent to a refused phone");
}

#[sqlx::test(migrations = "../migrations")]
async fn a_failed_send_shows_the_upstream_message(db: PgPool) {
    let world = World::start(db).await;
    let (_, visitor, _) = world.start_attempt("(11) 92000-0001", "PSN-0001").await;
    let attempt = world.drive(&world.runner("r"), &visitor.expect("visitor"), LIMIT, error_shown).await;
    assert_eq!(attempt["view"]["panel"], "details");
    assert_eq!(attempt["view"]["error"], "Não foi possível enviar o código agora. Tente novamente em alguns minutos.");
}

#[sqlx::test(migrations = "../migrations")]
async fn a_wrong_code_stays_on_form_two_and_the_right_one_then_works(db: PgPool) {
    let world = World::start(db).await;
    let (visitor, runner) = on_code_form(&world, PHONE, "PSN-0002").await;
    let code = world.sms_code(MSISDN).await;
    let wrong = if code == "000000" { "111111" } else { "000000" };

    world.command(&visitor, json!({ "type": "submit_code", "code": wrong })).await;
    let attempt = world.drive(&runner, &visitor, LIMIT, error_shown).await;
    assert_eq!(attempt["view"]["panel"], "code");
    assert_eq!(attempt["view"]["error"], "Código inválido. Tentativas restantes: 4.");

    world.command(&visitor, json!({ "type": "submit_code", "code": code })).await;
    let attempt = world.drive(&runner, &visitor, LIMIT, |v| v["panel"] == "success").await;
    assert!(World::types(&attempt).contains(&"cloud.activated".to_string()));
}

#[sqlx::test(migrations = "../migrations")]
async fn a_rejected_serial_returns_to_form_one_with_the_message(db: PgPool) {
    let world = World::start(db).await;
    let (visitor, runner) = on_code_form(&world, PHONE, "SERIALINEXISTENTE").await;
    let code = world.sms_code(MSISDN).await;
    world.command(&visitor, json!({ "type": "submit_code", "code": code })).await;
    let attempt = world.drive(&runner, &visitor, LIMIT, error_shown).await;
    assert_eq!(attempt["view"]["panel"], "details");
    assert_eq!(
        attempt["view"]["error"],
        "Número de série não encontrado. Confira o número na etiqueta do seu computador."
    );
    assert!(world.calls("cloud.custom-token").await.is_empty());

    // A corrected serial gets a new code and completes.
    let (status, reply) =
        world.command(&visitor, json!({ "type": "submit_details", "phone": PHONE, "serial": "PSN-0003" })).await;
    assert_eq!(status, 200, "{reply}");
    world.drive(&runner, &visitor, LIMIT, panel_is("code")).await;
    let code = world.sms_code(MSISDN).await;
    world.command(&visitor, json!({ "type": "submit_code", "code": code })).await;
    world.drive(&runner, &visitor, LIMIT, |v| v["panel"] == "success").await;
}

#[sqlx::test(migrations = "../migrations")]
async fn resend_sends_a_new_code_and_starts_the_countdown(db: PgPool) {
    let world = World::start(db).await;
    let (visitor, runner) = on_code_form(&world, PHONE, "PSN-0004").await;
    let first = world.sms_code(MSISDN).await;

    let (status, reply) = world.command(&visitor, json!({ "type": "resend" })).await;
    assert_eq!((status, reply["view"]["loading"].clone()), (200, json!(true)));
    let attempt = world.drive(&runner, &visitor, LIMIT, panel_is("code")).await;
    assert_eq!(attempt["view"]["resend"], "countdown");
    assert!(attempt["view"]["resend_available_at"].is_string());
    let (status, refused) = world.command(&visitor, json!({ "type": "resend" })).await;
    assert_eq!(status, 422);
    assert!(refused["message"].as_str().expect("message").starts_with("Aguarde "), "{refused}");
    assert_eq!(world.calls("cloud.send-code").await.len(), 2);

    // The newest code is the one that counts.
    let second = world.sms_code(MSISDN).await;
    if first != second {
        world.command(&visitor, json!({ "type": "submit_code", "code": first })).await;
        let attempt = world.drive(&runner, &visitor, LIMIT, error_shown).await;
        assert_eq!(attempt["view"]["panel"], "code");
    }
    world.command(&visitor, json!({ "type": "submit_code", "code": second })).await;
    world.drive(&runner, &visitor, LIMIT, |v| v["panel"] == "success").await;
}

#[sqlx::test(migrations = "../migrations")]
async fn back_returns_to_form_one(db: PgPool) {
    let world = World::start(db).await;
    let (visitor, _runner) = on_code_form(&world, PHONE, "PSN-0005").await;
    let (status, reply) = world.command(&visitor, json!({ "type": "back" })).await;
    assert_eq!(status, 200);
    assert_eq!(reply["view"]["panel"], "details");
    assert_eq!(reply["view"]["serial"], "PSN-0005");
    assert_eq!(reply["view"]["phone"], "(11) *****-3210");
}

#[sqlx::test(migrations = "../migrations")]
async fn invalid_fields_answer_422_with_the_rule_message(db: PgPool) {
    let world = World::start(db).await;
    let (status, visitor, body) = world.start_attempt("(11) 9765", "PSN").await;
    assert_eq!(status, 422);
    assert!(visitor.is_none());
    assert_eq!(body, json!({ "message": "Por favor, digite um numero de celular válido!", "field": "phone" }));
    let (status, _, body) = world.start_attempt(PHONE, &"X".repeat(22)).await;
    assert_eq!(status, 422);
    assert_eq!(body, json!({ "message": "O número de série deve ter no máximo 21 caracteres.", "field": "serial" }));
}

#[sqlx::test(migrations = "../migrations")]
async fn an_unavailable_upstream_is_retried_with_the_same_idempotency_key(db: PgPool) {
    let world = World::start(db).await;
    let (visitor, runner) = on_code_form(&world, PHONE, "PSN-0006").await;
    world.fault(json!({ "endpoint": "cloud.register-serial", "status": 503, "times": 1 })).await;
    let code = world.sms_code(MSISDN).await;
    world.command(&visitor, json!({ "type": "submit_code", "code": code })).await;
    world.drive(&runner, &visitor, LIMIT, |v| v["panel"] == "success").await;

    let calls = world.calls("cloud.register-serial").await;
    assert_eq!(calls.len(), 2, "{calls:#?}");
    assert_eq!(calls[0]["outcome"], "fault");
    assert_eq!(calls[1]["status"], 200);
    assert_eq!(calls[0]["idempotency_key"], calls[1]["idempotency_key"], "a retry reuses the step's key");
}

#[sqlx::test(migrations = "../migrations")]
async fn an_upstream_that_stays_down_ends_with_the_generic_message(db: PgPool) {
    let world = World::start(db).await;
    world.fault(json!({ "endpoint": "cloud.check-phone", "status": 503 })).await;
    let (_, visitor, _) = world.start_attempt(PHONE, "PSN-0007").await;
    let attempt =
        world.drive(&world.runner("r"), &visitor.expect("visitor"), Duration::from_secs(60), error_shown).await;
    assert_eq!(attempt["view"]["panel"], "details");
    assert_eq!(attempt["view"]["error"], "Ops, ocorreu um erro. Tente novamente em instantes.");
    assert_eq!(World::types(&attempt), ["details.submitted", "step.gave_up"]);
}
