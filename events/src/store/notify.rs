//! Post-commit NOTIFY for appends made by [`EventStore::append`].
//!
//! A transaction that NOTIFYs holds a cluster-wide lock from its pre-commit until its
//! commit is done, WAL flush included, so notifying appends cannot share a group
//! commit: their throughput collapses under concurrency (docs/benchmarks.md). Instead
//! each append, once committed, signals a background task that sends one NOTIFY from
//! a transaction with no writes (no WAL flush under the lock). Signals that arrive
//! while a NOTIFY is pending, in flight or within `MIN_GAP` of the last one collapse
//! into the next one, so a burst of appends costs a few NOTIFYs, and every append is
//! followed by a NOTIFY sent after its commit (at most `MIN_GAP` + one round trip
//! later). A notification lost to a crash is covered by the subscribers' polling.
//!
//! The payload names the streams appended to since the last NOTIFY, comma-separated (split
//! over several NOTIFYs past [`MAX_PAYLOAD`]), as the NOTIFY inside `append_events` names its
//! one stream: a listener that follows one stream ignores the others'. A stream is named with
//! the version its writer committed (`activation-…@7`) when the writer said it, so a reader
//! that already holds that version (handed the events in this process, see
//! [`super::Appended`]) need not read the stream again. The payload starts with the sending
//! store's tag (`3f2a9c1e|cloud-…@7`): a listener of the same process, which learns of its
//! commits in process, may pass over its own NOTIFYs ([`super::EventStore::sent_here`]).
//!
//! A NOTIFY takes a transaction id. Nobody may need it: the statement sends it only when some
//! listener connection (listen.rs) other than this store's in-process ones is up, asked of
//! `pg_stat_activity` in the same statement, after the commit it announces. A listener that
//! started before that statement is seen; one that starts later reads what it missed after its
//! LISTEN, as every listener does. So a lone process writes no NOTIFY at all.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use sqlx::PgPool;
use tokio::sync::{broadcast, mpsc};

use super::listen::{listener_name, Hears, LISTENER};
use super::{Appended, NOTIFY_CHANNEL};

/// Shared by the clones of one store; the task ends when the last clone is dropped
/// or the pool is closed.
#[derive(Debug)]
pub(super) struct Notifier {
    /// Names this store (and its clones) in the NOTIFYs it sends.
    tag: Arc<str>,
    signal: OnceLock<mpsc::Sender<()>>,
    /// Streams committed since the last NOTIFY went out, with the highest version committed
    /// (`None`: some writer did not say, so readers must read).
    pending: Arc<Mutex<BTreeMap<String, Option<i64>>>>,
    /// Events committed by this process, for its own readers (created by the first of them).
    local: OnceLock<broadcast::Sender<Arc<Appended>>>,
}

/// Appends handed to this process's readers that may lag behind before they read instead.
const LOCAL_BACKLOG: usize = 1024;

impl Default for Notifier {
    fn default() -> Self {
        let tag = uuid::Uuid::new_v4().simple().to_string()[..8].to_string();
        Self { tag: tag.into(), signal: OnceLock::new(), pending: Arc::default(), local: OnceLock::new() }
    }
}

impl Notifier {
    /// The tag naming this store in its NOTIFYs and its in-process listeners.
    pub(super) fn tag(&self) -> &str {
        &self.tag
    }

    /// Whether `payload` is a NOTIFY this store sent.
    pub(super) fn sent_here(&self, payload: &str) -> bool {
        sender(payload) == Some(&*self.tag)
    }

    /// The events this process commits from now on.
    pub(super) fn appended_here(&self) -> broadcast::Receiver<Arc<Appended>> {
        self.local.get_or_init(|| broadcast::channel(LOCAL_BACKLOG).0).subscribe()
    }

    /// Hands `appended` to this process's readers, if any listen.
    pub(super) fn hand_over(&self, appended: Appended) {
        if let Some(local) = self.local.get().filter(|l| l.receiver_count() > 0) {
            let _ = local.send(Arc::new(appended));
        }
    }

    /// Asks for a NOTIFY naming `streams` (with the version committed, when known) after the
    /// caller's (already committed) appends. Must be called from within a Tokio runtime.
    pub(super) async fn committed<'a>(&self, pool: &PgPool, streams: impl IntoIterator<Item = (&'a str, Option<i64>)>) {
        if let Ok(mut pending) = self.pending.lock() {
            for (stream, version) in streams {
                let known = pending.entry(stream.to_string()).or_insert(version);
                *known = match (*known, version) {
                    (Some(a), Some(b)) => Some(a.max(b)),
                    _ => None,
                };
            }
        }
        let signal = self.signal.get_or_init(|| {
            // Capacity 1: a pending signal already promises a NOTIFY that starts
            // after now, which covers this commit too.
            let (tx, rx) = mpsc::channel(1);
            tokio::spawn(run(pool.clone(), rx, self.pending.clone(), self.tag.clone()));
            tx
        });
        match signal.try_send(()) {
            Ok(()) | Err(mpsc::error::TrySendError::Full(())) => {}
            Err(mpsc::error::TrySendError::Closed(())) => {
                // The task's runtime is gone (store shared across runtimes): send it
                // ourselves.
                notify(pool, &self.pending, &self.tag).await;
            }
        }
    }
}

/// Least time between two NOTIFYs. The first commit after a quiet spell is announced
/// at once; under load, commits within this window share the next NOTIFY, which caps
/// the NOTIFY transactions (each one is work for the server) at a few hundred a second.
const MIN_GAP: Duration = Duration::from_millis(5);

/// PostgreSQL refuses payloads of 8000 bytes or more (the sender's tag comes on top).
const MAX_PAYLOAD: usize = 7_900;

