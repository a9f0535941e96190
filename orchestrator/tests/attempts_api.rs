//! The attempt API over a small flow: start, validation, the browser binding, idempotent
//! commands, sealed personal data, and the live stream of a runner's step.

mod common;

use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use common::spawn_app_with;
use events::flow::{Erased, Flow, Guards, Outcome, PiiField, PlannedStep, Rejection};
use events::pii::PiiKind;
use orchestrator::runner::{FlowRunner, FlowSteps, StepContext, StepDeps};
use orchestrator::runner::{Runner, RunnerConfig, StepError};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use sqlx::PgPool;

struct Demo;

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(tag = "type", content = "data")]
enum DemoEvent {
    #[serde(rename = "demo.started")]
    Started { phone: PiiField, masked: String },
    #[serde(rename = "demo.confirmed")]
    Confirmed,
    #[serde(rename = "demo.notified")]
    Notified { digits: usize },
}

#[derive(Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum DemoCommand {
    Start { phone: String },
    Confirm,
}

#[derive(Default, Clone)]
struct DemoState {
    phone: Option<PiiField>,
    masked: Option<String>,
    confirmed: bool,
    notified: bool,
}

impl Flow for Demo {
    const CATEGORY: &'static str = "demo";
    type State = DemoState;
    type Event = DemoEvent;
    type Command = DemoCommand;

    fn command_name(command: &DemoCommand) -> &'static str {
        match command {
            DemoCommand::Start { .. } => "start",
            DemoCommand::Confirm => "confirm",
        }
    }

    /// The demo sends no code: nothing it does meets a limit.
    fn guards(_: &[DemoEvent]) -> Guards {
        Guards::default()
    }

    fn evolve(mut state: DemoState, event: &DemoEvent, _at: DateTime<Utc>) -> DemoState {
        match event {
            DemoEvent::Started { phone, masked } => {
                state.phone = Some(phone.clone());
                state.masked = Some(masked.clone());
            }
            DemoEvent::Confirmed => state.confirmed = true,
            DemoEvent::Notified { .. } => state.notified = true,
        }
        state
    }

    fn decide(state: &DemoState, command: DemoCommand, _now: DateTime<Utc>) -> Result<Vec<DemoEvent>, Rejection> {
        match command {
            DemoCommand::Start { phone } => {
                let digits: String = phone.chars().filter(char::is_ascii_digit).collect();
                if digits.len() != 11 {
                    return Err(Rejection::field("phone", "Por favor, digite um numero de celular válido!"));
                }
                let masked = format!("({}) *****-{}", &digits[..2], &digits[7..]);
                Ok(vec![DemoEvent::Started { phone: PiiField::clear(PiiKind::Phone, &format!("55{digits}")), masked }])
            }
            DemoCommand::Confirm if state.phone.is_some() && !state.confirmed => Ok(vec![DemoEvent::Confirmed]),
            DemoCommand::Confirm => Err(Rejection::general("Nada a confirmar.")),
        }
    }

    fn next_step(state: &DemoState) -> Option<PlannedStep> {
        (state.confirmed && !state.notified).then(|| PlannedStep::now("notify", Utc::now()))
    }

    fn view(state: &DemoState, _now: DateTime<Utc>) -> Value {
        let panel = if state.notified {
            "done"
        } else if state.confirmed {
            "waiting"
        } else {
            "confirm"
        };
        json!({ "panel": panel, "phone": state.masked })
    }

    fn outcome(state: &DemoState) -> Outcome {
        if state.notified {
            Outcome::Completed
        } else {
            Outcome::Open
        }
    }
}

/// The step opens the sealed phone, as a real upstream call would need it.
struct DemoSteps;

