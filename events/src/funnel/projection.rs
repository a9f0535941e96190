//! The maintained funnel projection: one row per attempt in `funnel_attempts` (what any funnel
//! question needs of it, [`AttemptFacts`]), kept current from the gap-free global read. Each
//! page of events is folded and written with the checkpoint in one transaction, so a projector
//! killed at any point resumes where its last commit left off, and rows are whole attempts
//! (upserted by id), so nothing is counted twice. The in-memory tracks are only a cache: an
//! attempt not in it is folded again from its stream, up to the checkpoint.
//!
//! [`rebuild`] replays the whole log into `funnel_attempts_next` (resumable the same way) and
//! swaps it in with two renames in one transaction: readers wait a moment, never stop.

use std::collections::HashMap;

use chrono::{DateTime, Duration, Utc};
use serde_json::Value;

use sqlx::{Postgres, Row, Transaction};

use super::track::{flow_of, AttemptFacts, AttemptTrack};
use crate::error::StoreError;
use crate::pii::{KeyRef, Vault};
use crate::store::EventStore;
use crate::stream_id::StreamId;
use crate::types::{Checkpoint, RecordedEvent};

/// The live table, read by the funnel page.
pub const LIVE: &str = "funnel_attempts";
/// Where [`rebuild`] writes before the swap.
pub const NEXT: &str = "funnel_attempts_next";

/// Tracks kept in memory; past it, those idle for a day of log time are dropped (a later event
/// of theirs folds them again from their stream).
const CACHE_LIMIT: usize = 200_000;

/// What one call of [`Projector::step`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// Wrote this many events' worth of rows and moved the checkpoint.
    Wrote(usize),
    /// Nothing after the checkpoint is readable now; `held_back` when committed events wait
    /// behind an older transaction still open.
    CaughtUp { held_back: bool },
    /// Another projector moved the checkpoint first: nothing written, the cache dropped.
    Raced,
}

/// Where a projection stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Standing {
    pub checkpoint: Checkpoint,
    /// Events read since the projection was created.
    pub events: i64,
    pub updated_at: DateTime<Utc>,
}

pub struct Projector {
    store: EventStore,
    table: &'static str,
    page: i64,
    /// The checkpoint this projector last saw committed (the cache reflects exactly it).
    known: Option<Checkpoint>,
    tracks: HashMap<String, AttemptTrack>,
    clock: DateTime<Utc>,
    /// Tags each attempt's person (`funnel::person`); without it, `person` is left as it was.
    persons: Option<Vault>,
}

impl Projector {
    /// A projector of `table` ([`LIVE`] or [`NEXT`]), reading `page` events at a time.
    pub fn new(store: EventStore, table: &'static str, page: i64) -> Self {
        debug_assert!(table == LIVE || table == NEXT);
        Self { store, table, page, known: None, tracks: HashMap::new(), clock: DateTime::<Utc>::MIN_UTC, persons: None }
    }

    /// Keeps each attempt's person current too (what counting people needs).
    pub fn with_persons(mut self, vault: Vault) -> Self {
        self.persons = Some(vault);
        self
    }

    /// One page: read after the stored checkpoint, fold, write the touched attempts and the new
    /// checkpoint in one transaction.
    pub async fn step(&mut self) -> Result<Step, StoreError> {
        let from = match self.known {
            Some(checkpoint) => checkpoint,
            None => standing(self.store.pool(), self.table).await?.checkpoint,
        };
        let (page, held_back) = self.store.read_all_after_probe(from, self.page).await?;
        let Some(last) = page.last().map(RecordedEvent::checkpoint) else {
            self.known = Some(from);
            return Ok(Step::CaughtUp { held_back });
        };
        let mut tx = self.store.pool().begin().await?;
        let stored = lock_checkpoint(&mut tx, self.table).await?;
        if stored != Some(from) {
            // Someone else wrote since we read (another projector, or a rebuild swapped in):
            // our tracks are stale.
            tx.rollback().await?;
            self.tracks.clear();
            self.known = stored;
            return Ok(Step::Raced);
        }
        let mut touched: Vec<String> = Vec::new();
        for event in &page {
            if flow_of(&event.stream_id).is_none() {
                continue;
            }
            if event.recorded_at > self.clock {
                self.clock = event.recorded_at;
            }
            if let Some(track) = self.tracks.get_mut(&event.stream_id) {
                track.observe(event);
            } else if let Some(track) = self.fold_up_to(event, from).await? {
                self.tracks.insert(event.stream_id.clone(), track);
            } else {
                continue;
            }
            if !touched.contains(&event.stream_id) {
                touched.push(event.stream_id.clone());
            }
        }
        let tracks: Vec<&AttemptTrack> = touched.iter().filter_map(|id| self.tracks.get(id)).collect();
        let mut rows: Vec<AttemptFacts> = tracks.iter().map(|t| t.attempt_facts()).collect();
        if let Some(vault) = &self.persons {
            let phones: Vec<KeyRef> = tracks.iter().filter_map(|t| t.proved_phone()).collect();
            let people = super::person::resolve(&mut tx, vault, &phones).await?;
            for (row, track) in rows.iter_mut().zip(&tracks) {
                row.person = track.proved_phone().and_then(|k| people.get(&k).cloned());
            }
        }
        upsert(&mut tx, self.table, &rows, self.persons.is_some()).await?;
        sqlx::query(
            "UPDATE projection_checkpoints SET tx_id = $2, position = $3, events = events + $4, updated_at = now() \
             WHERE projection = $1",
        )
        .bind(self.table)
        .bind(last.tx_id)
        .bind(last.position)
        .bind(page.len() as i64)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        self.known = Some(last);
        self.trim_cache();
        Ok(Step::Wrote(page.len()))
    }

