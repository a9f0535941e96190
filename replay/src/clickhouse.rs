//! `replay export --clickhouse URL`: the funnel projection's attempts streamed into a ClickHouse
//! table over its HTTP interface, one row per funnel-step event (no personal data), for when
//! the log outgrows one PostgreSQL. Resumable: rows go in the order the projection wrote them
//! (`revision`), and the last revision ClickHouse acknowledged is kept in PostgreSQL
//! (`export_checkpoints`). An attempt that moved is sent again whole, with a higher revision;
//! the table is a `ReplacingMergeTree(revision)`, so `FINAL` reads keep its latest rows. A
//! rebuilt projection (a new generation) is exported again from the start into a new table.

use anyhow::{bail, Context};
use events::funnel::projection::{standing, LIVE};
use events::funnel::read::marks_of;
use events::funnel::FunnelQuery;
use serde_json::{json, Value};
use sqlx::{PgPool, Row};
use uuid::Uuid;

/// A ClickHouse server's HTTP interface and the table the export writes.
#[derive(Debug, Clone)]
pub struct ClickHouse {
    http: reqwest::Client,
    url: reqwest::Url,
    table: String,
}

impl ClickHouse {
    pub fn new(url: &str, table: &str) -> anyhow::Result<Self> {
        let url = reqwest::Url::parse(url).context("--clickhouse is not a URL (http://host:8123)")?;
        if !table.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') || table.is_empty() {
            bail!("--clickhouse-table must be letters, digits and _");
        }
        Ok(Self { http: reqwest::Client::new(), url, table: table.to_string() })
    }

    pub fn table(&self) -> &str {
        &self.table
    }

    /// Where this export stands in `export_checkpoints`: host, port and table, never the
    /// credentials a URL may carry.
    pub fn target(&self) -> String {
        format!(
            "clickhouse://{}:{}/{}",
            self.url.host_str().unwrap_or("?"),
            self.url.port_or_known_default().unwrap_or(0),
            self.table
        )
    }

    /// Runs one statement; `body` follows the statement (the rows of an INSERT).
    pub async fn run(&self, statement: &str, body: Option<String>) -> anyhow::Result<String> {
        let request = match body {
            None => self.http.post(self.url.clone()).body(statement.to_string()),
            Some(rows) => self.http.post(self.url.clone()).query(&[("query", statement)]).body(rows),
        };
        // The URL may carry a password: never in an error.
        let response =
            request.send().await.map_err(|e| anyhow::anyhow!("ClickHouse unreachable: {}", e.without_url()))?;
        let status = response.status();
        let text =
            response.text().await.map_err(|e| anyhow::anyhow!("reading ClickHouse's answer: {}", e.without_url()))?;
        if !status.is_success() {
            bail!("ClickHouse refused ({status}): {}", text.trim());
        }
        Ok(text)
    }

    async fn create(&self) -> anyhow::Result<()> {
        let statement = format!(
            "CREATE TABLE IF NOT EXISTS {} (attempt String, flow String, variant String, partner String, brand String, \
             os String, platform String, day Date, started_at DateTime, idx UInt16, step_event String, \
             offset_ms UInt32, refusal String, revision UInt64) \
             ENGINE = ReplacingMergeTree(revision) PARTITION BY flow ORDER BY (flow, attempt, idx)",
            self.table
        );
        self.run(&statement, None).await.map(drop)
    }
}

/// What an export did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Exported {
    pub attempts: u64,
    pub rows: u64,
    /// The projection was rebuilt since the last export: the table was filled again.
    pub restarted: bool,
}

/// The rows of one projected attempt (`offset_ms` clamped to u32: 49 days, beyond any window
/// the export is asked with).
fn rows_of(row: &sqlx::postgres::PgRow, out: &mut String) -> anyhow::Result<u64> {
    let marks = marks_of(&row.try_get::<Value, _>("marks")?);
    let started: chrono::DateTime<chrono::Utc> = row.try_get("started_at")?;
    let day: chrono::NaiveDate = row.try_get("day")?;
    let revision: i64 = row.try_get("revision")?;
    let refusal: Option<String> = row.try_get("refusal")?;
    let text = |name: &str| row.try_get::<String, _>(name);
    let (attempt, flow, variant, partner, brand, os, platform) = (
        text("attempt")?,
        text("flow")?,
        text("variant")?,
        text("partner")?,
        text("brand")?,
        text("os")?,
        text("platform")?,
    );
    for (idx, (event, offset)) in marks.iter().enumerate() {
        let line = json!({
            "attempt": attempt, "flow": flow, "variant": variant, "partner": partner, "brand": brand,
            "os": os, "platform": platform, "day": day.to_string(),
            "started_at": started.format("%Y-%m-%d %H:%M:%S").to_string(),
            "idx": idx, "step_event": event, "offset_ms": (*offset).clamp(0, i64::from(u32::MAX)),
            "refusal": refusal.as_deref().unwrap_or(""), "revision": revision,
        });
        out.push_str(&line.to_string());
        out.push('\n');
    }
    Ok(marks.len() as u64)
}