#[async_trait]
impl FlowSteps for DemoSteps {
    type F = Demo;
    async fn run(
        &self,
        ctx: &StepContext,
        state: &DemoState,
        _step: &PlannedStep,
        _key: &str,
    ) -> Result<Vec<DemoEvent>, StepError> {
        let phone = state.phone.as_ref().ok_or_else(|| StepError::Transient("no phone".into()))?;
        let clear = ctx.open(phone).await?;
        ctx.secrets
            .put("user_token", "tok-secret-123", Duration::from_secs(60))
            .await
            .map_err(|e| StepError::Transient(e.to_string()))?;
        Ok(vec![DemoEvent::Notified { digits: clear.len() }])
    }
}

async fn demo_app(db: PgPool) -> common::TestApp {
    spawn_app_with(db, |state| {
        let flows = (*state.flows).clone().with(Arc::new(Erased::<Demo>::default()));
        state.flows = Arc::new(flows);
    })
    .await
}

fn cookie(response: &reqwest::Response) -> String {
    let set = response.headers()["set-cookie"].to_str().expect("ascii");
    assert!(set.contains("HttpOnly"), "the session cookie is not readable by scripts: {set}");
    set.split(';').next().expect("pair").to_string()
}

async fn start(app: &common::TestApp, phone: &str) -> (reqwest::StatusCode, Option<String>, Value) {
    let response = app
        .client
        .post(app.url("/api/attempts"))
        .json(&json!({ "flow": "demo", "command": { "type": "start", "phone": phone } }))
        .send()
        .await
        .expect("start");
    let status = response.status();
    let cookie = response.headers().get("set-cookie").map(|_| cookie(&response));
    (status, cookie, response.json().await.expect("json"))
}

#[sqlx::test(migrations = "../migrations")]
async fn starting_an_attempt_seals_the_phone_and_binds_the_browser(db: PgPool) {
    let app = demo_app(db.clone()).await;

    let (status, cookie, body) = start(&app, "(11) 91000-0001").await;

    assert_eq!(status, 201);
    assert!(cookie.is_some());
    assert_eq!(body["view"], json!({ "panel": "confirm", "phone": "(11) *****-0001" }));
    assert_eq!(body["events"][0]["type"], "demo.started");
    assert_eq!(body["events"][0]["data"]["phone"], Value::Null, "the browser never gets the sealed blob");
    let id = body["id"].as_str().expect("id");
    assert!(id.starts_with("demo-"));

    let clear: i64 = sqlx::query_scalar("SELECT count(*) FROM events WHERE payload::text LIKE '%91000%'")
        .fetch_one(&db)
        .await
        .expect("scan");
    assert_eq!(clear, 0, "no clear phone in any payload");
    let sealed: Value = sqlx::query_scalar("SELECT payload->'phone' FROM events WHERE stream_id = $1")
        .bind(id)
        .fetch_one(&db)
        .await
        .expect("payload");
    assert!(sealed.get("$pii").is_some(), "stored sealed: {sealed}");
    let vault = events::pii::Vault::new(db.clone(), events::pii::Keys::insecure_dev());
    let found = vault.streams_for(PiiKind::Phone, "5511910000001").await.expect("lookup");
    assert_eq!(found, [id.to_string()], "support finds the attempt by phone");
}

#[sqlx::test(migrations = "../migrations")]
async fn an_invalid_start_answers_422_with_the_spec_message(db: PgPool) {
    let app = demo_app(db.clone()).await;
    let (status, _, body) = start(&app, "123").await;
    assert_eq!(status, 422);
    assert_eq!(body, json!({ "message": "Por favor, digite um numero de celular válido!", "field": "phone" }));
    let count: i64 = sqlx::query_scalar("SELECT count(*) FROM events").fetch_one(&db).await.expect("count");
    assert_eq!(count, 0);
}