    /// Steps until nothing is readable and nothing is held back; `progress` gets the events
    /// written so far. Returns them.
    pub async fn catch_up(&mut self, mut progress: impl FnMut(u64)) -> Result<u64, StoreError> {
        let mut written = 0u64;
        loop {
            match self.step().await? {
                Step::Wrote(n) => {
                    written += n as u64;
                    progress(written);
                }
                Step::Raced => {}
                Step::CaughtUp { held_back: true } => tokio::time::sleep(std::time::Duration::from_millis(20)).await,
                Step::CaughtUp { held_back: false } => return Ok(written),
            }
        }
    }

    /// The attempt of `event` as it stood at `checkpoint`, then with `event`: folded again from
    /// its stream when the cache does not hold it.
    async fn fold_up_to(
        &self,
        event: &RecordedEvent,
        checkpoint: Checkpoint,
    ) -> Result<Option<AttemptTrack>, StoreError> {
        let earlier = if event.version <= 1 {
            Vec::new()
        } else {
            let stream = StreamId::parse(&event.stream_id)?;
            let mut events = self.store.read_stream(&stream).await?;
            events.retain(|e| e.checkpoint() <= checkpoint);
            events
        };
        let mut events = earlier.iter().chain(std::iter::once(event));
        let Some(first) = events.next() else { return Ok(None) };
        let Some(mut track) = AttemptTrack::start(first) else { return Ok(None) };
        for later in events {
            track.observe(later);
        }
        Ok(Some(track))
    }

    fn trim_cache(&mut self) {
        if self.tracks.len() <= CACHE_LIMIT {
            return;
        }
        let horizon = self.clock - Duration::days(1);
        self.tracks.retain(|_, track| track.last_seen() >= horizon);
        if self.tracks.len() > CACHE_LIMIT {
            self.tracks.clear();
        }
    }
}

/// Where `table`'s projection stands.
pub async fn standing(pool: &sqlx::PgPool, table: &str) -> Result<Standing, StoreError> {
    let row =
        sqlx::query("SELECT tx_id, position, events, updated_at FROM projection_checkpoints WHERE projection = $1")
            .bind(table)
            .fetch_optional(pool)
            .await?;
    match row {
        Some(row) => Ok(Standing {
            checkpoint: Checkpoint { tx_id: row.try_get("tx_id")?, position: row.try_get("position")? },
            events: row.try_get("events")?,
            updated_at: row.try_get("updated_at")?,
        }),
        None => Err(StoreError::Database(sqlx::Error::RowNotFound)),
    }
}

/// Locks `table`'s checkpoint row; `None` when it went away meanwhile (a swap renamed it).
async fn lock_checkpoint(tx: &mut Transaction<'_, Postgres>, table: &str) -> Result<Option<Checkpoint>, StoreError> {
    let row = sqlx::query("SELECT tx_id, position FROM projection_checkpoints WHERE projection = $1 FOR UPDATE")
        .bind(table)
        .fetch_optional(&mut **tx)
        .await?;
    row.map(|row| Ok(Checkpoint { tx_id: row.try_get("tx_id")?, position: row.try_get("position")? })).transpose()
}

