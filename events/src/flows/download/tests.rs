//! Given events, when a command, then events or a rejection; and folds of event lists.

use chrono::{DateTime, Duration, TimeZone, Utc};
use serde_json::json;

use super::*;
use crate::flow::testing::FlowTest;
use crate::flow::{decode, encode, PiiField, Rejection};
use crate::pii::PiiKind;

fn t0() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2025, 3, 5, 12, 0, 0).single().expect("valid time")
}

/// `events`, one second apart from t0; commands are decided a second after the last.
fn given(events: impl IntoIterator<Item = DownloadEvent>) -> FlowTest<DownloadFlow> {
    FlowTest::starting_at(t0()).and(events)
}

fn started() -> DownloadEvent {
    DownloadEvent::Started { os: DesktopOs::WinPc, browser: "Chrome".into() }
}

fn phone_submitted() -> DownloadEvent {
    DownloadEvent::PhoneSubmitted {
        phone: PiiField::clear(PiiKind::Phone, "+5511912345678"),
        masked: "(11) *****-5678".into(),
    }
}

fn partner(id: &str, subscription: Option<&str>) -> Partner {
    Partner {
        id: id.into(),
        name: format!("Parceiro {id}"),
        logotype: String::new(),
        has_subscription: subscription.is_some(),
    }
}

fn device(id: &str) -> Device {
    Device {
        id: id.into(),
        device_name: PiiField::clear(PiiKind::DeviceName, &format!("PC {id}")),
        os_type: "windows".into(),
        os_version: "11".into(),
        country: "BR".into(),
        first_login: Some(1_700_000_000),
        last_login: Some(1_710_000_000),
    }
}

/// Up to the code panel, SMS sent at t0 + 2 s.
fn on_code_panel() -> Vec<DownloadEvent> {
    vec![started(), phone_submitted(), DownloadEvent::CodeSent {}]
}

fn confirmed_and_found() -> Vec<DownloadEvent> {
    let mut events = on_code_panel();
    events.extend([
        DownloadEvent::CodeSubmitted { code: "123456".into() },
        DownloadEvent::CodeConfirmed {},
        DownloadEvent::UserFound {},
    ]);
    events
}

#[test]
fn start_records_os_and_browser() {
    given([])
        .when(json!({"type": "start", "os": "mac", "browser": "Firefox"}))
        .then_expect_events([DownloadEvent::Started { os: DesktopOs::Mac, browser: "Firefox".into() }]);
    given([])
        .when(json!({"type": "start", "os": "linux", "browser": "Firefox"}))
        .then_expect_rejection(Rejection::field("os", INVALID_OS));
    given([])
        .when(json!({"type": "start", "os": "mac", "browser": "Fire\nfox"}))
        .then_expect_rejection(Rejection::field("browser", INVALID_BROWSER));
    given([started()])
        .when(json!({"type": "start", "os": "mac", "browser": "Chrome"}))
        .then_expect_rejection(Rejection::general(OUT_OF_STEP));
    given([])
        .when(json!({"type": "submit_phone", "phone": "11912345678"}))
        .then_expect_rejection(Rejection::general(OUT_OF_STEP));
}

#[test]
fn a_valid_phone_is_recorded_sealed_and_masked_then_the_sms_is_due() {
    let events = given([started()])
        .when(json!({"type": "submit_phone", "phone": "(11) 91234-5678"}))
        .then_expect_events([phone_submitted()]);
    let (event_type, payload) = encode::<DownloadFlow>(&events[0]).expect("encodes");
    assert_eq!(event_type, "phone.submitted");
    assert_eq!(
        payload,
        json!({"phone": {"$pii_clear": {"kind": "phone", "value": "+5511912345678"}}, "masked": "(11) *****-5678"})
    );
    assert_eq!(given([started(), phone_submitted()]).step_name().as_deref(), Some("send_code"));
}

