//! The support console's API (docs/support.md) against the real app and PostgreSQL: role
//! boundaries, CSRF, the sign-in limit, session expiry, the look-up of a visitor's phone,
//! the audited reveal and the erasure of a person.

mod common;

use common::{spawn_app, TestApp};
use events::pii::{Keys, PiiKind, Vault};
use orchestrator::staff::accounts::Accounts;
use orchestrator::staff::Role;
use reqwest::StatusCode;
use serde_json::{json, Value};
use sqlx::PgPool;

use common::staff::PASSWORD;

struct Signed {
    cookie: String,
    csrf: String,
}

async fn add_staff(db: &PgPool, email: &str, role: Role) {
    common::staff::add(db, email, role).await;
}

fn origin(app: &TestApp) -> String {
    format!("http://{}", app.addr)
}

/// Signs in with the member's code of the moment (none for an e-mail nobody has).
async fn sign_in_with(app: &TestApp, email: &str, password: &str) -> reqwest::Response {
    let code = common::staff::code_now(&app.db, email).await;
    sign_in_coded(app, email, password, code.as_deref()).await
}

async fn sign_in_coded(app: &TestApp, email: &str, password: &str, code: Option<&str>) -> reqwest::Response {
    app.client
        .post(app.url("/api/staff/session"))
        .header("origin", origin(app))
        .json(&json!({ "email": email, "password": password, "code": code }))
        .send()
        .await
        .expect("sign-in")
}

async fn sign_in(app: &TestApp, email: &str) -> Signed {
    let response = sign_in_with(app, email, PASSWORD).await;
    assert_eq!(response.status(), StatusCode::OK);
    let set_cookie = response.headers().get("set-cookie").and_then(|v| v.to_str().ok()).expect("cookie").to_string();
    for part in ["HttpOnly", "SameSite=Strict", "Path=/"] {
        assert!(set_cookie.contains(part), "{set_cookie}");
    }
    let body: Value = response.json().await.expect("json");
    assert_eq!(body["email"], email);
    Signed {
        cookie: set_cookie.split(';').next().expect("pair").to_string(),
        csrf: body["csrf_token"].as_str().expect("csrf").to_string(),
    }
}

async fn get(app: &TestApp, signed: Option<&Signed>, path: &str) -> (StatusCode, Value) {
    let mut request = app.client.get(app.url(path));
    if let Some(signed) = signed {
        request = request.header("cookie", &signed.cookie);
    }
    let response = request.send().await.expect("get");
    let status = response.status();
    (status, response.json().await.unwrap_or(Value::Null))
}

/// The look-up: a POST with the search in its body (and the CSRF token).
async fn search(app: &TestApp, signed: &Signed, body: Value) -> (StatusCode, Value) {
    post(app, signed, "/api/support/attempts/search", body, true).await
}

async fn post(app: &TestApp, signed: &Signed, path: &str, body: Value, csrf: bool) -> (StatusCode, Value) {
    let mut request =
        app.client.post(app.url(path)).header("cookie", &signed.cookie).header("origin", origin(app)).json(&body);
    if csrf {
        request = request.header("x-csrf-token", &signed.csrf);
    }
    let response = request.send().await.expect("post");
    let status = response.status();
    (status, response.json().await.unwrap_or(Value::Null))
}

/// A visitor starts a download and submits `phone`: an attempt in flight linked to it.
async fn visitor_with_phone(app: &TestApp, phone: &str) -> String {
    let response = app.start_download().await;
    assert_eq!(response.status(), StatusCode::CREATED);
    let cookie = response
        .headers()
        .get("set-cookie")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .expect("cookie")
        .to_string();
    let body: Value = response.json().await.expect("json");
    let id = body["id"].as_str().expect("id").to_string();
    let response = app
        .client
        .post(app.url(&format!("/api/attempts/{id}/commands")))
        .header("cookie", cookie)
        .header("idempotency-key", uuid::Uuid::new_v4().to_string())
        .header("x-altcha", app.proof().await)
        .json(&json!({ "type": "submit_phone", "phone": phone }))
        .send()
        .await
        .expect("command");
    assert_eq!(response.status(), StatusCode::OK);
    id
}

async fn staff_events(db: &PgPool, event_type: &str) -> Vec<Value> {
    sqlx::query_scalar("SELECT payload FROM events WHERE category = 'staff' AND event_type = $1 ORDER BY position")
        .bind(event_type)
        .fetch_all(db)
        .await
        .expect("staff events")
}

