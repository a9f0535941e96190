//! The cloud activation's wrappers over HTTP: phone check, send, validate (5-minute codes),
//! register serial, custom token after provisioning, sign in.

mod sandbox_support;

use reqwest::StatusCode;
use sandbox::scenarios as s;
use sandbox_support::{other_than, read, Sandbox};
use serde_json::{json, Value};

const PHONE: &str = "5511976543210";

async fn call(sandbox: &Sandbox, function: &str, body: Value) -> (StatusCode, Value) {
    read(sandbox.post(&format!("/cloud-functions/{function}")).json(&body).send().await.unwrap()).await
}

/// Sends and validates a cloud code: the `fs_custom_token`.
async fn validated(sandbox: &Sandbox, msisdn: &str) -> String {
    let (_, sent) = call(sandbox, "sendCode", json!({ "msisdn": msisdn })).await;
    let code = sandbox.last_code(msisdn).await;
    let body = json!({ "transaction_id": sent["transaction_id"], "pincode": code });
    let (status, done) = call(sandbox, "validateCode", body).await;
    assert_eq!(status, StatusCode::OK);
    done["fs_custom_token"].as_str().unwrap().to_string()
}

#[tokio::test]
async fn phone_check_passes_or_fails_with_a_message() {
    let sandbox = Sandbox::start().await;
    let (status, ok) = call(&sandbox, "checkPhone", json!({ "msisdn": PHONE })).await;
    assert_eq!((status, ok["status"].as_str()), (StatusCode::OK, Some("success")));
    let (status, refused) =
        call(&sandbox, "checkPhone", json!({ "msisdn": format!("55{}", s::CLOUD_PHONE_REFUSED) })).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(refused["status"], "error");
    assert_eq!(
        refused["message"],
        "Este telefone não pode ativar o EXA Cloud. Verifique o número ou fale com o suporte."
    );
    let (status, invalid) = call(&sandbox, "checkPhone", json!({ "msisdn": "5511" })).await;
    assert_eq!((status, invalid["code"].as_str()), (StatusCode::BAD_REQUEST, Some("INVALID_MSISDN")));
}

#[tokio::test]
async fn send_code_fails_for_the_scenario_phone() {
    let sandbox = Sandbox::start().await;
    let (status, failed) = call(&sandbox, "sendCode", json!({ "msisdn": format!("55{}", s::SEND_CODE_FAILS) })).await;
    assert_eq!((status, failed["status"].as_str()), (StatusCode::INTERNAL_SERVER_ERROR, Some("error")));
    assert!(failed["message"].as_str().unwrap().starts_with("Não foi possível enviar o código"));
}

#[tokio::test]
async fn cloud_codes_expire_after_5_minutes_and_allow_5_wrong() {
    let sandbox = Sandbox::start().await;
    let (status, sent) = call(&sandbox, "sendCode", json!({ "msisdn": PHONE })).await;
    assert_eq!((status, sent["status"].as_str()), (StatusCode::OK, Some("success")));
    let transaction_id = sent["transaction_id"].as_str().unwrap().to_string();
    let code = sandbox.last_code(PHONE).await;
    let validate = |pincode: String| {
        call(&sandbox, "validateCode", json!({ "transaction_id": transaction_id, "pincode": pincode }))
    };

    let (status, wrong) = validate(other_than(&code)).await;
    assert_eq!(
        (status, wrong["message"].as_str()),
        (StatusCode::BAD_REQUEST, Some("Código inválido. Tentativas restantes: 4."))
    );
    sandbox.advance(5 * 60).await;
    let (status, expired) = validate(code).await;
    assert_eq!(
        (status, expired["message"].as_str()),
        (StatusCode::FORBIDDEN, Some("Código expirado. Solicite um novo código."))
    );

    let (_, sent) = call(&sandbox, "sendCode", json!({ "msisdn": PHONE })).await;
    let code = sandbox.last_code(PHONE).await;
    let body = |pincode: &str| json!({ "transaction_id": sent["transaction_id"], "pincode": pincode });
    for _ in 0..5 {
        assert_eq!(call(&sandbox, "validateCode", body(&other_than(&code))).await.0, StatusCode::BAD_REQUEST);
    }
    let (status, locked) = call(&sandbox, "validateCode", body(&code)).await;
    assert_eq!((status, locked["code"].as_str()), (StatusCode::NOT_ACCEPTABLE, Some("TOO_MANY_ATTEMPTS")));
}

