//! Given events, when a command, then events or a rejection; and folds of event lists.

use chrono::{DateTime, Duration, TimeZone, Utc};
use serde_json::json;

use super::*;
use crate::flow::{decode, encode, PiiField};
use crate::pii::PiiKind;

fn t0() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2025, 3, 5, 12, 0, 0).single().expect("valid time")
}

/// Folds `events`, one second apart from t0.
fn given(events: &[DownloadEvent]) -> DownloadState {
    events
        .iter()
        .enumerate()
        .fold(DownloadState::default(), |s, (i, e)| DownloadFlow::evolve(s, e, t0() + Duration::seconds(i as i64)))
}

fn started() -> DownloadEvent {
    DownloadEvent::Started { os: DesktopOs::WinPc, browser: "Chrome".into() }
}

fn phone_submitted() -> DownloadEvent {
    DownloadEvent::PhoneSubmitted { phone: PiiField::clear(PiiKind::Phone, "+5511912345678"), masked: "(11) *****-5678".into() }
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
        device_name: format!("PC {id}"),
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
    events.extend([DownloadEvent::CodeSubmitted { code: "123456".into() }, DownloadEvent::CodeConfirmed {}, DownloadEvent::UserFound {}]);
    events
}

fn with(mut events: Vec<DownloadEvent>, more: impl IntoIterator<Item = DownloadEvent>) -> Vec<DownloadEvent> {
    events.extend(more);
    events
}

fn when(events: &[DownloadEvent], command: serde_json::Value) -> Result<Vec<DownloadEvent>, Rejection> {
    let command: DownloadCommand = serde_json::from_value(command).expect("command json");
    DownloadFlow::decide(&given(events), command, t0() + Duration::seconds(events.len() as i64))
}

fn step_of(events: &[DownloadEvent]) -> Option<String> {
    DownloadFlow::next_step(&given(events)).map(|s| s.name)
}

#[test]
fn start_records_os_and_browser() {
    assert_eq!(
        when(&[], json!({"type": "start", "os": "mac", "browser": "Firefox"})),
        Ok(vec![DownloadEvent::Started { os: DesktopOs::Mac, browser: "Firefox".into() }])
    );
    assert_eq!(
        when(&[], json!({"type": "start", "os": "linux", "browser": "Firefox"})),
        Err(Rejection::field("os", INVALID_OS))
    );
    assert_eq!(
        when(&[], json!({"type": "start", "os": "mac", "browser": "Fire\nfox"})),
        Err(Rejection::field("browser", INVALID_BROWSER))
    );
    assert_eq!(when(&[started()], json!({"type": "start", "os": "mac", "browser": "Chrome"})), Err(Rejection::general(OUT_OF_STEP)));
    assert_eq!(when(&[], json!({"type": "submit_phone", "phone": "11912345678"})), Err(Rejection::general(OUT_OF_STEP)));
}

#[test]
fn a_valid_phone_is_recorded_sealed_and_masked_then_the_sms_is_due() {
    let events = when(&[started()], json!({"type": "submit_phone", "phone": "(11) 91234-5678"})).expect("accepted");
    assert_eq!(events, vec![phone_submitted()]);
    let (event_type, payload) = encode::<DownloadFlow>(&events[0]).expect("encodes");
    assert_eq!(event_type, "phone.submitted");
    assert_eq!(
        payload,
        json!({"phone": {"$pii_clear": {"kind": "phone", "value": "+5511912345678"}}, "masked": "(11) *****-5678"})
    );
    assert_eq!(step_of(&[started(), phone_submitted()]).as_deref(), Some("send_code"));
}

#[test]
fn an_invalid_phone_is_refused_with_the_spec_message() {
    for phone in ["(11) 81234-5678", "1191234", ""] {
        assert_eq!(
            when(&[started()], json!({"type": "submit_phone", "phone": phone})),
            Err(Rejection::field("phone", INVALID_PHONE)),
            "{phone}"
        );
    }
}

#[test]
fn commands_wait_while_a_step_runs() {
    assert_eq!(
        when(&[started(), phone_submitted()], json!({"type": "submit_phone", "phone": "11912345678"})),
        Err(Rejection::general(BUSY))
    );
}

