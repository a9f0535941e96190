//! The activation flow, given events / when command / then events or rejection.

use chrono::{DateTime, Duration, TimeZone, Utc};
use events::flow::{Flow, Rejection};
use events::flows::activation::{
    self, ActivationCommand, ActivationEvent, ActivationFlow, ActivationState, CodeRefusal, DocumentKind, Platform,
    Products, Variant,
};
use serde_json::{json, Value};

fn t0() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 3, 2, 12, 0, 0).unwrap()
}

fn secs(n: i64) -> DateTime<Utc> {
    t0() + Duration::seconds(n)
}

/// Folds `events`, one second apart from t0.
fn given(events: &[ActivationEvent]) -> ActivationState {
    events.iter().enumerate().fold(ActivationState::default(), |state, (i, e)| ActivationFlow::evolve(state, e, secs(i as i64)))
}

fn command(value: Value) -> ActivationCommand {
    serde_json::from_value(value).expect("command")
}

fn when(state: &ActivationState, value: Value, now: DateTime<Utc>) -> Result<Vec<ActivationEvent>, Rejection> {
    ActivationFlow::decide(state, command(value), now)
}

fn then_ok(state: &ActivationState, value: Value, now: DateTime<Utc>) -> Vec<ActivationEvent> {
    when(state, value, now).expect("accepted")
}

fn started(variant: &str) -> ActivationEvent {
    let events = then_ok(&ActivationState::default(), json!({"type": "start", "variant": variant}), t0());
    events.into_iter().next().expect("one event")
}

fn step(state: &ActivationState) -> Option<String> {
    ActivationFlow::next_step(state).map(|s| s.name)
}

fn view(state: &ActivationState, now: DateTime<Utc>) -> Value {
    ActivationFlow::view(state, now)
}

fn phone_submitted(variant: &str, body: Value) -> Vec<ActivationEvent> {
    let state = given(&[started(variant)]);
    let mut cmd = json!({"type": "submit_phone", "phone": "(11) 98765-4321"});
    if let (Value::Object(c), Value::Object(b)) = (&mut cmd, body) {
        c.extend(b);
    }
    then_ok(&state, cmd, secs(5))
}

#[test]
fn start_opens_the_variant_panel() {
    let state = given(&[started("standard")]);
    let v = view(&state, t0());
    assert_eq!(v["panel"], "send_code");
    assert_eq!(v["busy"], false);
    assert_eq!(v["licence_locked"], false);
    assert_eq!(step(&state), None);
    assert_eq!(view(&given(&[started("telecom")]), t0())["panel"], "email");
    assert_eq!(view(&given(&[started("carrier")]), t0())["panel"], "send_code");
}

#[test]
fn licenca_prefills_and_locks_the_licence() {
    let events = then_ok(&ActivationState::default(), json!({"type": "start", "variant": "insurance", "licenca": "LIC-777"}), t0());
    let v = view(&given(&events), t0());
    assert_eq!((v["licence"].clone(), v["licence_locked"].clone()), (json!("LIC-777"), json!(true)));

    // The partner portal's field is always disabled, even without a link value.
    let v = view(&given(&[started("partner_portal")]), t0());
    assert_eq!((v["licence"].clone(), v["licence_locked"].clone()), (Value::Null, json!(true)));

    // The carrier flow has no licence field: the parameter is ignored.
    let events = then_ok(&ActivationState::default(), json!({"type": "start", "variant": "carrier", "licenca": "LIC-777"}), t0());
    assert_eq!(view(&given(&events), t0())["licence_locked"], false);

    // Longer than the field's 21 characters: not prefilled.
    let events = then_ok(&ActivationState::default(), json!({"type": "start", "variant": "standard", "licenca": "X".repeat(22)}), t0());
    assert_eq!(view(&given(&events), t0())["licence"], Value::Null);
}