#[sqlx::test(migrations = "../migrations")]
async fn another_browser_cannot_read_or_drive_the_attempt(db: PgPool) {
    let app = demo_app(db).await;
    let (_, _, body) = start(&app, "11910000001").await;
    let id = body["id"].as_str().expect("id");
    let (_, other_cookie, _) = start(&app, "11910000002").await;
    let other_cookie = other_cookie.expect("cookie");

    let read = app
        .client
        .get(app.url(&format!("/api/attempts/{id}")))
        .header("cookie", &other_cookie)
        .send()
        .await
        .expect("get");
    assert_eq!(read.status(), 403);
    let anonymous = app
        .client
        .post(app.url(&format!("/api/attempts/{id}/commands")))
        .json(&json!({ "type": "confirm" }))
        .send()
        .await
        .expect("post");
    assert_eq!(anonymous.status(), 403);
    let unknown = app
        .client
        .get(app.url("/api/attempts/demo-00000000-0000-0000-0000-000000000000"))
        .header("cookie", &other_cookie)
        .send()
        .await
        .expect("get");
    assert_eq!(unknown.status(), 404);
}

#[sqlx::test(migrations = "../migrations")]
async fn a_repeated_command_with_the_same_key_acts_once(db: PgPool) {
    let app = demo_app(db.clone()).await;
    let (_, cookie, body) = start(&app, "11910000001").await;
    let cookie = cookie.expect("cookie");
    let id = body["id"].as_str().expect("id");
    let send = || async {
        let response = app
            .client
            .post(app.url(&format!("/api/attempts/{id}/commands")))
            .header("cookie", &cookie)
            .header("idempotency-key", "k-1")
            .json(&json!({ "type": "confirm" }))
            .send()
            .await
            .expect("command");
        (response.status(), response.json::<Value>().await.expect("json"))
    };

    let (first_status, first) = send().await;
    let (second_status, second) = send().await;

    assert_eq!(first_status, 200);
    assert_eq!(second_status, 200, "the repeat is answered, not refused");
    assert_eq!(first, second);
    assert_eq!(first["view"]["panel"], "waiting");
    assert_eq!(first["events"].as_array().map(Vec::len), Some(1));
    let confirmed: i64 = sqlx::query_scalar("SELECT count(*) FROM events WHERE event_type = 'demo.confirmed'")
        .fetch_one(&db)
        .await
        .expect("count");
    assert_eq!(confirmed, 1);
    let due: String = sqlx::query_scalar("SELECT step FROM due_steps WHERE stream_id = $1")
        .bind(id)
        .fetch_one(&db)
        .await
        .expect("due");
    assert_eq!(due, "notify", "the command scheduled the next step with its events");
}

/// Sends `command` under `key` as the attempt's browser.
async fn keyed(app: &common::TestApp, id: &str, cookie: &str, key: &str, command: Value) -> (u16, Value) {
    let response = app
        .client
        .post(app.url(&format!("/api/attempts/{id}/commands")))
        .header("cookie", cookie)
        .header("idempotency-key", key)
        .json(&command)
        .send()
        .await
        .expect("command");
    (response.status().as_u16(), response.json::<Value>().await.expect("json"))
}

/// A demo attempt started by a browser: its cookie and id.
async fn started(app: &common::TestApp) -> (String, String) {
    let (_, cookie, body) = start(app, "11910000001").await;
    (cookie.expect("cookie"), body["id"].as_str().expect("id").to_string())
}

/// `confirm` sent at once under each of `keys`, by the attempt's browser: the answers.
async fn confirm_at_once(app: &common::TestApp, id: &str, cookie: &str, keys: &[&str]) -> Vec<(u16, Value)> {
    futures::future::join_all(keys.iter().map(|key| keyed(app, id, cookie, key, json!({ "type": "confirm" })))).await
}

