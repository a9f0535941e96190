//! What a funnel keeps of one attempt, folded from its events in stream order: the facts it is
//! broken down by, the funnel-step events it recorded (type and time after its first event)
//! and the message a refused visitor read. Pure; `replay funnel` builds one per attempt while
//! it reads the log, and the maintained projection stores what it yields ([`AttemptFacts`]).

use chrono::{DateTime, FixedOffset, NaiveDate, Utc};
use serde_json::Value;

use super::definitions::{funnel, ACTIVATION_VARIANTS};
use crate::flow::{decode, Flow, Outcome};
use crate::flows::activation::ActivationFlow;
use crate::flows::cloud::CloudFlow;
use crate::flows::download::DownloadFlow;
use crate::pii::proof::Proof;
use crate::pii::KeyRef;
use crate::types::RecordedEvent;

/// A refusal by an abuse limit (issue 17), recorded in the attempt by the portal.
pub const LIMITED_EVENT: &str = "abuse.limited";

/// The flows that have funnels, by stream category.
pub const FLOWS: [&str; 3] = ["activation", "download", "cloud"];

/// São Paulo has had no daylight saving time since 2019.
pub fn sao_paulo() -> FixedOffset {
    FixedOffset::west_opt(3 * 3600).unwrap_or_else(|| FixedOffset::east_opt(0).expect("UTC"))
}

/// The flow of a stream (`activation-<uuid>` → `activation`), if it has a funnel.
pub fn flow_of(stream_id: &str) -> Option<&'static str> {
    let category = stream_id.split('-').next().unwrap_or_default();
    FLOWS.iter().copied().find(|flow| *flow == category)
}

/// [`step_events`] of each flow, worked out once (every attempt of a replay asks).
pub(crate) fn step_events_of(flow: &str) -> &'static [&'static str] {
    static ALL: std::sync::OnceLock<Vec<Vec<&'static str>>> = std::sync::OnceLock::new();
    let all = ALL.get_or_init(|| FLOWS.iter().map(|f| step_events(f)).collect());
    FLOWS.iter().position(|f| *f == flow).map_or(&[], |i| all[i].as_slice())
}

/// Every event type that is a step of some funnel of `flow` (any variant): all a funnel
/// question, in any order or window, needs of an attempt's sequence.
pub fn step_events(flow: &str) -> Vec<&'static str> {
    let mut funnels = vec![funnel(flow, None)];
    if flow == "activation" {
        funnels.extend(ACTIVATION_VARIANTS.iter().map(|v| funnel(flow, Some(v))));
    }
    let mut out: Vec<&'static str> = funnels
        .into_iter()
        .flatten()
        .flat_map(|f| f.steps.into_iter().flat_map(|s| s.events.iter().copied()))
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// What the breakdown splits attempts by (never personal data).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Breakdown {
    Variant,
    Partner,
    Brand,
    Os,
    Platform,
    Day,
}

impl Breakdown {
    pub fn parse(text: &str) -> Option<Self> {
        Some(match text {
            "variant" => Self::Variant,
            "partner" => Self::Partner,
            "brand" => Self::Brand,
            "os" => Self::Os,
            "platform" => Self::Platform,
            "day" => Self::Day,
            _ => return None,
        })
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Variant => "variant",
            Self::Partner => "partner",
            Self::Brand => "brand",
            Self::Os => "os",
            Self::Platform => "platform",
            Self::Day => "day",
        }
    }
}

/// The facts of an attempt a funnel is broken down by (never personal data).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Facts {
    pub variant: String,
    pub brand: String,
    pub partner: String,
    pub os: String,
    pub platform: String,
    /// São Paulo date of the first event.
    pub day: NaiveDate,
}

impl Facts {
    fn of_first(first: &RecordedEvent) -> Self {
        let text = |v: Option<&Value>| v.and_then(Value::as_str).unwrap_or("—").to_string();
        let client = first.metadata.client.as_ref();
        Self {
            variant: text(first.payload.get("variant")),
            brand: text(first.payload.get("brand")),
            partner: "—".into(),
            os: text(client.and_then(|c| c.get("os"))),
            platform: text(client.and_then(|c| c.get("platform"))),
            day: first.recorded_at.with_timezone(&sao_paulo()).date_naive(),
        }
    }

