//! The cloud functions behind the cloud activation: phone check, send and validate a code,
//! register the serial, get a custom token (once the serial is provisioned, 5 s after it was
//! registered), and sign in with it. Every answer carries `status` and a Portuguese `message`
//! that the page shows as is.

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::routing::post;
use axum::{Json, Router};
use chrono::Duration;
use serde::Deserialize;
use serde_json::{json, Value};

use super::br_ids;
use super::codes;
use super::error::{json_body, Refusal, Style};
use super::intercept::tracked;
use super::records::codes::Channel;
use super::records::subscriptions::Subscription;
use super::records::tokens::{Claims, TokenError, TokenKind};
use super::scenarios;
use super::state::SandboxState;

const STYLE: Style = Style::Cloud;
/// A registered serial needs this long before a custom token can be issued for it (the reason
/// for the spec's 5 s wait).
pub const PROVISIONING_SECONDS: i64 = 5;
const SERIAL_MAX_LEN: usize = 21;
const KIND: &str = "cloud-serial";

pub fn routes(state: &SandboxState) -> Router<SandboxState> {
    Router::new()
        .route("/checkPhone", tracked(state, "cloud.check-phone", post(check_phone)))
        .route("/sendCode", tracked(state, "cloud.send-code", post(send_code)))
        .route("/validateCode", tracked(state, "cloud.validate-code", post(validate_code)))
        .route("/registerSerial", tracked(state, "cloud.register-serial", post(register_serial)))
        .route("/getCustomToken", tracked(state, "cloud.custom-token", post(get_custom_token)))
        .route("/signInWithToken", tracked(state, "cloud.sign-in", post(sign_in_with_token)))
}

fn refuse(status: StatusCode, code: &'static str, message: &str) -> Refusal {
    Refusal::new(STYLE, status, code, message)
}

fn success(message: &str, extra: Value) -> Json<Value> {
    let mut body = json!({ "status": "success", "message": message });
    if let (Some(body), Value::Object(extra)) = (body.as_object_mut(), extra) {
        body.extend(extra);
    }
    Json(body)
}

fn national(msisdn: &str) -> Result<&str, Refusal> {
    br_ids::msisdn_national(msisdn).ok_or_else(|| {
        refuse(StatusCode::BAD_REQUEST, "INVALID_MSISDN", "Telefone inválido. Informe DDD e número de celular.")
    })
}

fn token_refusal(error: TokenError) -> Refusal {
    match error {
        TokenError::Unknown => {
            refuse(StatusCode::UNAUTHORIZED, "INVALID_TOKEN", "Sessão inválida. Comece a ativação novamente.")
        }
        TokenError::Expired => {
            refuse(StatusCode::UNAUTHORIZED, "TOKEN_EXPIRED", "Sessão expirada. Comece a ativação novamente.")
        }
    }
}

#[derive(Deserialize)]
struct Phone {
    msisdn: String,
}

async fn check_phone(headers: HeaderMap, body: Bytes) -> Result<Json<Value>, Refusal> {
    let Phone { msisdn } = json_body(STYLE, &headers, &body)?;
    if national(&msisdn)? == scenarios::CLOUD_PHONE_REFUSED {
        return Err(refuse(
            StatusCode::UNPROCESSABLE_ENTITY,
            "PHONE_NOT_ALLOWED",
            "Este telefone não pode ativar o EXA Cloud. Verifique o número ou fale com o suporte.",
        ));
    }
    Ok(success("Telefone válido.", json!({})))
}

async fn send_code(State(state): State<SandboxState>, headers: HeaderMap, body: Bytes) -> Result<Json<Value>, Refusal> {
    let Phone { msisdn } = json_body(STYLE, &headers, &body)?;
    if national(&msisdn)? == scenarios::SEND_CODE_FAILS {
        return Err(refuse(
            StatusCode::INTERNAL_SERVER_ERROR,
            "SMS_PROVIDER_ERROR",
            "Não foi possível enviar o código agora. Tente novamente em alguns minutos.",
        ));
    }
    let now = state.now();
    let transaction_id = state.with(|w| w.send_code(Channel::Cloud, &msisdn, now));
    Ok(success("Código enviado por SMS.", json!({ "transaction_id": transaction_id })))
}

#[derive(Deserialize)]
struct Validate {
    transaction_id: String,
    pincode: String,
}

