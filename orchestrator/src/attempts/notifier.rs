//! Fans out "stream X changed" to the server-sent-event streams: from PostgreSQL's NOTIFY (any
//! process's commits, named with their version when the writer said it) and, for this
//! process's own commits, the committed events themselves (`EventStore::appended_here`), so an
//! attempt's stream shows them without reading them back. Each change goes only to the pages
//! watching its attempt ([`Hub`]): with one channel for all, every commit woke every open
//! stream, a thousand at capacity, to find the one it concerned.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use events::{Appended, EventStore, Hears, RecordedEvent};
use tokio::sync::{broadcast, watch};

use crate::shutdown::stopped;

/// One change to some stream.
#[derive(Debug, Clone)]
pub enum Change {
    /// A NOTIFY named the stream, with the version committed when its writer said it.
    Named { stream: String, version: Option<i64> },
    /// This process committed these events to the stream (none handed over: read it).
    Appended(Arc<Appended>),
    /// This process's commits came faster than they were passed on, and some were dropped: any
    /// stream may have changed. (No NOTIFY may follow them: notifications are skipped while
    /// nobody else listens.)
    Missed,
}

impl Change {
    /// The stream changed, `None` for any.
    fn stream(&self) -> Option<&str> {
        match self {
            Change::Named { stream, .. } => Some(stream),
            Change::Appended(appended) => Some(&appended.stream),
            Change::Missed => None,
        }
    }

    fn concerns(&self, stream: &str) -> bool {
        self.stream().is_none_or(|changed| changed == stream)
    }
}

/// Changes a page's stream may hold before it falls behind (and then reads its attempt).
const PER_STREAM: usize = 16;

/// A channel for each stream some page watches, dropped with its last watcher.
#[derive(Debug, Default)]
pub struct Hub {
    streams: Mutex<HashMap<String, broadcast::Sender<Change>>>,
}

impl Hub {
    /// Passes `change` to the pages watching its stream; `Missed` to every page.
    pub fn send(&self, change: Change) {
        let streams = self.streams.lock().unwrap_or_else(PoisonError::into_inner);
        match change.stream() {
            // No channel: nobody is watching that attempt right now.
            Some(stream) => {
                if let Some(sender) = streams.get(stream) {
                    let _ = sender.send(change);
                }
            }
            None => {
                for sender in streams.values() {
                    let _ = sender.send(change.clone());
                }
            }
        }
    }

    /// A watcher of `stream`'s changes from now on.
    pub fn subscribe(self: &Arc<Self>, stream: &str) -> Subscription {
        let mut streams = self.streams.lock().unwrap_or_else(PoisonError::into_inner);
        let receiver = match streams.get(stream) {
            Some(sender) => sender.subscribe(),
            None => {
                let (sender, receiver) = broadcast::channel(PER_STREAM);
                streams.insert(stream.to_string(), sender);
                receiver
            }
        };
        Subscription { receiver: Some(receiver), stream: stream.to_string(), hub: self.clone() }
    }

    /// How many streams have a channel (tests, and the map's bound: one per watched attempt).
    pub fn watched(&self) -> usize {
        self.streams.lock().unwrap_or_else(PoisonError::into_inner).len()
    }
}

/// One page's watch on one stream; its channel goes with the stream's last watcher.
#[derive(Debug)]
pub struct Subscription {
    receiver: Option<broadcast::Receiver<Change>>,
    stream: String,
    hub: Arc<Hub>,
}

impl Subscription {
    async fn recv(&mut self) -> Result<Change, broadcast::error::RecvError> {
        match self.receiver.as_mut() {
            Some(receiver) => receiver.recv().await,
            None => Err(broadcast::error::RecvError::Closed),
        }
    }
}

impl Drop for Subscription {
    fn drop(&mut self) {
        let mut streams = self.hub.streams.lock().unwrap_or_else(PoisonError::into_inner);
        // Under the lock, so that no page subscribes between the count and the removal.
        drop(self.receiver.take());
        if streams.get(&self.stream).is_some_and(|sender| sender.receiver_count() == 0) {
            streams.remove(&self.stream);
        }
    }
}

