//! Given events / when command / then events or rejection, by folding plain lists.

use chrono::{DateTime, Duration, TimeZone, Utc};
use serde_json::json;

use super::state::evolve;
use super::*;
use crate::flow::{encode, PiiField, Rejection};
use crate::pii::PiiKind;

fn t0() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2025, 3, 10, 12, 0, 0).single().expect("valid date")
}

fn submitted() -> CloudEvent {
    CloudEvent::DetailsSubmitted {
        phone: PiiField::clear(PiiKind::Phone, "5511912345678"),
        phone_masked: "(11) *****-5678".into(),
        serial: "PSN-0001".into(),
    }
}

/// Folds `events`, one second apart from `t0`.
fn given(events: &[CloudEvent]) -> CloudState {
    events.iter().enumerate().fold(CloudState::default(), |state, (i, event)| {
        evolve(state, event, t0() + Duration::seconds(i as i64))
    })
}

fn when(events: &[CloudEvent], command: serde_json::Value) -> Result<Vec<CloudEvent>, Rejection> {
    let command: CloudCommand = serde_json::from_value(command).expect("command json");
    CloudFlow::decide(&given(events), command, t0() + Duration::seconds(events.len() as i64))
}

fn on_code_form() -> Vec<CloudEvent> {
    vec![submitted(), CloudEvent::PhoneChecked {}, CloudEvent::CodeSent { transaction_id: "tx-1".into() }]
}

#[test]
fn start_seals_the_phone_and_keeps_a_masked_copy() {
    let events = when(&[], json!({"type": "start", "phone": "(11) 91234-5678", "serial": " PSN-0001 "})).unwrap();
    assert_eq!(events, vec![submitted()]);
    let (event_type, payload) = encode::<CloudFlow>(&events[0]).unwrap();
    assert_eq!(event_type, "details.submitted");
    assert_eq!(payload["phone"], json!({"$pii_clear": {"kind": "phone", "value": "5511912345678"}}));
    assert_eq!(payload["phone_masked"], json!("(11) *****-5678"));
}

#[test]
fn start_rejects_each_field_with_its_message() {
    let reject = |phone: &str, serial: &str| {
        when(&[], json!({"type": "start", "phone": phone, "serial": serial})).unwrap_err()
    };
    assert_eq!(reject("", "PSN"), Rejection::field("phone", PHONE_REQUIRED));
    assert_eq!(reject("(11) 9123", "PSN"), Rejection::field("phone", PHONE_INVALID));
    assert_eq!(reject("(11) 91234-5678", " "), Rejection::field("serial", SERIAL_REQUIRED));
    assert_eq!(reject("(11) 91234-5678", &"9".repeat(22)), Rejection::field("serial", SERIAL_TOO_LONG));
    // Phone first, as the form lists it.
    assert_eq!(reject("", ""), Rejection::field("phone", PHONE_REQUIRED));
}

#[test]
fn a_started_attempt_refuses_a_second_start() {
    let rejection = when(&[submitted()], json!({"type": "start", "phone": "11912345678", "serial": "X"})).unwrap_err();
    assert_eq!(rejection, Rejection::general(OUT_OF_ORDER));
}

#[test]
fn the_phone_check_then_the_code_are_due_right_after_form_one() {
    let state = given(&[submitted()]);
    assert_eq!(CloudFlow::next_step(&state).map(|s| (s.name, s.due_at)), Some(("check_phone".into(), t0())));
    let state = given(&[submitted(), CloudEvent::PhoneChecked {}]);
    assert_eq!(CloudFlow::next_step(&state).map(|s| s.name), Some("send_code".into()));
    let state = given(&on_code_form());
    assert_eq!(CloudFlow::next_step(&state), None);
    assert_eq!(state.panel, CloudPanel::Code);
    assert_eq!(state.transaction_id.as_deref(), Some("tx-1"));
}

#[test]
fn a_refused_phone_stays_on_form_one_with_the_message_and_can_be_resubmitted() {
    let events = vec![submitted(), CloudEvent::PhoneRefused { message: "Número não habilitado.".into() }];
    let state = given(&events);
    assert_eq!((state.panel, state.busy(), state.error.as_deref()), (CloudPanel::Details, false, Some("Número não habilitado.")));
    let again = when(&events, json!({"type": "submit_details", "phone": "11912345678", "serial": "PSN-0001"})).unwrap();
    assert_eq!(again, vec![submitted()]);
    assert_eq!(given(&[events, again].concat()).error, None);
}

#[test]
fn form_one_cannot_be_resubmitted_while_a_step_runs() {
    let rejection = when(&[submitted()], json!({"type": "submit_details", "phone": "11912345678", "serial": "X"})).unwrap_err();
    assert_eq!(rejection, Rejection::general(BUSY));
}

