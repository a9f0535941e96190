//! Issue 16 (security): each test here failed before its fix. See docs/security.md.

mod common;
mod download_support;

use common::spawn_app;
use serde_json::Value;
use sqlx::PgPool;

/// Every 4xx of the public API is JSON with a Portuguese message, never axum's English text.
#[sqlx::test(migrations = "../migrations")]
async fn malformed_bodies_get_json_refusals_in_portuguese(db: PgPool) {
    let app = spawn_app(db.clone()).await;
    let big = format!(
        "{{\"flow\":\"cloud\",\"command\":{{\"type\":\"start\",\"phone\":\"{}\"}}}}",
        "1".repeat(3 * 1024 * 1024)
    );
    let cases: Vec<(&str, &str, Option<&str>, String)> = vec![
        ("POST", "/api/attempts", Some("application/json"), "{not json".into()),
        ("POST", "/api/attempts", Some("application/json"), "{\"flow\": 3}".into()),
        ("POST", "/api/attempts", Some("text/plain"), "{}".into()),
        ("POST", "/api/attempts", None, String::new()),
        ("POST", "/api/attempts", Some("application/json"), big),
        (
            "POST",
            "/api/attempts/cloud-00000000-0000-0000-0000-000000000000/commands",
            Some("application/json"),
            "[".into(),
        ),
        ("POST", "/api/staff/session", Some("application/json"), "{\"email\": 1".into()),
        ("POST", "/api/staff/session", Some("text/plain"), "x".into()),
        ("POST", "/api/support/attempts/x/reveal", Some("application/json"), "{".into()),
        ("POST", "/api/support/erase", Some("application/json"), "{".into()),
        ("PUT", "/api/attempts", Some("application/json"), "{}".into()),
        ("GET", "/api/no-such-route", None, String::new()),
    ];
    for (method, path, content_type, body) in cases {
        let mut request = app.client.request(method.parse().expect("method"), app.url(path)).body(body.clone());
        if let Some(content_type) = content_type {
            request = request.header("content-type", content_type);
        }
        let response = request.send().await.expect("request");
        let status = response.status();
        assert!(status.is_client_error(), "{method} {path}: {status}");
        let kind = response.headers().get("content-type").and_then(|v| v.to_str().ok()).unwrap_or("").to_string();
        assert!(kind.starts_with("application/json"), "{method} {path} ({status}): {kind}");
        let answer: Value = response.json().await.expect("json");
        let message = answer["message"].as_str().unwrap_or_default();
        assert!(!message.is_empty(), "{method} {path}: {answer}");
        for english in ["Failed", "failed", "length limit", "Expected", "Content-Type header", "missing field"] {
            assert!(!message.contains(english), "{method} {path}: {message}");
        }
    }
    let written: i64 = sqlx::query_scalar("SELECT count(*) FROM events").fetch_one(&db).await.expect("count");
    assert_eq!(written, 0, "no refused request writes an event");
}

fn set_cookie(response: &reqwest::Response) -> Option<String> {
    response.headers().get("set-cookie").and_then(|v| v.to_str().ok()).map(str::to_string)
}

fn token_of(set_cookie: &str) -> String {
    set_cookie
        .split(';')
        .next()
        .and_then(|pair| pair.split_once('='))
        .map(|(_, v)| v.to_string())
        .expect("a session cookie")
}

async fn start_download(app: &common::TestApp, cookie: Option<&str>, https: bool) -> reqwest::Response {
    let mut request = app.client.post(app.url("/api/attempts")).json(
        &serde_json::json!({ "flow": "download", "command": { "type": "start", "os": "win_pc", "browser": "Chrome" } }),
    );
    if let Some(cookie) = cookie {
        request = request.header("cookie", format!("__Host-exa_session={cookie}"));
    }
    if https {
        request = request.header("x-forwarded-proto", "https");
    }
    let response = request.send().await.expect("start");
    assert_eq!(response.status(), 201);
    response
}

