//! Measures the signals only the database knows, every `ADMISSION_SAMPLE_MS`: how long a
//! pooled connection takes to get (the pool wait every request meets), and on it the age of
//! the oldest due step no runner holds (every replica's runners, so the lag is portal-wide).
//! It also keeps how long each has stood past its threshold ([`PastSince`]), and logs the
//! door closing and opening with the reading that closed it. On the same connection it reads
//! the waiting line (its head, tail and count, for its pace) and purges the tickets nobody
//! carries any more. Each sample adjusts the door's pace ([`pace`]).

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use sqlx::PgPool;
use tokio::sync::watch;
use tokio::task::JoinHandle;

use super::line::{self, Count, LineView};
use super::pace::{self, Pacer, Sample};
use super::signal::{past_capacity, PastSince, Signal, Thresholds};
use super::{tickets, Admission, Line, Load};

/// Over how long the line's pace is measured.
const PACE_OVER: Duration = Duration::from_secs(5);

/// The oldest due step nobody holds, in seconds (0 when none is late).
const LAG_SQL: &str = "SELECT COALESCE(EXTRACT(EPOCH FROM now() - min(due_at)), 0)::float8 FROM due_steps
                        WHERE due_at <= now() AND (lease_until IS NULL OR lease_until < now())";

/// One measurement: the pool wait (a time-out is a wait at least that long) and, when a
/// connection came, the lag and the line's head, tail and count.
pub async fn sample(db: &PgPool) -> (Duration, Result<(Duration, (i64, i64, i64)), sqlx::Error>) {
    let asked = Instant::now();
    let acquired = db.acquire().await;
    let pool_wait = asked.elapsed();
    let measured = match acquired {
        Ok(mut conn) => measure(&mut conn).await,
        Err(error) => Err(error),
    };
    (pool_wait, measured)
}

async fn measure(conn: &mut sqlx::PgConnection) -> Result<(Duration, (i64, i64, i64)), sqlx::Error> {
    let lag = sqlx::query_scalar::<_, f64>(LAG_SQL).fetch_one(&mut *conn).await?;
    tickets::purge_expired(&mut *conn).await?;
    let ends = tickets::look(&mut *conn).await?;
    Ok((Duration::from_secs_f64(lag.max(0.0)), ends))
}

/// The line's looks over the last [`PACE_OVER`], for its pace.
struct Pace {
    since: Instant,
    looks: VecDeque<Count>,
}

impl Pace {
    fn new() -> Self {
        Self { since: Instant::now(), looks: VecDeque::new() }
    }

    fn observe(&mut self, at: Instant, tail: i64, live: i64) -> f64 {
        let now = Count { at: at.saturating_duration_since(self.since), tail, live };
        self.looks.push_back(now);
        while self.looks.front().is_some_and(|first| now.at.saturating_sub(first.at) > PACE_OVER) {
            self.looks.pop_front();
        }
        self.looks.front().map_or(0.0, |first| line::advance_per_sec(*first, now))
    }
}

/// What the sampler keeps between samples.
struct Door {
    load: Arc<Load>,
    thresholds: Thresholds,
    lag_past: PastSince,
    pool_wait_past: PastSince,
    shut_by: Option<Signal>,
    pacer: Option<Arc<Mutex<Pacer>>>,
}

impl Door {
    /// Publishes one sample taken from `started` to `now`, `waiting` whether the line holds
    /// anyone; logs the door closing and opening.
    fn measured(&mut self, lag: Duration, pool_wait: Duration, waiting: bool, started: Instant, now: Instant) {
        let lag_past_for = self.lag_past.observe(lag > self.thresholds.max_lag, started, now);
        let pool_wait_past_for = self.pool_wait_past.observe(pool_wait > self.thresholds.max_pool_wait, started, now);
        self.load.set_lag(lag);
        self.load.set_pool_wait(pool_wait);
        self.load.set_past_for(lag_past_for, pool_wait_past_for);
        let reading = self.load.reading();
        let shut_by = past_capacity(&reading, &self.thresholds);
        match (self.shut_by, shut_by) {
            (None, Some(signal)) => tracing::warn!(
                signal = signal.name(),
                lag_ms = reading.lag.as_millis(),
                pool_wait_ms = reading.pool_wait.as_millis(),
                slots_busy_percent = reading.slots_busy_percent(),
                "past capacity: new attempts wait in line"
            ),
            (Some(_), None) => tracing::info!("back under capacity: new attempts start again"),
            _ => {}
        }
        self.shut_by = shut_by;
        if let Some(pacer) = self.pacer.as_deref() {
            let lagging = pace::lagging(&reading, &self.thresholds);
            super::lock(pacer).adjust(Sample { lagging, door_shut: shut_by.is_some(), waiting }, now);
        }
    }
}

/// Samples every `admission.sample_every` until `stop` turns true.
pub fn spawn(db: PgPool, admission: &Admission, stop: watch::Receiver<bool>) -> JoinHandle<()> {
    let every = admission.sample_every;
    let line = admission.line.clone();
    let mut pace = Pace::new();
    let mut door = Door {
        load: admission.load.clone(),
        thresholds: admission.thresholds.clone(),
        lag_past: PastSince::default(),
        pool_wait_past: PastSince::default(),
        shut_by: None,
        pacer: admission.pacer.clone(),
    };
    tokio::spawn(async move {
        let until = crate::shutdown::stopped(stop);
        tokio::pin!(until);
        loop {
            let started = Instant::now();
            let (pool_wait, measured) = sample(&db).await;
            let lag = match measured {
                Ok((lag, ends)) => {
                    publish_line(&line, &mut pace, ends);
                    lag
                }
                Err(error) => {
                    tracing::warn!(%error, "measuring the runner lag failed; the last one stands");
                    door.load.reading().lag
                }
            };
            let waiting = line.view().waiting() > 0;
            door.measured(lag, pool_wait, waiting, started, Instant::now());
            tokio::select! {
                () = &mut until => break,
                () = tokio::time::sleep(every) => {}
            }
        }
    })
}

fn publish_line(line: &Line, pace: &mut Pace, (head, tail, live): (i64, i64, i64)) {
    let advance_per_sec = pace.observe(Instant::now(), tail, live);
    line.set(&LineView { head, tail, live, advance_per_sec });
}
