//! Given events / when command / then events or rejection, by folding plain lists.

use chrono::{DateTime, Duration, TimeZone, Utc};
use serde_json::json;

use super::*;
use crate::flow::testing::FlowTest;
use crate::flow::{encode, PiiField, Rejection};
use crate::pii::PiiKind;

fn t0() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2025, 3, 10, 12, 0, 0).single().expect("valid date")
}

fn submitted() -> CloudEvent {
    CloudEvent::DetailsSubmitted {
        phone: PiiField::clear(PiiKind::Phone, "5511912345678"),
        phone_masked: "(11) *****-5678".into(),
        serial: PiiField::clear(PiiKind::Serial, "PSN-0001"),
    }
}

/// `events`, one second apart from `t0`; commands are decided a second after the last.
fn given(events: impl IntoIterator<Item = CloudEvent>) -> FlowTest<CloudFlow> {
    FlowTest::starting_at(t0()).and(events)
}

fn on_code_form() -> Vec<CloudEvent> {
    vec![submitted(), CloudEvent::PhoneChecked {}, CloudEvent::CodeSent { transaction_id: Some("tx-1".into()) }]
}

#[test]
fn start_seals_the_phone_and_keeps_a_masked_copy() {
    let events = given([])
        .when(json!({"type": "start", "phone": "(11) 91234-5678", "serial": " PSN-0001 "}))
        .then_expect_events([submitted()]);
    let (event_type, payload) = encode::<CloudFlow>(&events[0]).unwrap();
    assert_eq!(event_type, "details.submitted");
    assert_eq!(payload["phone"], json!({"$pii_clear": {"kind": "phone", "value": "5511912345678"}}));
    assert_eq!(payload["phone_masked"], json!("(11) *****-5678"));
    assert_eq!(payload["serial"], json!({"$pii_clear": {"kind": "serial", "value": "PSN-0001"}}));
}

#[test]
fn a_serial_stored_in_clear_before_it_was_sealed_still_reads() {
    let legacy = json!({"phone": {"$pii_clear": {"kind": "phone", "value": "5511912345678"}}, "phone_masked": "(11) *****-5678", "serial": "PSN-0001"});
    let event = crate::flow::decode::<CloudFlow>("details.submitted", &legacy).expect("an old event decodes");
    assert_eq!(given([event]).view_at(t0())["serial"], json!("PSN-0001"));
}

#[test]
fn start_rejects_each_field_with_its_message() {
    let reject = |phone: &str, serial: &str, rejection: Rejection| {
        given([]).when(json!({"type": "start", "phone": phone, "serial": serial})).then_expect_rejection(rejection)
    };
    reject("", "PSN", Rejection::field("phone", PHONE_REQUIRED));
    reject("(11) 9123", "PSN", Rejection::field("phone", PHONE_INVALID));
    reject("(11) 91234-5678", " ", Rejection::field("serial", SERIAL_REQUIRED));
    reject("(11) 91234-5678", &"9".repeat(22), Rejection::field("serial", SERIAL_TOO_LONG));
    // Phone first, as the form lists it.
    reject("", "", Rejection::field("phone", PHONE_REQUIRED));
}

#[test]
fn a_started_attempt_refuses_a_second_start() {
    given([submitted()])
        .when(json!({"type": "start", "phone": "11912345678", "serial": "X"}))
        .then_expect_rejection(Rejection::general(OUT_OF_ORDER));
}

#[test]
fn the_phone_check_then_the_code_are_due_right_after_form_one() {
    let test = given([submitted()]);
    assert_eq!(test.next_step().map(|s| (s.name, s.due_at)), Some(("check_phone".into(), t0())));
    let test = given([submitted(), CloudEvent::PhoneChecked {}]);
    assert_eq!(test.step_name(), Some("send_code".into()));
    let test = given(on_code_form());
    assert_eq!(test.next_step(), None);
    assert_eq!(test.state().panel, CloudPanel::Code);
    assert_eq!(test.state().transaction_id.as_deref(), Some("tx-1"));
}

