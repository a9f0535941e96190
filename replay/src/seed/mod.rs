//! `replay seed`: a synthetic history for benchmarks and demos. Attempts come from
//! [`scripts`] (the flows' own `decide`/`evolve`), personal data is sealed as the
//! orchestrator seals it ([`events::pii::bulk::BulkSealer`]), and everything is written with
//! COPY, one transaction per batch, so a history of millions of events takes minutes.

pub mod journey;
pub mod scripts;

use std::time::Instant;

use anyhow::{bail, Context};
use chrono::{Duration, Utc};
use events::flow::{SECRET_CLEAR_MARKER, SECRET_MARKER};
use events::pii::bulk::{BulkRows, BulkSealer};
use events::pii::Keys;
use events::StreamId;
use indicatif::ProgressBar;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde_json::{json, Value};
use sqlx::PgPool;
use uuid::Uuid;

/// The flows whose streams are visitors' attempts.
const ATTEMPT_FLOWS: [&str; 3] = ["activation", "download", "cloud"];

#[derive(Debug, Clone)]
pub struct SeedOptions {
    pub attempts: u64,
    pub days: u32,
    pub seed: u64,
    /// Write even into a database that holds real (not seeded) attempts.
    pub force: bool,
    /// Attempts per transaction.
    pub batch: usize,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeedReport {
    pub attempts: u64,
    pub events: u64,
    pub people: usize,
}

/// Whether the database holds attempts a seed did not write.
pub async fn holds_real_attempts(pool: &PgPool) -> sqlx::Result<bool> {
    sqlx::query_scalar(
        "SELECT EXISTS (SELECT 1 FROM events WHERE category = ANY($1) AND NOT coalesce(metadata->'client' ? 'seed', false))",
    )
    .bind(&ATTEMPT_FLOWS[..])
    .fetch_one(pool)
    .await
}

pub async fn seed(
    pool: &PgPool,
    keys: Keys,
    options: &SeedOptions,
    progress: &ProgressBar,
) -> anyhow::Result<SeedReport> {
    if options.attempts == 0 || options.days == 0 || options.batch == 0 {
        bail!("--attempts, --days and the batch size must be at least 1");
    }
    if !options.force && holds_real_attempts(pool).await? {
        bail!("this database holds real attempts; seeding it would mix synthetic visitors into them (pass --force to do it anyway)");
    }
    let mut rng = StdRng::seed_from_u64(options.seed);
    let end = Utc::now();
    let span_secs = i64::from(options.days) * 86_400;
    let people = (options.attempts * 6 / 10).max(1);
    let mut sealer = BulkSealer::new(keys);
    let mut report = SeedReport { attempts: 0, events: 0, people: 0 };
    let started = Instant::now();
    while report.attempts < options.attempts {
        let n = (options.attempts - report.attempts).min(options.batch as u64);
        let mut batch = Batch::default();
        let mut drawn = Vec::with_capacity(n as usize);
        for i in report.attempts..report.attempts + n {
            // Attempts start in time order (as a real log is written), a few seconds apart.
            let at = end - Duration::seconds(span_secs)
                + Duration::milliseconds(
                    (i128::from(span_secs) * 1000 * i128::from(i) / i128::from(options.attempts)) as i64,
                );
            let who = scripts::visitor(rng.gen_range(0..people));
            let attempt = scripts::attempt(&mut rng, at, &who)?;
            let stream = StreamId::from_parts(attempt.flow, uuid::Builder::from_random_bytes(rng.gen()).into_uuid())?;
            drawn.push((stream, attempt));
        }
        remember_known_people(pool, &mut sealer, &drawn).await?;
        for (stream, attempt) in &drawn {
            batch.add(&mut sealer, &mut rng, stream, attempt, options.seed)?;
        }
        let rows = sealer.take_rows();
        let written = batch.write(pool, rows).await?;
        report.attempts += n;
        report.events += written;
        progress.inc(n);
        progress.set_message(format!("{} eventos", report.events));
    }
    report.people = sealer.people();
    tracing::info!(
        attempts = report.attempts,
        events = report.events,
        secs = started.elapsed().as_secs_f64(),
        "seeded"
    );
    Ok(report)
}

/// People of this batch whom an earlier seed already wrote: their subjects are reused, as the
/// portal would find them by look-up, instead of clashing with their look-up rows.
async fn remember_known_people(
    pool: &PgPool,
    sealer: &mut BulkSealer,
    drawn: &[(StreamId, scripts::SeedAttempt)],
) -> anyhow::Result<()> {
    let mut wanted = Vec::new();
    for (_, attempt) in drawn {
        for event in &attempt.events {
            sealer.unknown_lookups(&event.payload, &mut wanted)?;
        }
    }
    if wanted.is_empty() {
        return Ok(());
    }
    let kinds: Vec<&str> = wanted.iter().map(|(k, _)| k.as_str()).collect();
    let hmacs: Vec<Vec<u8>> = wanted.iter().map(|(_, h)| h.clone()).collect();
    let rows: Vec<(String, Vec<u8>, Uuid, Vec<u8>)> = sqlx::query_as(
        "SELECT k.kind, k.hmac, s.subject_id, s.wrapped_key FROM unnest($1::text[], $2::bytea[]) AS w(kind, hmac) \
         JOIN pii_lookup k ON k.kind = w.kind AND k.hmac = w.hmac JOIN pii_subjects s ON s.subject_id = k.subject_id",
    )
    .bind(&kinds)
    .bind(&hmacs)
    .fetch_all(pool)
    .await?;
    for (kind, hmac, subject, wrapped) in rows {
        sealer.remember(kind.parse()?, hmac, subject, &wrapped)?;
    }
    Ok(())
}

/// One transaction's rows, as CSV for COPY.
#[derive(Default)]
struct Batch {
    events: String,
    attempts: String,
    count: u64,
}

impl Batch {
    fn add(
        &mut self,
        sealer: &mut BulkSealer,
        rng: &mut StdRng,
        stream: &StreamId,
        attempt: &scripts::SeedAttempt,
        seed: u64,
    ) -> anyhow::Result<()> {
        sealer.begin_stream(stream.as_str());
        let correlation = uuid::Builder::from_random_bytes(rng.gen()).into_uuid();
        let mut client = attempt.client.clone();
        client["seed"] = json!(seed);
        for (i, event) in attempt.events.iter().enumerate() {
            let mut payload = event.payload.clone();
            sealer.seal_markers(&mut payload, event.at)?;
            // Secrets (SMS codes, OAuth codes) would have expired long ago: only their
            // reference is left, as in a real history.
            replace_secrets(&mut payload);
            let metadata = json!({
                "correlation_id": correlation,
                "actor": event.actor,
                "client": if event.actor == "visitor" { client.clone() } else { json!({ "seed": seed }) },
            });
            csv_row(
                &mut self.events,
                &[
                    stream.as_str(),
                    &(i + 1).to_string(),
                    &event.event_type,
                    "1",
                    &payload.to_string(),
                    &metadata.to_string(),
                    &event.at.to_rfc3339(),
                ],
            );
            self.count += 1;
        }
        let first = attempt.events.first().map(|e| e.at).unwrap_or_else(Utc::now);
        let session: [u8; 32] = rng.gen();
        csv_row(
            &mut self.attempts,
            &[stream.as_str(), attempt.flow, &format!("\\x{}", hex::encode(session)), &first.to_rfc3339()],
        );
        Ok(())
    }

