//! The activation flow, given events / when command / then events or rejection.

use chrono::{DateTime, Duration, TimeZone, Utc};
use serde_json::{json, Value};

use super::*;
use crate::flow::testing::FlowTest;
use crate::flow::{PiiField, Rejection};
use crate::pii::PiiKind;

fn t0() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 3, 2, 12, 0, 0).single().expect("a valid instant")
}

fn secs(n: i64) -> DateTime<Utc> {
    t0() + Duration::seconds(n)
}

/// `events`, one second apart from t0.
fn given(events: impl IntoIterator<Item = ActivationEvent>) -> FlowTest<ActivationFlow> {
    FlowTest::starting_at(t0()).and(events)
}

fn started(variant: &str) -> ActivationEvent {
    let events = given([]).when_at(json!({"type": "start", "variant": variant}), t0()).events();
    events.into_iter().next().expect("one event")
}

/// The start command's events, with its query parameters.
fn start(command: Value) -> Vec<ActivationEvent> {
    given([]).when_at(command, t0()).events()
}

fn phone_submitted(variant: &str, body: Value) -> Vec<ActivationEvent> {
    let mut cmd = json!({"type": "submit_phone", "phone": "(11) 98765-4321"});
    if let (Value::Object(c), Value::Object(b)) = (&mut cmd, body) {
        c.extend(b);
    }
    given([started(variant)]).when_at(cmd, secs(5)).events()
}

#[test]
fn start_opens_the_variant_panel() {
    let test = given([started("standard")]);
    let v = test.view_at(t0());
    assert_eq!(v["panel"], "send_code");
    assert_eq!(v["busy"], false);
    assert_eq!(v["licence_locked"], false);
    assert_eq!(test.step_name(), None);
    assert_eq!(given([started("telecom")]).view_at(t0())["panel"], "email");
    assert_eq!(given([started("carrier")]).view_at(t0())["panel"], "send_code");
}

#[test]
fn licenca_prefills_and_locks_the_licence() {
    let events = start(json!({"type": "start", "variant": "insurance", "licenca": "LIC-777"}));
    let v = given(events).view_at(t0());
    assert_eq!((v["licence"].clone(), v["licence_locked"].clone()), (json!("LIC-777"), json!(true)));

    // The partner portal's field is always disabled, even without a link value.
    let v = given([started("partner_portal")]).view_at(t0());
    assert_eq!((v["licence"].clone(), v["licence_locked"].clone()), (Value::Null, json!(true)));

    // The carrier flow has no licence field: the parameter is ignored.
    let events = start(json!({"type": "start", "variant": "carrier", "licenca": "LIC-777"}));
    assert_eq!(given(events).view_at(t0())["licence_locked"], false);

    // The link's licence is marked for sealing, never written in clear.
    match &start(json!({"type": "start", "variant": "insurance", "licenca": "LIC-777"}))[0] {
        ActivationEvent::Started(s) => assert_eq!(s.licence, Some(PiiField::clear(PiiKind::Licence, "LIC-777"))),
        other => panic!("unexpected {other:?}"),
    }

    // Longer than the field's 21 characters: not prefilled.
    let events = start(json!({"type": "start", "variant": "standard", "licenca": "X".repeat(22)}));
    assert_eq!(given(events).view_at(t0())["licence"], Value::Null);
}