/// Ends the sender's tag at the start of a payload.
const SENDER: char = '|';

/// The tag of the store that sent `payload`, when it says (the `append_events` function's own
/// NOTIFY, an older process's, does not).
pub fn sender(payload: &str) -> Option<&str> {
    payload.split_once(SENDER).map(|(tag, _)| tag)
}

async fn run(
    pool: PgPool,
    mut signals: mpsc::Receiver<()>,
    pending: Arc<Mutex<BTreeMap<String, Option<i64>>>>,
    tag: Arc<str>,
) {
    while signals.recv().await.is_some() {
        if pool.is_closed() {
            return;
        }
        notify(&pool, &pending, &tag).await;
        tokio::time::sleep(MIN_GAP).await;
    }
}

async fn notify(pool: &PgPool, pending: &Mutex<BTreeMap<String, Option<i64>>>, tag: &str) {
    let streams = match pending.lock() {
        Ok(mut pending) => std::mem::take(&mut *pending),
        Err(_) => BTreeMap::new(),
    };
    // An empty payload when nothing was named still wakes the readers that re-read from
    // their checkpoint whatever the payload says.
    let named: Vec<String> = streams
        .into_iter()
        .map(|(stream, version)| match version {
            Some(version) => format!("{stream}@{version}"),
            None => stream,
        })
        .collect();
    let payloads = payloads(named.iter().map(String::as_str));
    for payload in if payloads.is_empty() { vec![String::new()] } else { payloads } {
        if let Err(e) = notify_if_heard(pool, tag, &payload).await {
            tracing::warn!(error = %e, "NOTIFY after append failed; subscribers will poll");
        }
    }
}

/// Sends `named` (streams, comma-separated) from the store tagged `tag`, if a listener other
/// than the store's in-process ones is up: whether it was sent.
pub(super) async fn notify_if_heard(pool: &PgPool, tag: &str, named: &str) -> Result<bool, sqlx::Error> {
    let sent = sqlx::query(NOTIFY_IF_HEARD)
        .bind(NOTIFY_CHANNEL)
        .bind(format!("{tag}{SENDER}{named}"))
        .bind(LISTENER)
        .bind(listener_name(tag, Hears::OthersOnly))
        .fetch_optional(pool)
        .await?;
    Ok(sent.is_some())
}

/// NOTIFYs (`$1`, `$2`) when a listener connection of this database (named with the prefix `$3`)
/// other than this store's in-process ones (named `$4`) is up; otherwise writes nothing.
const NOTIFY_IF_HEARD: &str = "SELECT pg_notify($1, $2) WHERE EXISTS (
    SELECT FROM pg_stat_activity
    WHERE datname = current_database() AND left(application_name, length($3)) = $3 AND application_name <> $4)";

/// The stream ids, comma-separated, in as few payloads under [`MAX_PAYLOAD`] as they fit.
fn payloads<'a>(streams: impl Iterator<Item = &'a str>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for stream in streams {
        match out.last_mut() {
            Some(last) if last.len() + 1 + stream.len() <= MAX_PAYLOAD => {
                last.push(',');
                last.push_str(stream);
            }
            _ => out.push(stream.to_string()),
        }
    }
    out
}

/// The stream ids a payload names (a stream id has no comma: `StreamId` is `category-id`).
pub fn streams_named(payload: &str) -> impl Iterator<Item = &str> {
    versions_named(payload).map(|(stream, _)| stream)
}

/// The stream ids a payload names, each with the version committed when its writer said it.
pub fn versions_named(payload: &str) -> impl Iterator<Item = (&str, Option<i64>)> {
    let named = payload.split_once(SENDER).map_or(payload, |(_, named)| named);
    named.split(',').filter(|s| !s.is_empty()).map(|named| match named.split_once('@') {
        Some((stream, version)) => (stream, version.parse().ok()),
        None => (named, None),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn payloads_name_every_stream_and_stay_under_the_limit() {
        let ids: Vec<String> = (0..400).map(|i| format!("activation-{i:036}")).collect();
        let payloads = payloads(ids.iter().map(String::as_str));
        assert!(payloads.len() > 1 && payloads.iter().all(|p| p.len() <= MAX_PAYLOAD));
        let named: Vec<&str> = payloads.iter().flat_map(|p| streams_named(p)).collect();
        assert_eq!(named, ids.iter().map(String::as_str).collect::<Vec<_>>());
        assert_eq!(streams_named("").count(), 0);
        assert_eq!(streams_named("cloud-1").collect::<Vec<_>>(), ["cloud-1"]);
    }

    #[test]
    fn a_stream_is_named_with_its_version_when_its_writer_said_it() {
        assert_eq!(
            versions_named("cloud-1@7,download-2,activation-3@x").collect::<Vec<_>>(),
            [("cloud-1", Some(7)), ("download-2", None), ("activation-3", None)]
        );
        assert_eq!(streams_named("cloud-1@7,download-2").collect::<Vec<_>>(), ["cloud-1", "download-2"]);
    }

    #[test]
    fn a_payload_names_the_store_that_sent_it() {
        let notifier = Notifier::default();
        let own = format!("{}|cloud-1@7", notifier.tag);
        assert!(notifier.sent_here(&own));
        assert_eq!(versions_named(&own).collect::<Vec<_>>(), [("cloud-1", Some(7))]);
        assert!(!Notifier::default().sent_here(&own), "another store's tag");
        assert!(!notifier.sent_here("cloud-1"), "a payload without a tag");
        assert_eq!(sender("abc|"), Some("abc"));
        assert_eq!(streams_named("abc|").count(), 0);
    }
}