    /// The breakdown value (`"todas"` without a breakdown).
    pub fn key(&self, breakdown: Option<Breakdown>) -> String {
        match breakdown {
            None => "todas".into(),
            Some(Breakdown::Variant) => self.variant.clone(),
            Some(Breakdown::Brand) => self.brand.clone(),
            Some(Breakdown::Partner) => self.partner.clone(),
            Some(Breakdown::Os) => self.os.clone(),
            Some(Breakdown::Platform) => self.platform.clone(),
            Some(Breakdown::Day) => self.day.to_string(),
        }
    }
}

/// What a funnel needs of one attempt: the projection's row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AttemptFacts {
    /// The stream id (`activation-<uuid>`): no personal data.
    pub attempt: String,
    pub flow: &'static str,
    pub started: DateTime<Utc>,
    pub facts: Facts,
    /// The funnel-step events recorded, in stream order: type and ms after the first event.
    pub marks: Vec<(String, i64)>,
    /// The message a refused visitor read (`{link}` as "aqui").
    pub refusal: Option<String>,
    /// The person, when the attempt proved a phone: a keyed tag the projection keeps
    /// (`funnel::person`), never the phone nor its look-up hash. `None` from a track.
    pub person: Option<String>,
}

/// A flow's state folded event by event, for its outcome.
trait Fold: Send + Sync {
    fn apply(&mut self, event: &RecordedEvent);
    fn outcome(&self) -> Outcome;
}

struct Folded<F: Flow> {
    state: F::State,
}

impl<F: Flow> Fold for Folded<F> {
    fn apply(&mut self, event: &RecordedEvent) {
        if let Some(decoded) = decode::<F>(&event.event_type, &event.payload) {
            self.state = F::evolve(std::mem::take(&mut self.state), &decoded, event.recorded_at);
        }
    }

    fn outcome(&self) -> Outcome {
        F::outcome(&self.state)
    }
}

fn fold_for(flow: &str) -> Box<dyn Fold> {
    match flow {
        "activation" => Box::new(Folded::<ActivationFlow> { state: Default::default() }),
        "download" => Box::new(Folded::<DownloadFlow> { state: Default::default() }),
        _ => Box::new(Folded::<CloudFlow> { state: Default::default() }),
    }
}

/// One attempt folded so far.
pub struct AttemptTrack {
    flow: &'static str,
    attempt: String,
    started: DateTime<Utc>,
    last_seen: DateTime<Utc>,
    facts: Facts,
    steps: &'static [&'static str],
    marks: Vec<(&'static str, i64)>,
    fold: Box<dyn Fold>,
    /// The message of the last abuse limit that refused the visitor (`abuse.limited`, which
    /// the flow's fold does not know): their refusal when the flow records none.
    limited: Option<String>,
    /// The phones the visitor proved with an SMS code: who the attempt's person is.
    proof: Proof,
}

impl AttemptTrack {
    /// Starts from the attempt's first event; `None` for a stream with no funnel.
    pub fn start(first: &RecordedEvent) -> Option<Self> {
        let flow = flow_of(&first.stream_id)?;
        let mut track = Self {
            flow,
            attempt: first.stream_id.clone(),
            started: first.recorded_at,
            last_seen: first.recorded_at,
            facts: Facts::of_first(first),
            steps: step_events_of(flow),
            marks: Vec::new(),
            fold: fold_for(flow),
            limited: None,
            proof: Proof::default(),
        };
        track.observe(first);
        Some(track)
    }

    /// The attempt's next event, in stream order.
    pub fn observe(&mut self, event: &RecordedEvent) {
        self.last_seen = self.last_seen.max(event.recorded_at);
        self.fold.apply(event);
        self.proof.observe(&event.event_type, &event.payload);
        if event.event_type == LIMITED_EVENT {
            self.limited = event.payload.get("message").and_then(Value::as_str).map(str::to_string);
        }
        if let Some(step) = self.steps.iter().find(|s| **s == event.event_type) {
            self.marks.push((step, (event.recorded_at - self.started).num_milliseconds()));
        }
        if let Some(partner) = partner_of(event) {
            self.facts.partner = partner;
        }
    }

    pub fn started(&self) -> DateTime<Utc> {
        self.started
    }

    /// The time of its latest event.
    pub fn last_seen(&self) -> DateTime<Utc> {
        self.last_seen
    }