#[test]
fn code_sent_opens_the_code_panel_with_a_90_second_countdown() {
    let state = given(&on_code_panel());
    assert_eq!(state.panel, DownloadPanel::CodeEntry);
    assert_eq!(state.resend_at(), Some(t0() + Duration::seconds(2 + 90)));
    let view = DownloadFlow::view(&state, t0() + Duration::seconds(12));
    assert_eq!(view["panel"], "code_entry");
    assert_eq!(view["step"], 2);
    assert_eq!(view["resend_in"], 80);
    assert_eq!(view["phone"], "(11) *****-5678");
    assert_eq!(view["busy"], false);
}

#[test]
fn resend_is_refused_before_90_seconds_and_accepted_after() {
    let state = given(&on_code_panel());
    let resend = || serde_json::from_value::<DownloadCommand>(json!({"type": "resend_code"})).expect("command");
    assert_eq!(
        DownloadFlow::decide(&state, resend(), t0() + Duration::seconds(2 + 30)),
        Err(Rejection::field("resend", "Reenviar código em 60 segundos"))
    );
    assert_eq!(
        DownloadFlow::decide(&state, resend(), t0() + Duration::milliseconds(2_000 + 89_001)),
        Err(Rejection::field("resend", "Reenviar código em 1 segundos"))
    );
    assert_eq!(
        DownloadFlow::decide(&state, resend(), t0() + Duration::seconds(2 + 90)),
        Ok(vec![DownloadEvent::CodeResendRequested {}])
    );
    let events = with(on_code_panel(), [DownloadEvent::CodeResendRequested {}]);
    assert_eq!(step_of(&events).as_deref(), Some("resend_code"));
    let resent = given(&with(events, [DownloadEvent::CodeResent {}]));
    assert_eq!(resent.panel, DownloadPanel::CodeEntry);
    assert_eq!(resent.resend_at(), Some(t0() + Duration::seconds(4 + 90)));
}

#[test]
fn a_failed_send_returns_to_the_phone_and_a_failed_resend_stays_on_the_code() {
    let failed = given(&[started(), phone_submitted(), DownloadEvent::CodeSendFailed { reason: "HTTP 500".into() }]);
    assert_eq!(failed.panel, DownloadPanel::PhoneEntry);
    assert_eq!(failed.snackbar.as_ref().map(|s| s.message), Some(GENERIC_FAILURE));
    assert!(!failed.is_busy());

    let resend_failed =
        given(&with(on_code_panel(), [DownloadEvent::CodeResendRequested {}, DownloadEvent::CodeSendFailed { reason: "x".into() }]));
    assert_eq!(resend_failed.panel, DownloadPanel::CodeEntry);
    assert_eq!(resend_failed.snackbar.as_ref().map(|s| s.message), Some(GENERIC_FAILURE));
}

#[test]
fn codes_must_have_six_digits() {
    assert_eq!(
        when(&on_code_panel(), json!({"type": "submit_code", "code": "12345"})),
        Err(Rejection::field("code", INVALID_CODE))
    );
    assert_eq!(
        when(&on_code_panel(), json!({"type": "submit_code", "code": "654321"})),
        Ok(vec![DownloadEvent::CodeSubmitted { code: "654321".into() }])
    );
    assert_eq!(
        step_of(&with(on_code_panel(), [DownloadEvent::CodeSubmitted { code: "654321".into() }])).as_deref(),
        Some("confirm_code")
    );
}

#[test]
fn a_rejected_code_shows_the_message_until_the_next_submission() {
    let events = with(on_code_panel(), [DownloadEvent::CodeSubmitted { code: "000000".into() }, DownloadEvent::CodeRejected { reason: "INVALID_CODE".into() }]);
    let view = DownloadFlow::view(&given(&events), t0());
    assert_eq!(view["panel"], "code_entry");
    assert_eq!(view["code_error"], INVALID_CODE);
    let again = with(events, [DownloadEvent::CodeSubmitted { code: "123456".into() }]);
    assert_eq!(DownloadFlow::view(&given(&again), t0())["code_error"], serde_json::Value::Null);
}