#[test]
fn broadband_starts_at_partner_login_or_looks_the_customer_up() {
    let test = given([started("broadband")]);
    assert_eq!(test.view_at(t0())["panel"], "partner_login");
    assert_eq!(test.step_name().as_deref(), Some("prepare_partner_login"));

    let test = given(start(json!({"type": "start", "variant": "broadband", "code": "abc123"})));
    assert_eq!(test.step_name().as_deref(), Some("look_up_customer"));
    assert_eq!(test.view_at(t0())["busy"], true);
    let found = test.clone().and_at(ActivationEvent::CustomerFound {}, secs(1));
    assert_eq!((found.view_at(secs(1))["panel"].clone(), found.step_name()), (json!("send_code"), None));
    let refused =
        serde_json::from_value::<ActivationEvent>(json!({"type": "customer.not_found", "data": {"status": 404}}))
            .expect("a stored event decodes");
    let failed = test.and_at(refused, secs(1));
    assert_eq!(failed.view_at(secs(1))["panel"], "partner_login");
    assert_eq!(failed.view_at(secs(1))["error"], CUSTOMER_NOT_FOUND);

    // A code with characters no OAuth provider issues is not passed on.
    let events = start(json!({"type": "start", "variant": "broadband", "code": "a b"}));
    assert_eq!(given(events).step_name().as_deref(), Some("prepare_partner_login"));
}

#[test]
fn the_partner_state_travels_with_the_code_as_a_secret() {
    let started = |command| match start(command).first() {
        Some(ActivationEvent::Started(started)) => started.clone(),
        other => panic!("not a start: {other:?}"),
    };
    let back = started(json!({"type": "start", "variant": "broadband", "code": "oc-1", "state": "st-1"}));
    assert_eq!(back.partner_code.as_ref().and_then(|c| c.clear_text()), Some("oc-1"));
    assert_eq!(back.partner_state.as_ref().and_then(|s| s.clear_text()), Some("st-1"));
    // A state without a code, or one no provider would send, is not kept.
    assert_eq!(started(json!({"type": "start", "variant": "broadband", "state": "st-1"})).partner_state, None);
    assert_eq!(
        started(json!({"type": "start", "variant": "broadband", "code": "oc-1", "state": "a b"})).partner_state,
        None
    );
    // Older events have no state.
    let old: ActivationEvent =
        serde_json::from_value(json!({"type": "attempt.started", "data": {"variant": "broadband", "brand": "default", "licence": null, "licence_locked": false, "partner_code": null}}))
            .expect("an older start still reads");
    assert!(matches!(old, ActivationEvent::Started(Started { partner_state: None, .. })));
}

#[test]
fn the_return_url_must_be_our_broadband_page() {
    let ok = "http://127.0.0.1:18380/seguranca/ativarbrisanet";
    let events = start(json!({"type": "start", "variant": "broadband", "return_url": ok}));
    assert_eq!(given(events).state().return_url.as_deref(), Some(ok));
    for url in [
        "https://evil.test/seguranca/ativarbrisanet?x=1",
        "javascript:alert(1)",
        "https://exa.com.br/",
        "https://a\u{0}b/seguranca/ativarbrisanet",
    ] {
        given([])
            .when_at(json!({"type": "start", "variant": "broadband", "return_url": url}), t0())
            .then_expect_rejection(Rejection::field(RETURN_URL_FIELD, RETURN_URL_REFUSED));
    }
}

#[test]
fn a_second_start_is_refused() {
    given([started("standard")])
        .when_at(json!({"type": "start", "variant": "standard"}), t0())
        .then_expect_rejection(Rejection::general(NOT_NOW));
}

#[test]
fn submit_phone_checks_fields_in_screen_order() {
    let test = given([started("standard")]);
    test.when_at(json!({"type": "submit_phone", "phone": "(10) 98765-4321", "licence": ""}), t0())
        .then_expect_rejection(Rejection::field("phone", INVALID_PHONE));
    test.when_at(json!({"type": "submit_phone", "phone": "(11) 98765-4321", "licence": " "}), t0())
        .then_expect_rejection(Rejection::field("licence", MISSING_LICENCE));

    let carrier = given([started("carrier")]);
    carrier
        .when_at(json!({"type": "submit_phone", "phone": "(11) 98765-4321", "cpf_cnpj": "111.111.111-11"}), t0())
        .then_expect_rejection(Rejection::field("cpf_cnpj", INVALID_CPF));
    carrier
        .when_at(json!({"type": "submit_phone", "phone": "(11) 98765-4321", "cpf_cnpj": "1122233300018"}), t0())
        .then_expect_rejection(Rejection::field("cpf_cnpj", INVALID_CPF_CNPJ));
}

