//! The look-up's results: every attempt the search key reaches, filtered and summarized, newest
//! first, and what the staff trail records of the key (its keyed hash, never the clear value).
//! The console's page of results and its CSV export read the same list.

use chrono::{NaiveTime, TimeZone, Utc};
use events::funnel::sao_paulo;
use events::pii::{PiiKind, Vault};
use events::{EventStore, StreamId};
use serde_json::{json, Value};
use sqlx::PgPool;

use super::query::{self, Filters, Key};
use super::summary::{summarize, with_due_step, Summary};
use crate::attempts::Flows;
use crate::error::ApiError;

/// Where the look-up reads.
pub struct Sources<'a> {
    pub db: &'a PgPool,
    pub store: &'a EventStore,
    pub vault: &'a Vault,
    pub flows: &'a Flows,
}

/// What audit tags are keyed for.
const AUDIT_TAG: &str = "audit";

/// The attempts of whoever has `value`, and the look-up's audit payload: a tag keyed with the
/// person's own data key (issue 26), which finds their look-ups while they exist and means
/// nothing once they are erased; `null` for a value nobody has.
async fn person_search(vault: &Vault, kind: PiiKind, value: &str) -> Result<(Vec<String>, Value), ApiError> {
    let streams = vault.streams_for(kind, value).await?;
    let tag = match vault.find_subject(kind, value).await? {
        Some(subject) => vault.subject_tag(subject, AUDIT_TAG, kind, value).await?.map(hex::encode),
        None => None,
    };
    Ok((streams, json!({ "kind": kind.as_str(), "hash": tag })))
}

/// The attempts whose licence or cloud serial is `serial` (as typed, or in capitals as the
/// cloud form writes it), by their keyed tags (issue 26: the events hold them sealed); none of
/// an erased person's.
async fn serial_search(vault: &Vault, serial: &str) -> Result<Vec<String>, ApiError> {
    let kinds = [PiiKind::Licence, PiiKind::Serial];
    let mut streams = vault.streams_tagged(&kinds, serial).await?;
    let upper = serial.to_uppercase();
    if upper != serial {
        for stream in vault.streams_tagged(&kinds, &upper).await? {
            if !streams.contains(&stream) {
                streams.push(stream);
            }
        }
    }
    Ok(streams)
}

/// The attempts `key` reaches, filtered by `filters` (not paged), newest first; and the key as
/// the staff trail records it.
pub async fn summaries(sources: &Sources<'_>, key: &Key, filters: &Filters) -> Result<(Vec<Summary>, Value), ApiError> {
    let Sources { db, store, vault, flows } = sources;
    let (streams, looked_up) = match key {
        Key::Phone(p) => person_search(vault, PiiKind::Phone, p).await?,
        Key::Document(d) => person_search(vault, PiiKind::CpfCnpj, d).await?,
        Key::Email(e) => person_search(vault, PiiKind::Email, e).await?,
        // The trail names the attempts found, not the serial: a hash of it under the portal's
        // key would outlive the person's erasure and still tie it to these dates.
        Key::Serial(s) => {
            let streams = serial_search(vault, s).await?;
            let audit = json!({ "kind": "serial", "attempts": streams });
            (streams, audit)
        }
        Key::Id(id) => (
            StreamId::parse(id).map(|s| vec![s.as_str().to_string()]).unwrap_or_default(),
            json!({ "kind": "id", "attempt": id }),
        ),
    };
    let streams: Vec<StreamId> = streams
        .iter()
        .filter_map(|s| StreamId::parse(s).ok())
        .filter(|s| query::FLOWS.contains(&s.category()) && flows.get(s.category()).is_some())
        .filter(|s| filters.flow.as_deref().is_none_or(|f| f == s.category()))
        .collect();
    let names: Vec<String> = streams.iter().map(|s| s.as_str().to_string()).collect();
    let due = with_due_step(db, &names).await?;
    let now = Utc::now();
    let day_start = |d: chrono::NaiveDate| sao_paulo().from_local_datetime(&d.and_time(NaiveTime::MIN)).single();
    let from = filters.from.and_then(day_start);
    let until = filters.to.and_then(|d| d.succ_opt()).and_then(day_start);
    let mut summaries = Vec::new();
    for stream in &streams {
        let Some(flow) = flows.get(stream.category()) else { continue };
        let history = store.read_stream(stream).await?;
        let Some(summary) = summarize(flow, &history, due.iter().any(|d| d == stream.as_str()), now) else { continue };
        if filters.outcome.as_deref().is_some_and(|o| o != summary.outcome.kind)
            || from.is_some_and(|f| summary.started_at < f)
            || until.is_some_and(|u| summary.started_at >= u)
        {
            continue;
        }
        summaries.push(summary);
    }
    summaries.sort_by(|a, b| b.started_at.cmp(&a.started_at).then_with(|| b.id.cmp(&a.id)));
    Ok((summaries, looked_up))
}
