//! The shared vectors of the desktop download, folded by the Rust projector. The web
//! machine folds the same files (web/src/features/download/machine.vectors.test.ts).

use chrono::{DateTime, Utc};
use events::flow::decode;
use events::flow::testing::FlowTest;
use events::flows::download::{DesktopPhone, DownloadFlow, SmsCode};
use serde_json::Value;

fn load(name: &str) -> Value {
    let path = format!("{}/../tests/vectors/download/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn str_or_null(value: &Value) -> Option<&str> {
    value.as_str()
}

#[test]
fn panels_follow_the_event_sequences() {
    let vectors = load("panels.json");
    let cases = vectors["cases"].as_array().expect("cases");
    assert!(cases.len() >= 15, "all scenarios present");
    let mut checked = 0;
    for case in cases {
        let name = case["name"].as_str().expect("name");
        let events = case["events"].as_array().expect("events");
        let expect = case["expect"].as_array().expect("expect");
        assert_eq!(events.len(), expect.len(), "{name}: one expectation per event");
        let mut test = FlowTest::<DownloadFlow>::given_no_previous_events();
        for (i, (event, want)) in events.iter().zip(expect).enumerate() {
            let at: DateTime<Utc> = event["at"].as_str().and_then(|s| s.parse().ok()).expect("at");
            let event_type = event["type"].as_str().expect("type");
            if let Some(decoded) = decode::<DownloadFlow>(event_type, &event["data"]) {
                test = test.and_at(decoded, at);
            }
            let view = test.view_at(at);
            let context = format!("{name}, event {i} ({event_type})");
            assert_eq!(view["panel"], want["panel"], "{context}");
            assert_eq!(view["step"], want["step"], "{context}");
            assert_eq!(view["busy"], want["busy"], "{context}");
            assert_eq!(str_or_null(&view["snackbar"]["message"]), str_or_null(&want["snackbar"]), "{context}");
            assert_eq!(str_or_null(&view["code_error"]), str_or_null(&want["code_error"]), "{context}");
            checked += 1;
        }
    }
    assert!(checked > 100, "checked {checked} steps");
}

#[test]
fn fields_follow_the_validation_vectors() {
    let vectors = load("fields.json");
    for case in vectors["phone"].as_array().expect("phone cases") {
        let input = case["input"].as_str().expect("input");
        let parsed = DesktopPhone::parse(input);
        assert_eq!(parsed.is_ok(), case["valid"].as_bool().expect("valid"), "{input:?}");
        let message = DesktopPhone::message_while_typing(input);
        assert_eq!(message, str_or_null(&case["message"]), "{input:?}");
        assert_eq!(
            parsed.as_ref().ok().map(DesktopPhone::msisdn).as_deref(),
            str_or_null(&case["msisdn"]),
            "{input:?}"
        );
    }
    for case in vectors["code"].as_array().expect("code cases") {
        let input = case["input"].as_str().expect("input");
        let parsed = SmsCode::parse(input);
        assert_eq!(parsed.is_ok(), case["valid"].as_bool().expect("valid"), "{input:?}");
        assert_eq!(parsed.err().map(|e| e.message), str_or_null(&case["message"]), "{input:?}");
    }
}
