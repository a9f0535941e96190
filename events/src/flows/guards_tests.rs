//! Issue 24: the limits watch what a decision does, and a command is read in one shape only.

use chrono::Duration;
use serde_json::{json, Value};

use super::{activation, cloud, download};
use crate::flow::testing::{t0, FlowTest};
use crate::flow::{AttemptFlow, Erased, Flow, Guards, PiiField, SmsTo, MALFORMED_COMMAND};
use crate::pii::PiiKind;

fn phone(msisdn: &str) -> PiiField {
    PiiField::clear(PiiKind::Phone, msisdn)
}

fn guards_of<F: Flow<Event: PartialEq + std::fmt::Debug>>(test: &FlowTest<F>, command: Value) -> Guards {
    F::guards(&test.when_at(command, test.now() + Duration::minutes(10)).events())
}

fn cloud_on_code_form() -> FlowTest<cloud::CloudFlow> {
    FlowTest::given([
        cloud::CloudEvent::DetailsSubmitted {
            phone: phone("5511912345678"),
            phone_masked: "(11) *****-5678".into(),
            serial: PiiField::clear(PiiKind::Serial, "PSN-1"),
        },
        cloud::CloudEvent::PhoneChecked {},
        cloud::CloudEvent::CodeSent { transaction_id: None },
    ])
}

#[test]
fn a_code_sent_by_form_one_counts_against_the_phone_it_sets() {
    let test = FlowTest::<cloud::CloudFlow>::given_no_previous_events();
    let guards = guards_of(&test, json!({"type": "start", "phone": "(11) 91234-5678", "serial": "PSN-1"}));
    assert_eq!(guards, Guards { sms: Some(SmsTo::Phone("11912345678".into())), ..Guards::default() });
}

#[test]
fn a_resend_counts_against_the_attempts_phone_in_every_flow() {
    assert_eq!(guards_of(&cloud_on_code_form(), json!({"type": "resend"})).sms, Some(SmsTo::AttemptPhone));
    let download = FlowTest::<download::DownloadFlow>::given([
        download::DownloadEvent::Started { os: download::DesktopOs::WinPc, browser: "Chrome".into() },
        download::DownloadEvent::PhoneSubmitted { phone: phone("5511912345678"), masked: "x".into() },
        download::DownloadEvent::CodeSent {},
    ]);
    assert_eq!(guards_of(&download, json!({"type": "resend_code"})).sms, Some(SmsTo::AttemptPhone));
    assert_eq!(guards_of(&download, json!({"type": "submit_code", "code": "123456"})), Guards::code_check());
}

#[test]
fn the_telecom_email_form_logs_in_with_the_email_and_sends_to_the_phone_typed() {
    let guards = activation::ActivationFlow::guards(&[activation::ActivationEvent::EmailSubmitted(
        activation::EmailSubmitted {
            phone: phone("5511987654321"),
            phone_display: "x".into(),
            email: PiiField::clear(PiiKind::Email, "ana@x.com"),
            email_display: "a**@x.com".into(),
        },
    )]);
    assert_eq!(guards.partner_login.as_deref(), Some("ana@x.com"));
    assert_eq!(guards.sms, Some(SmsTo::Phone("11987654321".into())));
}

#[test]
fn commands_that_send_nothing_meet_no_limit() {
    assert!(guards_of(&cloud_on_code_form(), json!({"type": "back"})).is_empty());
}

/// A decoy field is refused before anything is decided, whatever command carries it.
#[test]
fn an_unknown_field_or_type_is_refused_with_the_malformed_message() {
    let cases: [(&dyn AttemptFlow, Value); 6] = [
        (&Erased::<cloud::CloudFlow>::default(), json!({"type": "resend", "phone": "11999990000"})),
        (
            &Erased::<cloud::CloudFlow>::default(),
            json!({"type": "start", "phone": "11912345678", "serial": "P", "to": "x"}),
        ),
        (&Erased::<download::DownloadFlow>::default(), json!({"type": "resend_code", "phone": "11999990000"})),
        (&Erased::<activation::ActivationFlow>::default(), json!({"type": "resend_code", "phone": "11999990000"})),
        (
            &Erased::<activation::ActivationFlow>::default(),
            json!({"type": "submit_email", "phone": "1", "email": "a@b.c", "cc": "x"}),
        ),
        (&Erased::<download::DownloadFlow>::default(), json!({"type": "send_to_everyone"})),
    ];
    for (flow, command) in cases {
        let refused = flow.decide(&[], command.clone(), t0()).expect_err("refused");
        assert_eq!((refused.command, refused.rejection.message.as_str()), (None, MALFORMED_COMMAND), "{command}");
    }
}

#[test]
fn a_decision_names_its_command_even_when_the_flow_refuses_it() {
    let flow = Erased::<cloud::CloudFlow>::default();
    let refused = flow.decide(&[], json!({"type": "start", "phone": "1", "serial": "P"}), t0()).expect_err("bad phone");
    assert_eq!(refused.command, Some("start"));
    let decided = flow
        .decide(&[], json!({"type": "start", "phone": "(11) 91234-5678", "serial": "PSN-1"}), t0())
        .expect("started");
    assert_eq!((decided.command, decided.events.len()), ("start", 1));
    assert_eq!(decided.guards.sms, Some(SmsTo::Phone("11912345678".into())));
}