    async fn write(self, pool: &PgPool, rows: BulkRows) -> anyhow::Result<u64> {
        let mut subjects = String::new();
        for r in &rows.subjects {
            csv_row(&mut subjects, &[&r.subject_id.to_string(), &format!("\\x{}", hex::encode(&r.wrapped_key))]);
        }
        let mut lookups = String::new();
        for r in &rows.lookups {
            csv_row(
                &mut lookups,
                &[r.kind.as_str(), &format!("\\x{}", hex::encode(&r.hmac)), &r.subject_id.to_string()],
            );
        }
        let mut links = String::new();
        for r in &rows.links {
            csv_row(
                &mut links,
                &[&r.subject_id.to_string(), &r.stream_id, &r.linked_at.to_rfc3339(), &r.link_id.to_string()],
            );
        }
        let mut tags = String::new();
        for r in &rows.tags {
            csv_row(&mut tags, &[r.kind.as_str(), &format!("\\x{}", hex::encode(&r.hmac)), &r.link_id.to_string()]);
        }
        let mut tx = pool.begin().await?;
        for (copy, data) in [
            ("COPY pii_subjects (subject_id, wrapped_key) FROM STDIN (FORMAT csv)", subjects),
            ("COPY pii_lookup (kind, hmac, subject_id) FROM STDIN (FORMAT csv)", lookups),
            ("COPY pii_stream_links (subject_id, stream_id, linked_at, link_id) FROM STDIN (FORMAT csv)", links),
            ("COPY pii_value_tags (kind, hmac, link_id) FROM STDIN (FORMAT csv)", tags),
            ("COPY attempts (stream_id, flow, session_hash, created_at) FROM STDIN (FORMAT csv)", self.attempts),
            (
                "COPY events (stream_id, version, event_type, schema_version, payload, metadata, recorded_at) FROM STDIN (FORMAT csv)",
                self.events,
            ),
        ] {
            if data.is_empty() {
                continue;
            }
            let mut sink = tx.copy_in_raw(copy).await.with_context(|| copy.to_string())?;
            sink.send(data.into_bytes()).await?;
            sink.finish().await.with_context(|| copy.to_string())?;
        }
        tx.commit().await?;
        Ok(self.count)
    }
}

fn replace_secrets(value: &mut Value) {
    match value {
        Value::Object(map) if map.contains_key(SECRET_CLEAR_MARKER) => {
            *value = json!({ SECRET_MARKER: format!("s-{}", Uuid::new_v4()) });
        }
        Value::Object(map) => map.values_mut().for_each(replace_secrets),
        Value::Array(items) => items.iter_mut().for_each(replace_secrets),
        _ => {}
    }
}

/// Appends one CSV line: every field quoted, quotes doubled.
fn csv_row(out: &mut String, fields: &[&str]) {
    for (i, field) in fields.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push('"');
        out.push_str(&field.replace('"', "\"\""));
        out.push('"');
    }
    out.push('\n');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_fields_are_quoted_with_quotes_doubled() {
        let mut out = String::new();
        csv_row(&mut out, &["a", r#"{"k": "v,1"}"#]);
        assert_eq!(out, "\"a\",\"{\"\"k\"\": \"\"v,1\"\"}\"\n");
    }

    #[test]
    fn secrets_leave_only_a_reference() {
        let mut payload = json!({ "pincode": { "$secret_clear": "123456" } });
        replace_secrets(&mut payload);
        assert!(payload["pincode"]["$secret"].as_str().is_some_and(|s| s.starts_with("s-")));
        assert!(!payload.to_string().contains("123456"));
    }
}