#[test]
fn submitted_personal_data_is_marked_for_sealing_with_a_masked_display() {
    let events = phone_submitted("standard", json!({"licence": " LIC-1 "}));
    let value = serde_json::to_value(&events[0]).expect("an event serialises");
    assert_eq!(value["type"], "phone.submitted");
    assert_eq!(value["data"]["phone"], json!({"$pii_clear": {"kind": "phone", "value": "5511987654321"}}));
    assert_eq!(value["data"]["phone_display"], "(11) *****-4321");
    assert_eq!(value["data"]["licence"], json!({"$pii_clear": {"kind": "licence", "value": "LIC-1"}}));
    assert_eq!(value["data"]["document"], Value::Null);

    let events = phone_submitted("carrier", json!({"cpf_cnpj": "12.ABC.345/01DE-35"}));
    let value = serde_json::to_value(&events[0]).expect("an event serialises");
    assert_eq!(value["data"]["document"], json!({"$pii_clear": {"kind": "cpf_cnpj", "value": "12ABC34501DE35"}}));
    assert_eq!(value["data"]["document_kind"], "cnpj");
    assert_eq!(value["data"]["document_display"], "**.***.***/****-35");
    assert_eq!(value["data"]["licence"], Value::Null);
}

#[test]
fn a_locked_licence_keeps_the_link_value() {
    let test = given(start(json!({"type": "start", "variant": "standard", "licenca": "LINK-1"})));
    let events =
        test.when_at(json!({"type": "submit_phone", "phone": "11987654321", "licence": "TYPED"}), t0()).events();
    match &events[0] {
        ActivationEvent::PhoneSubmitted(p) => {
            assert_eq!(p.licence.as_ref().and_then(PiiField::clear_text), Some("LINK-1"))
        }
        other => panic!("unexpected {other:?}"),
    }
    // A portal link without a licence: the disabled field is empty, the spec's message answers.
    given([started("partner_portal")])
        .when_at(json!({"type": "submit_phone", "phone": "11987654321", "licence": "TYPED"}), t0())
        .then_expect_rejection(Rejection::field("licence", MISSING_LICENCE));
}

#[test]
fn a_licence_stored_in_clear_before_it_was_sealed_still_reads_and_is_sealed_when_carried() {
    let old: ActivationEvent = serde_json::from_value(json!({"type": "attempt.started", "data": {"variant": "standard", "brand": "default", "licence": "LINK-1", "licence_locked": true, "partner_code": null}}))
        .expect("an older start with a plain licence still reads");
    let test = given([old]);
    assert_eq!(test.view_at(t0())["licence"], json!("LINK-1"));
    match &test.when_at(json!({"type": "submit_phone", "phone": "11987654321"}), t0()).events()[0] {
        ActivationEvent::PhoneSubmitted(p) => assert_eq!(p.licence, Some(PiiField::clear(PiiKind::Licence, "LINK-1"))),
        other => panic!("unexpected {other:?}"),
    }
}