#[test]
fn a_confirmed_code_looks_the_user_up_then_lists_partners() {
    let confirmed = with(on_code_panel(), [DownloadEvent::CodeSubmitted { code: "123456".into() }, DownloadEvent::CodeConfirmed {}]);
    assert_eq!(step_of(&confirmed).as_deref(), Some("find_user"));
    assert_eq!(given(&confirmed).code, None);
    assert_eq!(step_of(&confirmed_and_found()).as_deref(), Some("list_partners"));
    assert_eq!(given(&confirmed_and_found()).panel, DownloadPanel::CodeEntry);
}

#[test]
fn user_not_found_then_try_again_returns_to_the_phone() {
    let events = with(on_code_panel(), [DownloadEvent::CodeSubmitted { code: "123456".into() }, DownloadEvent::CodeConfirmed {}, DownloadEvent::UserNotFound {}]);
    let state = given(&events);
    assert_eq!(state.panel, DownloadPanel::UserNotFound);
    assert_eq!(step_of(&events), None);
    assert_eq!(when(&events, json!({"type": "restart"})), Ok(vec![DownloadEvent::Restarted {}]));
    let restarted = given(&with(events, [DownloadEvent::Restarted {}]));
    assert_eq!(restarted.panel, DownloadPanel::PhoneEntry);
    assert_eq!(restarted.os, Some(DesktopOs::WinPc));
    assert_eq!(restarted.browser, "Chrome");
    assert_eq!(restarted.masked_phone, None);
    assert_eq!(restarted.code_sent_at, None);
}

#[test]
fn restart_is_only_offered_by_the_not_found_and_error_panels() {
    assert_eq!(when(&on_code_panel(), json!({"type": "restart"})), Err(Rejection::general(OUT_OF_STEP)));
}

#[test]
fn one_partner_downloads_with_its_priority_subscription() {
    let events = with(confirmed_and_found(), [DownloadEvent::PartnersListed { partners: vec![partner("p1", Some("sub-1"))] }]);
    let state = given(&events);
    assert_eq!(state.partner_id.as_deref(), Some("p1"));
    assert_eq!(state.panel, DownloadPanel::CodeEntry);
    assert_eq!(step_of(&events).as_deref(), Some("request_download"));
    let done = given(&with(events, [DownloadEvent::DownloadGranted {}]));
    assert_eq!(done.panel, DownloadPanel::DownloadDone);
    assert_eq!(done.downloads, 1);
    assert_eq!(DownloadFlow::view(&done, t0())["step"], 3);
}

#[test]
fn several_partners_are_offered_and_the_choice_requests_the_download() {
    let events = with(
        confirmed_and_found(),
        [DownloadEvent::PartnersListed { partners: vec![partner("p1", Some("sub-1")), partner("p2", Some("sub-2"))] }],
    );
    assert_eq!(given(&events).panel, DownloadPanel::PartnerChoice);
    assert_eq!(step_of(&events), None);
    assert_eq!(
        when(&events, json!({"type": "choose_partner", "partner_id": "p2"})),
        Ok(vec![DownloadEvent::PartnerChosen { partner_id: "p2".into() }])
    );
    assert_eq!(
        when(&events, json!({"type": "choose_partner", "partner_id": "p9"})),
        Err(Rejection::field("partner", UNKNOWN_CHOICE))
    );
    let chosen = with(events, [DownloadEvent::PartnerChosen { partner_id: "p2".into() }]);
    assert_eq!(step_of(&chosen).as_deref(), Some("request_download"));
    assert_eq!(given(&chosen).partner_id.as_deref(), Some("p2"));
}

#[test]
fn no_partner_means_the_plan_has_no_antivirus() {
    let state = given(&with(confirmed_and_found(), [DownloadEvent::PartnersListed { partners: vec![] }]));
    assert_eq!(state.panel, DownloadPanel::PlanWithoutAntivirus);
}

#[test]
fn a_single_partner_without_subscription_is_a_download_error() {
    let state = given(&with(confirmed_and_found(), [DownloadEvent::PartnersListed { partners: vec![partner("p1", None)] }]));
    assert_eq!(state.panel, DownloadPanel::DownloadError);
    assert_eq!(state.snackbar.map(|s| s.message), Some(GENERIC_FAILURE));
}

fn granted_once() -> Vec<DownloadEvent> {
    with(confirmed_and_found(), [DownloadEvent::PartnersListed { partners: vec![partner("p1", Some("sub-1"))] }, DownloadEvent::DownloadGranted {}])
}