#[test]
fn code_is_required_and_six_digits() {
    let rejection = when(&on_code_form(), json!({"type": "submit_code", "code": "12345"})).unwrap_err();
    assert_eq!(rejection, Rejection::field("code", CODE_INVALID));
    let events = when(&on_code_form(), json!({"type": "submit_code", "code": "123456"})).unwrap();
    assert_eq!(events, vec![CloudEvent::CodeSubmitted { pincode: "123456".into() }]);
}

#[test]
fn commands_of_the_other_form_are_refused() {
    assert_eq!(
        when(&[submitted(), CloudEvent::PhoneChecked {}], json!({"type": "submit_code", "code": "123456"})).unwrap_err(),
        Rejection::general(OUT_OF_ORDER)
    );
    let validating = [on_code_form(), vec![CloudEvent::CodeSubmitted { pincode: "123456".into() }]].concat();
    assert_eq!(when(&validating, json!({"type": "resend"})).unwrap_err(), Rejection::general(BUSY));
    assert_eq!(when(&validating, json!({"type": "back"})).unwrap_err(), Rejection::general(BUSY));
    let refused = vec![submitted(), CloudEvent::PhoneRefused { message: "x".into() }];
    assert_eq!(when(&refused, json!({"type": "submit_code", "code": "123456"})).unwrap_err(), Rejection::general(OUT_OF_ORDER));
    assert_eq!(when(&refused, json!({"type": "back"})).unwrap_err(), Rejection::general(OUT_OF_ORDER));
    assert_eq!(when(&refused, json!({"type": "resend"})).unwrap_err(), Rejection::general(OUT_OF_ORDER));
    assert_eq!(
        when(&on_code_form(), json!({"type": "submit_details", "phone": "11912345678", "serial": "X"})).unwrap_err(),
        Rejection::general(OUT_OF_ORDER)
    );
}

#[test]
fn the_happy_path_waits_five_seconds_between_serial_and_token() {
    let mut events = on_code_form();
    events.push(CloudEvent::CodeSubmitted { pincode: "123456".into() });
    assert_eq!(CloudFlow::next_step(&given(&events)).map(|s| s.name), Some("validate_code".into()));
    events.push(CloudEvent::CodeValidated {});
    let state = given(&events);
    assert_eq!(state.pincode, None, "the spent code is forgotten");
    assert_eq!(CloudFlow::next_step(&state).map(|s| s.name), Some("register_serial".into()));
    events.push(CloudEvent::SerialRegistered {});
    let registered_at = t0() + Duration::seconds(events.len() as i64 - 1);
    let step = CloudFlow::next_step(&given(&events)).expect("token step");
    assert_eq!((step.name.as_str(), step.due_at), ("get_custom_token", registered_at + Duration::seconds(5)));
    events.push(CloudEvent::CustomTokenObtained {});
    assert_eq!(CloudFlow::next_step(&given(&events)).map(|s| s.name), Some("sign_in".into()));
    events.extend([CloudEvent::SignedIn {}, CloudEvent::Activated {}]);
    let state = given(&events);
    assert_eq!(CloudFlow::next_step(&state), None);
    assert!(state.activated);
    let view = CloudFlow::view(&state, t0());
    assert_eq!(view["panel"], json!("success"));
    assert_eq!(view["redirect_to"], json!("/cliente/hero"));
    assert_eq!(view["redirect_after_ms"], json!(3000));
    // Nothing more to do once activated.
    assert_eq!(when(&events, json!({"type": "resend"})).unwrap_err(), Rejection::general(OUT_OF_ORDER));
}

#[test]
fn a_wrong_code_stays_on_form_two_and_can_be_retried() {
    let mut events = on_code_form();
    events.push(CloudEvent::CodeSubmitted { pincode: "000000".into() });
    events.push(CloudEvent::CodeRejected { message: "Código inválido.".into() });
    let state = given(&events);
    assert_eq!((state.panel, state.busy(), state.error.as_deref()), (CloudPanel::Code, false, Some("Código inválido.")));
    assert_eq!(state.pincode, None);
    assert!(when(&events, json!({"type": "submit_code", "code": "123456"})).is_ok());
}

#[test]
fn failures_after_the_code_was_spent_return_to_form_one() {
    for failure in [
        CloudEvent::SerialRejected { message: "Serial não encontrado.".into() },
        CloudEvent::CustomTokenFailed { message: "Serial não encontrado.".into() },
        CloudEvent::SignInFailed { message: "Serial não encontrado.".into() },
    ] {
        let mut events = on_code_form();
        events.extend([CloudEvent::CodeSubmitted { pincode: "123456".into() }, CloudEvent::CodeValidated {}, failure]);
        let state = given(&events);
        assert_eq!((state.panel, state.busy()), (CloudPanel::Details, false));
        assert_eq!(state.error.as_deref(), Some("Serial não encontrado."));
        assert_eq!(state.transaction_id, None);
        assert!(when(&events, json!({"type": "submit_details", "phone": "11912345678", "serial": "PSN-0002"})).is_ok());
    }
}