#[test]
fn each_variant_runs_its_chain() {
    let standard =
        given([started("standard")]).and_at(phone_submitted("standard", json!({"licence": "L"})).remove(0), secs(5));
    assert_eq!(standard.step_name().as_deref(), Some("send_code"));
    assert_eq!(standard.view_at(secs(5))["busy"], true);

    let chain = |variant: &str, body: Value, outcomes: Vec<ActivationEvent>| -> Vec<Option<String>> {
        let mut test = given([started(variant)]).and_at(phone_submitted(variant, body).remove(0), secs(1));
        let mut steps = vec![test.step_name()];
        for (i, e) in outcomes.into_iter().enumerate() {
            test = test.and_at(e, secs(2 + i as i64));
            steps.push(test.step_name());
        }
        steps
    };
    let carrier = chain(
        "carrier",
        json!({"cpf_cnpj": "529.982.247-25"}),
        vec![
            ActivationEvent::CarrierTokenObtained {},
            ActivationEvent::DocumentAuthorized { kind: DocumentKind::Cpf },
            ActivationEvent::CodeSent { resend: false },
            ActivationEvent::CodeSubmitted { pincode: "123456".into() },
            ActivationEvent::CodeValidated {},
            ActivationEvent::AuthorizationGranted {},
            ActivationEvent::IdentityVerified {},
        ],
    );
    let names: Vec<Option<&str>> = carrier.iter().map(|s| s.as_deref()).collect();
    assert_eq!(
        names,
        vec![
            Some("carrier_token"),
            Some("authorize_document"),
            Some("send_code"),
            None,
            Some("validate_code"),
            Some("authorize"),
            Some("verify_token"),
            Some("fetch_packs")
        ]
    );

    let standard = chain(
        "standard",
        json!({"licence": "L"}),
        vec![
            ActivationEvent::CodeSent { resend: false },
            ActivationEvent::CodeSubmitted { pincode: "123456".into() },
            ActivationEvent::CodeValidated {},
        ],
    );
    assert_eq!(standard.last().cloned().flatten().as_deref(), Some("subscribe_serial"));
}

#[test]
fn telecom_logs_in_keeps_the_plan_then_sends_the_code() {
    let test = given([started("telecom")]);
    let events = test
        .when_at(json!({"type": "submit_email", "phone": "(11) 98765-4321", "email": "Ana@Exemplo.com.br"}), secs(1))
        .events();
    let value = serde_json::to_value(&events[0]).expect("an event serialises");
    assert_eq!(value["data"]["email"], json!({"$pii_clear": {"kind": "email", "value": "ana@exemplo.com.br"}}));
    assert_eq!(value["data"]["email_display"], "a***@e***.com.br");
    let mut test = test.and_at(events[0].clone(), secs(1));
    assert_eq!(test.step_name().as_deref(), Some("partner_login"));
    test = test.and_at(ActivationEvent::PartnerLoggedIn {}, secs(2));
    assert_eq!(test.step_name().as_deref(), Some("fetch_account"));
    test = test.and_at(ActivationEvent::PartnerPlanFound { plan_id: "plan-9".into() }, secs(3));
    assert_eq!(test.step_name().as_deref(), Some("send_code"));
    assert_eq!(test.view_at(secs(3))["plan_id"], "plan-9");
    assert_eq!(test.view_at(secs(3))["panel"], "email");

    let refused = given([started("telecom"), events[0].clone()]).and_at(
        serde_json::from_value(json!({"type": "partner.login_refused", "data": {"status": 404}}))
            .expect("a stored event decodes"),
        secs(2),
    );
    assert_eq!(refused.view_at(secs(2))["error"], PARTNER_LOGIN_REFUSED);
    assert_eq!(refused.view_at(secs(2))["panel"], "email");
    given([started("telecom")])
        .when_at(json!({"type": "submit_email", "phone": "11987654321", "email": "sem-arroba"}), t0())
        .then_expect_rejection(Rejection::field("email", INVALID_EMAIL));
}

fn at_code_panel(variant: &str) -> FlowTest<ActivationFlow> {
    let mut events = vec![started(variant)];
    events.extend(phone_submitted(variant, json!({"licence": "L", "cpf_cnpj": "529.982.247-25"})));
    events.push(ActivationEvent::CodeSent { resend: false });
    given(events)
}

#[test]
fn the_code_needs_six_digits_and_the_terms() {
    let test = at_code_panel("standard");
    assert_eq!(test.view_at(secs(3))["panel"], "code_validation");
    assert_eq!(test.view_at(secs(3))["phone_display"], "(11) *****-4321");
    test.when_at(json!({"type": "submit_code", "pincode": "12345", "terms_accepted": true}), secs(3))
        .then_expect_rejection(Rejection::field("pincode", CODE_WRONG));
    test.when_at(json!({"type": "submit_code", "pincode": "123456"}), secs(3))
        .then_expect_rejection(Rejection::field("terms", TERMS_REQUIRED));
    let events = test
        .when_at(json!({"type": "submit_code", "pincode": "123456", "terms_accepted": true}), secs(3))
        .then_expect_events([ActivationEvent::CodeSubmitted { pincode: "123456".into() }]);
    let busy = test.and_at(events[0].clone(), secs(3));
    assert_eq!(busy.step_name().as_deref(), Some("validate_code"));
    // A second submit while the first is being checked.
    busy.when_at(json!({"type": "submit_code", "pincode": "123456", "terms_accepted": true}), secs(3))
        .then_expect_rejection(Rejection::general(NOT_NOW));
}

