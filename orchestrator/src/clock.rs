//! One clock: the database's. Several orchestrator processes share the data, and times are
//! recorded by PostgreSQL (`recorded_at`, leases, due times, secret expiries); comparing them with
//! an application's own clock would mix two clocks that need not agree.

use std::sync::Mutex;
use std::time::{Duration, Instant};

use chrono::{DateTime, Utc};
use events::RecordedEvent;

/// The database's `now()`. Inside a transaction this is the transaction's start, the very time
/// its appended events are recorded with.
pub async fn now<'e>(db: impl sqlx::PgExecutor<'e>) -> Result<DateTime<Utc>, sqlx::Error> {
    sqlx::query_scalar("SELECT now()").fetch_one(db).await
}

/// How long a reading of the database's clock is carried forward before it is read again.
const REREAD: Duration = Duration::from_secs(5);

/// The last reading: when (this process's monotonic clock) and what the database said.
static READING: Mutex<Option<(Instant, DateTime<Utc>)>> = Mutex::new(None);

/// The database's clock for a read outside any transaction (a view, a command's decision),
/// without a round trip each time (issue 15: it was a fifth of the statements an attempt cost):
/// the last reading of `now()`, at most [`REREAD`] old, carried forward by this process's
/// monotonic clock, and never before the newest event of `history` (which the caller read,
/// so it was committed before this moment). The carried reading is off by the reading's
/// one-way latency and the two clocks' drift over five seconds: well under a millisecond.
pub async fn current(db: &sqlx::PgPool, history: &[RecordedEvent]) -> Result<DateTime<Utc>, sqlx::Error> {
    let carried = {
        let reading = READING.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        reading.and_then(|(at, db_now)| {
            let elapsed = at.elapsed();
            (elapsed < REREAD).then(|| db_now + chrono::Duration::from_std(elapsed).unwrap_or_default())
        })
    };
    let now = match carried {
        Some(now) => now,
        None => {
            let db_now = now(db).await?;
            *READING.lock().unwrap_or_else(|poisoned| poisoned.into_inner()) = Some((Instant::now(), db_now));
            db_now
        }
    };
    Ok(history.iter().map(|e| e.recorded_at).max().map_or(now, |newest| now.max(newest)))
}