#[tokio::test]
async fn register_serial_then_tokens_after_provisioning() {
    let sandbox = Sandbox::start().await;
    let (status, refused) = call(&sandbox, "registerSerial", json!({ "serial": "PSN-1", "msisdn": PHONE })).await;
    assert_eq!((status, refused["code"].as_str()), (StatusCode::FORBIDDEN, Some("MSISDN_NOT_VERIFIED")));

    let fs_token = validated(&sandbox, PHONE).await;
    let (status, missing) =
        call(&sandbox, "registerSerial", json!({ "serial": s::SERIAL_NOT_FOUND, "msisdn": PHONE })).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(missing["message"], "Número de série não encontrado. Confira o número na etiqueta do seu computador.");

    let (status, early) = call(&sandbox, "getCustomToken", json!({ "fs-auth-token": fs_token })).await;
    assert_eq!((status, early["code"].as_str()), (StatusCode::FORBIDDEN, Some("SERIAL_NOT_REGISTERED")));

    let (status, registered) = call(&sandbox, "registerSerial", json!({ "serial": "PSN-1", "msisdn": PHONE })).await;
    assert_eq!((status, registered["status"].as_str()), (StatusCode::OK, Some("success")));
    let (status, again) = call(&sandbox, "registerSerial", json!({ "serial": "PSN-1", "msisdn": PHONE })).await;
    assert_eq!((status, again["status"].as_str()), (StatusCode::OK, Some("success")), "same phone, same serial");

    // The spec's 5 s wait: before it, the serial is still provisioning.
    let (status, busy) = call(&sandbox, "getCustomToken", json!({ "fs-auth-token": fs_token })).await;
    assert_eq!((status, busy["code"].as_str()), (StatusCode::CONFLICT, Some("SERIAL_PROVISIONING")));
    sandbox.advance(5).await;
    let (status, custom) = call(&sandbox, "getCustomToken", json!({ "fs-auth-token": fs_token })).await;
    assert_eq!((status, custom["status"].as_str()), (StatusCode::OK, Some("success")));
    let custom_token = custom["custom_token"].as_str().unwrap();

    let (status, refused) =
        call(&sandbox, "signInWithToken", json!({ "token": fs_token, "returnSecureToken": true })).await;
    assert_eq!((status, refused["code"].as_str()), (StatusCode::UNAUTHORIZED, Some("INVALID_TOKEN")));
    let (status, refused) =
        call(&sandbox, "signInWithToken", json!({ "token": custom_token, "returnSecureToken": false })).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{refused}");
    let (status, signed_in) =
        call(&sandbox, "signInWithToken", json!({ "token": custom_token, "returnSecureToken": true })).await;
    assert_eq!((status, signed_in["status"].as_str()), (StatusCode::OK, Some("success")));
    assert!(signed_in["id_token"].as_str().unwrap().starts_with("sbx-cloud-id-"));

    // Another phone cannot take the serial.
    let other = "5521976543210";
    validated(&sandbox, other).await;
    let (status, taken) = call(&sandbox, "registerSerial", json!({ "serial": "PSN-1", "msisdn": other })).await;
    assert_eq!((status, taken["code"].as_str()), (StatusCode::CONFLICT, Some("SERIAL_IN_USE")));
}

#[tokio::test]
async fn an_activation_code_does_not_verify_a_cloud_phone() {
    let sandbox = Sandbox::start().await;
    sandbox.verified(PHONE, sandbox::credentials::BRAND_DEFAULT).await;
    let (status, refused) = call(&sandbox, "registerSerial", json!({ "serial": "PSN-2", "msisdn": PHONE })).await;
    assert_eq!((status, refused["code"].as_str()), (StatusCode::FORBIDDEN, Some("MSISDN_NOT_VERIFIED")));
}
