//! Live following of all events: LISTEN wakes the reader as soon as an append commits,
//! a periodic poll covers lost notifications (reconnects, and transactions that held
//! the snapshot back and then committed nothing), and every wake-up re-reads through
//! the gap-free `read_all_after`, so nothing is ever skipped.

use std::collections::VecDeque;
use std::time::Duration;

use futures::Stream;
use sqlx::postgres::PgListener;

use super::{EventStore, Hears, NOTIFY_CHANNEL};
use crate::error::StoreError;
use crate::types::{Checkpoint, RecordedEvent};

/// First and longest pause before re-reading events held back by an in-progress
/// transaction.
const HELD_BACK_FIRST_RETRY: Duration = Duration::from_millis(2);
const HELD_BACK_MAX_RETRY: Duration = Duration::from_millis(100);

/// Tuning of a [`Subscription`].
#[derive(Debug, Clone)]
pub struct SubscriptionOptions {
    /// Re-read at least this often even without a notification.
    pub poll_interval: Duration,
    /// Most events returned by one [`Subscription::next_batch`].
    pub batch_size: i64,
    /// LISTEN on the `events` channel; `false` relies on polling alone.
    pub listen: bool,
}

impl Default for SubscriptionOptions {
    fn default() -> Self {
        Self { poll_interval: Duration::from_millis(500), batch_size: 500, listen: true }
    }
}

/// A follower of all events from a checkpoint on. Holds one dedicated connection
/// while listening.
pub struct Subscription {
    store: EventStore,
    checkpoint: Checkpoint,
    options: SubscriptionOptions,
    listener: Option<PgListener>,
}

impl EventStore {
    /// Follows all events after `from` with the default options.
    pub async fn subscribe_all(&self, from: Checkpoint) -> Result<Subscription, StoreError> {
        self.subscribe_all_with(from, SubscriptionOptions::default()).await
    }

    /// Follows all events after `from`. LISTEN is set up before this returns, so an
    /// append that commits afterwards always wakes the subscription.
    pub async fn subscribe_all_with(
        &self,
        from: Checkpoint,
        options: SubscriptionOptions,
    ) -> Result<Subscription, StoreError> {
        let listener =
            if options.listen { Some(self.listener(NOTIFY_CHANNEL, Hears::Notifications).await?) } else { None };
        Ok(Subscription { store: self.clone(), checkpoint: from, options, listener })
    }
}

impl Subscription {
    /// The position after the last event returned so far.
    pub fn checkpoint(&self) -> Checkpoint {
        self.checkpoint
    }

    /// Waits until at least one event follows the checkpoint and returns up to
    /// `batch_size` of them, advancing the checkpoint past them.
    pub async fn next_batch(&mut self) -> Result<Vec<RecordedEvent>, StoreError> {
        let mut backoff = HELD_BACK_FIRST_RETRY;
        loop {
            let (batch, held_back) = self.store.read_all_after_probe(self.checkpoint, self.options.batch_size).await?;
            if let Some(last) = batch.last() {
                self.checkpoint = last.checkpoint();
                return Ok(batch);
            }
            if held_back {
                // Committed events wait behind an in-progress transaction, which may
                // end without a notification (rollback, another database): re-read
                // soon rather than after a whole poll interval.
                tokio::time::sleep(backoff).await;
                backoff = (backoff * 2).min(HELD_BACK_MAX_RETRY.min(self.options.poll_interval));
                continue;
            }
            backoff = HELD_BACK_FIRST_RETRY;
            self.wait().await;
        }
    }

    /// Waits for a notification or the poll interval, whichever comes first.
    async fn wait(&mut self) {
        let interval = self.options.poll_interval;
        let Some(listener) = self.listener.as_mut() else {
            tokio::time::sleep(interval).await;
            return;
        };
        match tokio::time::timeout(interval, listener.recv()).await {
            Ok(Ok(_)) => {
                // One re-read covers every notification already received.
                while listener.next_buffered().is_some() {}
            }
            Ok(Err(e)) => {
                // Listener broken (e.g. database restarting): keep polling at the
                // interval; `recv` reconnects on a later call.
                tracing::warn!(error = %e, "event listener failed; polling");
                tokio::time::sleep(interval).await;
            }
            Err(_elapsed) => {}
        }
    }

    /// The subscription as a stream of single events (never ends on its own; ends
    /// after yielding an error).
    pub fn into_stream(self) -> impl Stream<Item = Result<RecordedEvent, StoreError>> + Send {
        futures::stream::unfold(Some((self, VecDeque::new())), |state| async move {
            let (mut sub, mut buffered) = state?;
            loop {
                if let Some(event) = buffered.pop_front() {
                    return Some((Ok(event), Some((sub, buffered))));
                }
                match sub.next_batch().await {
                    Ok(batch) => buffered.extend(batch),
                    Err(e) => return Some((Err(e), None)),
                }
            }
        })
    }
}