#[derive(Clone)]
pub struct Notifier {
    hub: Arc<Hub>,
    /// The server's stop flag: event streams end when it turns true, so a graceful shutdown
    /// does not wait for browsers that keep a stream open.
    stop: watch::Receiver<bool>,
}

impl Notifier {
    /// Starts listening in the background, reconnecting after a lost connection, and passing
    /// on what `store` commits in this process, until `stop` turns true.
    pub fn spawn(store: &EventStore, stop: watch::Receiver<bool>) -> Self {
        let hub = Arc::new(Hub::default());
        let sender = hub.clone();
        let watched = stop.clone();
        let mut here = store.appended_here();
        let store = store.clone();
        let local = hub.clone();
        let local_stop = stop.clone();
        tokio::spawn(async move {
            let until = stopped(local_stop);
            tokio::pin!(until);
            loop {
                tokio::select! {
                    () = &mut until => break,
                    appended = here.recv() => match appended {
                        Ok(appended) => local.send(Change::Appended(appended)),
                        Err(broadcast::error::RecvError::Lagged(_)) => local.send(Change::Missed),
                        Err(broadcast::error::RecvError::Closed) => break,
                    },
                }
            }
        });
        tokio::spawn(async move {
            let until = stopped(stop);
            tokio::pin!(until);
            loop {
                tokio::select! {
                    () = &mut until => break,
                    result = listen(&store, &sender) => {
                        if let Err(error) = result {
                            tracing::warn!(%error, "event notifications interrupted; reconnecting");
                        }
                    }
                }
                tokio::select! {
                    () = &mut until => break,
                    () = tokio::time::sleep(Duration::from_secs(1)) => {}
                }
            }
        });
        Self { hub, stop: watched }
    }

    /// A watch on `stream`'s changes from now on.
    pub fn subscribe(&self, stream: &str) -> Subscription {
        self.hub.subscribe(stream)
    }

    /// Resolves when the server is stopping.
    pub async fn stopping(&self) {
        stopped(self.stop.clone()).await
    }
}

/// Returns once the watched stream changed, or its watch fell behind and may have missed a
/// change. A closed channel never returns: the caller's time-out or the server's stop ends the
/// wait.
pub async fn changed(watch: &mut Subscription) {
    loop {
        match watch.recv().await {
            Ok(change) if change.concerns(&watch.stream) => return,
            Ok(_) => continue,
            Err(broadcast::error::RecvError::Lagged(_)) => return,
            Err(broadcast::error::RecvError::Closed) => std::future::pending::<()>().await,
        }
    }
}

/// What a reader holding `stream` up to version `seen` learns next.
#[derive(Debug)]
pub enum Next {
    /// The events after `seen`, handed over by this process's writer.
    Events(Vec<RecordedEvent>),
    /// Something changed that only a read shows.
    Read,
}

/// Waits for the next change of the watched stream after version `seen`: the committed events
/// when this process wrote them right after `seen`, else a read. A change already held (a
/// NOTIFY naming a version up to `seen`, events up to it) is no change.
pub async fn next_after(watch: &mut Subscription, seen: i64) -> Next {
    loop {
        match watch.recv().await {
            Ok(change) if change.concerns(&watch.stream) => match decide(&change, seen) {
                Some(next) => return next,
                None => continue,
            },
            Ok(_) => continue,
            Err(broadcast::error::RecvError::Lagged(_)) => return Next::Read,
            Err(broadcast::error::RecvError::Closed) => std::future::pending::<()>().await,
        }
    }
}

