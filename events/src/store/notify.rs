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

use std::sync::OnceLock;
use std::time::Duration;

use sqlx::PgPool;
use tokio::sync::mpsc;

use super::NOTIFY_CHANNEL;

/// Shared by the clones of one store; the task ends when the last clone is dropped
/// or the pool is closed.
#[derive(Debug, Default)]
pub(super) struct Notifier {
    signal: OnceLock<mpsc::Sender<()>>,
}

impl Notifier {
    /// Asks for a NOTIFY after the caller's (already committed) appends. Must be
    /// called from within a Tokio runtime.
    pub(super) async fn committed(&self, pool: &PgPool) {
        let signal = self.signal.get_or_init(|| {
            // Capacity 1: a pending signal already promises a NOTIFY that starts
            // after now, which covers this commit too.
            let (tx, rx) = mpsc::channel(1);
            tokio::spawn(run(pool.clone(), rx));
            tx
        });
        match signal.try_send(()) {
            Ok(()) | Err(mpsc::error::TrySendError::Full(())) => {}
            Err(mpsc::error::TrySendError::Closed(())) => {
                // The task's runtime is gone (store shared across runtimes): send it
                // ourselves.
                notify(pool).await;
            }
        }
    }
}

/// Least time between two NOTIFYs. The first commit after a quiet spell is announced
/// at once; under load, commits within this window share the next NOTIFY, which caps
/// the NOTIFY transactions (each one is work for the server) at a few hundred a second.
const MIN_GAP: Duration = Duration::from_millis(5);

async fn run(pool: PgPool, mut signals: mpsc::Receiver<()>) {
    while signals.recv().await.is_some() {
        if pool.is_closed() {
            return;
        }
        notify(&pool).await;
        tokio::time::sleep(MIN_GAP).await;
    }
}

async fn notify(pool: &PgPool) {
    // The payload is a hint only; readers always re-read from their checkpoint.
    if let Err(e) = sqlx::query("SELECT pg_notify($1, '')")
        .bind(NOTIFY_CHANNEL)
        .execute(pool)
        .await
    {
        tracing::warn!(error = %e, "NOTIFY after append failed; subscribers will poll");
    }
}