#[sqlx::test(migrations = "../migrations")]
async fn without_a_session_every_staff_route_answers_401(db: PgPool) {
    let app = spawn_app(db).await;
    for path in ["/api/staff/session", "/api/support/attempts/download-00000000-0000-0000-0000-000000000000"] {
        let (status, body) = get(&app, None, path).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "{path}");
        assert_eq!(body["message"], "Sua sessão terminou. Entre de novo.");
    }
    let nobody = Signed { cookie: String::new(), csrf: String::new() };
    let (status, _) =
        post(&app, &nobody, "/api/support/attempts/search", json!({ "phone": "11910000001" }), false).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let forged =
        Signed { cookie: "__Host-exa_staff=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA".into(), csrf: "x".into() };
    assert_eq!(get(&app, Some(&forged), "/api/staff/session").await.0, StatusCode::UNAUTHORIZED);
}

#[sqlx::test(migrations = "../migrations")]
async fn an_analyst_is_refused_every_support_route(db: PgPool) {
    add_staff(&db, "ana.analista@exa.com.br", Role::Analyst).await;
    let app = spawn_app(db).await;
    let signed = sign_in(&app, "ana.analista@exa.com.br").await;
    let (status, body) = get(&app, Some(&signed), "/api/staff/session").await;
    assert_eq!((status, body["role"].as_str()), (StatusCode::OK, Some("analyst")));
    let (status, body) =
        get(&app, Some(&signed), "/api/support/attempts/download-00000000-0000-0000-0000-000000000000").await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert_eq!(body["message"], "Você não tem permissão para esta ação.");
    let (status, _) = search(&app, &signed, json!({ "phone": "11910000001" })).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, _) =
        post(&app, &signed, "/api/support/erase", json!({ "phone": "11910000001", "confirm": true }), true).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
}

#[sqlx::test(migrations = "../migrations")]
async fn the_look_up_finds_a_visitors_attempt_by_phone_in_any_form_and_is_audited(db: PgPool) {
    add_staff(&db, "bia@exa.com.br", Role::Support).await;
    let app = spawn_app(db.clone()).await;
    let id = visitor_with_phone(&app, "(11) 91234-5678").await;
    let signed = sign_in(&app, "bia@exa.com.br").await;
    for typed in ["(11) 91234-5678", "11912345678", "+55 11 91234-5678"] {
        let (status, body) = search(&app, &signed, json!({ "phone": typed, "flow": "", "page": null })).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        assert_eq!(body["total"], 1, "{body}");
        let summary = &body["attempts"][0];
        assert_eq!(summary["id"], id.as_str());
        assert_eq!(summary["flow"], "download");
        assert_eq!(summary["outcome"]["kind"], "in_flight", "{summary}");
    }
    let (status, body) =
        search(&app, &signed, json!({ "phone": "11912345678", "outcome": "completed", "page": 1 })).await;
    assert_eq!((status, body["total"].as_u64()), (StatusCode::OK, Some(0)));
    let (status, body) = search(&app, &signed, json!({ "phone": "1234" })).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(body["message"].as_str().expect("message").starts_with("Telefone inválido"));
    let (status, _) = search(&app, &signed, json!({ "phone": "11912345678", "from": "ontem" })).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    let (status, _) = search(&app, &signed, json!({ "phone": ["11912345678"] })).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    // Issue 26: no look-up by GET, whose query string would keep the phone in logs and history.
    let (status, _) = get(&app, Some(&signed), "/api/support/attempts?phone=11912345678").await;
    assert!(status == StatusCode::METHOD_NOT_ALLOWED || status == StatusCode::NOT_FOUND, "{status}");
    // Without the CSRF token the look-up is refused.
    let (status, _) =
        post(&app, &signed, "/api/support/attempts/search", json!({ "phone": "11912345678" }), false).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, _) = get(&app, Some(&signed), "/api/support/attempts/not-an-id").await;
    assert_eq!(status, StatusCode::NOT_FOUND);

    // The look-ups are audited with the keyed hash, never the number.
    let looked = staff_events(&db, "staff.looked_up").await;
    assert_eq!(looked.len(), 4, "three forms and the filtered one");
    let all = serde_json::to_string(&looked).expect("json");
    assert!(!all.contains("91234") && !all.contains("5678"), "{all}");
    assert_eq!(looked[0]["hash"].as_str().map(str::len), Some(64));
}

