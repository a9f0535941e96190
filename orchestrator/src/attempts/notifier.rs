//! Fans out "stream X changed" to the server-sent-event streams: from PostgreSQL's NOTIFY (any
//! process's commits, named with their version when the writer said it) and, for this
//! process's own commits, the committed events themselves (`EventStore::appended_here`), so an
//! attempt's stream shows them without reading them back.

use std::sync::Arc;
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

#[derive(Clone)]
pub struct Notifier {
    tx: broadcast::Sender<Change>,
    /// The server's stop flag: event streams end when it turns true, so a graceful shutdown
    /// does not wait for browsers that keep a stream open.
    stop: watch::Receiver<bool>,
}

impl Notifier {
    /// Starts listening in the background, reconnecting after a lost connection, and passing
    /// on what `store` commits in this process, until `stop` turns true.
    pub fn spawn(store: &EventStore, stop: watch::Receiver<bool>) -> Self {
        let (tx, _) = broadcast::channel(1024);
        let sender = tx.clone();
        let watched = stop.clone();
        let mut here = store.appended_here();
        let store = store.clone();
        let local = tx.clone();
        let local_stop = stop.clone();
        tokio::spawn(async move {
            let until = stopped(local_stop);
            tokio::pin!(until);
            loop {
                tokio::select! {
                    () = &mut until => break,
                    appended = here.recv() => match appended {
                        Ok(appended) => {
                            let _ = local.send(Change::Appended(appended));
                        }
                        Err(broadcast::error::RecvError::Lagged(_)) => {
                            let _ = local.send(Change::Missed);
                        }
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
        Self { tx, stop: watched }
    }

    pub fn subscribe(&self) -> broadcast::Receiver<Change> {
        self.tx.subscribe()
    }

    /// Resolves when the server is stopping.
    pub async fn stopping(&self) {
        stopped(self.stop.clone()).await
    }
}

/// Returns once `receiver` names `stream`, or fell behind and may have missed it. A closed
/// channel never returns: the caller's time-out or the server's stop ends the wait.
pub async fn changed(receiver: &mut broadcast::Receiver<Change>, stream: &str) {
    loop {
        match receiver.recv().await {
            Ok(change) if change.concerns(stream) => return,
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

/// Waits for the next change of `stream` after version `seen`: the committed events when this
/// process wrote them right after `seen`, else a read. A change already held (a NOTIFY naming
/// a version up to `seen`, events up to it) is no change.
pub async fn next_after(receiver: &mut broadcast::Receiver<Change>, stream: &str, seen: i64) -> Next {
    loop {
        match receiver.recv().await {
            Ok(change) if change.concerns(stream) => match decide(&change, seen) {
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

async fn listen(store: &EventStore, sender: &broadcast::Sender<Change>) -> Result<(), sqlx::Error> {
    // This process's commits come in process (above), so its own NOTIFYs may be skipped.
    let mut listener = store.listener(events::NOTIFY_CHANNEL, Hears::OthersOnly).await?;
    loop {
        let notification = listener.recv().await?;
        // One NOTIFY may name several streams (the store's after-commit batches). No receivers
        // is fine: nobody is watching that attempt right now.
        for (stream, version) in events::versions_named(notification.payload()) {
            let _ = sender.send(Change::Named { stream: stream.to_string(), version });
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
    fn what_is_already_held_is_no_change() {
        assert!(decide(&appended(4..=5), 5).is_none());
        assert!(decide(&named(Some(5)), 5).is_none(), "the NOTIFY of the events handed over");
    }
}