#[test]
fn resend_hides_the_link_for_ten_seconds_after_success_only() {
    let mut events = on_code_form();
    // The first resend needs no wait.
    assert_eq!(when(&events, json!({"type": "resend"})).unwrap(), vec![CloudEvent::ResendRequested {}]);
    events.push(CloudEvent::ResendRequested {});
    assert_eq!(CloudFlow::next_step(&given(&events)).map(|s| s.name), Some("resend_code".into()));
    events.push(CloudEvent::CodeResent { transaction_id: "tx-2".into() });
    let resent_at = t0() + Duration::seconds(4);
    let state = given(&events);
    assert_eq!(state.transaction_id.as_deref(), Some("tx-2"));
    assert_eq!(state.resend_available_at(resent_at), Some(resent_at + Duration::seconds(10)));
    assert_eq!(
        CloudFlow::view(&state, resent_at)["resend_available_at"],
        json!("2025-03-10T12:00:14.000Z")
    );
    let command: CloudCommand = serde_json::from_value(json!({"type": "resend"})).unwrap();
    assert_eq!(
        CloudFlow::decide(&state, command.clone(), resent_at + Duration::milliseconds(3500)).unwrap_err(),
        Rejection::general("Aguarde 7 segundos para reenviar o código.")
    );
    assert!(CloudFlow::decide(&state, command, resent_at + Duration::seconds(10)).is_ok());
    assert_eq!(CloudFlow::view(&state, resent_at + Duration::seconds(10))["resend_available_at"], json!(null));
}

#[test]
fn a_failed_resend_keeps_the_link_and_shows_the_message() {
    let mut events = on_code_form();
    events.extend([CloudEvent::ResendRequested {}, CloudEvent::ResendFailed { message: "Falha no envio.".into() }]);
    let state = given(&events);
    assert_eq!((state.panel, state.busy(), state.error.as_deref()), (CloudPanel::Code, false, Some("Falha no envio.")));
    assert_eq!(state.resent_at, None);
    assert_eq!(state.transaction_id.as_deref(), Some("tx-1"));
    assert!(when(&events, json!({"type": "resend"})).is_ok());
}

#[test]
fn back_returns_to_form_one_and_forgets_the_code() {
    let events = [on_code_form(), vec![CloudEvent::DetailsReopened {}]].concat();
    assert_eq!(when(&on_code_form(), json!({"type": "back"})).unwrap(), vec![CloudEvent::DetailsReopened {}]);
    let state = given(&events);
    assert_eq!((state.panel, state.transaction_id.clone(), state.error.clone()), (CloudPanel::Details, None, None));
    let view = CloudFlow::view(&state, t0());
    assert_eq!(view["phone"], json!("(11) *****-5678"));
    assert_eq!(view["serial"], json!("PSN-0001"));
}

#[test]
fn giving_up_shows_the_generic_message_on_the_right_form() {
    let gave_up = |step: &str| CloudEvent::StepGaveUp { step: step.into(), reason: "timeout".into() };
    let state = given(&[submitted(), gave_up("check_phone")]);
    assert_eq!((state.panel, state.busy(), state.error.as_deref()), (CloudPanel::Details, false, Some(GENERIC_ERROR)));
    let state = given(&[on_code_form(), vec![CloudEvent::CodeSubmitted { pincode: "123456".into() }, gave_up("validate_code")]].concat());
    assert_eq!((state.panel, state.error.as_deref()), (CloudPanel::Code, Some(GENERIC_ERROR)));
    let state = given(&[on_code_form(), vec![CloudEvent::CodeSubmitted { pincode: "123456".into() }, CloudEvent::CodeValidated {}, gave_up("register_serial")]].concat());
    assert_eq!((state.panel, state.error.as_deref()), (CloudPanel::Details, Some(GENERIC_ERROR)));
}

#[test]
fn the_view_never_carries_the_pincode_the_transaction_or_the_clear_phone() {
    let mut events = on_code_form();
    events.push(CloudEvent::CodeSubmitted { pincode: "987654".into() });
    let text = CloudFlow::view(&given(&events), t0()).to_string();
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
        CloudEvent::CodeSent { transaction_id: "t".into() },
        CloudEvent::CodeSendFailed { message: "m".into() },
        CloudEvent::ResendRequested {},
        CloudEvent::CodeResent { transaction_id: "t".into() },
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
