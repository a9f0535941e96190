//! Erasure of a person (LGPD art. 18), crypto-shredding: the events stay, the sealed fields of
//! the subjects forgotten read as erased, and the person's attempts lose their upstream tokens.
//!
//! An erasure reaches only the person (issue 26): it follows links only through what the person
//! proved (a phone whose SMS code an attempt confirmed, [`proof`]), never through what a visitor
//! merely typed; what it meets and does not forget is listed for the admin ([`plan`]).

pub mod plan;
pub mod proof;

use std::collections::{BTreeMap, BTreeSet};

use events::pii::{KeyRef, PiiKind, Vault};
use events::{EventStore, StreamId};
use serde::Serialize;
use serde_json::Value;
use sqlx::PgPool;
use uuid::Uuid;

use crate::staff::audit;
use plan::{Left, Link, Plan};

/// How many times the links are read again as the person's attempts grow.
const MAX_HOPS: usize = 8;

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Erased {
    /// Subjects whose keys were deleted.
    pub subjects: usize,
    /// Attempts where something was erased.
    pub attempts: usize,
    /// Upstream tokens deleted (of the person's attempts).
    pub secrets: u64,
    /// Subjects met and not erased, for the admin to decide on.
    pub left: Vec<Left>,
}

/// Whom an erasure request names: a person by a phone (national or international digits
/// already normalized), CPF/CNPJ or e-mail, or the person of one attempt.
#[derive(Debug, Clone)]
pub enum Named {
    Person(PiiKind, String),
    Attempt(StreamId),
}

/// The one erasure the command line (`orchestrator person erase`) and the console's route
/// call: the plan for `named` carried out, and a `staff.erased` audit event by `staff`
/// (`None`: the command line). The event names the kind and the subjects forgotten (random
/// ids that mean nothing once their keys are gone, and what an erasure re-run after a restore
/// needs), never the value nor its look-up hash (which would link the audit to the person
/// for ever).
pub async fn erase_named(
    db: &PgPool,
    store: &EventStore,
    vault: &Vault,
    named: &Named,
    staff: Option<Uuid>,
) -> anyhow::Result<Erased> {
    let (subjects, attempt, mut payload) = match named {
        Named::Person(kind, value) => (
            vault.find_subject(*kind, value).await?.into_iter().collect(),
            None,
            serde_json::json!({ "kind": kind.as_str() }),
        ),
        Named::Attempt(stream) => (
            BTreeSet::new(),
            Some(stream.as_str().to_string()),
            serde_json::json!({ "kind": "attempt", "attempt": stream.as_str() }),
        ),
    };
    let plan = plan_for(db, &subjects, attempt.as_deref()).await?;
    payload["forgotten"] = serde_json::json!(plan.forget);
    let erased = carry_out(db, vault, plan).await?;
    payload["subjects"] = serde_json::json!(erased.subjects);
    payload["attempts"] = serde_json::json!(erased.attempts);
    payload["secrets"] = serde_json::json!(erased.secrets);
    payload["left"] = serde_json::json!(erased.left.len());
    if staff.is_none() {
        payload["by"] = serde_json::json!("command line");
    }
    audit::record(store, staff, audit::ERASED, payload).await?;
    Ok(erased)
}

/// Reads the links around the named subjects and attempt, with what each attempt proved, until
/// the person's attempts stop growing.
async fn plan_for(db: &PgPool, named: &BTreeSet<Uuid>, attempt: Option<&str>) -> anyhow::Result<Plan> {
    let named_list: Vec<Uuid> = named.iter().copied().collect();
    let staff_named: BTreeSet<Uuid> =
        sqlx::query_scalar("SELECT email_subject FROM staff WHERE email_subject = ANY($1)")
            .bind(&named_list)
            .fetch_all(db)
            .await?
            .into_iter()
            .collect();
    let mut proofs: BTreeMap<String, BTreeSet<KeyRef>> = BTreeMap::new();
    let mut plan = plan::resolve(named, &staff_named, attempt, &[]);
    for _ in 0..MAX_HOPS {
        let subjects: Vec<Uuid> = plan.forget.iter().chain(named.iter()).copied().collect();
        let streams: Vec<String> = plan.attempts.iter().cloned().collect();
        let rows = links_around(db, &subjects, &streams).await?;
        let unread: Vec<String> = rows
            .iter()
            .map(|r| r.stream.clone())
            .filter(|s| !proofs.contains_key(s))
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect();
        proofs.extend(proofs_of(db, &unread).await?);
        let links: Vec<Link> = rows
            .into_iter()
            .map(|r| {
                let proved = proofs
                    .get(&r.stream)
                    .is_some_and(|p| p.contains(&KeyRef::Link(r.link_id)) || p.contains(&KeyRef::Subject(r.subject)));
                Link { subject: r.subject, stream: r.stream, kind: r.kind, proved, staff: r.staff }
            })
            .collect();
        let next = plan::resolve(named, &staff_named, attempt, &links);
        // The links read were those of `next`'s subjects and attempts: nothing more to read.
        let settled = next.forget == plan.forget && next.attempts == plan.attempts;
        plan = next;
        if settled {
            break;
        }
    }
    Ok(plan)
}