#[test]
fn code_refusals_map_to_the_spec_messages() {
    for (reason, message) in
        [(CodeRefusal::Expired, CODE_EXPIRED), (CodeRefusal::Locked, CODE_LOCKED), (CodeRefusal::Wrong, CODE_WRONG)]
    {
        let test = at_code_panel("standard")
            .and_at(ActivationEvent::CodeSubmitted { pincode: "000000".into() }, secs(4))
            .and_at(ActivationEvent::CodeRejected { reason, status: None }, secs(5));
        let v = test.view_at(secs(5));
        assert_eq!(
            (v["panel"].as_str(), v["error"].as_str(), v["busy"].as_bool()),
            (Some("code_validation"), Some(message), Some(false))
        );
    }
}

#[test]
fn the_resend_countdown_blocks_resend_and_validate_for_60_seconds() {
    let test = at_code_panel("standard");
    // No countdown before the first resend.
    assert_eq!(test.view_at(secs(3))["resend_in"], 0);
    let events = test
        .when_at(json!({"type": "resend_code"}), secs(10))
        .then_expect_events([ActivationEvent::CodeResendRequested {}]);
    let test = test.and_at(events[0].clone(), secs(10));
    assert_eq!(test.step_name().as_deref(), Some("send_code"));
    let test = test.and_at(ActivationEvent::CodeSent { resend: true }, secs(11));
    assert_eq!(test.view_at(secs(11))["resend_in"], 60);
    // A clock a little behind the one that recorded the resend read 61 (issue 14).
    assert_eq!(test.view_at(secs(11) - Duration::milliseconds(300))["resend_in"], 60);
    assert_eq!(test.view_at(secs(41))["resend_in"], 30);
    assert_eq!(test.view_at(secs(41) + Duration::milliseconds(500))["resend_in"], 30);
    let wait = Rejection::general(WAIT_COUNTDOWN);
    test.when_at(json!({"type": "resend_code"}), secs(70)).then_expect_rejection(wait.clone());
    test.when_at(json!({"type": "submit_code", "pincode": "123456", "terms_accepted": true}), secs(70))
        .then_expect_rejection(wait);
    assert_eq!(test.view_at(secs(71))["resend_in"], 0);
    assert!(test.when_at(json!({"type": "resend_code"}), secs(71)).is_accepted());
    assert!(test
        .when_at(json!({"type": "submit_code", "pincode": "123456", "terms_accepted": true}), secs(71))
        .is_accepted());
}

#[test]
fn a_failed_resend_keeps_the_code_panel() {
    let failed: ActivationEvent = serde_json::from_value(json!({"type": "code.send_failed", "data": {"status": 500}}))
        .expect("a stored event decodes");
    let test =
        at_code_panel("standard").and_at(ActivationEvent::CodeResendRequested {}, secs(10)).and_at(failed, secs(11));
    let v = test.view_at(secs(11));
    assert_eq!(
        (v["panel"].as_str(), v["error"].as_str(), v["resend_in"].as_i64()),
        (Some("code_validation"), Some(GENERIC), Some(0))
    );
}