/// Issue 26: the visitor's and the staff's cookies were `Secure` only behind an https proxy or
/// when configured, and the visitor's had `Path=/api`: a plain-http page or a sibling subdomain
/// could plant one. Both are `__Host-` cookies now: `Secure`, `Path=/`, no `Domain`, always.
#[sqlx::test(migrations = "../migrations")]
async fn the_visitor_and_staff_cookies_are_host_prefixed_and_always_secure(db: PgPool) {
    let app = spawn_app(db.clone()).await;
    let visitor = set_cookie(&start_download(&app, None, false).await).expect("cookie");
    let email = "cookie@exa.com.br";
    common::staff::add(&db, email, orchestrator::staff::Role::Support).await;
    let code = common::staff::code_now(&db, email).await;
    let signed_in = app
        .client
        .post(app.url("/api/staff/session"))
        .header("origin", format!("http://{}", app.addr))
        .json(&serde_json::json!({ "email": email, "password": common::staff::PASSWORD, "code": code }))
        .send()
        .await
        .expect("sign-in");
    assert_eq!(signed_in.status(), 200);
    let staff = set_cookie(&signed_in).expect("staff cookie");
    for (cookie, name) in [(visitor, "__Host-exa_session="), (staff, "__Host-exa_staff=")] {
        assert!(cookie.starts_with(name), "{cookie}");
        let attributes: Vec<&str> = cookie.split(';').map(str::trim).collect();
        assert!(attributes.contains(&"Secure") && attributes.contains(&"Path=/"), "{cookie}");
        assert!(!cookie.to_ascii_lowercase().contains("domain="), "{cookie}");
    }
}

/// The visitor's cookie: `Secure` over http and https alike, `Max-Age` started again on every
/// use, and a made-up value is never adopted.
#[sqlx::test(migrations = "../migrations")]
async fn the_session_cookie_is_secure_refreshed_and_never_fixed(db: PgPool) {
    let app = spawn_app(db.clone()).await;

    let plain = set_cookie(&start_download(&app, None, false).await).expect("cookie");
    assert!(plain.contains("; Secure"), "{plain}");
    assert!(plain.contains("HttpOnly") && plain.contains("Max-Age=86400"), "{plain}");
    let over_https = set_cookie(&start_download(&app, None, true).await).expect("cookie");
    assert!(over_https.contains("; Secure"), "behind an https proxy: {over_https}");

    // Fixation: a 64-character value the server never issued is replaced by a random one.
    let forged = "a".repeat(64);
    let response = start_download(&app, Some(&forged), false).await;
    let issued = token_of(&set_cookie(&response).expect("a new cookie for a made-up session"));
    assert_ne!(issued, forged);
    assert_eq!(issued.len(), 64);
    let body: Value = response.json().await.expect("json");
    let id = body["id"].as_str().expect("id");
    let with_forged = app
        .client
        .get(app.url(&format!("/api/attempts/{id}")))
        .header("cookie", format!("__Host-exa_session={forged}"))
        .send()
        .await
        .expect("get");
    assert_eq!(with_forged.status(), 403, "the attempt belongs to the issued session, not the forged one");

    // Reuse: a known session keeps its value and its cookie lives another day from now.
    let again = set_cookie(&start_download(&app, Some(&issued), false).await).expect("the cookie is set again");
    assert_eq!(token_of(&again), issued);
    assert!(again.contains("Max-Age=86400"), "{again}");
    let read = app
        .client
        .get(app.url(&format!("/api/attempts/{id}")))
        .header("cookie", format!("__Host-exa_session={issued}"))
        .send()
        .await
        .expect("get");
    assert_eq!(read.status(), 200);
    let refreshed = set_cookie(&read).expect("reading the attempt refreshes the cookie");
    assert_eq!(token_of(&refreshed), issued);
}

/// Rows a command may only write once it is accepted: events, vault subjects and links, secrets.
async fn written_rows(db: &PgPool) -> Vec<(&'static str, i64)> {
    let mut counts = Vec::new();
    for table in ["events", "pii_subjects", "pii_lookup", "pii_stream_links", "attempt_secrets", "attempts"] {
        let count: i64 =
            sqlx::query_scalar(&format!("SELECT count(*) FROM {table}")).fetch_one(db).await.expect("count");
        counts.push((table, count));
    }
    counts
}

/// A NUL or other control character in a field is the field's refusal (422 with its message),
/// never a 500, and nothing of the command is written anywhere.
#[sqlx::test(migrations = "../migrations")]
async fn control_characters_are_refused_with_the_fields_message_and_nothing_is_written(db: PgPool) {
    let app = spawn_app(db.clone()).await;
    let before = written_rows(&db).await;
    for serial in ["C02X\u{0}1", "\u{0}", "AB\u{1b}[31m"] {
        let response = app
            .client
            .post(app.url("/api/attempts"))
            .header("x-altcha", app.proof().await)
            .json(&serde_json::json!({ "flow": "cloud", "command": { "type": "start", "phone": "(11) 91000-0001", "serial": serial } }))
            .send()
            .await
            .expect("start");
        assert_eq!(response.status(), 422, "{serial:?}");
        let body: Value = response.json().await.expect("json");
        assert_eq!(body["field"], "serial", "{body}");
        assert_eq!(body["message"], "O número de série contém caracteres inválidos.");
    }
    assert_eq!(written_rows(&db).await, before, "a refused command writes nothing");

    // A start the abuse limits refuse (no proof of work) records its refusal, and nothing of
    // the command itself: no vault subject, look-up, link or secret for the phone.
    let vault_rows = |rows: Vec<(&'static str, i64)>| {
        rows.into_iter().filter(|(t, _)| t.starts_with("pii_") || *t == "attempt_secrets").collect::<Vec<_>>()
    };
    let response = app
        .client
        .post(app.url("/api/attempts"))
        .json(&serde_json::json!({ "flow": "cloud", "command": { "type": "start", "phone": "(11) 91000-0001", "serial": "C02X1" } }))
        .send()
        .await
        .expect("start");
    assert_eq!(response.status(), 403);
    assert_eq!(vault_rows(written_rows(&db).await), vault_rows(before), "a start refused by a limit seals nothing");
}

