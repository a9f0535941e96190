//! A transaction whose appends are announced after it commits.

use std::ops::{Deref, DerefMut};

use sqlx::{PgConnection, Postgres, Transaction};

use super::append::{append_on, lock_streams};
use super::EventStore;
use crate::error::StoreError;
use crate::stream_id::StreamId;
use crate::types::{AppendOutcome, ExpectedVersion, NewEvent};

/// A database transaction for appending events together with writes of the caller's
/// own tables (`&mut *tx` is a `PgConnection`). Unlike [`EventStore::append_in_tx`],
/// its appends NOTIFY after the commit, so concurrent commits are not serialized
/// (docs/event-store.md, "Notifications"). Dropping it without `commit` rolls back.
pub struct StoreTransaction {
    tx: Transaction<'static, Postgres>,
    store: EventStore,
    /// The streams appended to, named in the NOTIFY after the commit.
    appended: Vec<String>,
}

impl EventStore {
    /// Begins a [`StoreTransaction`] on a connection of the pool.
    pub async fn begin(&self) -> Result<StoreTransaction, StoreError> {
        Ok(StoreTransaction { tx: self.pool.begin().await?, store: self.clone(), appended: Vec::new() })
    }
}

impl StoreTransaction {
    /// Same as [`EventStore::append`], inside this transaction.
    pub async fn append(
        &mut self,
        stream: &StreamId,
        expected: ExpectedVersion,
        events: Vec<NewEvent>,
    ) -> Result<AppendOutcome, StoreError> {
        let outcome = append_on(&mut self.tx, stream, expected, &events, false).await?;
        self.appended.push(stream.as_str().to_string());
        Ok(outcome)
    }

    /// Appends to several streams, their locks taken first in one fixed order (see
    /// [`EventStore::append_all_in_tx`]): the way to write more than one stream in a transaction.
    pub async fn append_all(
        &mut self,
        batches: Vec<(StreamId, ExpectedVersion, Vec<NewEvent>)>,
    ) -> Result<Vec<AppendOutcome>, StoreError> {
        lock_streams(&mut self.tx, batches.iter().map(|(stream, _, _)| stream)).await?;
        let mut outcomes = Vec::with_capacity(batches.len());
        for (stream, expected, events) in batches {
            outcomes.push(append_on(&mut self.tx, &stream, expected, &events, false).await?);
            self.appended.push(stream.as_str().to_string());
        }
        Ok(outcomes)
    }

    /// Commits, then wakes subscribers if anything was appended.
    pub async fn commit(self) -> Result<(), StoreError> {
        self.tx.commit().await?;
        if !self.appended.is_empty() {
            self.store.notifier.committed(&self.store.pool, self.appended.iter().map(String::as_str)).await;
        }
        Ok(())
    }

    pub async fn rollback(self) -> Result<(), StoreError> {
        Ok(self.tx.rollback().await?)
    }
}

impl Deref for StoreTransaction {
    type Target = PgConnection;
    fn deref(&self) -> &PgConnection {
        &self.tx
    }
}

impl DerefMut for StoreTransaction {
    fn deref_mut(&mut self) -> &mut PgConnection {
        &mut self.tx
    }
}
