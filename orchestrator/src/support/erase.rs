//! Erasure of a person (LGPD art. 18): every personal-data subject linked through the attempts
//! they share is forgotten (crypto-shredding: the events stay, their sealed fields read as
//! erased) and those attempts' upstream tokens are deleted.

use std::collections::BTreeSet;

use events::pii::{PiiKind, Vault};
use events::{EventStore, StreamId};
use serde::Serialize;
use sqlx::PgPool;
use uuid::Uuid;

use crate::staff::audit;

/// How many link hops are followed from the first subjects (phone → attempt → CPF → ...).
const MAX_HOPS: usize = 8;

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Erased {
    pub subjects: usize,
    pub attempts: usize,
    pub secrets: u64,
}

/// Whom an erasure request names: a person by a phone (national or international digits
/// already normalized), CPF/CNPJ or e-mail, or the people of one attempt.
#[derive(Debug, Clone)]
pub enum Named {
    Person(PiiKind, String),
    Attempt(StreamId),
}

/// The one erasure the command line (`orchestrator person erase`) and the console's route
/// call: the subjects `named` reaches erased, and a `staff.erased` audit event by `staff`
/// (`None`: the command line) that names them by their look-up hash, never in clear.
pub async fn erase_named(
    db: &PgPool,
    store: &EventStore,
    vault: &Vault,
    named: &Named,
    staff: Option<Uuid>,
) -> anyhow::Result<Erased> {
    let (start, mut payload) = match named {
        Named::Person(kind, value) => (
            subject_of(vault, *kind, value).await?,
            serde_json::json!({ "kind": kind.as_str(), "hash": hex::encode(vault.lookup_hash(*kind, value)) }),
        ),
        Named::Attempt(stream) => (
            subjects_of_attempt(db, stream.as_str()).await?,
            serde_json::json!({ "kind": "attempt", "attempt": stream.as_str() }),
        ),
    };
    let erased = erase_person(db, vault, start).await?;
    payload["subjects"] = serde_json::json!(erased.subjects);
    payload["attempts"] = serde_json::json!(erased.attempts);
    payload["secrets"] = serde_json::json!(erased.secrets);
    if staff.is_none() {
        payload["by"] = serde_json::json!("command line");
    }
    audit::record(store, staff, audit::ERASED, payload).await?;
    Ok(erased)
}

/// The subject of a value, if anyone has it.
pub async fn subject_of(vault: &Vault, kind: PiiKind, value: &str) -> anyhow::Result<Vec<Uuid>> {
    Ok(vault.find_subject(kind, value).await?.into_iter().collect())
}

/// The subjects an attempt's stream mentions.
pub async fn subjects_of_attempt(db: &PgPool, stream_id: &str) -> Result<Vec<Uuid>, sqlx::Error> {
    sqlx::query_scalar("SELECT subject_id FROM pii_stream_links WHERE stream_id = $1")
        .bind(stream_id)
        .fetch_all(db)
        .await
}

/// Forgets `start` and every subject reachable from it through shared streams; deletes the
/// secrets of those streams.
pub async fn erase_person(db: &PgPool, vault: &Vault, start: Vec<Uuid>) -> anyhow::Result<Erased> {
    let mut subjects: BTreeSet<Uuid> = start.into_iter().collect();
    let mut streams: BTreeSet<String> = BTreeSet::new();
    for _ in 0..MAX_HOPS {
        let list: Vec<Uuid> = subjects.iter().copied().collect();
        let found: Vec<String> =
            sqlx::query_scalar("SELECT DISTINCT stream_id FROM pii_stream_links WHERE subject_id = ANY($1)")
                .bind(&list)
                .fetch_all(db)
                .await?;
        streams.extend(found);
        let all: Vec<String> = streams.iter().cloned().collect();
        let more: Vec<Uuid> =
            sqlx::query_scalar("SELECT DISTINCT subject_id FROM pii_stream_links WHERE stream_id = ANY($1)")
                .bind(&all)
                .fetch_all(db)
                .await?;
        let before = subjects.len();
        subjects.extend(more);
        if subjects.len() == before {
            break;
        }
    }
    let all: Vec<String> = streams.iter().cloned().collect();
    let secrets = sqlx::query("DELETE FROM attempt_secrets WHERE stream_id = ANY($1)")
        .bind(&all)
        .execute(db)
        .await?
        .rows_affected();
    crate::abuse::gate::forget_attempt_phones(db, &all).await?;
    let mut forgotten = 0;
    for subject in &subjects {
        if vault.forget(*subject).await? {
            forgotten += 1;
        }
    }
    Ok(Erased { subjects: forgotten, attempts: streams.len(), secrets })
}
