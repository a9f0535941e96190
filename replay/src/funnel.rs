//! `replay funnel`: a flow's funnel replayed from the event log. Reads the gap-free global
//! read in pages, keeps per attempt only its funnel progress, its breakdown value and its
//! flow state (for the message a refused visitor read), and hands an attempt to the tally once
//! the log has moved a window past its start, so memory follows the attempts of one window,
//! not the size of the history.

use std::collections::{BTreeMap, HashMap};

use chrono::{DateTime, Duration, FixedOffset, NaiveDate, Utc};
use events::flow::{decode, Flow, Outcome};
use events::flows::activation::ActivationFlow;
use events::flows::cloud::CloudFlow;
use events::flows::download::DownloadFlow;
use events::funnel::{Funnel, Order, Progress, Tally};
use events::{Checkpoint, EventStore, RecordedEvent};
use serde_json::Value;

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

#[derive(Debug, Clone)]
pub struct FunnelQuery {
    pub funnel: Funnel,
    /// Attempts started on these São Paulo dates, both included.
    pub from: NaiveDate,
    pub to: NaiveDate,
    pub window: Duration,
    pub order: Order,
    pub breakdown: Option<Breakdown>,
}

/// The answer: one tally per breakdown value (`"todas"` without a breakdown).
#[derive(Debug)]
pub struct FunnelResult {
    pub tallies: BTreeMap<String, Tally>,
    pub events_read: u64,
}

/// São Paulo has had no daylight saving time since 2019.
pub fn sao_paulo() -> FixedOffset {
    FixedOffset::west_opt(3 * 3600).unwrap_or_else(|| FixedOffset::east_opt(0).expect("UTC"))
}

/// A flow's state folded event by event, for its outcome.
trait Fold: Send {
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
    fn of_first(first: &RecordedEvent, day: NaiveDate) -> Self {
        let text = |v: Option<&Value>| v.and_then(Value::as_str).unwrap_or("—").to_string();
        let client = first.metadata.client.as_ref();
        Self {
            variant: text(first.payload.get("variant")),
            brand: text(first.payload.get("brand")),
            partner: "—".into(),
            os: text(client.and_then(|c| c.get("os"))),
            platform: text(client.and_then(|c| c.get("platform"))),
            day,
        }
    }

    fn key(&self, breakdown: Option<Breakdown>) -> String {
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

/// An attempt the replay is done with: how far it got and why it stopped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finished {
    pub attempt: String,
    pub started: DateTime<Utc>,
    pub facts: Facts,
    /// Milliseconds from the first step to each step reached.
    pub reached: Vec<i64>,
    /// The message a refused visitor read (`{link}` as "aqui").
    pub refusal: Option<String>,
}

/// What is kept of one attempt while it can still move.
struct Track {
    started: DateTime<Utc>,
    progress: Progress,
    fold: Box<dyn Fold>,
    facts: Facts,
    /// The attempt is of the asked variant and started in the asked dates.
    counted: bool,
    /// The message of the last abuse limit that refused the visitor (`abuse.limited`, which
    /// the flow's fold does not know): their refusal when the flow records none.
    limited: Option<String>,
}

/// A refusal by an abuse limit (issue 17), recorded in the attempt by the portal.
pub const LIMITED_EVENT: &str = "abuse.limited";

pub struct Replay<'a> {
    query: &'a FunnelQuery,
    /// Called with every attempt handed to the tally (the export's rows).
    on_finished: Option<Box<dyn FnMut(&Finished) + 'a>>,
    open: HashMap<String, Track>,
    result: FunnelResult,
    /// The latest event time read: the log's clock.
    clock: DateTime<Utc>,
}

impl<'a> Replay<'a> {
    pub fn new(query: &'a FunnelQuery) -> Self {
        Self {
            query,
            on_finished: None,
            open: HashMap::new(),
            result: FunnelResult { tallies: BTreeMap::new(), events_read: 0 },
            clock: DateTime::<Utc>::MIN_UTC,
        }
    }