#[test]
fn click_here_asks_for_the_download_again() {
    assert_eq!(when(&granted_once(), json!({"type": "retry_download"})), Ok(vec![DownloadEvent::DownloadRetryRequested {}]));
    let again = with(granted_once(), [DownloadEvent::DownloadRetryRequested {}]);
    assert_eq!(step_of(&again).as_deref(), Some("request_download"));
    assert_eq!(given(&with(again, [DownloadEvent::DownloadGranted {}])).downloads, 2);
}

fn licences_full() -> Vec<DownloadEvent> {
    with(
        confirmed_and_found(),
        [
            DownloadEvent::PartnersListed { partners: vec![partner("p1", Some("sub-1"))] },
            DownloadEvent::LicencesFull {},
            DownloadEvent::DevicesListed { devices: vec![device("d1"), device("d2")] },
        ],
    )
}

#[test]
fn no_free_licence_lists_the_devices_with_the_counter() {
    let before_list = &licences_full()[..licences_full().len() - 1];
    assert_eq!(step_of(before_list).as_deref(), Some("list_devices"));
    let view = DownloadFlow::view(&given(&licences_full()), t0());
    assert_eq!(view["panel"], "licences_in_use");
    assert_eq!(view["licences"], "2/2");
    assert_eq!(view["devices"][1]["device_name"], "PC d2");
    assert_eq!(view["devices"][0]["last_login"], 1_710_000_000);
}

#[test]
fn removing_a_device_retries_the_download_by_itself() {
    assert_eq!(
        when(&licences_full(), json!({"type": "remove_device", "device_id": "d1"})),
        Ok(vec![DownloadEvent::DeviceRemovalRequested { device_id: "d1".into() }])
    );
    assert_eq!(
        when(&licences_full(), json!({"type": "remove_device", "device_id": "zz"})),
        Err(Rejection::field("device", UNKNOWN_CHOICE))
    );
    let requested = with(licences_full(), [DownloadEvent::DeviceRemovalRequested { device_id: "d1".into() }]);
    assert_eq!(step_of(&requested).as_deref(), Some("remove_device"));
    assert_eq!(given(&requested).pending, Some(Pending::RemoveDevice("d1".into())));
    let removed = with(requested, [DownloadEvent::DeviceRemoved { device_id: "d1".into() }]);
    assert_eq!(step_of(&removed).as_deref(), Some("request_download"));
    assert_eq!(given(&removed).devices.len(), 1);
    assert_eq!(given(&with(removed, [DownloadEvent::DownloadGranted {}])).panel, DownloadPanel::DownloadDone);
}

#[test]
fn a_failed_removal_keeps_the_devices_and_raises_its_snackbar() {
    let events = with(
        licences_full(),
        [
            DownloadEvent::DeviceRemovalRequested { device_id: "d1".into() },
            DownloadEvent::DeviceRemovalFailed { device_id: "d1".into(), reason: "HTTP 500".into() },
        ],
    );
    let state = given(&events);
    assert_eq!(state.panel, DownloadPanel::LicencesInUse);
    assert_eq!(state.devices.len(), 2);
    assert_eq!(state.snackbar.as_ref().map(|s| s.message), Some(REMOVAL_FAILURE));
    assert_eq!(step_of(&events), None);
}

#[test]
fn sdk_not_allowed_is_the_plan_without_antivirus() {
    let state = given(&with(
        confirmed_and_found(),
        [DownloadEvent::PartnersListed { partners: vec![partner("p1", Some("sub-1"))] }, DownloadEvent::PlanWithoutAntivirus {}],
    ));
    assert_eq!(state.panel, DownloadPanel::PlanWithoutAntivirus);
    assert!(!state.is_busy());
}