#[sqlx::test(migrations = "../migrations")]
async fn the_detail_masks_personal_data_and_a_reveal_needs_csrf_and_is_audited(db: PgPool) {
    add_staff(&db, "carla@exa.com.br", Role::Support).await;
    let app = spawn_app(db.clone()).await;
    let id = visitor_with_phone(&app, "(11) 91234-5678").await;
    let signed = sign_in(&app, "carla@exa.com.br").await;
    let (status, detail) = get(&app, Some(&signed), &format!("/api/support/attempts/{id}")).await;
    assert_eq!(status, StatusCode::OK, "{detail}");
    let text = detail.to_string();
    assert!(!text.contains("$pii") && !text.contains("912345678"), "{text}");
    assert_eq!(detail["fields"][0]["name"], "phone");
    assert_eq!(detail["fields"][0]["masked"], "(11) *****-5678");
    let timeline = detail["timeline"].as_array().expect("timeline");
    assert_eq!(timeline.len(), 2);
    assert_eq!(timeline[0]["actor"], "visitor");
    assert!(timeline[1]["seen"]["panel"].is_string(), "{detail}");

    let reveal = format!("/api/support/attempts/{id}/reveal");
    let reason = "Cliente ao telefone pediu confirmação";
    let (status, body) = post(&app, &signed, &reveal, json!({ "field": "phone", "reason": reason }), false).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
    // The right token from another origin is refused too.
    let response = app
        .client
        .post(app.url(&reveal))
        .header("cookie", &signed.cookie)
        .header("x-csrf-token", &signed.csrf)
        .header("origin", "https://evil.example")
        .json(&json!({ "field": "phone", "reason": reason }))
        .send()
        .await
        .expect("post");
    assert_eq!(response.status(), StatusCode::FORBIDDEN);
    assert!(staff_events(&db, "staff.revealed").await.is_empty());
    let (status, _) = post(&app, &signed, &reveal, json!({ "field": "phone", "reason": "curto" }), true).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);

    let (status, body) = post(&app, &signed, &reveal, json!({ "field": "phone", "reason": reason }), true).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body, json!({ "field": "phone", "value": "5511912345678" }));
    let revealed = staff_events(&db, "staff.revealed").await;
    assert_eq!(revealed.len(), 1);
    assert_eq!((revealed[0]["attempt"].as_str(), revealed[0]["field"].as_str()), (Some(id.as_str()), Some("phone")));
    // Issue 26: the reason is sealed beside the field, under its person's key.
    assert_eq!(revealed[0]["reason"]["$pii"]["kind"], "staff_reason", "{revealed:?}");
    assert!(!revealed[0].to_string().contains(reason));
    let (_, detail) = get(&app, Some(&signed), &format!("/api/support/attempts/{id}")).await;
    let trail = detail["staff_trail"].as_array().expect("trail");
    let entry = trail.iter().find(|e| e["action"] == "revealed").expect("reveal in the trail");
    assert_eq!((entry["email"].as_str(), entry["reason"].as_str()), (Some("carla@exa.com.br"), Some(reason)));

    let response = app
        .client
        .get(app.url(&format!("/api/support/attempts/{id}/history")))
        .header("cookie", &signed.cookie)
        .send()
        .await
        .expect("history");
    assert_eq!(response.status(), StatusCode::OK);
    assert!(response.headers()["content-disposition"].to_str().expect("ascii").starts_with("attachment"));
    assert!(!response.text().await.expect("text").contains("$pii"));
}

/// Moves every counted failure `by` into the past, as if that time had gone by.
async fn age_failures(db: &PgPool, by: std::time::Duration) {
    sqlx::query("UPDATE staff_sign_in_failures SET failed_at = failed_at - make_interval(secs => $1)")
        .bind(by.as_secs_f64())
        .execute(db)
        .await
        .expect("age");
}

fn retry_after(response: &reqwest::Response) -> std::time::Duration {
    let secs = response.headers().get("retry-after").and_then(|v| v.to_str().ok()).and_then(|v| v.parse().ok());
    std::time::Duration::from_secs(secs.expect("Retry-After in seconds"))
}