#[test]
fn a_refused_phone_stays_on_form_one_with_the_message_and_can_be_resubmitted() {
    let test = given([submitted(), CloudEvent::PhoneRefused { message: "Número não habilitado.".into() }]);
    let state = test.state();
    assert_eq!(
        (state.panel, state.busy(), state.error.as_deref()),
        (CloudPanel::Details, false, Some("Número não habilitado."))
    );
    let again = test
        .when(json!({"type": "submit_details", "phone": "11912345678", "serial": "PSN-0001"}))
        .then_expect_events([submitted()]);
    assert_eq!(test.and(again).state().error, None);
}

#[test]
fn form_one_cannot_be_resubmitted_while_a_step_runs() {
    given([submitted()])
        .when(json!({"type": "submit_details", "phone": "11912345678", "serial": "X"}))
        .then_expect_rejection(Rejection::general(BUSY));
}

#[test]
fn code_is_required_and_six_digits() {
    given(on_code_form())
        .when(json!({"type": "submit_code", "code": "12345"}))
        .then_expect_rejection(Rejection::field("code", CODE_INVALID));
    given(on_code_form())
        .when(json!({"type": "submit_code", "code": "123456"}))
        .then_expect_events([CloudEvent::CodeSubmitted { pincode: "123456".into() }]);
}

#[test]
fn commands_of_the_other_form_are_refused() {
    given([submitted(), CloudEvent::PhoneChecked {}])
        .when(json!({"type": "submit_code", "code": "123456"}))
        .then_expect_rejection(Rejection::general(OUT_OF_ORDER));
    let validating = given(on_code_form()).and([CloudEvent::CodeSubmitted { pincode: "123456".into() }]);
    validating.when(json!({"type": "resend"})).then_expect_rejection(Rejection::general(BUSY));
    validating.when(json!({"type": "back"})).then_expect_rejection(Rejection::general(BUSY));
    let refused = given([submitted(), CloudEvent::PhoneRefused { message: "x".into() }]);
    refused
        .when(json!({"type": "submit_code", "code": "123456"}))
        .then_expect_rejection(Rejection::general(OUT_OF_ORDER));
    refused.when(json!({"type": "back"})).then_expect_rejection(Rejection::general(OUT_OF_ORDER));
    refused.when(json!({"type": "resend"})).then_expect_rejection(Rejection::general(OUT_OF_ORDER));
    given(on_code_form())
        .when(json!({"type": "submit_details", "phone": "11912345678", "serial": "X"}))
        .then_expect_rejection(Rejection::general(OUT_OF_ORDER));
}

#[test]
fn the_happy_path_waits_five_seconds_between_serial_and_token() {
    let test = given(on_code_form()).and([CloudEvent::CodeSubmitted { pincode: "123456".into() }]);
    assert_eq!(test.step_name(), Some("validate_code".into()));
    let test = test.and([CloudEvent::CodeValidated {}]);
    assert_eq!(test.state().pincode, None, "the spent code is forgotten");
    assert_eq!(test.step_name(), Some("register_serial".into()));
    let test = test.and([CloudEvent::SerialRegistered {}]);
    let registered_at = test.now() - Duration::seconds(1);
    let step = test.next_step().expect("token step");
    assert_eq!((step.name.as_str(), step.due_at), ("get_custom_token", registered_at + Duration::seconds(5)));
    let test = test.and([CloudEvent::CustomTokenObtained {}]);
    assert_eq!(test.step_name(), Some("sign_in".into()));
    let test = test.and([CloudEvent::SignedIn {}, CloudEvent::Activated {}]);
    assert_eq!(test.next_step(), None);
    assert!(test.state().activated);
    let view = test.view_at(t0());
    assert_eq!(view["panel"], json!("success"));
    assert_eq!(view["redirect_to"], json!("/cliente/hero"));
    assert_eq!(view["redirect_after_ms"], json!(3000));
    // Nothing more to do once activated.
    test.when(json!({"type": "resend"})).then_expect_rejection(Rejection::general(OUT_OF_ORDER));
}