#[test]
fn an_invalid_phone_is_refused_with_the_spec_message() {
    for phone in ["(11) 81234-5678", "1191234", ""] {
        assert_eq!(
            given([started()]).when(json!({"type": "submit_phone", "phone": phone})).inspect_result(),
            Err(Rejection::field("phone", INVALID_PHONE)),
            "{phone}"
        );
    }
}

#[test]
fn commands_wait_while_a_step_runs() {
    given([started(), phone_submitted()])
        .when(json!({"type": "submit_phone", "phone": "11912345678"}))
        .then_expect_rejection(Rejection::general(BUSY));
}

#[test]
fn code_sent_opens_the_code_panel_with_a_90_second_countdown() {
    let test = given(on_code_panel());
    assert_eq!(test.state().panel, DownloadPanel::CodeEntry);
    assert_eq!(test.state().resend_at(), Some(t0() + Duration::seconds(2 + 90)));
    let view = test.view_at(t0() + Duration::seconds(12));
    assert_eq!(view["panel"], "code_entry");
    assert_eq!(view["step"], 2);
    assert_eq!(view["resend_in"], 80);
    assert_eq!(view["phone"], "(11) *****-5678");
    assert_eq!(view["busy"], false);
}

#[test]
fn resend_is_refused_before_90_seconds_and_accepted_after() {
    let test = given(on_code_panel());
    let resend = || json!({"type": "resend_code"});
    test.when_at(resend(), t0() + Duration::seconds(2 + 30))
        .then_expect_rejection(Rejection::field("resend", "Reenviar código em 60 segundos"));
    test.when_at(resend(), t0() + Duration::milliseconds(2_000 + 89_001))
        .then_expect_rejection(Rejection::field("resend", "Reenviar código em 1 segundos"));
    test.when_at(resend(), t0() + Duration::seconds(2 + 90))
        .then_expect_events([DownloadEvent::CodeResendRequested {}]);
    let test = test.and([DownloadEvent::CodeResendRequested {}]);
    assert_eq!(test.step_name().as_deref(), Some("resend_code"));
    let resent = test.and([DownloadEvent::CodeResent {}]);
    assert_eq!(resent.state().panel, DownloadPanel::CodeEntry);
    assert_eq!(resent.state().resend_at(), Some(t0() + Duration::seconds(4 + 90)));
}

#[test]
fn a_failed_send_returns_to_the_phone_and_a_failed_resend_stays_on_the_code() {
    let failed = given([started(), phone_submitted(), DownloadEvent::CodeSendFailed { reason: "HTTP 500".into() }]);
    assert_eq!(failed.state().panel, DownloadPanel::PhoneEntry);
    assert_eq!(failed.state().snackbar.as_ref().map(|s| s.message), Some(GENERIC_FAILURE));
    assert!(!failed.state().is_busy());

    let resend_failed = given(on_code_panel())
        .and([DownloadEvent::CodeResendRequested {}, DownloadEvent::CodeSendFailed { reason: "x".into() }]);
    assert_eq!(resend_failed.state().panel, DownloadPanel::CodeEntry);
    assert_eq!(resend_failed.state().snackbar.as_ref().map(|s| s.message), Some(GENERIC_FAILURE));
}

#[test]
fn codes_must_have_six_digits() {
    given(on_code_panel())
        .when(json!({"type": "submit_code", "code": "12345"}))
        .then_expect_rejection(Rejection::field("code", INVALID_CODE));
    given(on_code_panel())
        .when(json!({"type": "submit_code", "code": "654321"}))
        .then_expect_events([DownloadEvent::CodeSubmitted { code: "654321".into() }]);
    assert_eq!(
        given(on_code_panel()).and([DownloadEvent::CodeSubmitted { code: "654321".into() }]).step_name().as_deref(),
        Some("confirm_code")
    );
}