#[sqlx::test(migrations = "../migrations")]
async fn five_failed_sign_ins_delay_the_next_without_saying_whether_the_email_exists(db: PgPool) {
    add_staff(&db, "davi@exa.com.br", Role::Support).await;
    let app = spawn_app(db.clone()).await;
    for _ in 0..5 {
        let response = sign_in_with(&app, "davi@exa.com.br", "senha-errada-demais").await;
        assert_eq!(response.status(), StatusCode::UNAUTHORIZED);
        let body: Value = response.json().await.expect("json");
        assert_eq!(body["message"], "E-mail ou senha incorretos.");
    }
    let response = sign_in_with(&app, "davi@exa.com.br", PASSWORD).await;
    assert_eq!(response.status(), StatusCode::TOO_MANY_REQUESTS);
    let wait = retry_after(&response);
    assert!(wait > std::time::Duration::from_secs(20) && wait <= std::time::Duration::from_secs(30), "{wait:?}");
    let paused: Value = response.json().await.expect("json");
    // An e-mail nobody has gets the same answers.
    for _ in 0..5 {
        assert_eq!(
            sign_in_with(&app, "ninguem@exa.com.br", "senha-errada-demais").await.status(),
            StatusCode::UNAUTHORIZED
        );
    }
    let response = sign_in_with(&app, "ninguem@exa.com.br", "senha-errada-demais").await;
    assert_eq!(response.status(), StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(response.json::<Value>().await.expect("json"), paused);
    assert!(!staff_events(&db, "staff.sign_in_refused").await.is_empty());

    // Once the wait is over, the right password gets in.
    age_failures(&db, wait).await;
    assert_eq!(sign_in_with(&app, "davi@exa.com.br", PASSWORD).await.status(), StatusCode::OK);
}

/// Issue 26: five wrong passwords locked a member out even with the right one. The wait grows
/// with each failure up to 15 minutes, and whoever keeps guessing, the right password gets in
/// once the wait is over; a refusal for coming too early is not counted.
#[sqlx::test(migrations = "../migrations")]
async fn the_wait_grows_to_fifteen_minutes_and_never_locks_out_the_right_password(db: PgPool) {
    add_staff(&db, "jade@exa.com.br", Role::Support).await;
    let app = spawn_app(db.clone()).await;
    let mut waits = Vec::new();
    let mut failures = 0;
    while failures < 14 {
        let response = sign_in_with(&app, "jade@exa.com.br", "senha-errada-demais").await;
        if response.status() == StatusCode::TOO_MANY_REQUESTS {
            let wait = retry_after(&response);
            waits.push(wait.as_secs());
            age_failures(&db, wait).await;
        } else {
            assert_eq!(response.status(), StatusCode::UNAUTHORIZED);
            failures += 1;
        }
    }
    assert_eq!(waits, [30, 60, 120, 240, 480, 900, 900, 900, 900], "each wait doubles up to the cap");
    let response = sign_in_with(&app, "jade@exa.com.br", PASSWORD).await;
    assert_eq!(response.status(), StatusCode::TOO_MANY_REQUESTS);
    let tried_early: i64 =
        sqlx::query_scalar("SELECT count(*) FROM staff_sign_in_failures").fetch_one(&db).await.expect("count");
    assert_eq!(tried_early, 14, "a try refused for coming early is not counted");
    age_failures(&db, retry_after(&response)).await;
    assert_eq!(sign_in_with(&app, "jade@exa.com.br", PASSWORD).await.status(), StatusCode::OK);
}

/// Issue 26: support and admin can reveal and erase personal data; the password alone does not
/// sign them in. The code is asked for once the password is right, a code opens one session
/// only, and a recovery code works once.
#[sqlx::test(migrations = "../migrations")]
async fn support_staff_sign_in_with_a_totp_code_once_or_a_recovery_code_once(db: PgPool) {
    let recovery = common::staff::add(&db, "tais@exa.com.br", Role::Admin).await;
    let app = spawn_app(db.clone()).await;
    let response = sign_in_coded(&app, "tais@exa.com.br", PASSWORD, None).await;
    assert_eq!(response.status(), StatusCode::UNAUTHORIZED);
    let body: Value = response.json().await.expect("json");
    assert_eq!(body["field"], "code");
    assert!(body["message"].as_str().expect("message").contains("código de 6 dígitos"), "{body}");
    let wrong = sign_in_coded(&app, "tais@exa.com.br", PASSWORD, Some("000000")).await;
    let code = common::staff::code_now(&db, "tais@exa.com.br").await.expect("code");
    if code != "000000" {
        assert_eq!(wrong.status(), StatusCode::UNAUTHORIZED);
        assert_eq!(wrong.json::<Value>().await.expect("json")["field"], "code");
    }
    assert_eq!(sign_in_coded(&app, "tais@exa.com.br", PASSWORD, Some(&code)).await.status(), StatusCode::OK);
    // The same code again (read over a shoulder, say) opens nothing.
    assert_eq!(sign_in_coded(&app, "tais@exa.com.br", PASSWORD, Some(&code)).await.status(), StatusCode::UNAUTHORIZED);
    let typed = recovery[0].to_uppercase();
    assert_eq!(sign_in_coded(&app, "tais@exa.com.br", PASSWORD, Some(&typed)).await.status(), StatusCode::OK);
    assert_eq!(sign_in_coded(&app, "tais@exa.com.br", PASSWORD, Some(&typed)).await.status(), StatusCode::UNAUTHORIZED);
    // A wrong password with the right code is still a wrong password.
    let code = common::staff::code_now(&db, "tais@exa.com.br").await.expect("code");
    let response = sign_in_coded(&app, "tais@exa.com.br", "senha-errada-demais", Some(&code)).await;
    assert_eq!(response.json::<Value>().await.expect("json")["message"], "E-mail ou senha incorretos.");
    // Neither the secret nor the recovery codes are kept in clear.
    let stored: String = sqlx::query_scalar(
        "SELECT (SELECT row_to_json(s)::text FROM staff s) || (SELECT json_agg(r)::text FROM staff_recovery_codes r)",
    )
    .fetch_one(&db)
    .await
    .expect("rows");
    for code in &recovery {
        assert!(!stored.contains(code.as_str()) && !stored.contains(&code.replace('-', "")), "{code} in clear");
    }
    let reasons: Vec<Value> =
        staff_events(&db, "staff.sign_in_refused").await.into_iter().map(|e| e["reason"].clone()).collect();
    assert!(reasons.contains(&json!("code_wrong")), "wrong codes are audited: {reasons:?}");
}

#[sqlx::test(migrations = "../migrations")]
async fn support_staff_without_a_second_factor_cannot_sign_in(db: PgPool) {
    let vault = Vault::new(db.clone(), Keys::insecure_dev());
    Accounts { db: &db, vault: &vault }.add("sem@exa.com.br", Role::Support, PASSWORD).await.expect("added");
    let app = spawn_app(db.clone()).await;
    let response = sign_in_coded(&app, "sem@exa.com.br", PASSWORD, Some("123456")).await;
    assert_eq!(response.status(), StatusCode::UNAUTHORIZED);
    let body: Value = response.json().await.expect("json");
    assert!(body["message"].as_str().expect("message").contains("verificação em duas etapas"), "{body}");
}

/// Issue 26: 100 refused sign-ins added 100 rows to the append-only event log. Refusals that
/// reach no account (an e-mail nobody has, or a try that came too early) are counted in the
/// metrics instead.
#[sqlx::test(migrations = "../migrations")]
async fn anonymous_sign_in_refusals_are_counted_not_appended(db: PgPool) {
    let app = spawn_app(db.clone()).await;
    let before: i64 = sqlx::query_scalar("SELECT count(*) FROM events").fetch_one(&db).await.expect("count");
    for _ in 0..30 {
        let status = sign_in_with(&app, "ninguem@exa.com.br", "senha-errada-demais").await.status();
        assert!(status == StatusCode::UNAUTHORIZED || status == StatusCode::TOO_MANY_REQUESTS, "{status}");
    }
    let after: i64 = sqlx::query_scalar("SELECT count(*) FROM events").fetch_one(&db).await.expect("count");
    assert_eq!(after, before);
    let metrics = app.client.get(format!("http://{}/metrics", app.admin_addr)).send().await.expect("metrics");
    let text = metrics.text().await.expect("text");
    assert!(text.contains("staff_sign_in_refusals_total{reason=\"credentials\"} 5"), "{text}");
    assert!(text.contains("staff_sign_in_refusals_total{reason=\"paused\"} 25"), "{text}");
}

/// Issue 26: the sign-in failure table kept each client's address in clear (personal data, kept
/// for no reason of its own). It keeps a keyed hash, and the per-address limit still counts.
#[sqlx::test(migrations = "../migrations")]
async fn failed_sign_ins_keep_the_clients_address_only_as_a_keyed_hash(db: PgPool) {
    let app = spawn_app(db.clone()).await;
    for _ in 0..2 {
        let response = sign_in_with(&app, "ninguem@exa.com.br", "senha-errada-demais").await;
        assert_eq!(response.status(), StatusCode::UNAUTHORIZED);
    }
    let rows: Vec<String> = sqlx::query_scalar("SELECT row_to_json(f)::text FROM staff_sign_in_failures f")
        .fetch_all(&db)
        .await
        .expect("failures");
    assert_eq!(rows.len(), 2);
    for row in rows {
        assert!(!row.contains("127.0.0.1"), "the address in clear: {row}");
    }
    let addresses: i64 = sqlx::query_scalar("SELECT count(DISTINCT ip_hash) FROM staff_sign_in_failures")
        .fetch_one(&db)
        .await
        .expect("hashes");
    assert_eq!(addresses, 1, "one address, one hash");
}

#[sqlx::test(migrations = "../migrations")]
async fn a_session_ends_when_idle_too_long_after_eight_hours_or_at_sign_out(db: PgPool) {
    add_staff(&db, "eva@exa.com.br", Role::Admin).await;
    let app = spawn_app(db.clone()).await;
    let signed = sign_in(&app, "eva@exa.com.br").await;
    assert_eq!(get(&app, Some(&signed), "/api/staff/session").await.0, StatusCode::OK);
    sqlx::query("UPDATE staff_sessions SET last_seen_at = now() - interval '31 minutes'")
        .execute(&db)
        .await
        .expect("idle");
    assert_eq!(get(&app, Some(&signed), "/api/staff/session").await.0, StatusCode::UNAUTHORIZED);

    let signed = sign_in(&app, "eva@exa.com.br").await;
    sqlx::query("UPDATE staff_sessions SET created_at = now() - interval '8 hours 1 minute'")
        .execute(&db)
        .await
        .expect("old");
    assert_eq!(get(&app, Some(&signed), "/api/staff/session").await.0, StatusCode::UNAUTHORIZED);

    let signed = sign_in(&app, "eva@exa.com.br").await;
    let bare =
        app.client.delete(app.url("/api/staff/session")).header("cookie", &signed.cookie).send().await.expect("delete");
    assert_eq!(bare.status(), StatusCode::FORBIDDEN, "sign-out needs the CSRF token");
    let response = app
        .client
        .delete(app.url("/api/staff/session"))
        .header("cookie", &signed.cookie)
        .header("x-csrf-token", &signed.csrf)
        .header("origin", origin(&app))
        .send()
        .await
        .expect("delete");
    assert_eq!(response.status(), StatusCode::NO_CONTENT);
    assert_eq!(get(&app, Some(&signed), "/api/staff/session").await.0, StatusCode::UNAUTHORIZED);
}

#[sqlx::test(migrations = "../migrations")]
async fn erasing_a_person_leaves_a_readable_timeline_and_no_token(db: PgPool) {
    add_staff(&db, "fabio@exa.com.br", Role::Admin).await;
    let app = spawn_app(db.clone()).await;
    let id = visitor_with_phone(&app, "(11) 93333-4444").await;
    sqlx::query("INSERT INTO attempt_secrets (stream_id, name, value, expires_at) VALUES ($1, 'id_token', 'tok', now() + interval '1 hour')")
        .bind(&id)
        .execute(&db)
        .await
        .expect("secret");
    let signed = sign_in(&app, "fabio@exa.com.br").await;
    let (status, _) = post(&app, &signed, "/api/support/erase", json!({ "attempt": id }), true).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "confirmation required");
    let (status, body) =
        post(&app, &signed, "/api/support/erase", json!({ "attempt": id, "confirm": true }), true).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    // Issue 26: the attempt's tokens go; its phone, never confirmed by SMS, may be someone
    // else's: it is listed for the admin, not erased.
    assert_eq!(
        body,
        json!({ "subjects": 0, "attempts": 1, "secrets": 1, "left": [{ "kind": "phone", "why": "not_proved", "attempts": [id] }] })
    );
    let left: i64 = sqlx::query_scalar("SELECT count(*) FROM attempt_secrets WHERE stream_id = $1")
        .bind(&id)
        .fetch_one(&db)
        .await
        .expect("count");
    assert_eq!(left, 0);
    let (_, found) = search(&app, &signed, json!({ "phone": "11933334444" })).await;
    assert_eq!(found["total"], 1, "the phone was not erased");
    // The admin decides: the person's phone, named, is erased.
    let (status, body) =
        post(&app, &signed, "/api/support/erase", json!({ "phone": "(11) 93333-4444", "confirm": true }), true).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body, json!({ "subjects": 1, "attempts": 1, "secrets": 0, "left": [] }));

    let (status, detail) = get(&app, Some(&signed), &format!("/api/support/attempts/{id}")).await;
    assert_eq!(status, StatusCode::OK, "{detail}");
    assert_eq!(detail["fields"][0]["masked"], "dado apagado (LGPD)");
    assert_eq!(detail["timeline"].as_array().map(Vec::len), Some(2));
    let (_, found) = search(&app, &signed, json!({ "phone": "11933334444" })).await;
    assert_eq!(found["total"], 0);
    assert_eq!(staff_events(&db, "staff.erased").await.len(), 2);
}