#[test]
fn partner_device_and_download_failures_show_the_error_panel_and_the_snackbar() {
    let partners_failed = with(confirmed_and_found(), [DownloadEvent::PartnersFailed { reason: "HTTP 503".into() }]);
    let download_failed = with(
        confirmed_and_found(),
        [DownloadEvent::PartnersListed { partners: vec![partner("p1", Some("sub-1"))] }, DownloadEvent::DownloadFailed { reason: "HTTP 500".into() }],
    );
    let devices_failed = with(
        confirmed_and_found(),
        [
            DownloadEvent::PartnersListed { partners: vec![partner("p1", Some("sub-1"))] },
            DownloadEvent::LicencesFull {},
            DownloadEvent::DevicesFailed { reason: "HTTP 500".into() },
        ],
    );
    let lookup_failed = with(
        on_code_panel(),
        [
            DownloadEvent::CodeSubmitted { code: "123456".into() },
            DownloadEvent::CodeConfirmed {},
            DownloadEvent::UserLookupFailed { reason: "HTTP 401 TOKEN_EXPIRED".into() },
        ],
    );
    for events in [partners_failed, download_failed, devices_failed, lookup_failed] {
        let view = DownloadFlow::view(&given(&events), t0());
        assert_eq!(view["panel"], "download_error");
        assert_eq!(view["snackbar"]["message"], GENERIC_FAILURE);
        assert_eq!(view["busy"], false);
        assert_eq!(when(&events, json!({"type": "restart"})), Ok(vec![DownloadEvent::Restarted {}]));
    }
}

#[test]
fn a_snackbar_lasts_until_the_next_event_and_each_has_its_own_id() {
    let events = with(
        licences_full(),
        [
            DownloadEvent::DeviceRemovalRequested { device_id: "d1".into() },
            DownloadEvent::DeviceRemovalFailed { device_id: "d1".into(), reason: "x".into() },
        ],
    );
    let first = given(&events).snackbar.expect("raised");
    let again = with(
        events,
        [
            DownloadEvent::DeviceRemovalRequested { device_id: "d1".into() },
            DownloadEvent::DeviceRemovalFailed { device_id: "d1".into(), reason: "x".into() },
        ],
    );
    let second = given(&again).snackbar.expect("raised");
    assert_ne!(first.id, second.id);
    let cleared = given(&with(again, [DownloadEvent::DeviceRemovalRequested { device_id: "d2".into() }]));
    assert_eq!(cleared.snackbar, None);
}

#[test]
fn the_runner_giving_up_ends_the_wait_like_a_failure_of_that_step() {
    let gave_up = |events: Vec<DownloadEvent>, step: &str| given(&with(events, [DownloadEvent::StepGaveUp { step: step.into(), reason: "timeout".into() }]));

    let send = gave_up(vec![started(), phone_submitted()], "send_code");
    assert_eq!((send.panel, send.is_busy()), (DownloadPanel::PhoneEntry, false));
    assert_eq!(send.snackbar.map(|s| s.message), Some(GENERIC_FAILURE));

    let confirm = gave_up(with(on_code_panel(), [DownloadEvent::CodeSubmitted { code: "123456".into() }]), "confirm_code");
    assert_eq!((confirm.panel, confirm.is_busy()), (DownloadPanel::CodeEntry, false));

    let partners = gave_up(confirmed_and_found(), "list_partners");
    assert_eq!(partners.panel, DownloadPanel::DownloadError);

    let removal = gave_up(with(licences_full(), [DownloadEvent::DeviceRemovalRequested { device_id: "d1".into() }]), "remove_device");
    assert_eq!(removal.panel, DownloadPanel::LicencesInUse);
    assert_eq!(removal.snackbar.map(|s| s.message), Some(REMOVAL_FAILURE));

    // A give-up for a step nobody waits for changes nothing.
    let stray = gave_up(confirmed_and_found(), "send_code");
    assert_eq!(stray.pending, Some(Pending::ListPartners));
}

#[test]
fn events_round_trip_through_their_stored_form() {
    let all = with(
        licences_full(),
        [
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
        ],
    );
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
    let events = with(on_code_panel(), [DownloadEvent::CodeSubmitted { code: "123456".into() }]);
    let view = DownloadFlow::view(&given(&events), t0()).to_string();
    assert!(!view.contains("912345678"), "{view}");
    assert!(!view.contains("123456"), "{view}");
}

#[test]
fn a_partner_without_subscription_cannot_be_chosen() {
    let events = with(
        confirmed_and_found(),
        [DownloadEvent::PartnersListed { partners: vec![partner("p1", Some("sub-1")), partner("p2", None)] }],
    );
    assert_eq!(
        when(&events, json!({"type": "choose_partner", "partner_id": "p2"})),
        Err(Rejection::field("partner", UNKNOWN_CHOICE))
    );
}