#[test]
fn a_rejected_code_shows_the_message_until_the_next_submission() {
    let test = given(on_code_panel()).and([
        DownloadEvent::CodeSubmitted { code: "000000".into() },
        DownloadEvent::CodeRejected { reason: "INVALID_CODE".into() },
    ]);
    let view = test.view_at(t0());
    assert_eq!(view["panel"], "code_entry");
    assert_eq!(view["code_error"], INVALID_CODE);
    let again = test.and([DownloadEvent::CodeSubmitted { code: "123456".into() }]);
    assert_eq!(again.view_at(t0())["code_error"], serde_json::Value::Null);
}

#[test]
fn a_confirmed_code_looks_the_user_up_then_lists_partners() {
    let confirmed = given(on_code_panel())
        .and([DownloadEvent::CodeSubmitted { code: "123456".into() }, DownloadEvent::CodeConfirmed {}]);
    assert_eq!(confirmed.step_name().as_deref(), Some("find_user"));
    assert_eq!(confirmed.state().code, None);
    assert_eq!(given(confirmed_and_found()).step_name().as_deref(), Some("list_partners"));
    assert_eq!(given(confirmed_and_found()).state().panel, DownloadPanel::CodeEntry);
}

#[test]
fn user_not_found_then_try_again_returns_to_the_phone() {
    let test = given(on_code_panel()).and([
        DownloadEvent::CodeSubmitted { code: "123456".into() },
        DownloadEvent::CodeConfirmed {},
        DownloadEvent::UserNotFound {},
    ]);
    assert_eq!(test.state().panel, DownloadPanel::UserNotFound);
    assert_eq!(test.step_name(), None);
    test.when(json!({"type": "restart"})).then_expect_events([DownloadEvent::Restarted {}]);
    let restarted = test.and([DownloadEvent::Restarted {}]);
    let state = restarted.state();
    assert_eq!(state.panel, DownloadPanel::PhoneEntry);
    assert_eq!(state.os, Some(DesktopOs::WinPc));
    assert_eq!(state.browser, "Chrome");
    assert_eq!(state.masked_phone, None);
    assert_eq!(state.code_sent_at, None);
}

#[test]
fn restart_is_only_offered_by_the_not_found_and_error_panels() {
    given(on_code_panel()).when(json!({"type": "restart"})).then_expect_rejection(Rejection::general(OUT_OF_STEP));
}

#[test]
fn one_partner_downloads_with_its_priority_subscription() {
    let test = given(confirmed_and_found())
        .and([DownloadEvent::PartnersListed { partners: vec![partner("p1", Some("sub-1"))] }]);
    assert_eq!(test.state().partner_id.as_deref(), Some("p1"));
    assert_eq!(test.state().panel, DownloadPanel::CodeEntry);
    assert_eq!(test.step_name().as_deref(), Some("request_download"));
    let done = test.and([DownloadEvent::DownloadGranted {}]);
    assert_eq!(done.state().panel, DownloadPanel::DownloadDone);
    assert_eq!(done.state().downloads, 1);
    assert_eq!(done.view_at(t0())["step"], 3);
}

#[test]
fn several_partners_are_offered_and_the_choice_requests_the_download() {
    let test = given(confirmed_and_found()).and([DownloadEvent::PartnersListed {
        partners: vec![partner("p1", Some("sub-1")), partner("p2", Some("sub-2"))],
    }]);
    assert_eq!(test.state().panel, DownloadPanel::PartnerChoice);
    assert_eq!(test.step_name(), None);
    test.when(json!({"type": "choose_partner", "partner_id": "p2"}))
        .then_expect_events([DownloadEvent::PartnerChosen { partner_id: "p2".into() }]);
    test.when(json!({"type": "choose_partner", "partner_id": "p9"}))
        .then_expect_rejection(Rejection::field("partner", UNKNOWN_CHOICE));
    let chosen = test.and([DownloadEvent::PartnerChosen { partner_id: "p2".into() }]);
    assert_eq!(chosen.step_name().as_deref(), Some("request_download"));
    assert_eq!(chosen.state().partner_id.as_deref(), Some("p2"));
}