#[test]
fn broadband_starts_at_partner_login_or_looks_the_customer_up() {
    let state = given(&[started("broadband")]);
    assert_eq!(view(&state, t0())["panel"], "partner_login");
    assert_eq!(step(&state).as_deref(), Some("prepare_partner_login"));

    let events = then_ok(&ActivationState::default(), json!({"type": "start", "variant": "broadband", "code": "abc123"}), t0());
    let state = given(&events);
    assert_eq!(step(&state).as_deref(), Some("look_up_customer"));
    assert_eq!(view(&state, t0())["busy"], true);
    let found = ActivationFlow::evolve(state.clone(), &ActivationEvent::CustomerFound { customer_id: "C-1".into() }, secs(1));
    assert_eq!((view(&found, secs(1))["panel"].clone(), step(&found)), (json!("send_code"), None));
    let refused = serde_json::from_value::<ActivationEvent>(json!({"type": "customer.not_found", "data": {"status": 404}})).unwrap();
    let failed = ActivationFlow::evolve(state, &refused, secs(1));
    assert_eq!(view(&failed, secs(1))["panel"], "partner_login");
    assert_eq!(view(&failed, secs(1))["error"], activation::CUSTOMER_NOT_FOUND);

    // A code with characters no OAuth provider issues is not passed on.
    let events = then_ok(&ActivationState::default(), json!({"type": "start", "variant": "broadband", "code": "a b"}), t0());
    assert_eq!(step(&given(&events)).as_deref(), Some("prepare_partner_login"));
}

#[test]
fn the_return_url_must_be_our_broadband_page() {
    let ok = "http://127.0.0.1:18380/seguranca/ativarbrisanet";
    for (url, kept) in [(ok, true), ("https://evil.test/seguranca/ativarbrisanet?x=1", false), ("javascript:alert(1)", false), ("https://exa.com.br/", false)] {
        let events = then_ok(&ActivationState::default(), json!({"type": "start", "variant": "broadband", "return_url": url}), t0());
        assert_eq!(given(&events).return_url.is_some(), kept, "{url}");
    }
}

#[test]
fn a_second_start_is_refused() {
    let state = given(&[started("standard")]);
    assert_eq!(when(&state, json!({"type": "start", "variant": "standard"}), t0()), Err(Rejection::general(activation::NOT_NOW)));
}

#[test]
fn submit_phone_checks_fields_in_screen_order() {
    let state = given(&[started("standard")]);
    let bad_phone = when(&state, json!({"type": "submit_phone", "phone": "(10) 98765-4321", "licence": ""}), t0());
    assert_eq!(bad_phone, Err(Rejection::field("phone", activation::INVALID_PHONE)));
    let no_licence = when(&state, json!({"type": "submit_phone", "phone": "(11) 98765-4321", "licence": " "}), t0());
    assert_eq!(no_licence, Err(Rejection::field("licence", activation::MISSING_LICENCE)));

    let carrier = given(&[started("carrier")]);
    let same_digits = when(&carrier, json!({"type": "submit_phone", "phone": "(11) 98765-4321", "cpf_cnpj": "111.111.111-11"}), t0());
    assert_eq!(same_digits, Err(Rejection::field("cpf_cnpj", activation::INVALID_CPF)));
    let thirteen = when(&carrier, json!({"type": "submit_phone", "phone": "(11) 98765-4321", "cpf_cnpj": "1122233300018"}), t0());
    assert_eq!(thirteen, Err(Rejection::field("cpf_cnpj", activation::INVALID_CPF_CNPJ)));
}

#[test]
fn submitted_personal_data_is_marked_for_sealing_with_a_masked_display() {
    let events = phone_submitted("standard", json!({"licence": " LIC-1 "}));
    let value = serde_json::to_value(&events[0]).unwrap();
    assert_eq!(value["type"], "phone.submitted");
    assert_eq!(value["data"]["phone"], json!({"$pii_clear": {"kind": "phone", "value": "5511987654321"}}));
    assert_eq!(value["data"]["phone_display"], "(11) *****-4321");
    assert_eq!(value["data"]["licence"], "LIC-1");
    assert_eq!(value["data"]["document"], Value::Null);

    let events = phone_submitted("carrier", json!({"cpf_cnpj": "12.ABC.345/01DE-35"}));
    let value = serde_json::to_value(&events[0]).unwrap();
    assert_eq!(value["data"]["document"], json!({"$pii_clear": {"kind": "cpf_cnpj", "value": "12ABC34501DE35"}}));
    assert_eq!(value["data"]["document_kind"], "cnpj");
    assert_eq!(value["data"]["document_display"], "**.***.***/****-35");
    assert_eq!(value["data"]["licence"], Value::Null);
}