struct Row {
    subject: Uuid,
    stream: String,
    link_id: Uuid,
    kind: Option<PiiKind>,
    staff: bool,
}

/// Every link of the attempts that mention `subjects` and of `streams`.
async fn links_around(db: &PgPool, subjects: &[Uuid], streams: &[String]) -> anyhow::Result<Vec<Row>> {
    let rows: Vec<(Uuid, String, Uuid, Option<String>, bool)> = sqlx::query_as(
        "SELECT l.subject_id, l.stream_id, l.link_id, \
                (SELECT k.kind FROM pii_lookup k WHERE k.subject_id = l.subject_id ORDER BY k.kind LIMIT 1), \
                EXISTS (SELECT 1 FROM staff s WHERE s.email_subject = l.subject_id) \
         FROM pii_stream_links l \
         WHERE l.stream_id = ANY($2) \
            OR l.stream_id IN (SELECT m.stream_id FROM pii_stream_links m WHERE m.subject_id = ANY($1))",
    )
    .bind(subjects)
    .bind(streams)
    .fetch_all(db)
    .await?;
    rows.into_iter()
        .map(|(subject, stream, link_id, kind, staff)| {
            let kind = kind.map(|k| k.parse::<PiiKind>()).transpose()?;
            Ok(Row { subject, stream, link_id, kind, staff })
        })
        .collect()
}

/// What each of `streams` proved, from its events.
async fn proofs_of(db: &PgPool, streams: &[String]) -> anyhow::Result<BTreeMap<String, BTreeSet<KeyRef>>> {
    let rows: Vec<(String, String, Value)> = sqlx::query_as(
        "SELECT stream_id, event_type, payload FROM events WHERE stream_id = ANY($1) ORDER BY stream_id, version",
    )
    .bind(streams)
    .fetch_all(db)
    .await?;
    let mut by_stream: BTreeMap<String, Vec<(String, Value)>> = BTreeMap::new();
    for (stream, event_type, payload) in rows {
        by_stream.entry(stream).or_default().push((event_type, payload));
    }
    Ok(by_stream
        .into_iter()
        .map(|(stream, events)| {
            let proved = proof::proved_phones(events.iter().map(|(t, p)| (t.as_str(), p)));
            (stream, proved)
        })
        .collect())
}

/// Deletes the person's attempts' secrets and forgets the planned subjects.
async fn carry_out(db: &PgPool, vault: &Vault, plan: Plan) -> anyhow::Result<Erased> {
    let attempts: Vec<String> = plan.attempts.iter().cloned().collect();
    let secrets = sqlx::query("DELETE FROM attempt_secrets WHERE stream_id = ANY($1)")
        .bind(&attempts)
        .execute(db)
        .await?
        .rows_affected();
    // The stored answers of their commands (a keyed fingerprint of a body that held the phone,
    // and the reply) go with them.
    let touched: Vec<String> = plan.touched.iter().cloned().collect();
    sqlx::query("DELETE FROM attempt_commands WHERE stream_id = ANY($1)").bind(&touched).execute(db).await?;
    // So do the phones the abuse limits kept for those attempts (keyed hashes, kept while the
    // attempt is: issue 26's late resend).
    crate::abuse::gate::forget_attempt_phones(db, &touched).await?;
    let mut subjects = 0;
    for subject in &plan.forget {
        if vault.forget(*subject).await? {
            subjects += 1;
        }
    }
    // The funnels' people of those attempts (keyed tags of the forgotten subjects) go too:
    // after the keys, so the projector finds no subject to tag them with again.
    let forgotten: Vec<Uuid> = plan.forget.iter().copied().collect();
    let projections = [events::funnel::projection::LIVE, events::funnel::projection::NEXT];
    // Only the person's attempts by id: another's that merely mentions a forgotten subject
    // keeps its own person (the tags of the forgotten subjects reach any row of theirs).
    let theirs: Vec<String> = plan.attempts.iter().cloned().collect();
    events::funnel::person::forget(db, vault, &projections, &theirs, &forgotten).await?;
    Ok(Erased { subjects, attempts: plan.touched.len(), secrets, left: plan.left })
}