#[sqlx::test(migrations = "../migrations")]
async fn the_live_stream_says_changed_when_the_attempt_moves_and_not_before(db: PgPool) {
    add_staff(&db, "gil@exa.com.br", Role::Support).await;
    let app = spawn_app(db.clone()).await;
    let id = visitor_with_phone(&app, "(11) 95555-6666").await;
    let signed = sign_in(&app, "gil@exa.com.br").await;
    let mut response = app
        .client
        .get(app.url(&format!("/api/support/attempts/{id}/stream")))
        .header("cookie", &signed.cookie)
        .send()
        .await
        .expect("stream");
    assert_eq!(response.status(), StatusCode::OK);
    // Nothing for the state the page has just read.
    let quiet = tokio::time::timeout(std::time::Duration::from_millis(1500), response.chunk()).await;
    assert!(quiet.is_err(), "unexpected {quiet:?}");
    let store = events::EventStore::new(db.clone());
    let event = events::NewEvent {
        event_type: "step.started".into(),
        schema_version: 1,
        payload: json!({ "step": "send_code", "claim": 2 }),
        metadata: events::Metadata {
            correlation_id: uuid::Uuid::new_v4(),
            causation_id: None,
            actor: "runner-test".into(),
            client: None,
        },
    };
    store
        .append(&events::StreamId::parse(&id).expect("id"), events::ExpectedVersion::Any, vec![event])
        .await
        .expect("append");
    let chunk = tokio::time::timeout(std::time::Duration::from_secs(5), response.chunk())
        .await
        .expect("in time")
        .expect("read")
        .expect("chunk");
    let text = String::from_utf8_lossy(&chunk).to_string();
    assert!(text.contains("event: changed") && text.contains("\"version\":3"), "{text}");
    let (_, found) = search(&app, &signed, json!({ "phone": "11955556666" })).await;
    assert_eq!(found["attempts"][0]["retries"], 1, "{found}");
}