#[test]
fn no_partner_means_the_plan_has_no_antivirus() {
    let test = given(confirmed_and_found()).and([DownloadEvent::PartnersListed { partners: vec![] }]);
    assert_eq!(test.state().panel, DownloadPanel::PlanWithoutAntivirus);
}

#[test]
fn a_single_partner_without_subscription_is_a_download_error() {
    let test =
        given(confirmed_and_found()).and([DownloadEvent::PartnersListed { partners: vec![partner("p1", None)] }]);
    assert_eq!(test.state().panel, DownloadPanel::DownloadError);
    assert_eq!(test.state().snackbar.as_ref().map(|s| s.message), Some(GENERIC_FAILURE));
}

fn granted_once() -> Vec<DownloadEvent> {
    let mut events = confirmed_and_found();
    events.extend([
        DownloadEvent::PartnersListed { partners: vec![partner("p1", Some("sub-1"))] },
        DownloadEvent::DownloadGranted {},
    ]);
    events
}

#[test]
fn click_here_asks_for_the_download_again() {
    given(granted_once())
        .when(json!({"type": "retry_download"}))
        .then_expect_events([DownloadEvent::DownloadRetryRequested {}]);
    let again = given(granted_once()).and([DownloadEvent::DownloadRetryRequested {}]);
    assert_eq!(again.step_name().as_deref(), Some("request_download"));
    assert_eq!(again.and([DownloadEvent::DownloadGranted {}]).state().downloads, 2);
}

#[test]
fn the_eleventh_click_here_is_refused() {
    let retried = (0..10).fold(given(granted_once()), |t, _| {
        t.and([DownloadEvent::DownloadRetryRequested {}, DownloadEvent::DownloadGranted {}])
    });
    assert_eq!(retried.state().retries, 10);
    retried.when(json!({"type": "retry_download"})).then_expect_rejection(Rejection::general(TOO_MANY_RETRIES));
}

fn licences_full() -> Vec<DownloadEvent> {
    let mut events = confirmed_and_found();
    events.extend([
        DownloadEvent::PartnersListed { partners: vec![partner("p1", Some("sub-1"))] },
        DownloadEvent::LicencesFull {},
        DownloadEvent::DevicesListed { devices: vec![device("d1"), device("d2")] },
    ]);
    events
}

#[test]
fn no_free_licence_lists_the_devices_with_the_counter() {
    let before_list = licences_full()[..licences_full().len() - 1].to_vec();
    assert_eq!(given(before_list).step_name().as_deref(), Some("list_devices"));
    let view = given(licences_full()).view_at(t0());
    assert_eq!(view["panel"], "licences_in_use");
    assert_eq!(view["licences"], "2/2");
    assert_eq!(view["devices"][1]["device_name"], "PC d2");
    assert_eq!(view["devices"][0]["last_login"], 1_710_000_000);
}

#[test]
fn removing_a_device_retries_the_download_by_itself() {
    given(licences_full())
        .when(json!({"type": "remove_device", "device_id": "d1"}))
        .then_expect_events([DownloadEvent::DeviceRemovalRequested { device_id: "d1".into() }]);
    given(licences_full())
        .when(json!({"type": "remove_device", "device_id": "zz"}))
        .then_expect_rejection(Rejection::field("device", UNKNOWN_CHOICE));
    let requested = given(licences_full()).and([DownloadEvent::DeviceRemovalRequested { device_id: "d1".into() }]);
    assert_eq!(requested.step_name().as_deref(), Some("remove_device"));
    assert_eq!(requested.state().pending, Some(Pending::RemoveDevice("d1".into())));
    let removed = requested.and([DownloadEvent::DeviceRemoved { device_id: "d1".into() }]);
    assert_eq!(removed.step_name().as_deref(), Some("request_download"));
    assert_eq!(removed.state().devices.len(), 1);
    assert_eq!(removed.and([DownloadEvent::DownloadGranted {}]).state().panel, DownloadPanel::DownloadDone);
}

