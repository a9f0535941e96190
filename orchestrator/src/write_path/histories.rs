//! Streams as this process last wrote them: the history a command or a step's result left,
//! kept so that the runner's next claim of the stream need not read it back (issue 24: the
//! runner read every stream it claimed). A copy is handed out only for the version the claim
//! found the stream at (read by the claim's own statement): another process's write, or any
//! this process did not keep, means a read as before. Bounded by the events kept.

use std::sync::Arc;

use events::RecordedEvent;
use quick_cache::sync::Cache;
use quick_cache::Weighter;

/// Events kept in all by default (a few hundred bytes each: some tens of MB at most).
pub const DEFAULT_EVENTS: u64 = 100_000;

/// A history weighs its events.
#[derive(Debug, Clone, Copy)]
struct ByEvents;

impl Weighter<String, Arc<Vec<RecordedEvent>>> for ByEvents {
    fn weight(&self, _stream: &String, history: &Arc<Vec<RecordedEvent>>) -> u64 {
        history.len().max(1) as u64
    }
}

pub struct Histories {
    kept: Cache<String, Arc<Vec<RecordedEvent>>, ByEvents>,
}

impl Default for Histories {
    fn default() -> Self {
        Self::with_events(DEFAULT_EVENTS)
    }
}

impl Histories {
    pub fn with_events(events: u64) -> Self {
        // quick_cache sizes its tables from an estimate of the entries: an attempt has a few
        // tens of events.
        let estimated = usize::try_from(events / 20).unwrap_or(usize::MAX).max(16);
        Self { kept: Cache::with_weighter(estimated, events.max(1), ByEvents) }
    }

    /// Keeps `history`, the whole of `stream` as a committed write of this process left it.
    pub fn keep(&self, stream: &str, history: Vec<RecordedEvent>) {
        self.kept.insert(stream.to_string(), Arc::new(history));
    }

    /// The history of `stream` as this process last kept it, whatever the stream's version now:
    /// a prefix of the stream (its events never change), to read the rest after.
    pub fn latest(&self, stream: &str) -> Option<Vec<RecordedEvent>> {
        self.kept.get(stream).map(|history| history.as_ref().clone())
    }

    /// The history of `stream` kept at exactly `version` (0: no events), if any.
    pub fn at_version(&self, stream: &str, version: i64) -> Option<Vec<RecordedEvent>> {
        let history = self.kept.get(stream)?;
        (history.last().map_or(0, |e| e.version) == version).then(|| history.as_ref().clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn history(versions: i64) -> Vec<RecordedEvent> {
        crate::testing::cloud_events(1..=versions)
    }

    #[test]
    fn a_history_is_handed_out_only_at_the_version_the_claim_found() {
        let histories = Histories::default();
        histories.keep("cloud-1", history(3));
        assert_eq!(histories.at_version("cloud-1", 3).map(|h| h.len()), Some(3));
        assert!(histories.at_version("cloud-1", 4).is_none(), "another writer moved the stream on");
        assert!(histories.at_version("cloud-2", 3).is_none());
        assert_eq!(histories.latest("cloud-1").map(|h| h.len()), Some(3), "whatever the version now");
        assert!(histories.latest("cloud-2").is_none());
    }

    #[test]
    fn the_events_kept_stay_under_the_bound() {
        let histories = Histories::with_events(100);
        for i in 0..50 {
            histories.keep(&format!("cloud-{i}"), history(10));
        }
        let kept: usize =
            (0..50).filter_map(|i| histories.at_version(&format!("cloud-{i}"), 10)).map(|h| h.len()).sum();
        assert!(kept <= 100 && kept > 0, "{kept} events kept");
    }
}
