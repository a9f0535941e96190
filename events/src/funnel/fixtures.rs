//! Cloud attempts as plain facts, for the funnel's unit tests (drop-offs, people).

use chrono::{DateTime, NaiveDate};

use super::track::{AttemptFacts, Facts};

/// The cloud funnel's step events, in order.
pub const CLOUD_STEPS: [&str; 6] =
    ["details.submitted", "phone.checked", "code.sent", "code.validated", "serial.registered", "cloud.activated"];

/// A cloud attempt `id` started `offset_secs` after a fixed instant (on 2 November 2026, São
/// Paulo), on `os`, with `marks` (step index into [`CLOUD_STEPS`], ms after its start).
pub fn cloud_attempt(id: &str, offset_secs: i64, os: &str, marks: &[(usize, i64)]) -> AttemptFacts {
    AttemptFacts {
        attempt: id.into(),
        flow: "cloud",
        started: DateTime::from_timestamp(1_764_000_000 + offset_secs, 0).expect("time"),
        facts: Facts {
            variant: "—".into(),
            brand: "positivo".into(),
            partner: "—".into(),
            os: os.into(),
            platform: "mobile".into(),
            day: NaiveDate::from_ymd_opt(2026, 11, 2).expect("date"),
        },
        marks: marks.iter().map(|(s, at)| (CLOUD_STEPS[*s].to_string(), *at)).collect(),
        refusal: None,
        person: None,
    }
}