    /// Also hands every finished attempt to `sink`.
    pub fn with_sink(mut self, sink: impl FnMut(&Finished) + 'a) -> Self {
        self.on_finished = Some(Box::new(sink));
        self
    }

    /// One event of the log, in the log's order.
    pub fn observe(&mut self, event: &RecordedEvent) {
        self.result.events_read += 1;
        let category = event.stream_id.split('-').next().unwrap_or_default();
        if category != self.query.funnel.flow {
            return;
        }
        if event.recorded_at > self.clock {
            self.clock = event.recorded_at;
        }
        let query = self.query;
        let track = self.open.entry(event.stream_id.clone()).or_insert_with(|| {
            let day = event.recorded_at.with_timezone(&sao_paulo()).date_naive();
            let variant = event.payload.get("variant").and_then(Value::as_str);
            let in_dates = day >= query.from && day <= query.to;
            let of_variant = query.funnel.variant.is_none_or(|v| Some(v) == variant);
            Track {
                started: event.recorded_at,
                progress: Progress::new(&query.funnel, query.order, query.window.num_milliseconds()),
                fold: fold_for(query.funnel.flow),
                facts: Facts::of_first(event, day),
                counted: in_dates && of_variant,
                limited: None,
            }
        });
        if !track.counted {
            return;
        }
        track.fold.apply(event);
        if event.event_type == LIMITED_EVENT {
            track.limited = event.payload.get("message").and_then(Value::as_str).map(str::to_string);
        }
        track.progress.observe(&query.funnel, &event.event_type, (event.recorded_at - track.started).num_milliseconds());
        if let Some(partner) = partner_of(event) {
            track.facts.partner = partner;
        }
        if self.result.events_read.is_multiple_of(10_000) {
            self.evict(false);
        }
    }

    /// Hands to the tally every attempt the log has moved a window (and a day) past, or all.
    fn evict(&mut self, all: bool) {
        let horizon = self.clock - self.query.window - Duration::days(1);
        let done: Vec<String> = self.open.iter().filter(|(_, t)| all || t.started < horizon).map(|(id, _)| id.clone()).collect();
        for id in done {
            let Some(track) = self.open.remove(&id) else { continue };
            if !track.counted {
                continue;
            }
            // The web shows `{link}` as a link labelled "aqui"; so does the report.
            let outcome = track.fold.outcome().message().map(str::to_string);
            let refusal = outcome.or(track.limited).map(|m| m.replace("{link}", "aqui"));
            let finished = Finished { attempt: id, started: track.started, facts: track.facts, reached: track.progress.reached(), refusal };
            let tally = self.result.tallies.entry(finished.facts.key(self.query.breakdown)).or_insert_with(|| Tally::new(&self.query.funnel));
            tally.add(&finished.reached, finished.refusal.as_deref());
            if let Some(sink) = self.on_finished.as_mut() {
                sink(&finished);
            }
        }
    }

    pub fn finish(mut self) -> FunnelResult {
        self.evict(true);
        self.result
    }

    /// Attempts kept in memory now.
    pub fn open_attempts(&self) -> usize {
        self.open.len()
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

/// Replays the whole log, `page` events at a time; `progress` gets the events read so far.
pub async fn replay(store: &EventStore, query: &FunnelQuery, page: i64, progress: impl FnMut(u64)) -> anyhow::Result<FunnelResult> {
    replay_with(store, Replay::new(query), page, progress).await
}

/// [`replay`] with a replay set up by the caller (a sink for finished attempts, say).
pub async fn replay_with(store: &EventStore, mut replay: Replay<'_>, page: i64, mut progress: impl FnMut(u64)) -> anyhow::Result<FunnelResult> {
    let mut checkpoint = Checkpoint::START;
    loop {
        let batch = store.read_all_after(checkpoint, page).await?;
        if batch.is_empty() {
            if store.has_held_back_after(checkpoint).await? {
                tokio::time::sleep(std::time::Duration::from_millis(20)).await;
                continue;
            }
            break;
        }
        for event in &batch {
            replay.observe(event);
            checkpoint = event.checkpoint();
        }
        progress(replay.result.events_read);
    }
    Ok(replay.finish())
}