#[test]
fn a_wrong_code_stays_on_form_two_and_can_be_retried() {
    let test = given(on_code_form()).and([
        CloudEvent::CodeSubmitted { pincode: "000000".into() },
        CloudEvent::CodeRejected { message: "Código inválido.".into() },
    ]);
    let state = test.state();
    assert_eq!(
        (state.panel, state.busy(), state.error.as_deref()),
        (CloudPanel::Code, false, Some("Código inválido."))
    );
    assert_eq!(state.pincode, None);
    assert!(test.when(json!({"type": "submit_code", "code": "123456"})).is_accepted());
}

#[test]
fn failures_after_the_code_was_spent_return_to_form_one() {
    for failure in [
        CloudEvent::SerialRejected { message: "Serial não encontrado.".into() },
        CloudEvent::CustomTokenFailed { message: "Serial não encontrado.".into() },
        CloudEvent::SignInFailed { message: "Serial não encontrado.".into() },
    ] {
        let test = given(on_code_form()).and([
            CloudEvent::CodeSubmitted { pincode: "123456".into() },
            CloudEvent::CodeValidated {},
            failure,
        ]);
        let state = test.state();
        assert_eq!((state.panel, state.busy()), (CloudPanel::Details, false));
        assert_eq!(state.error.as_deref(), Some("Serial não encontrado."));
        assert_eq!(state.transaction_id, None);
        assert!(test
            .when(json!({"type": "submit_details", "phone": "11912345678", "serial": "PSN-0002"}))
            .is_accepted());
    }
}

#[test]
fn resend_hides_the_link_for_ten_seconds_after_success_only() {
    let test = given(on_code_form());
    // The first resend needs no wait.
    test.when(json!({"type": "resend"})).then_expect_events([CloudEvent::ResendRequested {}]);
    let test = test.and([CloudEvent::ResendRequested {}]);
    assert_eq!(test.step_name(), Some("resend_code".into()));
    let test = test.and([CloudEvent::CodeResent { transaction_id: Some("tx-2".into()) }]);
    let resent_at = t0() + Duration::seconds(4);
    let state = test.state();
    assert_eq!(state.transaction_id.as_deref(), Some("tx-2"));
    assert_eq!(state.resend_available_at(resent_at), Some(resent_at + Duration::seconds(10)));
    assert_eq!(test.view_at(resent_at)["resend_available_at"], json!("2025-03-10T12:00:14.000Z"));
    test.when_at(json!({"type": "resend"}), resent_at + Duration::milliseconds(3500))
        .then_expect_rejection(Rejection::general("Aguarde 7 segundos para reenviar o código."));
    assert!(test.when_at(json!({"type": "resend"}), resent_at + Duration::seconds(10)).is_accepted());
    assert_eq!(test.view_at(resent_at + Duration::seconds(10))["resend_available_at"], json!(null));
}

#[test]
fn a_failed_resend_keeps_the_link_and_shows_the_message() {
    let test = given(on_code_form())
        .and([CloudEvent::ResendRequested {}, CloudEvent::ResendFailed { message: "Falha no envio.".into() }]);
    let state = test.state();
    assert_eq!((state.panel, state.busy(), state.error.as_deref()), (CloudPanel::Code, false, Some("Falha no envio.")));
    assert_eq!(state.resent_at, None);
    assert_eq!(state.transaction_id.as_deref(), Some("tx-1"));
    assert!(test.when(json!({"type": "resend"})).is_accepted());
}