/// Issue 14, defect 6: the key was checked, then acted on: two concurrent requests with one key
/// could both act, or the second answered 422 ("Nada a confirmar.").
#[sqlx::test(migrations = "../migrations")]
async fn concurrent_commands_with_one_key_act_once_and_answer_alike(db: PgPool) {
    let app = demo_app(db.clone()).await;
    for round in 0..5 {
        let (cookie, id) = started(&app).await;
        let key = format!("concurrent-{round}");
        let answers = confirm_at_once(&app, &id, &cookie, &[&key, &key, &key, &key]).await;
        assert!(answers.iter().all(|(status, _)| *status == 200), "{answers:?}");
        assert!(answers.iter().all(|(_, body)| *body == answers[0].1), "identical answers: {answers:?}");
        let confirmed: i64 =
            sqlx::query_scalar("SELECT count(*) FROM events WHERE event_type = 'demo.confirmed' AND stream_id = $1")
                .bind(&id)
                .fetch_one(&db)
                .await
                .expect("count");
        assert_eq!(confirmed, 1, "the command acted once");
    }
}

/// Issue 30: the lock, the stored answer and the stream are read in one call
/// (`lock_and_read_stream`); each read must come after the lock, or a command that waited on
/// another would decide on the history before it and fail its append (409). Four different
/// keys at once: one confirms, the others decide on the confirmed attempt and are refused.
#[sqlx::test(migrations = "../migrations")]
async fn concurrent_commands_under_different_keys_each_decide_on_the_history_before_them(db: PgPool) {
    let app = demo_app(db.clone()).await;
    for round in 0..5 {
        let (cookie, id) = started(&app).await;
        let keys: Vec<String> = (0..4).map(|i| format!("different-{round}-{i}")).collect();
        let keys: Vec<&str> = keys.iter().map(String::as_str).collect();
        let answers = confirm_at_once(&app, &id, &cookie, &keys).await;
        let mut statuses: Vec<u16> = answers.iter().map(|(status, _)| *status).collect();
        statuses.sort_unstable();
        assert_eq!(statuses, [200, 422, 422, 422], "{answers:?}");
    }
}

#[sqlx::test(migrations = "../migrations")]
async fn a_key_is_bound_to_its_command_and_to_a_length(db: PgPool) {
    let app = demo_app(db.clone()).await;
    let (cookie, id) = started(&app).await;

    let (status, _) = keyed(&app, &id, &cookie, "k-1", json!({ "type": "confirm" })).await;
    assert_eq!(status, 200);
    let (status, reused) = keyed(&app, &id, &cookie, "k-1", json!({ "type": "start", "phone": "11910000002" })).await;
    assert_eq!((status, reused["message"].as_str()), (422, Some(orchestrator::texts::KEY_REUSED)));

    // Cut to 100 characters, these two keys were one.
    let long = "x".repeat(101);
    let (status, refused) = keyed(&app, &id, &cookie, &long, json!({ "type": "confirm" })).await;
    assert_eq!((status, refused["message"].as_str()), (422, Some(orchestrator::texts::KEY_TOO_LONG)));

    // Keys older than a day are purged.
    sqlx::query("UPDATE attempt_commands SET created_at = now() - interval '25 hours'")
        .execute(&db)
        .await
        .expect("age");
    assert_eq!(orchestrator::attempts::service::purge_old_keys(&db).await.expect("purge"), 1);
}

/// Issue 14, defect 5: the reply folded new events with the application's clock while the
/// database recorded them with its own; countdowns and expiries then compared the two.
#[sqlx::test(migrations = "../migrations")]
async fn replies_carry_the_times_the_database_recorded(db: PgPool) {
    let app = demo_app(db.clone()).await;
    let (_, cookie, body) = start(&app, "11910000001").await;
    let (cookie, id) = (cookie.expect("cookie"), body["id"].as_str().expect("id").to_string());
    let (_, confirmed) = keyed(&app, &id, &cookie, "k-time", json!({ "type": "confirm" })).await;

    let recorded: Vec<chrono::DateTime<chrono::Utc>> =
        sqlx::query_scalar("SELECT recorded_at FROM events WHERE stream_id = $1 ORDER BY version")
            .bind(&id)
            .fetch_all(&db)
            .await
            .expect("times");
    let replied = |event: &Value| {
        event["at"].as_str().and_then(|at| chrono::DateTime::parse_from_rfc3339(at).ok()).map(|at| at.to_utc())
    };
    assert_eq!(replied(&body["events"][0]), Some(recorded[0]), "the start's reply");
    assert_eq!(replied(&confirmed["events"][0]), Some(recorded[1]), "the command's reply");

    // Secrets expire on the database's clock too.
    let secrets = orchestrator::write_path::Secrets::new(
        db.clone(),
        events::pii::SecretBox::from_keys(&events::pii::Keys::insecure_dev()),
        &id,
    );
    secrets.put("t", "v", Duration::from_secs(60)).await.expect("put");
    let lives: f64 = sqlx::query_scalar("SELECT extract(epoch FROM expires_at - now())::float8 FROM attempt_secrets")
        .fetch_one(&db)
        .await
        .expect("expiry");
    assert!((59.0..=60.0).contains(&lives), "{lives}");
}

