//! Where the console's look-ups and the funnel page read (issue 28): a standby when
//! `DATABASE_READ_URL` names one, the primary otherwise. Nothing here writes: the audit of a
//! look-up, the staff trail and every command stay on the primary's pool.

use events::pii::Vault;
use events::EventStore;
use sqlx::PgPool;

/// The read side: the same store and vault, over the pool reads go to.
#[derive(Clone)]
pub struct Reads {
    pub db: PgPool,
    pub store: EventStore,
    pub vault: Vault,
}

/// How far behind the primary the read side is, in seconds: 0 on a primary, and 0 on a standby
/// whose WAL receiver runs (its row, with the pid any role may see: the status column needs
/// pg_read_all_stats) and that has replayed everything it received (an idle primary sends
/// nothing new, and the time since its last transaction is not lag); otherwise (behind, or cut
/// off from the primary and so behind by an unknown amount) the age of the last transaction
/// replayed.
const LAG_SQL: &str = "SELECT CASE \
       WHEN NOT pg_is_in_recovery() THEN 0 \
       WHEN pg_last_wal_receive_lsn() IS NOT DISTINCT FROM pg_last_wal_replay_lsn() \
            AND EXISTS (SELECT 1 FROM pg_stat_wal_receiver WHERE pid IS NOT NULL) THEN 0 \
       ELSE coalesce(extract(epoch FROM now() - pg_last_xact_replay_timestamp()), 0) \
     END::float8";

/// Past this lag the pages say their figures may be behind (the "over a second").
pub const SHOWN_LAG_SECONDS: f64 = 1.0;

impl Reads {
    /// Reads through `pool` with the primary's vault keys.
    pub fn on(pool: PgPool, vault: &Vault) -> Self {
        Self { store: EventStore::new(pool.clone()), vault: vault.reading_through(pool.clone()), db: pool }
    }

    /// The read side's lag behind the primary, in whole tenths of a second.
    pub async fn lag_seconds(&self) -> Result<f64, sqlx::Error> {
        let lag: f64 = sqlx::query_scalar(LAG_SQL).fetch_one(&self.db).await?;
        Ok((lag.max(0.0) * 10.0).round() / 10.0)
    }
}