async fn validate_code(
    State(state): State<SandboxState>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Json<Value>, Refusal> {
    let request: Validate = json_body(STYLE, &headers, &body)?;
    let now = state.now();
    let msisdn = codes::verify(&state, Channel::Cloud, &request.transaction_id, &request.pincode, now, STYLE)?;
    let claims = Claims { msisdn: Some(msisdn), ..Claims::default() };
    let token = state.with(|w| w.issue_token(TokenKind::CloudFsCustom, claims, now));
    Ok(success("Código validado.", json!({ "fs_custom_token": token })))
}

#[derive(Deserialize)]
struct Register {
    serial: String,
    msisdn: String,
}

async fn register_serial(
    State(state): State<SandboxState>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Json<Value>, Refusal> {
    let request: Register = json_body(STYLE, &headers, &body)?;
    national(&request.msisdn)?;
    let serial = request.serial.trim().to_string();
    if serial.is_empty() || serial.chars().count() > SERIAL_MAX_LEN {
        return Err(refuse(
            StatusCode::BAD_REQUEST,
            "INVALID_SERIAL",
            "Informe o número de série (até 21 caracteres).",
        ));
    }
    let now = state.now();
    state.with(|w| {
        if !w.is_verified(Channel::Cloud, &request.msisdn) {
            return Err(refuse(
                StatusCode::FORBIDDEN,
                "MSISDN_NOT_VERIFIED",
                "Telefone não verificado. Valide o código enviado por SMS.",
            ));
        }
        if scenarios::is_missing_serial(&serial) {
            return Err(refuse(
                StatusCode::NOT_FOUND,
                "SERIAL_NOT_FOUND",
                "Número de série não encontrado. Confira o número na etiqueta do seu computador.",
            ));
        }
        match w.serial_subscription(KIND, &serial) {
            Some(existing) if existing.msisdn == request.msisdn => Ok(()),
            Some(_) => Err(refuse(
                StatusCode::CONFLICT,
                "SERIAL_IN_USE",
                "Este número de série já foi ativado com outro telefone.",
            )),
            None => {
                w.subscribe(Subscription {
                    serial: Some(serial.clone()),
                    ..Subscription::new(KIND, &request.msisdn, now)
                });
                Ok(())
            }
        }
    })?;
    Ok(success("Número de série registrado.", json!({})))
}

#[derive(Deserialize)]
struct CustomTokenRequest {
    #[serde(rename = "fs-auth-token")]
    auth_token: String,
}

async fn get_custom_token(
    State(state): State<SandboxState>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Json<Value>, Refusal> {
    let request: CustomTokenRequest = json_body(STYLE, &headers, &body)?;
    let now = state.now();
    let token = state.with(|w| {
        let claims = w.check_token(&request.auth_token, &[TokenKind::CloudFsCustom], now).map_err(token_refusal)?;
        let msisdn = claims.msisdn.clone().unwrap_or_default();
        let registered =
            w.subscriptions.iter().filter(|s| s.kind == KIND && s.msisdn == msisdn).map(|s| s.at).max().ok_or_else(
                || {
                    refuse(
                        StatusCode::FORBIDDEN,
                        "SERIAL_NOT_REGISTERED",
                        "Nenhum número de série registrado para este telefone.",
                    )
                },
            )?;
        if now < registered + Duration::seconds(PROVISIONING_SECONDS) {
            return Err(refuse(
                StatusCode::CONFLICT,
                "SERIAL_PROVISIONING",
                "Seu número de série ainda está sendo processado. Tente novamente em alguns segundos.",
            ));
        }
        Ok(w.issue_token(TokenKind::CloudCustom, claims, now))
    })?;
    Ok(success("Token gerado.", json!({ "custom_token": token })))
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct SignIn {
    token: String,
    return_secure_token: bool,
}

async fn sign_in_with_token(
    State(state): State<SandboxState>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Json<Value>, Refusal> {
    let request: SignIn = json_body(STYLE, &headers, &body)?;
    if !request.return_secure_token {
        return Err(refuse(StatusCode::BAD_REQUEST, "INVALID_REQUEST", "returnSecureToken deve ser true."));
    }
    let now = state.now();
    let id_token = state.with(|w| {
        let claims = w.check_token(&request.token, &[TokenKind::CloudCustom], now).map_err(token_refusal)?;
        Ok::<_, Refusal>(w.issue_token(TokenKind::CloudId, claims, now))
    })?;
    Ok(success("Login realizado.", json!({ "id_token": id_token })))
}