/// Issue 14, defect 9: a read error before the stream's first frame was retried at once, for
/// ever: one failing query after another, as fast as the database answered.
#[sqlx::test(migrations = "../migrations")]
async fn a_failing_read_does_not_spin_the_event_stream(db: PgPool) {
    let app = demo_app(db.clone()).await;
    let (cookie, id) = started(&app).await;
    let rollbacks = || async {
        sqlx::query_scalar::<_, i64>("SELECT xact_rollback FROM pg_stat_database WHERE datname = current_database()")
            .fetch_one(&db)
            .await
            .expect("stats")
    };
    // Every read of the stream now fails.
    sqlx::query("ALTER TABLE events RENAME TO events_away").execute(&db).await.expect("rename");
    tokio::time::sleep(Duration::from_millis(1200)).await;
    let before = rollbacks().await;

    let stream = app.client.get(app.url(&format!("/api/attempts/{id}/stream"))).header("cookie", &cookie).send();
    let _open = tokio::time::timeout(Duration::from_secs(3), stream).await;
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let failed = rollbacks().await - before;

    sqlx::query("ALTER TABLE events_away RENAME TO events").execute(&db).await.expect("rename back");
    assert!(failed < 20, "{failed} failed reads in about four seconds");
}

#[sqlx::test(migrations = "../migrations")]
async fn the_stream_pushes_the_view_when_a_step_finishes(db: PgPool) {
    let app = demo_app(db.clone()).await;
    let (_, cookie, body) = start(&app, "11910000001").await;
    let cookie = cookie.expect("cookie");
    let id = body["id"].as_str().expect("id").to_string();
    let mut sse = app
        .client
        .get(app.url(&format!("/api/attempts/{id}/stream")))
        .header("cookie", &cookie)
        .send()
        .await
        .expect("stream");
    assert_eq!(sse.headers()["content-type"], "text/event-stream");

    app.client
        .post(app.url(&format!("/api/attempts/{id}/commands")))
        .header("cookie", &cookie)
        .json(&json!({ "type": "confirm" }))
        .send()
        .await
        .expect("confirm");
    let deps = StepDeps {
        db: db.clone(),
        vault: events::pii::Vault::new(db.clone(), events::pii::Keys::insecure_dev()),
        http: reqwest::Client::new(),
        upstreams: Arc::new(orchestrator::upstream::Upstreams::sandbox("http://127.0.0.1:9")),
    };
    let runner = Runner::new(db.clone(), events::EventStore::new(db.clone()), RunnerConfig::default())
        .with_flow(Arc::new(FlowRunner::new(DemoSteps, deps)));
    runner.tick().await.expect("tick");

    let mut seen = String::new();
    let done = tokio::time::timeout(Duration::from_secs(10), async {
        while let Ok(Some(chunk)) = sse.chunk().await {
            seen.push_str(&String::from_utf8_lossy(&chunk));
            if seen.contains("\"panel\":\"done\"") {
                return;
            }
        }
    })
    .await;
    assert!(done.is_ok(), "the done view arrived over SSE; got {seen}");
    assert!(seen.contains("\"demo.notified\""));
    assert!(seen.contains("\"digits\":13"), "the step opened the sealed phone (55 + 11 digits)");
    assert!(!seen.contains("tok-secret-123"), "tokens never reach the browser");
    let leaked: i64 = sqlx::query_scalar("SELECT count(*) FROM events WHERE payload::text LIKE '%tok-secret%'")
        .fetch_one(&db)
        .await
        .expect("scan");
    assert_eq!(leaked, 0, "tokens never enter an event");
}