/// Whether the event stream ends (its body closes) within `within`; keep-alive comments are read past.
async fn ends_within(response: &mut reqwest::Response, within: std::time::Duration) -> bool {
    tokio::time::timeout(within, async { while let Ok(Some(_)) = response.chunk().await {} }).await.is_ok()
}

/// Issue 26: the console's live stream outlived its session: signed out, or the account
/// disabled, the page kept receiving the attempt's changes. It ends with either now.
#[sqlx::test(migrations = "../migrations")]
async fn the_live_stream_ends_at_sign_out_and_when_the_account_is_disabled(db: PgPool) {
    add_staff(&db, "lia@exa.com.br", Role::Support).await;
    let app = spawn_app(db.clone()).await;
    let id = visitor_with_phone(&app, "(11) 95555-8888").await;
    let url = app.url(&format!("/api/support/attempts/{id}/stream"));

    let signed = sign_in(&app, "lia@exa.com.br").await;
    let mut stream = app.client.get(&url).header("cookie", &signed.cookie).send().await.expect("stream");
    assert_eq!(stream.status(), StatusCode::OK);
    let signed_out = app
        .client
        .delete(app.url("/api/staff/session"))
        .header("cookie", &signed.cookie)
        .header("x-csrf-token", &signed.csrf)
        .header("origin", origin(&app))
        .send()
        .await
        .expect("sign-out");
    assert_eq!(signed_out.status(), StatusCode::NO_CONTENT);
    assert!(ends_within(&mut stream, std::time::Duration::from_secs(6)).await, "the stream ended at sign-out");

    let signed = sign_in(&app, "lia@exa.com.br").await;
    let mut stream = app.client.get(&url).header("cookie", &signed.cookie).send().await.expect("stream");
    assert_eq!(stream.status(), StatusCode::OK);
    sqlx::query("UPDATE staff SET disabled_at = now()").execute(&db).await.expect("disabled");
    assert!(ends_within(&mut stream, std::time::Duration::from_secs(6)).await, "the stream ended with the account");
}

