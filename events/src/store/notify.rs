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
//! one stream: a listener that follows one stream ignores the others'.

use std::collections::BTreeSet;
use std::sync::{Mutex, OnceLock};
use std::time::Duration;

use sqlx::PgPool;
use tokio::sync::mpsc;

use super::NOTIFY_CHANNEL;

/// Shared by the clones of one store; the task ends when the last clone is dropped
/// or the pool is closed.
#[derive(Debug, Default)]
pub(super) struct Notifier {
    signal: OnceLock<mpsc::Sender<()>>,
    /// Streams committed since the last NOTIFY went out.
    pending: std::sync::Arc<Mutex<BTreeSet<String>>>,
}

impl Notifier {
    /// Asks for a NOTIFY naming `streams` after the caller's (already committed)
    /// appends. Must be called from within a Tokio runtime.
    pub(super) async fn committed<'a>(&self, pool: &PgPool, streams: impl IntoIterator<Item = &'a str>) {
        if let Ok(mut pending) = self.pending.lock() {
            pending.extend(streams.into_iter().map(str::to_string));
        }
        let signal = self.signal.get_or_init(|| {
            // Capacity 1: a pending signal already promises a NOTIFY that starts
            // after now, which covers this commit too.
            let (tx, rx) = mpsc::channel(1);
            tokio::spawn(run(pool.clone(), rx, self.pending.clone()));
            tx
        });
        match signal.try_send(()) {
            Ok(()) | Err(mpsc::error::TrySendError::Full(())) => {}
            Err(mpsc::error::TrySendError::Closed(())) => {
                // The task's runtime is gone (store shared across runtimes): send it
                // ourselves.
                notify(pool, &self.pending).await;
            }
        }
    }
}

/// Least time between two NOTIFYs. The first commit after a quiet spell is announced
/// at once; under load, commits within this window share the next NOTIFY, which caps
/// the NOTIFY transactions (each one is work for the server) at a few hundred a second.
const MIN_GAP: Duration = Duration::from_millis(5);

/// PostgreSQL refuses payloads of 8000 bytes or more.
const MAX_PAYLOAD: usize = 7_900;

async fn run(pool: PgPool, mut signals: mpsc::Receiver<()>, pending: std::sync::Arc<Mutex<BTreeSet<String>>>) {
    while signals.recv().await.is_some() {
        if pool.is_closed() {
            return;
        }
        notify(&pool, &pending).await;
        tokio::time::sleep(MIN_GAP).await;
    }
}

async fn notify(pool: &PgPool, pending: &Mutex<BTreeSet<String>>) {
    let streams = match pending.lock() {
        Ok(mut pending) => std::mem::take(&mut *pending),
        Err(_) => BTreeSet::new(),
    };
    // An empty payload when nothing was named still wakes the readers that re-read from
    // their checkpoint whatever the payload says.
    let payloads = payloads(streams.iter().map(String::as_str));
    for payload in if payloads.is_empty() { vec![String::new()] } else { payloads } {
        if let Err(e) = sqlx::query("SELECT pg_notify($1, $2)").bind(NOTIFY_CHANNEL).bind(&payload).execute(pool).await
        {
            tracing::warn!(error = %e, "NOTIFY after append failed; subscribers will poll");
        }
    }
}

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
    payload.split(',').filter(|s| !s.is_empty())
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
}
