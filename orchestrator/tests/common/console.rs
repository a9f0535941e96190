//! A staff member at the support console, for the black-box tests: signed in (with the code
//! of the moment), and the console's requests with the session cookie, the CSRF token and the
//! portal's own origin.

use reqwest::StatusCode;
use serde_json::{json, Value};

use super::TestApp;

pub struct Signed {
    pub cookie: String,
    pub csrf: String,
}

pub fn origin(app: &TestApp) -> String {
    format!("http://{}", app.addr)
}

/// Signs `email` in (added beforehand with [`super::staff::add`]).
pub async fn sign_in(app: &TestApp, email: &str) -> Signed {
    let code = super::staff::code_now(&app.db, email).await;
    let response = app
        .client
        .post(app.url("/api/staff/session"))
        .header("origin", origin(app))
        .json(&json!({ "email": email, "password": super::staff::PASSWORD, "code": code }))
        .send()
        .await
        .expect("sign-in");
    assert_eq!(response.status(), StatusCode::OK);
    let cookie = response
        .headers()
        .get("set-cookie")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .expect("cookie")
        .to_string();
    let body: Value = response.json().await.expect("json");
    Signed { cookie, csrf: body["csrf_token"].as_str().expect("csrf").to_string() }
}

/// Adds `email` with `role` and signs them in; their session cookie.
pub async fn added_and_signed_in(
    app: &TestApp,
    db: &sqlx::PgPool,
    email: &str,
    role: orchestrator::staff::Role,
) -> String {
    super::staff::add(db, email, role).await;
    sign_in(app, email).await.cookie
}

pub async fn get(app: &TestApp, signed: &Signed, path: &str) -> (StatusCode, Value) {
    let response = app.client.get(app.url(path)).header("cookie", &signed.cookie).send().await.expect("get");
    let status = response.status();
    (status, response.json().await.unwrap_or(Value::Null))
}

/// A GET answered as text (a CSV download), with its content type and disposition.
pub async fn get_text(app: &TestApp, signed: &Signed, path: &str) -> (StatusCode, String, String, String) {
    let response = app.client.get(app.url(path)).header("cookie", &signed.cookie).send().await.expect("get");
    let status = response.status();
    let header =
        |name: &str| response.headers().get(name).and_then(|v| v.to_str().ok()).unwrap_or_default().to_string();
    let (kind, disposition) = (header("content-type"), header("content-disposition"));
    (status, kind, disposition, response.text().await.unwrap_or_default())
}

/// A state-changing request: with the CSRF token when `csrf`, always from the portal's origin.
pub async fn post(app: &TestApp, signed: &Signed, path: &str, body: Value, csrf: bool) -> (StatusCode, Value) {
    let mut request =
        app.client.post(app.url(path)).header("cookie", &signed.cookie).header("origin", origin(app)).json(&body);
    if csrf {
        request = request.header("x-csrf-token", &signed.csrf);
    }
    let response = request.send().await.expect("post");
    let status = response.status();
    (status, response.json().await.unwrap_or(Value::Null))
}

/// A visitor's browser: the attempt it started and its session cookie.
pub struct Visitor {
    pub id: String,
    pub cookie: String,
}

/// A visitor starts a download and submits `phone`: an attempt with `send_code` due (the test
/// app runs no runner, so it stays due).
pub async fn visitor_with_phone(app: &TestApp, phone: &str) -> Visitor {
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
    let visitor = Visitor { id, cookie };
    let (status, body) = visitor_command(app, &visitor, json!({ "type": "submit_phone", "phone": phone })).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    visitor
}

/// One command of the visitor's browser (with a proof of work, which a code send needs).
pub async fn visitor_command(app: &TestApp, visitor: &Visitor, command: Value) -> (StatusCode, Value) {
    let response = app
        .client
        .post(app.url(&format!("/api/attempts/{}/commands", visitor.id)))
        .header("cookie", &visitor.cookie)
        .header("idempotency-key", uuid::Uuid::new_v4().to_string())
        .header("x-altcha", app.proof().await)
        .json(&command)
        .send()
        .await
        .expect("command");
    let status = response.status();
    (status, response.json().await.unwrap_or(Value::Null))
}