/// Issue 26: the page reconnects its live stream by itself, and each reconnection counted as
/// activity, so a console left open on an attempt never reached its 30 idle minutes.
#[sqlx::test(migrations = "../migrations")]
async fn the_live_stream_does_not_keep_an_idle_session_alive(db: PgPool) {
    add_staff(&db, "rui@exa.com.br", Role::Support).await;
    let app = spawn_app(db.clone()).await;
    let id = visitor_with_phone(&app, "(11) 95555-9999").await;
    let signed = sign_in(&app, "rui@exa.com.br").await;
    sqlx::query("UPDATE staff_sessions SET last_seen_at = now() - interval '20 minutes'")
        .execute(&db)
        .await
        .expect("idle");
    let url = app.url(&format!("/api/support/attempts/{id}/stream"));
    for _ in 0..3 {
        let stream = app.client.get(&url).header("cookie", &signed.cookie).send().await.expect("stream");
        assert_eq!(stream.status(), StatusCode::OK);
    }
    let idle: f64 = sqlx::query_scalar("SELECT extract(epoch FROM now() - last_seen_at)::float8 FROM staff_sessions")
        .fetch_one(&db)
        .await
        .expect("idle");
    assert!(idle > 19.0 * 60.0, "the reconnections did not refresh the idle timer: idle for {idle} s");
    // A page the staff member opens still does.
    assert_eq!(get(&app, Some(&signed), "/api/staff/session").await.0, StatusCode::OK);
}

/// Issue 24: the console's live stream goes through the server's one event-stream helper:
/// capped (8 per attempt, apart from the visitor's own places) like the visitor's.
#[sqlx::test(migrations = "../migrations")]
async fn the_console_streams_of_one_attempt_are_capped(db: PgPool) {
    add_staff(&db, "ivo@exa.com.br", Role::Support).await;
    let app = spawn_app(db.clone()).await;
    let id = visitor_with_phone(&app, "(11) 95555-7777").await;
    let signed = sign_in(&app, "ivo@exa.com.br").await;
    let cap = orchestrator::http::api::support::STREAM_CAPS.per_attempt;
    let url = app.url(&format!("/api/support/attempts/{id}/stream"));
    let open_stream = || async { app.client.get(&url).header("cookie", &signed.cookie).send().await.expect("stream") };
    let mut open = Vec::new();
    for _ in 0..cap {
        let stream = open_stream().await;
        assert_eq!(stream.status(), StatusCode::OK);
        open.push(stream);
    }
    assert_eq!(open_stream().await.status(), StatusCode::TOO_MANY_REQUESTS);
    drop(open.pop());
    // The place is given back when a stream ends (the server notices the closed connection
    // at its next frame or keep-alive; a new stream may have to wait for it).
    let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(30);
    while open_stream().await.status() != StatusCode::OK {
        assert!(tokio::time::Instant::now() < deadline, "the closed stream's place never came back");
        tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    }
}