#[test]
fn back_returns_to_form_one_and_forgets_the_code() {
    given(on_code_form()).when(json!({"type": "back"})).then_expect_events([CloudEvent::DetailsReopened {}]);
    let test = given(on_code_form()).and([CloudEvent::DetailsReopened {}]);
    let state = test.state();
    assert_eq!((state.panel, state.transaction_id.clone(), state.error.clone()), (CloudPanel::Details, None, None));
    let view = test.view_at(t0());
    assert_eq!(view["phone"], json!("(11) *****-5678"));
    assert_eq!(view["serial"], json!("PSN-0001"));
}

#[test]
fn giving_up_shows_the_generic_message_on_the_right_form() {
    let gave_up = |step: &str| CloudEvent::StepGaveUp { step: step.into(), reason: "timeout".into() };
    let test = given([submitted(), gave_up("check_phone")]);
    let state = test.state();
    assert_eq!((state.panel, state.busy(), state.error.as_deref()), (CloudPanel::Details, false, Some(GENERIC_ERROR)));
    let test =
        given(on_code_form()).and([CloudEvent::CodeSubmitted { pincode: "123456".into() }, gave_up("validate_code")]);
    assert_eq!((test.state().panel, test.state().error.as_deref()), (CloudPanel::Code, Some(GENERIC_ERROR)));
    let test = given(on_code_form()).and([
        CloudEvent::CodeSubmitted { pincode: "123456".into() },
        CloudEvent::CodeValidated {},
        gave_up("register_serial"),
    ]);
    assert_eq!((test.state().panel, test.state().error.as_deref()), (CloudPanel::Details, Some(GENERIC_ERROR)));
}

#[test]
fn the_view_never_carries_the_pincode_the_transaction_or_the_clear_phone() {
    let test = given(on_code_form()).and([CloudEvent::CodeSubmitted { pincode: "987654".into() }]);
    let text = test.view_at(t0()).to_string();
    for secret in ["987654", "tx-1", "5511912345678", "912345678"] {
        assert!(!text.contains(secret), "{secret} leaked into {text}");
    }
}

#[test]
fn step_gave_up_decodes_from_the_runner_payload() {
    let event = crate::flow::decode::<CloudFlow>(
        "step.gave_up",
        &json!({"step": "sign_in", "claims": 5, "reason": "transient: 503"}),
    );
    assert_eq!(event, Some(CloudEvent::StepGaveUp { step: "sign_in".into(), reason: "transient: 503".into() }));
    assert_eq!(crate::flow::decode::<CloudFlow>("step.started", &json!({"step": "sign_in"})), None);
}

#[test]
fn type_names_match_the_serialized_tags() {
    let all = vec![
        submitted(),
        CloudEvent::PhoneChecked {},
        CloudEvent::PhoneRefused { message: "m".into() },
        CloudEvent::CodeSent { transaction_id: Some("t".into()) },
        CloudEvent::CodeSendFailed { message: "m".into() },
        CloudEvent::ResendRequested {},
        CloudEvent::CodeResent { transaction_id: Some("t".into()) },
        CloudEvent::ResendFailed { message: "m".into() },
        CloudEvent::DetailsReopened {},
        CloudEvent::CodeSubmitted { pincode: "123456".into() },
        CloudEvent::CodeValidated {},
        CloudEvent::CodeRejected { message: "m".into() },
        CloudEvent::SerialRegistered {},
        CloudEvent::SerialRejected { message: "m".into() },
        CloudEvent::CustomTokenObtained {},
        CloudEvent::CustomTokenFailed { message: "m".into() },
        CloudEvent::SignedIn {},
        CloudEvent::SignInFailed { message: "m".into() },
        CloudEvent::Activated {},
        CloudEvent::StepGaveUp { step: "s".into(), reason: "r".into() },
    ];
    for event in all {
        let (event_type, payload) = encode::<CloudFlow>(&event).unwrap();
        assert_eq!(event_type, event.type_name());
        assert_eq!(crate::flow::decode::<CloudFlow>(&event_type, &payload), Some(event));
    }
}