/// Writes whole attempts, replacing what was there.
/// `persons`: whether the rows carry their people (else the stored ones stay).
async fn upsert(
    tx: &mut Transaction<'_, Postgres>,
    table: &str,
    rows: &[AttemptFacts],
    persons: bool,
) -> Result<(), StoreError> {
    if rows.is_empty() {
        return Ok(());
    }
    let column = |f: fn(&AttemptFacts) -> String| rows.iter().map(f).collect::<Vec<String>>();
    let marks: Vec<Value> = rows
        .iter()
        .map(|r| Value::from(r.marks.iter().map(|(t, ms)| serde_json::json!([t, ms])).collect::<Vec<_>>()))
        .collect();
    let sql = format!(
        "INSERT INTO {table} (attempt, flow, variant, brand, partner, os, platform, day, started_at, marks, refusal, person, revision) \
         SELECT *, nextval('funnel_revision') FROM UNNEST($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], \
                              $8::date[], $9::timestamptz[], $10::jsonb[], $11::text[], $12::text[]) \
         ON CONFLICT (attempt) DO UPDATE SET variant = excluded.variant, brand = excluded.brand, \
           partner = excluded.partner, os = excluded.os, platform = excluded.platform, day = excluded.day, \
           started_at = excluded.started_at, marks = excluded.marks, refusal = excluded.refusal, \
           person = CASE WHEN $13 THEN excluded.person ELSE {table}.person END, revision = excluded.revision"
    );
    sqlx::query(&sql)
        .bind(column(|r| r.attempt.clone()))
        .bind(column(|r| r.flow.to_string()))
        .bind(column(|r| r.facts.variant.clone()))
        .bind(column(|r| r.facts.brand.clone()))
        .bind(column(|r| r.facts.partner.clone()))
        .bind(column(|r| r.facts.os.clone()))
        .bind(column(|r| r.facts.platform.clone()))
        .bind(rows.iter().map(|r| r.facts.day).collect::<Vec<_>>())
        .bind(rows.iter().map(|r| r.started).collect::<Vec<_>>())
        .bind(marks)
        .bind(rows.iter().map(|r| r.refusal.clone()).collect::<Vec<Option<String>>>())
        .bind(rows.iter().map(|r| r.person.clone()).collect::<Vec<Option<String>>>())
        .bind(persons)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// Starts (or resumes, after a kill) a rebuild into [`NEXT`]: creates it when absent.
/// `fresh` drops a half-built one first.
pub async fn prepare_rebuild(pool: &sqlx::PgPool, fresh: bool) -> Result<(), StoreError> {
    let mut tx = pool.begin().await?;
    if fresh {
        sqlx::query(&format!("DROP TABLE IF EXISTS {NEXT}")).execute(&mut *tx).await?;
        sqlx::query("DELETE FROM projection_checkpoints WHERE projection = $1").bind(NEXT).execute(&mut *tx).await?;
    }
    sqlx::query(&format!("CREATE TABLE IF NOT EXISTS {NEXT} (LIKE {LIVE} INCLUDING ALL)")).execute(&mut *tx).await?;
    let has_checkpoint: bool =
        sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM projection_checkpoints WHERE projection = $1)")
            .bind(NEXT)
            .fetch_one(&mut *tx)
            .await?;
    if !has_checkpoint {
        // A table without its checkpoint (killed between the two) starts over.
        sqlx::query(&format!("TRUNCATE {NEXT}")).execute(&mut *tx).await?;
        sqlx::query("INSERT INTO projection_checkpoints (projection, tx_id, position, events, updated_at) VALUES ($1, 0, 0, 0, now())")
            .bind(NEXT)
            .execute(&mut *tx)
            .await?;
    }
    tx.commit().await?;
    Ok(())
}

/// Puts the rebuilt table in place of the live one, with its checkpoint: the live projector
/// is held on its checkpoint's lock meanwhile, and carries on from the rebuilt checkpoint.
pub async fn swap_in(pool: &sqlx::PgPool) -> Result<(), StoreError> {
    let mut tx = pool.begin().await?;
    lock_checkpoint(&mut tx, LIVE).await?;
    lock_checkpoint(&mut tx, NEXT).await?;
    let old = "funnel_attempts_old";
    for sql in [
        format!("DROP TABLE IF EXISTS {old}"),
        format!("ALTER TABLE {LIVE} RENAME TO {old}"),
        format!("ALTER TABLE {NEXT} RENAME TO {LIVE}"),
        format!("DROP TABLE {old}"),
    ] {
        sqlx::query(&sql).execute(&mut *tx).await?;
    }
    sqlx::query("DELETE FROM projection_checkpoints WHERE projection = $1").bind(LIVE).execute(&mut *tx).await?;
    sqlx::query("UPDATE projection_checkpoints SET projection = $1, updated_at = now() WHERE projection = $2")
        .bind(LIVE)
        .bind(NEXT)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(())
}

/// Rebuilds the projection from the start of the log and swaps it in (resuming a rebuild a
/// kill interrupted unless `fresh`). Returns the events replayed.
/// With `persons`, each attempt's person is tagged too (see [`Projector::with_persons`]).
pub async fn rebuild(
    store: &EventStore,
    persons: Option<Vault>,
    page: i64,
    fresh: bool,
    progress: impl FnMut(u64),
) -> Result<u64, StoreError> {
    prepare_rebuild(store.pool(), fresh).await?;
    let mut projector = Projector::new(store.clone(), NEXT, page);
    if let Some(vault) = persons {
        projector = projector.with_persons(vault);
    }
    let written = projector.catch_up(progress).await?;
    swap_in(store.pool()).await?;
    Ok(written)
}