async fn start_broadband(app: &common::TestApp, return_url: &str) -> (u16, Value) {
    let response = app
        .client
        .post(app.url("/api/attempts"))
        .json(&serde_json::json!({ "flow": "activation", "command": { "type": "start", "variant": "broadband", "return_url": return_url } }))
        .send()
        .await
        .expect("start");
    (response.status().as_u16(), response.json().await.expect("json"))
}

/// The OAuth `redirect_uri` (the broadband start's `return_url`) is only ever the portal's own
/// origin: `PUBLIC_ORIGIN`, or in sandbox mode without it the bind address and loopback.
#[sqlx::test(migrations = "../migrations")]
async fn the_return_url_is_only_the_portals_own_origin(db: PgPool) {
    let refused = serde_json::json!({
        "field": "return_url",
        "message": "Este endereço de retorno não pertence ao portal. Abra a ativação pelo link do portal e tente novamente."
    });
    let sandbox = spawn_app(db.clone()).await;
    for url in [
        "https://evil.test/seguranca/ativarbrisanet",
        "http://127.0.0.1.evil.test/seguranca/ativarbrisanet",
        "http://127.0.0.1:1/elsewhere",
    ] {
        let (status, body) = start_broadband(&sandbox, url).await;
        assert_eq!((status, body), (422, refused.clone()), "{url}");
    }
    let own = format!("http://{}/seguranca/ativarbrisanet", sandbox.addr);
    assert_eq!(start_broadband(&sandbox, &own).await.0, 201, "the sandbox's own address");

    let configured = common::spawn_app_configured(db.clone(), "http://127.0.0.1:9", |c| {
        c.site.public_origin = Some("https://portal.example".into())
    })
    .await
    .0;
    assert_eq!(start_broadband(&configured, "https://portal.example/seguranca/ativarbrisanet").await.0, 201);
    for url in
        [own.as_str(), "http://portal.example/seguranca/ativarbrisanet", "https://evil.test/seguranca/ativarbrisanet"]
    {
        let (status, body) = start_broadband(&configured, url).await;
        assert_eq!((status, body), (422, refused.clone()), "{url} with PUBLIC_ORIGIN set");
    }
}

/// What the server logged while this test binary ran (the production filter).
static LOGS: std::sync::Mutex<Vec<u8>> = std::sync::Mutex::new(Vec::new());

struct LogWriter;

