//! The shared phone vectors (`tests/vectors/phone/national.json`), read by the one Rust phone
//! reader every flow uses. The browser runs the same file (`web/src/lib/phone.test.ts`).

use events::flow::{read_phone, PhoneReading};
use serde_json::Value;

#[test]
fn every_phone_vector_reads_as_expected() {
    let path = format!("{}/../tests/vectors/phone/national.json", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let vectors: Value = serde_json::from_str(&text).expect("vector json");
    let cases = vectors["cases"].as_array().expect("cases");
    assert!(cases.len() >= 30, "the vectors cover the prefixes and area codes");
    for case in cases {
        let input = case["input"].as_str().expect("input");
        let expected = match case["reading"].as_str().expect("reading") {
            "empty" => PhoneReading::Empty,
            "incomplete" => PhoneReading::Incomplete,
            "invalid" => PhoneReading::Invalid,
            "national" => PhoneReading::National(case["national"].as_str().expect("national").to_string()),
            other => panic!("unknown reading {other}"),
        };
        assert_eq!(read_phone(input), expected, "{input}");
    }
}