    /// The key of the phone the attempt proved last (its person), if any.
    pub fn proved_phone(&self) -> Option<KeyRef> {
        self.proof.last_proved()
    }

    pub fn facts(&self) -> &Facts {
        &self.facts
    }

    /// What the funnel keeps of the attempt now.
    pub fn attempt_facts(&self) -> AttemptFacts {
        // The web shows `{link}` as a link labelled "aqui"; so do the reports.
        let outcome = self.fold.outcome().message().map(str::to_string);
        let refusal = outcome.or_else(|| self.limited.clone()).map(|m| m.replace("{link}", "aqui"));
        AttemptFacts {
            attempt: self.attempt.clone(),
            flow: self.flow,
            started: self.started,
            facts: self.facts.clone(),
            marks: self.marks.iter().map(|(t, at)| ((*t).to_string(), *at)).collect(),
            refusal,
            person: None,
        }
    }
}

/// The partner of a download attempt, once chosen (or the only one offered).
fn partner_of(event: &RecordedEvent) -> Option<String> {
    match event.event_type.as_str() {
        "partner.chosen" => event.payload.get("partner_id")?.as_str().map(str::to_string),
        "partners.listed" => match event.payload.get("partners")?.as_array()?.as_slice() {
            [only] => only.get("id")?.as_str().map(str::to_string),
            _ => None,
        },
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Metadata;
    use serde_json::json;
    use uuid::Uuid;

    fn event(stream: &str, event_type: &str, payload: Value, at_s: i64) -> RecordedEvent {
        RecordedEvent {
            position: at_s,
            tx_id: at_s,
            stream_id: stream.into(),
            version: at_s,
            event_type: event_type.into(),
            schema_version: 1,
            payload,
            metadata: Metadata {
                correlation_id: Uuid::nil(),
                causation_id: None,
                actor: "visitor".into(),
                client: Some(json!({ "os": "android", "platform": "mobile" })),
            },
            recorded_at: DateTime::from_timestamp(1_764_000_000 + at_s, 0).expect("time"),
        }
    }

    #[test]
    fn a_download_keeps_its_steps_its_partner_and_the_breakdown_facts() {
        let s = "download-00000000-0000-0000-0000-000000000001";
        let mut track =
            AttemptTrack::start(&event(s, "download.started", json!({ "os": "windows" }), 0)).expect("a flow");
        track.observe(&event(s, "phone.submitted", json!({}), 4));
        track.observe(&event(s, "code.resent", json!({}), 9));
        track.observe(&event(s, "partners.listed", json!({ "partners": [{ "id": "tim" }] }), 20));
        let facts = track.attempt_facts();
        assert_eq!(facts.flow, "download");
        assert_eq!(
            facts.marks,
            vec![("download.started".into(), 0), ("phone.submitted".into(), 4_000), ("partners.listed".into(), 20_000)]
        );
        assert_eq!((facts.facts.partner.as_str(), facts.facts.os.as_str()), ("tim", "android"));
        assert_eq!(facts.facts.key(Some(Breakdown::Platform)), "mobile");
        assert_eq!(facts.refusal, None);
    }

    #[test]
    fn an_abuse_limit_is_the_refusal_when_the_flow_records_none() {
        let s = "cloud-00000000-0000-0000-0000-000000000002";
        let mut track = AttemptTrack::start(&event(s, "details.submitted", json!({}), 0)).expect("a flow");
        track.observe(&event(
            s,
            LIMITED_EVENT,
            json!({ "rule": "phone", "message": "Muitos códigos. Veja {link}." }),
            3,
        ));
        assert_eq!(track.attempt_facts().refusal.as_deref(), Some("Muitos códigos. Veja aqui."));
    }

    #[test]
    fn streams_without_a_funnel_are_not_tracked() {
        assert!(AttemptTrack::start(&event("staff-1", "signed_in", json!({}), 0)).is_none());
        assert_eq!(flow_of("activation-x"), Some("activation"));
    }

    #[test]
    fn step_events_cover_every_variant_of_activation() {
        let events = step_events("activation");
        for needed in ["attempt.started", "customer.found", "partner.logged_in", "packs.fetched", "store.redirected"] {
            assert!(events.contains(&needed), "{needed}");
        }
        assert!(!events.contains(&"code.rejected"));
    }
}