impl std::io::Write for LogWriter {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        LOGS.lock().unwrap_or_else(|p| p.into_inner()).extend_from_slice(bytes);
        Ok(bytes.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fn capture_logs() {
    // The production filter, with every request's span logged (tower-http's own lines).
    let filter = tracing_subscriber::EnvFilter::new("info,sqlx=warn,tower_http=debug");
    let _ = tracing_subscriber::fmt().with_env_filter(filter).with_ansi(false).with_writer(|| LogWriter).try_init();
}

/// An upstream API key (in the query, as the identity provider's and phone-auth's travel, and
/// in the path, as the partner's one-time code does) on a closed port: the failure reaches
/// support as a kind ("connection failed"), never with the URL, in the events, the visitor's
/// replies, the event stream or the logs.
#[sqlx::test(migrations = "../migrations")]
async fn an_upstream_key_never_reaches_events_replies_streams_or_logs(db: PgPool) {
    use std::sync::Arc;
    use std::time::Duration;

    use orchestrator::config::DownloadConfig;
    use orchestrator::flows::download::DownloadSteps;
    use orchestrator::runner::FlowRunner;

    const KEY: &str = "LEAKED-KEY-5f3a9c1e";
    capture_logs();
    // A port bound for the whole test but never listening: every connection to it is refused.
    // (A port bound and let go could be taken by another test's server meanwhile, which then
    // answers: CI saw a 405 from one.)
    let held = tokio::net::TcpSocket::new_v4().expect("socket");
    held.bind("127.0.0.1:0".parse().expect("address")).expect("bind");
    let closed = held.local_addr().expect("addr").port();
    let world = download_support::World::start(db.clone()).await;
    let runner = world.runner_with("leak-runner", 2, |mut deps| {
        let mut upstreams = (*deps.upstreams).clone();
        upstreams.urls.phone_auth = format!("http://127.0.0.1:{closed}/code/{KEY}");
        upstreams.phone_auth_api_key = secrecy::SecretString::from(KEY);
        deps.upstreams = Arc::new(upstreams);
        Arc::new(FlowRunner::new(DownloadSteps::new(DownloadConfig::default()), deps))
    });
    let (status, visitor, _) = world.start_attempt("win_pc", "Chrome").await;
    assert_eq!(status, 201);
    let visitor = visitor.expect("visitor");
    let (status, reply) =
        world.command(&visitor, serde_json::json!({ "type": "submit_phone", "phone": "(11) 91000-0001" })).await;
    assert_eq!(status, 200, "{reply}");
    let attempt = world.drive(&runner, &visitor, Duration::from_secs(40), |view| view["busy"] == false).await;

    let failures: Vec<String> = sqlx::query_scalar(
        "SELECT payload::text FROM events WHERE event_type IN ('step.called', 'step.gave_up') ORDER BY position",
    )
    .fetch_all(&db)
    .await
    .expect("failures");
    assert!(
        failures.iter().any(|f| f.contains("connection failed")),
        "the failure is recorded for support: {failures:?}"
    );
    let leaked: i64 = sqlx::query_scalar("SELECT count(*) FROM events e WHERE e::text LIKE $1")
        .bind(format!("%{KEY}%"))
        .fetch_one(&db)
        .await
        .expect("scan");
    assert_eq!(leaked, 0, "no event holds the key");
    let text = attempt.to_string();
    assert!(!text.contains(KEY) && !text.contains("127.0.0.1:"), "the visitor's reply: {text}");

    let mut stream = world
        .http
        .get(world.app.url(&format!("/api/attempts/{}/stream", visitor.id)))
        .header("cookie", &visitor.cookie)
        .send()
        .await
        .expect("stream");
    let frame = tokio::time::timeout(Duration::from_secs(5), stream.chunk())
        .await
        .expect("a frame")
        .expect("chunk")
        .expect("bytes");
    let frame = String::from_utf8_lossy(&frame);
    assert!(frame.contains("step.gave_up") || frame.contains("code.send_failed") || frame.contains("data:"), "{frame}");
    assert!(!frame.contains(KEY), "the event stream: {frame}");

    // The partner sends the visitor back with its one-time code in our page's query.
    for path in
        [format!("/seguranca/ativarbrisanet?code={KEY}&state=s"), format!("/api/attempts/{}?key={KEY}", visitor.id)]
    {
        world.http.get(world.app.url(&path)).header("cookie", &visitor.cookie).send().await.expect("request");
    }
    let logs = String::from_utf8_lossy(&LOGS.lock().unwrap_or_else(|p| p.into_inner())).to_string();
    assert!(logs.contains("step failed"), "the failure is logged: {logs}");
    assert!(logs.contains("/seguranca/ativarbrisanet"), "requests are logged: {logs}");
    assert!(!logs.contains(KEY), "the logs: {logs}");
}

/// Sealing runs in the command's transaction: when the append fails after the phone was sealed
/// (a trigger refuses every new event here), no vault subject, look-up, link or secret is left.
#[sqlx::test(migrations = "../migrations")]
async fn a_command_whose_append_fails_leaves_nothing_in_the_vault(db: PgPool) {
    let app = spawn_app(db.clone()).await;
    sqlx::query("CREATE FUNCTION refuse_events() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'refused by the test'; END $$")
        .execute(&db)
        .await
        .expect("function");
    sqlx::query("CREATE TRIGGER refuse_events BEFORE INSERT ON events FOR EACH ROW EXECUTE FUNCTION refuse_events()")
        .execute(&db)
        .await
        .expect("trigger");
    let before = written_rows(&db).await;
    let response = app
        .client
        .post(app.url("/api/attempts"))
        .header("x-altcha", app.proof().await)
        .json(&serde_json::json!({ "flow": "cloud", "command": { "type": "start", "phone": "(11) 91000-0001", "serial": "C02X1" } }))
        .send()
        .await
        .expect("start");
    assert_eq!(response.status(), 500);
    assert_eq!(written_rows(&db).await, before, "the failed command's sealing was rolled back with it");
}