#[test]
fn a_locked_licence_keeps_the_link_value() {
    let start = then_ok(&ActivationState::default(), json!({"type": "start", "variant": "standard", "licenca": "LINK-1"}), t0());
    let state = given(&start);
    let events = then_ok(&state, json!({"type": "submit_phone", "phone": "11987654321", "licence": "TYPED"}), t0());
    match &events[0] {
        ActivationEvent::PhoneSubmitted(p) => assert_eq!(p.licence.as_deref(), Some("LINK-1")),
        other => panic!("unexpected {other:?}"),
    }
    // A portal link without a licence: the disabled field is empty, the spec's message answers.
    let portal = given(&[started("partner_portal")]);
    assert_eq!(
        when(&portal, json!({"type": "submit_phone", "phone": "11987654321", "licence": "TYPED"}), t0()),
        Err(Rejection::field("licence", activation::MISSING_LICENCE))
    );
}

#[test]
fn each_variant_runs_its_chain() {
    let mut standard = given(&[started("standard")]);
    standard = ActivationFlow::evolve(standard, &phone_submitted("standard", json!({"licence": "L"}))[0], secs(5));
    assert_eq!(step(&standard).as_deref(), Some("send_code"));
    assert_eq!(view(&standard, secs(5))["busy"], true);

    let chain = |variant: &str, body: Value, outcomes: Vec<ActivationEvent>| -> Vec<Option<String>> {
        let mut state = given(&[started(variant)]);
        state = ActivationFlow::evolve(state, &phone_submitted(variant, body)[0], secs(1));
        let mut steps = vec![step(&state)];
        for (i, e) in outcomes.iter().enumerate() {
            state = ActivationFlow::evolve(state, e, secs(2 + i as i64));
            steps.push(step(&state));
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

    let standard = chain("standard", json!({"licence": "L"}), vec![ActivationEvent::CodeSent { resend: false }, ActivationEvent::CodeSubmitted { pincode: "123456".into() }, ActivationEvent::CodeValidated {}]);
    assert_eq!(standard.last().cloned().flatten().as_deref(), Some("subscribe_serial"));
}

#[test]
fn telecom_logs_in_keeps_the_plan_then_sends_the_code() {
    let state = given(&[started("telecom")]);
    let events = then_ok(&state, json!({"type": "submit_email", "phone": "(11) 98765-4321", "email": "Ana@Exemplo.com.br"}), secs(1));
    let value = serde_json::to_value(&events[0]).unwrap();
    assert_eq!(value["data"]["email"], json!({"$pii_clear": {"kind": "email", "value": "ana@exemplo.com.br"}}));
    assert_eq!(value["data"]["email_display"], "a***@e***.com.br");
    let mut state = ActivationFlow::evolve(state, &events[0], secs(1));
    assert_eq!(step(&state).as_deref(), Some("partner_login"));
    state = ActivationFlow::evolve(state, &ActivationEvent::PartnerLoggedIn { customer_id: "AG-1".into() }, secs(2));
    assert_eq!(step(&state).as_deref(), Some("fetch_account"));
    state = ActivationFlow::evolve(state, &ActivationEvent::PartnerPlanFound { plan_id: "plan-9".into() }, secs(3));
    assert_eq!(step(&state).as_deref(), Some("send_code"));
    assert_eq!(view(&state, secs(3))["plan_id"], "plan-9");
    assert_eq!(view(&state, secs(3))["panel"], "email");

    let refused = ActivationFlow::evolve(
        given(&[started("telecom"), events[0].clone()]),
        &serde_json::from_value(json!({"type": "partner.login_refused", "data": {"status": 404}})).unwrap(),
        secs(2),
    );
    assert_eq!(view(&refused, secs(2))["error"], activation::PARTNER_LOGIN_REFUSED);
    assert_eq!(view(&refused, secs(2))["panel"], "email");
    assert_eq!(
        when(&given(&[started("telecom")]), json!({"type": "submit_email", "phone": "11987654321", "email": "sem-arroba"}), t0()),
        Err(Rejection::field("email", activation::INVALID_EMAIL))
    );
}

fn at_code_panel(variant: &str) -> ActivationState {
    let mut events = vec![started(variant)];
    events.extend(phone_submitted(variant, json!({"licence": "L", "cpf_cnpj": "529.982.247-25"})));
    events.push(ActivationEvent::CodeSent { resend: false });
    given(&events)
}

#[test]
fn the_code_needs_six_digits_and_the_terms() {
    let state = at_code_panel("standard");
    assert_eq!(view(&state, secs(3))["panel"], "code_validation");
    assert_eq!(view(&state, secs(3))["phone_display"], "(11) *****-4321");
    assert_eq!(
        when(&state, json!({"type": "submit_code", "pincode": "12345", "terms_accepted": true}), secs(3)),
        Err(Rejection::field("pincode", activation::CODE_WRONG))
    );
    assert_eq!(
        when(&state, json!({"type": "submit_code", "pincode": "123456"}), secs(3)),
        Err(Rejection::field("terms", activation::TERMS_REQUIRED))
    );
    let events = then_ok(&state, json!({"type": "submit_code", "pincode": "123456", "terms_accepted": true}), secs(3));
    assert_eq!(events, vec![ActivationEvent::CodeSubmitted { pincode: "123456".into() }]);
    let busy = ActivationFlow::evolve(state, &events[0], secs(3));
    assert_eq!(step(&busy).as_deref(), Some("validate_code"));
    // A second submit while the first is being checked.
    assert_eq!(
        when(&busy, json!({"type": "submit_code", "pincode": "123456", "terms_accepted": true}), secs(3)),
        Err(Rejection::general(activation::NOT_NOW))
    );
}

#[test]
fn code_refusals_map_to_the_spec_messages() {
    for (reason, message) in [
        (CodeRefusal::Expired, activation::CODE_EXPIRED),
        (CodeRefusal::Locked, activation::CODE_LOCKED),
        (CodeRefusal::Wrong, activation::CODE_WRONG),
    ] {
        let state = ActivationFlow::evolve(at_code_panel("standard"), &ActivationEvent::CodeSubmitted { pincode: "000000".into() }, secs(4));
        let state = ActivationFlow::evolve(state, &ActivationEvent::CodeRejected { reason, status: None }, secs(5));
        let v = view(&state, secs(5));
        assert_eq!((v["panel"].as_str(), v["error"].as_str(), v["busy"].as_bool()), (Some("code_validation"), Some(message), Some(false)));
    }
}

#[test]
fn the_resend_countdown_blocks_resend_and_validate_for_60_seconds() {
    let state = at_code_panel("standard");
    // No countdown before the first resend.
    assert_eq!(view(&state, secs(3))["resend_in"], 0);
    let events = then_ok(&state, json!({"type": "resend_code"}), secs(10));
    assert_eq!(events, vec![ActivationEvent::CodeResendRequested {}]);
    let state = ActivationFlow::evolve(state, &events[0], secs(10));
    assert_eq!(step(&state).as_deref(), Some("send_code"));
    let state = ActivationFlow::evolve(state, &ActivationEvent::CodeSent { resend: true }, secs(11));
    assert_eq!(view(&state, secs(11))["resend_in"], 60);
    assert_eq!(view(&state, secs(41))["resend_in"], 30);
    assert_eq!(view(&state, secs(41) + Duration::milliseconds(500))["resend_in"], 30);
    let wait = Err(Rejection::general(activation::WAIT_COUNTDOWN));
    assert_eq!(when(&state, json!({"type": "resend_code"}), secs(70)), wait);
    assert_eq!(when(&state, json!({"type": "submit_code", "pincode": "123456", "terms_accepted": true}), secs(70)), wait);
    assert_eq!(view(&state, secs(71))["resend_in"], 0);
    assert!(when(&state, json!({"type": "resend_code"}), secs(71)).is_ok());
    assert!(when(&state, json!({"type": "submit_code", "pincode": "123456", "terms_accepted": true}), secs(71)).is_ok());
}

#[test]
fn a_failed_resend_keeps_the_code_panel() {
    let state = at_code_panel("standard");
    let state = ActivationFlow::evolve(state, &ActivationEvent::CodeResendRequested {}, secs(10));
    let failed: ActivationEvent = serde_json::from_value(json!({"type": "code.send_failed", "data": {"status": 500}})).unwrap();
    let state = ActivationFlow::evolve(state, &failed, secs(11));
    let v = view(&state, secs(11));
    assert_eq!((v["panel"].as_str(), v["error"].as_str(), v["resend_in"].as_i64()), (Some("code_validation"), Some(activation::GENERIC), Some(0)));
}

#[test]
fn failures_after_the_code_return_to_the_form_with_the_message() {
    let validated = |variant: &str| {
        let state = ActivationFlow::evolve(at_code_panel(variant), &ActivationEvent::CodeSubmitted { pincode: "123456".into() }, secs(4));
        ActivationFlow::evolve(state, &ActivationEvent::CodeValidated {}, secs(5))
    };
    let serial: ActivationEvent = serde_json::from_value(json!({"type": "serial.not_found", "data": {"status": 404}})).unwrap();
    let v = view(&ActivationFlow::evolve(validated("standard"), &serial, secs(6)), secs(6));
    assert_eq!((v["panel"].as_str(), v["error"].as_str()), (Some("send_code"), Some(activation::SERIAL_NOT_FOUND)));

    let refused: ActivationEvent = serde_json::from_value(json!({"type": "authorization.refused", "data": {"status": 403}})).unwrap();
    let v = view(&ActivationFlow::evolve(validated("carrier"), &refused, secs(6)), secs(6));
    assert_eq!((v["panel"].as_str(), v["error"].as_str()), (Some("send_code"), Some(activation::NOT_AUTHORIZED)));

    let gave_up: ActivationEvent = serde_json::from_value(json!({"type": "step.gave_up", "data": {"step": "subscribe_serial", "claims": 5, "reason": "timeout"}})).unwrap();
    let state = ActivationFlow::evolve(validated("standard"), &gave_up, secs(6));
    let v = view(&state, secs(6));
    assert_eq!((v["panel"].as_str(), v["error"].as_str(), v["busy"].as_bool()), (Some("send_code"), Some(activation::GENERIC), Some(false)));
    assert_eq!(step(&state), None);
}

#[test]
fn the_carrier_product_list_shows_granted_products_only() {
    let state = ActivationFlow::evolve(at_code_panel("carrier"), &ActivationEvent::CodeSubmitted { pincode: "123456".into() }, secs(4));
    let products = Products::from_item_names(["FS", "PAR"]);
    let state = ActivationFlow::evolve(state, &ActivationEvent::PacksFetched { items: vec!["FS".into(), "PAR".into()], products }, secs(5));
    let v = view(&state, secs(5));
    assert_eq!((v["panel"].clone(), v["products"].clone()), (json!("product_list"), json!(["seguranca", "gestao"])));
    assert!(when(&state, json!({"type": "choose_product", "product": "cloud", "platform": "android"}), secs(6)).is_err());
    let chosen = then_ok(&state, json!({"type": "choose_product", "product": "gestao", "platform": "desktop"}), secs(6));
    assert_eq!(chosen, vec![ActivationEvent::ProductChosen { product: "gestao".into(), platform: Platform::Desktop }]);

    let none = ActivationFlow::evolve(at_code_panel("carrier"), &ActivationEvent::PacksFetched { items: vec!["XYZ".into()], products: Products::default() }, secs(5));
    assert_eq!(view(&none, secs(5))["error"], activation::NOT_AUTHORIZED);
}

#[test]
fn the_store_redirect_is_recorded_once() {
    let state = ActivationFlow::evolve(at_code_panel("standard"), &ActivationEvent::Subscribed {}, secs(5));
    assert_eq!(view(&state, secs(5))["panel"], "redirect_store");
    let events = then_ok(&state, json!({"type": "record_store_redirect", "platform": "ios"}), secs(8));
    assert_eq!(events, vec![ActivationEvent::StoreRedirected { platform: Platform::Ios }]);
    let state = ActivationFlow::evolve(state, &events[0], secs(8));
    assert_eq!(then_ok(&state, json!({"type": "record_store_redirect", "platform": "ios"}), secs(9)), vec![]);
}

#[test]
fn variants_have_their_brand() {
    use events::flows::activation::Brand;
    let brands: Vec<Brand> = Variant::ALL.iter().map(|v| v.brand()).collect();
    assert_eq!(brands, vec![Brand::Default, Brand::Default, Brand::Default, Brand::Default, Brand::Agility, Brand::Tim]);
}