/// Issue 26: 40 wrong passwords sent at the same moment for one e-mail were all evaluated (the
/// lock-out was checked before any failure was counted). Each try now takes its place under a
/// lock before its password is checked: five are evaluated, the rest refused as locked out.
#[sqlx::test(migrations = "../migrations")]
async fn a_burst_of_wrong_passwords_is_counted_before_any_is_checked(db: PgPool) {
    add_staff(&db, "rui@exa.com.br", Role::Support).await;
    let app = spawn_app(db.clone()).await;
    let mut tries = Vec::new();
    for _ in 0..40 {
        let request = app
            .client
            .post(app.url("/api/staff/session"))
            .header("origin", origin(&app))
            .json(&json!({ "email": "rui@exa.com.br", "password": "senha-errada-demais" }));
        tries.push(tokio::spawn(async move { request.send().await.expect("sign-in").status() }));
    }
    let mut statuses = Vec::new();
    for attempt in tries {
        statuses.push(attempt.await.expect("task"));
    }
    let evaluated = statuses.iter().filter(|s| **s == StatusCode::UNAUTHORIZED).count();
    let locked = statuses.iter().filter(|s| **s == StatusCode::TOO_MANY_REQUESTS).count();
    assert_eq!((evaluated, locked), (5, 35), "{statuses:?}");
    // The right password waits too, for now.
    assert_eq!(sign_in_with(&app, "rui@exa.com.br", PASSWORD).await.status(), StatusCode::TOO_MANY_REQUESTS);
}

/// Issue 26: after a person's erasure nothing in the staff audit links back to them: the
/// look-up's tag was keyed with their own key (gone), the reveal's reason was sealed beside the
/// field (erased with it), the erasure names no hash, and their attempts' stored command
/// answers (keyed fingerprints of bodies that held the phone) are deleted.
#[sqlx::test(migrations = "../migrations")]
async fn after_an_erasure_the_audit_keeps_nothing_that_links_to_the_person(db: PgPool) {
    add_staff(&db, "hugo@exa.com.br", Role::Admin).await;
    let app = spawn_app(db.clone()).await;
    let id = visitor_with_phone(&app, "(11) 94444-5555").await;
    let msisdn = "5511944445555";
    let vault = Vault::new(db.clone(), Keys::insecure_dev());
    let signed = sign_in(&app, "hugo@exa.com.br").await;
    let (status, _) = search(&app, &signed, json!({ "phone": msisdn })).await;
    assert_eq!(status, StatusCode::OK);
    let reason = "a cliente ligou pedindo o número 94444-5555";
    let reveal = format!("/api/support/attempts/{id}/reveal");
    let (status, _) = post(&app, &signed, &reveal, json!({ "field": "phone", "reason": reason }), true).await;
    assert_eq!(status, StatusCode::OK);

    let looked = staff_events(&db, "staff.looked_up").await;
    let tag = looked[0]["hash"].as_str().expect("a tag").to_string();
    assert_ne!(tag, hex::encode(vault.lookup_hash(PiiKind::Phone, msisdn)), "not the look-up index's hash");
    let commands: i64 = sqlx::query_scalar("SELECT count(*) FROM attempt_commands WHERE stream_id = $1")
        .bind(&id)
        .fetch_one(&db)
        .await
        .expect("count");
    assert_eq!(commands, 1, "the phone command's answer is kept under its key");

    let (status, body) =
        post(&app, &signed, "/api/support/erase", json!({ "phone": msisdn, "confirm": true }), true).await;
    assert_eq!(status, StatusCode::OK, "{body}");

    let everything: String =
        sqlx::query_scalar("SELECT string_agg(payload::text, ' ') FROM events").fetch_one(&db).await.expect("events");
    assert!(!everything.contains(&hex::encode(vault.lookup_hash(PiiKind::Phone, msisdn))), "no look-up hash");
    assert!(!everything.contains("94444") && !everything.contains("pedindo"), "nothing in clear");
    let erased = staff_events(&db, "staff.erased").await;
    assert_eq!(erased[0]["kind"], "phone");
    assert!(erased[0].get("hash").is_none(), "{erased:?}");
    // The tag can no longer be computed from the phone: the key it was made with is gone.
    assert_eq!(vault.find_subject(PiiKind::Phone, msisdn).await.expect("find"), None);
    let (_, detail) = get(&app, Some(&signed), &format!("/api/support/attempts/{id}")).await;
    let trail = detail["staff_trail"].as_array().expect("trail");
    let entry = trail.iter().find(|e| e["action"] == "revealed").expect("reveal in the trail");
    assert_eq!(entry["reason"], "dado apagado (LGPD)");
    let commands: i64 = sqlx::query_scalar("SELECT count(*) FROM attempt_commands WHERE stream_id = $1")
        .bind(&id)
        .fetch_one(&db)
        .await
        .expect("count");
    assert_eq!(commands, 0);
}