#[test]
fn a_failed_removal_keeps_the_devices_and_raises_its_snackbar() {
    let test = given(licences_full()).and([
        DownloadEvent::DeviceRemovalRequested { device_id: "d1".into() },
        DownloadEvent::DeviceRemovalFailed { device_id: "d1".into(), reason: "HTTP 500".into() },
    ]);
    let state = test.state();
    assert_eq!(state.panel, DownloadPanel::LicencesInUse);
    assert_eq!(state.devices.len(), 2);
    assert_eq!(state.snackbar.as_ref().map(|s| s.message), Some(REMOVAL_FAILURE));
    assert_eq!(test.step_name(), None);
}

#[test]
fn sdk_not_allowed_is_the_plan_without_antivirus() {
    let test = given(confirmed_and_found()).and([
        DownloadEvent::PartnersListed { partners: vec![partner("p1", Some("sub-1"))] },
        DownloadEvent::PlanWithoutAntivirus {},
    ]);
    assert_eq!(test.state().panel, DownloadPanel::PlanWithoutAntivirus);
    assert!(!test.state().is_busy());
}

#[test]
fn partner_device_and_download_failures_show_the_error_panel_and_the_snackbar() {
    let partners_failed =
        given(confirmed_and_found()).and([DownloadEvent::PartnersFailed { reason: "HTTP 503".into() }]);
    let download_failed = given(confirmed_and_found()).and([
        DownloadEvent::PartnersListed { partners: vec![partner("p1", Some("sub-1"))] },
        DownloadEvent::DownloadFailed { reason: "HTTP 500".into() },
    ]);
    let devices_failed = given(confirmed_and_found()).and([
        DownloadEvent::PartnersListed { partners: vec![partner("p1", Some("sub-1"))] },
        DownloadEvent::LicencesFull {},
        DownloadEvent::DevicesFailed { reason: "HTTP 500".into() },
    ]);
    let lookup_failed = given(on_code_panel()).and([
        DownloadEvent::CodeSubmitted { code: "123456".into() },
        DownloadEvent::CodeConfirmed {},
        DownloadEvent::UserLookupFailed { reason: "HTTP 401 TOKEN_EXPIRED".into() },
    ]);
    for test in [partners_failed, download_failed, devices_failed, lookup_failed] {
        let view = test.view_at(t0());
        assert_eq!(view["panel"], "download_error");
        assert_eq!(view["snackbar"]["message"], GENERIC_FAILURE);
        assert_eq!(view["busy"], false);
        test.when(json!({"type": "restart"})).then_expect_events([DownloadEvent::Restarted {}]);
    }
}

#[test]
fn a_snackbar_lasts_until_the_next_event_and_each_has_its_own_id() {
    let failed_removal = || {
        [
            DownloadEvent::DeviceRemovalRequested { device_id: "d1".into() },
            DownloadEvent::DeviceRemovalFailed { device_id: "d1".into(), reason: "x".into() },
        ]
    };
    let test = given(licences_full()).and(failed_removal());
    let first = test.state().snackbar.clone().expect("raised");
    let again = test.and(failed_removal());
    let second = again.state().snackbar.clone().expect("raised");
    assert_ne!(first.id, second.id);
    let cleared = again.and([DownloadEvent::DeviceRemovalRequested { device_id: "d2".into() }]);
    assert_eq!(cleared.state().snackbar, None);
}

