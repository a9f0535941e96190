//! The shared cloud vectors (`tests/vectors/cloud/`), folded by the Rust projector. The web's
//! XState machine runs the same files (`web/src/features/cloud/vectors.test.ts`).

use std::path::PathBuf;

use chrono::{DateTime, Utc};
use events::flow::testing::FlowTest;
use events::flow::{decode, FieldError};
use events::flows::cloud::{CloudFlow, CloudPhone, Pincode, Serial};
use serde_json::{json, Value};

fn vector(name: &str) -> Value {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/vectors/cloud").join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).expect("vector json")
}

#[test]
fn every_panel_vector_folds_to_the_expected_panel() {
    let vectors = vector("panels.json");
    let cases = vectors["cases"].as_array().expect("cases");
    assert!(cases.len() >= 10, "the vectors cover the flow's branches");
    for case in cases {
        let name = case["name"].as_str().expect("name");
        let mut test = FlowTest::<CloudFlow>::given_no_previous_events();
        for (i, step) in case["steps"].as_array().expect("steps").iter().enumerate() {
            let event = &step["event"];
            let event_type = event["type"].as_str().expect("type");
            let at: DateTime<Utc> = event["at"].as_str().expect("at").parse().expect("at is a time");
            let decoded = decode::<CloudFlow>(event_type, &event["data"])
                .unwrap_or_else(|| panic!("{name}: step {i}: {event_type} does not decode"));
            test = test.and_at(decoded, at);
            let view = test.view_at(at);
            let seen = json!({
                "panel": view["panel"],
                "loading": view["loading"],
                "error": view["error"],
                "resend": view["resend"],
            });
            assert_eq!(seen, step["expect"], "{name}: after step {i} ({event_type})");
        }
    }
}

fn check_field<T>(name: &str, parse: impl Fn(&str) -> Result<T, FieldError>, ok: impl Fn(&T) -> String) {
    let vectors = vector("fields.json");
    let cases = vectors[name].as_array().expect("field cases");
    assert!(!cases.is_empty());
    for case in cases {
        let input = case["input"].as_str().expect("input");
        match (parse(input), case.get("ok"), case.get("error")) {
            (Ok(value), Some(expected), None) => assert_eq!(json!(ok(&value)), *expected, "{name}: {input:?}"),
            (Err(error), None, Some(expected)) => assert_eq!(json!(error.message), *expected, "{name}: {input:?}"),
            (outcome, _, _) => panic!("{name}: {input:?} gave {:?}", outcome.map(|v| ok(&v))),
        }
    }
}

#[test]
fn every_field_vector_gives_its_value_or_message() {
    check_field("phone", CloudPhone::parse, CloudPhone::msisdn);
    check_field("serial", Serial::parse, |s| s.as_str().to_string());
    check_field("code", Pincode::parse, |p| p.as_str().to_string());
}