#[test]
fn failures_after_the_code_return_to_the_form_with_the_message() {
    let validated = |variant: &str| {
        at_code_panel(variant)
            .and_at(ActivationEvent::CodeSubmitted { pincode: "123456".into() }, secs(4))
            .and_at(ActivationEvent::CodeValidated {}, secs(5))
    };
    let serial: ActivationEvent = serde_json::from_value(json!({"type": "serial.not_found", "data": {"status": 404}}))
        .expect("a stored event decodes");
    let v = validated("standard").and_at(serial, secs(6)).view_at(secs(6));
    assert_eq!((v["panel"].as_str(), v["error"].as_str()), (Some("send_code"), Some(SERIAL_NOT_FOUND)));

    let refused: ActivationEvent =
        serde_json::from_value(json!({"type": "authorization.refused", "data": {"status": 403}}))
            .expect("a stored event decodes");
    let v = validated("carrier").and_at(refused, secs(6)).view_at(secs(6));
    assert_eq!((v["panel"].as_str(), v["error"].as_str()), (Some("send_code"), Some(NOT_AUTHORIZED)));

    let gave_up: ActivationEvent = serde_json::from_value(
        json!({"type": "step.gave_up", "data": {"step": "subscribe_serial", "claims": 5, "reason": "timeout"}}),
    )
    .expect("a stored event decodes");
    let test = validated("standard").and_at(gave_up, secs(6));
    let v = test.view_at(secs(6));
    assert_eq!(
        (v["panel"].as_str(), v["error"].as_str(), v["busy"].as_bool()),
        (Some("send_code"), Some(GENERIC), Some(false))
    );
    assert_eq!(test.step_name(), None);
}

#[test]
fn the_carrier_product_list_shows_granted_products_only() {
    let products = Products::from_item_names(["FS", "PAR"]);
    let test = at_code_panel("carrier")
        .and_at(ActivationEvent::CodeSubmitted { pincode: "123456".into() }, secs(4))
        .and_at(ActivationEvent::PacksFetched { items: vec!["FS".into(), "PAR".into()], products }, secs(5));
    let v = test.view_at(secs(5));
    assert_eq!((v["panel"].clone(), v["products"].clone()), (json!("product_list"), json!(["seguranca", "gestao"])));
    assert!(!test
        .when_at(json!({"type": "choose_product", "product": "cloud", "platform": "android"}), secs(6))
        .is_accepted());
    test.when_at(json!({"type": "choose_product", "product": "gestao", "platform": "desktop"}), secs(6))
        .then_expect_events([ActivationEvent::ProductChosen { product: "gestao".into(), platform: Platform::Desktop }]);

    // Twenty presses are recorded; the twenty-first is refused.
    let pressed = (0..20).fold(test, |t, i| {
        t.and_at(ActivationEvent::ProductChosen { product: "gestao".into(), platform: Platform::Desktop }, secs(6 + i))
    });
    pressed
        .when_at(json!({"type": "choose_product", "product": "gestao", "platform": "desktop"}), secs(30))
        .then_expect_rejection(Rejection::general(TOO_MANY_CHOICES));

    let none = at_code_panel("carrier")
        .and_at(ActivationEvent::PacksFetched { items: vec!["XYZ".into()], products: Products::default() }, secs(5));
    assert_eq!(none.view_at(secs(5))["error"], NOT_AUTHORIZED);
}

#[test]
fn the_store_redirect_is_recorded_once() {
    let test = at_code_panel("standard").and_at(ActivationEvent::Subscribed {}, secs(5));
    assert_eq!(test.view_at(secs(5))["panel"], "redirect_store");
    let events = test
        .when_at(json!({"type": "record_store_redirect", "platform": "ios"}), secs(8))
        .then_expect_events([ActivationEvent::StoreRedirected { platform: Platform::Ios }]);
    let test = test.and_at(events[0].clone(), secs(8));
    test.when_at(json!({"type": "record_store_redirect", "platform": "ios"}), secs(9)).then_expect_events([]);
}

#[test]
fn variants_have_their_brand() {
    let brands: Vec<Brand> = Variant::ALL.iter().map(|v| v.brand()).collect();
    assert_eq!(
        brands,
        vec![Brand::Default, Brand::Default, Brand::Default, Brand::Default, Brand::Agility, Brand::Tim]
    );
}
