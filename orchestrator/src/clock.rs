//! One clock: the database's. Several orchestrator processes share the data, and times are
//! recorded by PostgreSQL (`recorded_at`, leases, due times, secret expiries); comparing them with
//! an application's own clock would mix two clocks that need not agree.

use chrono::{DateTime, Utc};

/// The database's `now()`. Inside a transaction this is the transaction's start, the very time
/// its appended events are recorded with.
pub async fn now<'e>(db: impl sqlx::PgExecutor<'e>) -> Result<DateTime<Utc>, sqlx::Error> {
    sqlx::query_scalar("SELECT now()").fetch_one(db).await
}