/// What one change of the stream means to a reader at version `seen` (`None`: nothing new).
fn decide(change: &Change, seen: i64) -> Option<Next> {
    match change {
        Change::Named { version: Some(version), .. } if *version <= seen => None,
        Change::Named { .. } | Change::Missed => Some(Next::Read),
        Change::Appended(appended) => match (appended.events.first(), appended.events.last()) {
            (_, Some(last)) if last.version <= seen => None,
            (Some(first), _) if first.version == seen + 1 => Some(Next::Events(appended.events.clone())),
            _ => Some(Next::Read),
        },
    }
}

async fn listen(store: &EventStore, sender: &Hub) -> Result<(), sqlx::Error> {
    // This process's commits come in process (above), so its own NOTIFYs may be skipped.
    let mut listener = store.listener(events::NOTIFY_CHANNEL, Hears::OthersOnly).await?;
    loop {
        let notification = listener.recv().await?;
        // One NOTIFY may name several streams (the store's after-commit batches). No receivers
        // is fine: nobody is watching that attempt right now.
        for (stream, version) in events::versions_named(notification.payload()) {
            sender.send(Change::Named { stream: stream.to_string(), version });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn appended(versions: std::ops::RangeInclusive<i64>) -> Change {
        let events = crate::testing::cloud_events(versions);
        Change::Appended(Arc::new(Appended { stream: "cloud-1".into(), events }))
    }

    fn named(version: Option<i64>) -> Change {
        Change::Named { stream: "cloud-1".into(), version }
    }

    #[test]
    fn events_right_after_those_held_are_taken_as_handed_over() {
        assert!(matches!(decide(&appended(6..=7), 5), Some(Next::Events(e)) if e.len() == 2));
    }

    #[test]
    fn a_gap_or_a_notify_without_its_version_is_read() {
        assert!(matches!(decide(&appended(7..=8), 5), Some(Next::Read)), "version 6 is missing");
        assert!(matches!(decide(&named(None), 9), Some(Next::Read)));
        assert!(matches!(decide(&named(Some(6)), 5), Some(Next::Read)));
    }

    #[test]
    fn a_commit_handed_over_without_its_events_or_a_missed_one_is_read() {
        let named_only = Change::Appended(Arc::new(Appended { stream: "cloud-1".into(), events: Vec::new() }));
        assert!(matches!(decide(&named_only, 5), Some(Next::Read)));
        assert!(matches!(decide(&Change::Missed, 5), Some(Next::Read)));
        assert!(Change::Missed.concerns("cloud-1") && Change::Missed.concerns("download-2"), "any stream");
        assert!(!named(None).concerns("download-2"));
    }

    #[test]
    fn a_change_reaches_only_the_pages_watching_its_stream_and_a_missed_one_every_page() {
        use futures::FutureExt;
        let hub = Arc::new(Hub::default());
        let mut cloud = hub.subscribe("cloud-1");
        let mut download = hub.subscribe("download-2");
        hub.send(named(Some(6)));
        assert!(matches!(next_after(&mut cloud, 5).now_or_never(), Some(Next::Read)));
        assert!(changed(&mut download).now_or_never().is_none(), "another attempt's change");
        hub.send(Change::Missed);
        assert!(changed(&mut download).now_or_never().is_some());
        assert!(changed(&mut cloud).now_or_never().is_some());
    }

    #[test]
    fn a_streams_channel_goes_with_its_last_watcher() {
        let hub = Arc::new(Hub::default());
        let first = hub.subscribe("cloud-1");
        let second = hub.subscribe("cloud-1");
        let other = hub.subscribe("download-2");
        assert_eq!(hub.watched(), 2);
        drop(first);
        assert_eq!(hub.watched(), 2, "a page still watches cloud-1");
        drop(second);
        drop(other);
        assert_eq!(hub.watched(), 0);
        hub.send(named(Some(1)));
        assert_eq!(hub.watched(), 0, "a change nobody watches opens no channel");
    }

    #[test]
    fn what_is_already_held_is_no_change() {
        assert!(decide(&appended(4..=5), 5).is_none());
        assert!(decide(&named(Some(5)), 5).is_none(), "the NOTIFY of the events handed over");
    }
}