/// Sends what the projection wrote since the last export, `page` attempts per insert;
/// `progress` gets the attempts sent so far.
pub async fn export(
    pool: &PgPool,
    clickhouse: &ClickHouse,
    page: i64,
    mut progress: impl FnMut(u64),
) -> anyhow::Result<Exported> {
    let target = clickhouse.target();
    let generation: Uuid = sqlx::query_scalar("SELECT generation FROM projection_checkpoints WHERE projection = $1")
        .bind(LIVE)
        .fetch_one(pool)
        .await
        .context("reading the projection's generation")?;
    let stored: Option<(Uuid, i64)> =
        sqlx::query_as("SELECT generation, revision FROM export_checkpoints WHERE target = $1")
            .bind(&target)
            .fetch_optional(pool)
            .await?;
    let restarted = stored.is_some_and(|(g, _)| g != generation);
    let mut revision = match stored {
        Some((g, revision)) if g == generation => revision,
        _ => 0,
    };
    if restarted {
        clickhouse.run(&format!("DROP TABLE IF EXISTS {}", clickhouse.table()), None).await?;
    }
    clickhouse.create().await?;
    let mut done = Exported { attempts: 0, rows: 0, restarted };
    loop {
        // Rows commit in revision order (the projector writes under its checkpoint's lock),
        // so nothing below the last revision read can still appear.
        let rows = sqlx::query(&format!(
            "SELECT attempt, flow, variant, brand, partner, os, platform, day, started_at, marks, refusal, revision \
             FROM {LIVE} WHERE revision > $1 ORDER BY revision LIMIT $2"
        ))
        .bind(revision)
        .bind(page)
        .fetch_all(pool)
        .await?;
        let Some(last) = rows.last() else { break };
        let last: i64 = last.try_get("revision")?;
        let mut body = String::new();
        for row in &rows {
            done.rows += rows_of(row, &mut body)?;
        }
        if !body.is_empty() {
            clickhouse.run(&format!("INSERT INTO {} FORMAT JSONEachRow", clickhouse.table()), Some(body)).await?;
        }
        sqlx::query(
            "INSERT INTO export_checkpoints (target, generation, revision, updated_at) VALUES ($1, $2, $3, now()) \
             ON CONFLICT (target) DO UPDATE SET generation = excluded.generation, revision = excluded.revision, updated_at = now()",
        )
        .bind(&target)
        .bind(generation)
        .bind(last)
        .execute(pool)
        .await?;
        revision = last;
        done.attempts += rows.len() as u64;
        progress(done.attempts);
    }
    // A projection that has not moved past the last export is fine; one never run is not.
    standing(pool, LIVE).await?;
    Ok(done)
}

fn quoted(text: &str) -> String {
    format!("'{}'", text.replace('\\', "\\\\").replace('\'', "\\'"))
}

/// ClickHouse's `windowFunnel` over the export for `query` (sequential order): how many
/// attempts reached each level. The query in docs/funnels.md.
pub fn window_funnel_sql(table: &str, query: &FunnelQuery) -> String {
    let conditions: Vec<String> = query
        .funnel
        .steps
        .iter()
        .map(|step| format!("step_event IN ({})", step.events.iter().map(|e| quoted(e)).collect::<Vec<_>>().join(", ")))
        .collect();
    let variant = query.funnel.variant.map(|v| format!(" AND variant = {}", quoted(v))).unwrap_or_default();
    format!(
        "SELECT level, count() AS attempts FROM (\
           SELECT attempt, windowFunnel({window})(offset_ms, {conditions}) AS level \
           FROM {table} FINAL WHERE flow = {flow}{variant} AND day BETWEEN '{from}' AND '{to}' GROUP BY attempt) \
         GROUP BY level ORDER BY level FORMAT JSONEachRow",
        window = query.window.num_milliseconds(),
        conditions = conditions.join(", "),
        flow = quoted(query.funnel.flow),
        from = query.from,
        to = query.to,
    )
}

/// Attempts that entered each step, by `windowFunnel`.
pub async fn window_funnel(clickhouse: &ClickHouse, query: &FunnelQuery) -> anyhow::Result<Vec<u64>> {
    let text = clickhouse.run(&window_funnel_sql(clickhouse.table(), query), None).await?;
    let mut entered = vec![0u64; query.funnel.steps.len()];
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let row: Value = serde_json::from_str(line).context("ClickHouse's JSONEachRow")?;
        let number = |v: &Value| v.as_u64().or_else(|| v.as_str().and_then(|s| s.parse().ok()));
        let (level, attempts) =
            (number(&row["level"]).context("level")?, number(&row["attempts"]).context("attempts")?);
        for slot in entered.iter_mut().take(level as usize) {
            *slot += attempts;
        }
    }
    Ok(entered)
}
