//! The shared activation vectors (`tests/vectors/activation/`), folded by the Rust projector
//! and run through the Rust validators. The web unit tests run the same files through the
//! XState machine and the TypeScript validators.

use chrono::{DateTime, Utc};
use events::flow::decode;
use events::flow::testing::FlowTest;
use events::flows::activation::{ActivationFlow, CpfCnpj, Email, Licence, Msisdn, Pincode};
use serde_json::{json, Value};

fn load(name: &str) -> Value {
    let path = format!("{}/../tests/vectors/activation/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    serde_json::from_str(&text).expect("vector JSON")
}

/// Every difference between the projector and the expected views.
fn flow_mismatches(vectors: &Value) -> Vec<String> {
    let mut mismatches = Vec::new();
    for sequence in vectors["sequences"].as_array().expect("sequences") {
        let name = sequence["name"].as_str().unwrap_or("?");
        let mut test = FlowTest::<ActivationFlow>::given_no_previous_events();
        for (i, step) in sequence["steps"].as_array().expect("steps").iter().enumerate() {
            let at: DateTime<Utc> = step["at"].as_str().and_then(|s| s.parse().ok()).expect("at");
            if step.get("tick").and_then(Value::as_bool) != Some(true) {
                let event_type = step["type"].as_str().expect("type");
                match decode::<ActivationFlow>(event_type, &step["data"]) {
                    Some(event) => test = test.and_at(event, at),
                    None => {
                        mismatches.push(format!("{name} #{i}: cannot decode {event_type} {}", step["data"]));
                        continue;
                    }
                }
            }
            let view = test.view_at(at);
            if view != step["expect"] {
                mismatches.push(format!("{name} #{i}: expected {} got {view}", step["expect"]));
            }
        }
    }
    mismatches
}

/// Runs one field's parser: `Ok(value, kind)` or `Err(message)`.
fn parse(field: &str, input: &str) -> Result<(String, Option<&'static str>), String> {
    match field {
        "phone" => Msisdn::parse(input).map(|v| (v.as_str().to_string(), None)),
        "cpf_cnpj" => CpfCnpj::parse(input).map(|v| (v.as_str().to_string(), Some(v.kind().as_str()))),
        "licence" => Licence::parse(input).map(|v| (v.as_str().to_string(), None)),
        "pincode" => Pincode::parse(input).map(|v| (v.as_str().to_string(), None)),
        "email" => Email::parse(input).map(|v| (v.as_str().to_string(), None)),
        other => panic!("unknown field {other}"),
    }
    .map_err(|e| e.message.to_string())
}

fn validation_mismatches(vectors: &Value) -> Vec<String> {
    let mut mismatches = Vec::new();
    for case in vectors["cases"].as_array().expect("cases") {
        let field = case["field"].as_str().expect("field");
        let input = case["input"].as_str().expect("input");
        let got = match parse(field, input) {
            Ok((value, kind)) => json!({ "ok": value, "kind": kind }),
            Err(message) => json!({ "message": message }),
        };
        let expected = match case.get("ok") {
            Some(ok) => json!({ "ok": ok, "kind": case.get("kind").cloned().unwrap_or(Value::Null) }),
            None => json!({ "message": case["message"] }),
        };
        if got != expected {
            mismatches.push(format!("{field} {input:?}: expected {expected} got {got}"));
        }
    }
    mismatches
}

#[test]
fn the_projector_shows_the_expected_view_after_every_event() {
    let vectors = load("flows.json");
    let sequences = vectors["sequences"].as_array().expect("sequences");
    // Every variant has at least one sequence.
    for variant in ["standard", "insurance", "partner_portal", "broadband", "telecom", "carrier"] {
        assert!(sequences.iter().any(|s| s["variant"] == variant), "no vector for {variant}");
    }
    let mismatches = flow_mismatches(&vectors);
    assert!(mismatches.is_empty(), "{}", mismatches.join("\n"));
}

#[test]
fn the_validators_answer_every_field_case() {
    let vectors = load("validation.json");
    let mismatches = validation_mismatches(&vectors);
    assert!(mismatches.is_empty(), "{}", mismatches.join("\n"));
}

#[test]
fn a_deliberately_wrong_vector_is_caught() {
    let mut flows = load("flows.json");
    flows["sequences"][0]["steps"][2]["expect"]["panel"] = json!("product_list");
    let mismatches = flow_mismatches(&flows);
    assert_eq!(mismatches.len(), 1, "{mismatches:?}");
    assert!(mismatches[0].starts_with("standard: happy path to the store redirect #2"), "{}", mismatches[0]);

    let mut fields = load("validation.json");
    fields["cases"][0]["ok"] = json!("5511000000000");
    assert_eq!(validation_mismatches(&fields).len(), 1);
}