/// Issue 15: an attempt holds at most `MAX_EVENTS_PER_ATTEMPT` events; past it every command is
/// refused with a Portuguese message and appends nothing.
#[sqlx::test(migrations = "../migrations")]
async fn a_full_attempt_refuses_every_command(db: PgPool) {
    use orchestrator::attempts::service::MAX_EVENTS_PER_ATTEMPT;
    use orchestrator::texts::ATTEMPT_FULL;
    let app = demo_app(db.clone()).await;
    let (cookie, id) = started(&app).await;
    // Fill the attempt up to the limit with events its flow does not know (as a runner's are).
    let store = events::EventStore::new(db.clone());
    let stream = events::StreamId::parse(&id).expect("id");
    let metadata = events::Metadata {
        correlation_id: uuid::Uuid::new_v4(),
        causation_id: None,
        actor: "runner".into(),
        client: None,
    };
    let filler: Vec<events::NewEvent> = (1..MAX_EVENTS_PER_ATTEMPT)
        .map(|i| events::NewEvent {
            event_type: "step.noted".into(),
            schema_version: 1,
            payload: json!({ "i": i }),
            metadata: metadata.clone(),
        })
        .collect();
    store.append(&stream, events::ExpectedVersion::Any, filler).await.expect("filler");

    let refused = app
        .client
        .post(app.url(&format!("/api/attempts/{id}/commands")))
        .header("cookie", &cookie)
        .json(&json!({ "type": "confirm" }))
        .send()
        .await
        .expect("post");
    assert_eq!(refused.status(), 422);
    assert_eq!(refused.json::<Value>().await.expect("json")["message"], ATTEMPT_FULL);
    let count: i64 = sqlx::query_scalar("SELECT count(*) FROM events WHERE stream_id = $1")
        .bind(&id)
        .fetch_one(&db)
        .await
        .expect("count");
    assert_eq!(count as usize, MAX_EVENTS_PER_ATTEMPT);
}

/// Issue 15: each event stream holds a connection and reads the attempt on every change, so
/// their number is capped per attempt (and in all); one more is refused with 429.
#[sqlx::test(migrations = "../migrations")]
async fn event_streams_past_the_per_attempt_cap_are_refused(db: PgPool) {
    let app = demo_app(db).await;
    let (cookie, id) = started(&app).await;
    let open = || app.client.get(app.url(&format!("/api/attempts/{id}/stream"))).header("cookie", &cookie).send();
    let mut streams = Vec::new();
    for _ in 0..orchestrator::attempts::streams::StreamCaps::default().per_attempt {
        let stream = open().await.expect("stream");
        assert_eq!(stream.status(), 200);
        streams.push(stream);
    }
    let refused = open().await.expect("stream");
    assert_eq!(refused.status(), 429);
    let message = refused.json::<Value>().await.expect("json")["message"].as_str().unwrap_or_default().to_string();
    assert!(message.starts_with("Muitas páginas"), "{message}");
    // Another attempt's visitor is not affected.
    let (_, other_cookie, other) = start(&app, "11910000002").await;
    let other_id = other["id"].as_str().expect("id");
    let theirs = app
        .client
        .get(app.url(&format!("/api/attempts/{other_id}/stream")))
        .header("cookie", other_cookie.expect("cookie"))
        .send()
        .await
        .expect("stream");
    assert_eq!(theirs.status(), 200);
    drop(streams);
}
