//! `replay funnel`: a flow's funnel replayed from the event log. Reads the gap-free global
//! read in pages, keeps per attempt only its funnel progress, its breakdown value and its
//! flow state (for the message a refused visitor read), and hands an attempt to the tally once
//! the log has moved a window past its start, so memory follows the attempts of one window,
//! not the size of the history.

use std::collections::{BTreeMap, HashMap};

use chrono::{DateTime, Duration, Utc};
use events::funnel::{AttemptTrack, FunnelAnswer, Tally};
use events::{Checkpoint, EventStore, RecordedEvent};

pub use events::funnel::{sao_paulo, Breakdown, Facts, FunnelQuery, LIMITED_EVENT};

/// The answer, and how many events were read for it.
#[derive(Debug)]
pub struct FunnelResult {
    pub answer: FunnelAnswer,
    pub events_read: u64,
}

impl FunnelResult {
    /// One tally per breakdown value (`"todas"` without a breakdown).
    pub fn tallies(&self) -> &BTreeMap<String, Tally> {
        &self.answer.tallies
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
enum Open {
    /// Of another variant or outside the dates: only when it started, to forget it in time.
    Skipped(DateTime<Utc>),
    Counted(Box<AttemptTrack>),
}

impl Open {
    fn started(&self) -> DateTime<Utc> {
        match self {
            Self::Skipped(at) => *at,
            Self::Counted(track) => track.started(),
        }
    }
}

/// Called with every attempt handed to the tally (the export's rows).
type OnFinished<'a> = Box<dyn FnMut(&Finished) + 'a>;

pub struct Replay<'a> {
    query: &'a FunnelQuery,
    on_finished: Option<OnFinished<'a>>,
    open: HashMap<String, Open>,
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
            result: FunnelResult { answer: FunnelAnswer::default(), events_read: 0 },
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
        match self.open.get_mut(&event.stream_id) {
            Some(Open::Counted(track)) => track.observe(event),
            Some(Open::Skipped(_)) => {}
            None => {
                let Some(track) = AttemptTrack::start(event) else { return };
                let open = if self.query.counts(track.facts()) {
                    Open::Counted(Box::new(track))
                } else {
                    Open::Skipped(event.recorded_at)
                };
                self.open.insert(event.stream_id.clone(), open);
            }
        }
        if self.result.events_read.is_multiple_of(10_000) {
            self.evict(false);
        }
    }

    /// Hands to the tally every attempt the log has moved a window (and a day) past, or all.
    fn evict(&mut self, all: bool) {
        let horizon = self.clock - self.query.window - Duration::days(1);
        let done: Vec<String> =
            self.open.iter().filter(|(_, t)| all || t.started() < horizon).map(|(id, _)| id.clone()).collect();
        for id in done {
            let Some(Open::Counted(track)) = self.open.remove(&id) else { continue };
            let facts = track.attempt_facts();
            let reached = self.result.answer.add(self.query, &facts);
            if let Some(sink) = self.on_finished.as_mut() {
                sink(&Finished {
                    attempt: facts.attempt,
                    started: facts.started,
                    facts: facts.facts,
                    reached,
                    refusal: facts.refusal,
                });
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

/// Replays the flow's events of the whole log; `progress` gets the events read so far.
pub async fn replay(
    store: &EventStore,
    query: &FunnelQuery,
    progress: impl FnMut(u64),
) -> anyhow::Result<FunnelResult> {
    replay_with(store, Replay::new(query), progress).await
}

/// [`replay`] with a replay set up by the caller (a sink for finished attempts, say). One
/// streaming read of the flow's category, in the gap-free order; again from where it stopped
/// while events of transactions that were open are held back.
pub async fn replay_with(
    store: &EventStore,
    mut replay: Replay<'_>,
    mut progress: impl FnMut(u64),
) -> anyhow::Result<FunnelResult> {
    use futures::TryStreamExt;
    let mut checkpoint = Checkpoint::START;
    let mut last_pass = false;
    loop {
        {
            let events = store.stream_category_after(replay.query.funnel.flow, checkpoint);
            futures::pin_mut!(events);
            while let Some(event) = events.try_next().await? {
                replay.observe(&event);
                checkpoint = event.checkpoint();
                if replay.result.events_read.is_multiple_of(5_000) {
                    progress(replay.result.events_read);
                }
            }
        }
        progress(replay.result.events_read);
        if last_pass {
            break;
        }
        // The check sees a later snapshot than the read: what the read held back may have been
        // released in between (another database's transaction ending: transaction ids are the
        // cluster's). Once nothing is held back, one more read takes it.
        if !store.has_held_back_after(checkpoint).await? {
            last_pass = true;
            continue;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    Ok(replay.finish())
}