#[test]
fn the_runner_giving_up_ends_the_wait_like_a_failure_of_that_step() {
    let gave_up = |events: Vec<DownloadEvent>, step: &str| {
        given(events).and([DownloadEvent::StepGaveUp { step: step.into(), reason: "timeout".into() }])
    };

    let send = gave_up(vec![started(), phone_submitted()], "send_code");
    assert_eq!((send.state().panel, send.state().is_busy()), (DownloadPanel::PhoneEntry, false));
    assert_eq!(send.state().snackbar.as_ref().map(|s| s.message), Some(GENERIC_FAILURE));

    let mut code_submitted = on_code_panel();
    code_submitted.push(DownloadEvent::CodeSubmitted { code: "123456".into() });
    let confirm = gave_up(code_submitted, "confirm_code");
    assert_eq!((confirm.state().panel, confirm.state().is_busy()), (DownloadPanel::CodeEntry, false));

    let partners = gave_up(confirmed_and_found(), "list_partners");
    assert_eq!(partners.state().panel, DownloadPanel::DownloadError);

    let mut removal_requested = licences_full();
    removal_requested.push(DownloadEvent::DeviceRemovalRequested { device_id: "d1".into() });
    let removal = gave_up(removal_requested, "remove_device");
    assert_eq!(removal.state().panel, DownloadPanel::LicencesInUse);
    assert_eq!(removal.state().snackbar.as_ref().map(|s| s.message), Some(REMOVAL_FAILURE));

    // A give-up for a step nobody waits for changes nothing.
    let stray = gave_up(confirmed_and_found(), "send_code");
    assert_eq!(stray.state().pending, Some(Pending::ListPartners));
}

#[test]
fn events_round_trip_through_their_stored_form() {
    let all = licences_full().into_iter().chain([
        DownloadEvent::CodeResendRequested {},
        DownloadEvent::CodeResent {},
        DownloadEvent::CodeSendFailed { reason: "r".into() },
        DownloadEvent::CodeRejected { reason: "r".into() },
        DownloadEvent::UserNotFound {},
        DownloadEvent::UserLookupFailed { reason: "r".into() },
        DownloadEvent::PartnersFailed { reason: "r".into() },
        DownloadEvent::PartnerChosen { partner_id: "p".into() },
        DownloadEvent::DownloadGranted {},
        DownloadEvent::PlanWithoutAntivirus {},
        DownloadEvent::DownloadFailed { reason: "r".into() },
        DownloadEvent::DownloadRetryRequested {},
        DownloadEvent::DevicesFailed { reason: "r".into() },
        DownloadEvent::DeviceRemovalRequested { device_id: "d".into() },
        DownloadEvent::DeviceRemoved { device_id: "d".into() },
        DownloadEvent::DeviceRemovalFailed { device_id: "d".into(), reason: "r".into() },
        DownloadEvent::Restarted {},
        DownloadEvent::StepGaveUp { step: "s".into(), reason: "r".into() },
    ]);
    for event in all {
        let (event_type, payload) = encode::<DownloadFlow>(&event).expect("encodes");
        assert_eq!(event_type, event.type_name());
        assert_eq!(decode::<DownloadFlow>(&event_type, &payload), Some(event));
    }
    // The runner's own bookkeeping is not a download event.
    assert_eq!(decode::<DownloadFlow>("step.started", &json!({"step": "send_code"})), None);
    // The runner's give-up payload carries more than the flow reads.
    assert_eq!(
        decode::<DownloadFlow>("step.gave_up", &json!({"step": "send_code", "claims": 5, "reason": "x"})),
        Some(DownloadEvent::StepGaveUp { step: "send_code".into(), reason: "x".into() })
    );
}

#[test]
fn the_view_never_holds_the_clear_phone_or_the_code() {
    let test = given(on_code_panel()).and([DownloadEvent::CodeSubmitted { code: "123456".into() }]);
    let view = test.view_at(t0()).to_string();
    assert!(!view.contains("912345678"), "{view}");
    assert!(!view.contains("123456"), "{view}");
}

#[test]
fn a_partner_without_subscription_cannot_be_chosen() {
    given(confirmed_and_found())
        .and([DownloadEvent::PartnersListed { partners: vec![partner("p1", Some("sub-1")), partner("p2", None)] }])
        .when(json!({"type": "choose_partner", "partner_id": "p2"}))
        .then_expect_rejection(Rejection::field("partner", UNKNOWN_CHOICE));
}
