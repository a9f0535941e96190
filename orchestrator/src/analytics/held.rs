//! The funnel page's recent days, held in memory (`events::funnel::hot`): a 30-day question
//! reads about 140,000 attempts, and PostgreSQL alone takes about 100 ms to hand them over
//! (docs/benchmarks.md). Before each question the held attempts are brought up to the
//! projection's latest revision (the rows written since, usually a handful), so an answer is
//! as current as the projection; a rebuilt projection (a new generation) is loaded again.
//! Questions reaching before the first day held are answered from the projection as before.

use std::sync::Arc;

use chrono::{Duration, NaiveDate, Utc};
use events::funnel::hot::HotFunnels;
use events::funnel::projection::LIVE;
use events::funnel::read::{self, Changed};
use events::funnel::{sao_paulo, Count, DrillDown, DroppedPage, FunnelAnswer, FunnelQuery};
use events::StoreError;
use sqlx::PgPool;
use tokio::sync::{Mutex, OwnedMutexGuard};
use uuid::Uuid;

use crate::error::ApiError;

/// What is held, and the projection it reflects.
pub struct Held {
    funnels: HotFunnels,
    generation: Uuid,
    revision: i64,
}

/// The held days of one process.
#[derive(Clone)]
pub struct HeldFunnels {
    days: u32,
    held: Arc<Mutex<Option<Held>>>,
}

impl HeldFunnels {
    /// Holds the last `days` São Paulo days (today included); 0 holds nothing.
    pub fn new(days: u32) -> Self {
        Self { days, held: Arc::new(Mutex::new(None)) }
    }

    fn first_day(&self) -> NaiveDate {
        let today = Utc::now().with_timezone(&sao_paulo()).date_naive();
        today - Duration::days(i64::from(self.days.saturating_sub(1)))
    }

    /// Brings the held attempts up to the projection now; `None` when nothing is held.
    pub async fn catch_up(&self, pool: &PgPool) -> Result<Option<OwnedMutexGuard<Option<Held>>>, StoreError> {
        if self.days == 0 {
            return Ok(None);
        }
        let mut guard = self.held.clone().lock_owned().await;
        let generation: Option<Uuid> =
            sqlx::query_scalar("SELECT generation FROM projection_checkpoints WHERE projection = $1")
                .bind(LIVE)
                .fetch_optional(pool)
                .await?;
        let Some(generation) = generation else { return Ok(None) };
        let first_day = self.first_day();
        match guard.as_mut() {
            Some(held) if held.generation == generation => {
                held.funnels.forget_before(first_day);
                let funnels = &mut held.funnels;
                if let Some(revision) =
                    read::changed(pool, Changed::After(held.revision), |row| funnels.upsert(&row)).await?
                {
                    held.revision = revision;
                }
            }
            _ => {
                let mut funnels = HotFunnels::new(first_day);
                let started = std::time::Instant::now();
                let revision = read::changed(pool, Changed::From(first_day), |row| funnels.upsert(&row)).await?;
                tracing::info!(attempts = funnels.len(), ms = started.elapsed().as_millis() as u64, %first_day, "funnel page: recent days loaded into memory");
                *guard = Some(Held { funnels, generation, revision: revision.unwrap_or(0) });
            }
        }
        Ok(Some(guard))
    }

    /// Attempts held now (0 before the first load).
    pub async fn attempts_held(&self) -> usize {
        self.held.lock().await.as_ref().map_or(0, |held| held.funnels.len())
    }

    /// `query` answered from the held days, or `None` when they do not cover it.
    pub async fn answer(
        &self,
        pool: &PgPool,
        query: &FunnelQuery,
        count: Count,
    ) -> Result<Option<FunnelAnswer>, ApiError> {
        let asked = query.clone();
        self.with_held(pool, query, move |funnels| funnels.answer(&asked, count)).await
    }

    /// The drill-down from the held days, or `None` when they do not cover it.
    pub async fn dropped(
        &self,
        pool: &PgPool,
        query: &FunnelQuery,
        count: Count,
        drill: DrillDown,
    ) -> Result<Option<DroppedPage>, ApiError> {
        let asked = query.clone();
        self.with_held(pool, query, move |funnels| funnels.dropped(&asked, count, &drill)).await
    }

    /// Runs `ask` over the held days caught up, off the async workers (a question folds up to a
    /// few hundred thousand attempts).
    async fn with_held<T: Send + 'static>(
        &self,
        pool: &PgPool,
        query: &FunnelQuery,
        ask: impl FnOnce(&HotFunnels) -> T + Send + 'static,
    ) -> Result<Option<T>, ApiError> {
        let Some(guard) = self.catch_up(pool).await? else { return Ok(None) };
        if !guard.as_ref().is_some_and(|held| held.funnels.covers(query)) {
            return Ok(None);
        }
        let answer = tokio::task::spawn_blocking(move || guard.as_ref().map(|held| ask(&held.funnels)))
            .await
            .map_err(|error| ApiError::Internal(anyhow::anyhow!("a funnel question stopped: {error}")))?;
        Ok(answer)
    }
}
