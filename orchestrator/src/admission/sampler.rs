//! Measures the signals only the database knows, every `ADMISSION_SAMPLE_MS`: how long a
//! pooled connection takes to get (the pool wait every request meets), and on it the age of
//! the oldest due step no runner holds (every replica's runners, so the lag is portal-wide).

use std::sync::Arc;
use std::time::{Duration, Instant};

use sqlx::PgPool;
use tokio::sync::watch;
use tokio::task::JoinHandle;

use super::Load;

/// The oldest due step nobody holds, in seconds (0 when none is late).
const LAG_SQL: &str = "SELECT COALESCE(EXTRACT(EPOCH FROM now() - min(due_at)), 0)::float8 FROM due_steps
                        WHERE due_at <= now() AND (lease_until IS NULL OR lease_until < now())";

/// One measurement into `load`.
pub async fn sample(db: &PgPool, load: &Load) -> Result<(), sqlx::Error> {
    let asked = Instant::now();
    let acquired = db.acquire().await;
    // A time-out is a wait at least that long: the door closes on it.
    load.set_pool_wait(asked.elapsed());
    let mut conn = acquired?;
    let lag: f64 = sqlx::query_scalar(LAG_SQL).fetch_one(&mut *conn).await?;
    load.set_lag(Duration::from_secs_f64(lag.max(0.0)));
    Ok(())
}

/// Samples until `stop` turns true.
pub fn spawn(db: PgPool, load: Arc<Load>, every: Duration, stop: watch::Receiver<bool>) -> JoinHandle<()> {
    tokio::spawn(async move {
        let until = crate::shutdown::stopped(stop);
        tokio::pin!(until);
        loop {
            if let Err(error) = sample(&db, &load).await {
                tracing::warn!(%error, "measuring the admission signals failed");
            }
            tokio::select! {
                () = &mut until => break,
                () = tokio::time::sleep(every) => {}
            }
        }
    })
}
