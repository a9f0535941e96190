//! Who an attempt's person is, for funnels that count people: a keyed tag of the person
//! (the vault's subject) whose phone the attempt proved with an SMS code, under a purpose of
//! its own (`funnel_person`): never the phone, never the vault's look-up hash, so the
//! projection cannot be joined to the look-ups. A person erased has no subject any more: their
//! attempts get no tag again, and the erasure clears the tags already written.

use std::collections::HashMap;

use sqlx::{Postgres, Transaction};
use uuid::Uuid;

use crate::error::StoreError;
use crate::pii::{KeyRef, Vault};

/// The `Vault::tag` purpose of people in funnels.
pub const PURPOSE: &str = "funnel_person";

/// The tag of one person (hex, 128 bits).
pub fn tag(vault: &Vault, subject: Uuid) -> String {
    let mac = vault.tag(PURPOSE, &subject.to_string());
    hex::encode(&mac[..16])
}

/// The people of `phones` (the proved phones' keys), for those whose person still exists.
pub async fn resolve(
    tx: &mut Transaction<'_, Postgres>,
    vault: &Vault,
    phones: &[KeyRef],
) -> Result<HashMap<KeyRef, String>, StoreError> {
    let links: Vec<Uuid> =
        phones.iter().filter_map(|k| if let KeyRef::Link(l) = k { Some(*l) } else { None }).collect();
    let subjects: Vec<Uuid> =
        phones.iter().filter_map(|k| if let KeyRef::Subject(s) = k { Some(*s) } else { None }).collect();
    let mut people = HashMap::new();
    if !links.is_empty() {
        let rows: Vec<(Uuid, Uuid)> =
            sqlx::query_as("SELECT link_id, subject_id FROM pii_stream_links WHERE link_id = ANY($1)")
                .bind(&links)
                .fetch_all(&mut **tx)
                .await?;
        people.extend(rows.into_iter().map(|(link, subject)| (KeyRef::Link(link), tag(vault, subject))));
    }
    if !subjects.is_empty() {
        let rows: Vec<Uuid> = sqlx::query_scalar("SELECT subject_id FROM pii_subjects WHERE subject_id = ANY($1)")
            .bind(&subjects)
            .fetch_all(&mut **tx)
            .await?;
        people.extend(rows.into_iter().map(|subject| (KeyRef::Subject(subject), tag(vault, subject))));
    }
    Ok(people)
}

/// Clears the people of `attempts` and any row tagged with one of `subjects` (an erasure, once
/// the subjects' keys and links are gone), as a new revision of each row (what follows the
/// projection by revision, the exports and the funnel page's memory, sees it too), in each of `tables` whose projection exists: the live
/// one and a rebuild under way (`projection::LIVE`, `projection::NEXT`).
/// Each table's checkpoint row is locked first: a projector that resolved a person before the
/// keys went holds that lock until it commits, so its rows are cleared here too, and any later
/// one finds no link to tag them with.
pub async fn forget(
    pool: &sqlx::PgPool,
    vault: &Vault,
    tables: &[&str],
    attempts: &[String],
    subjects: &[Uuid],
) -> Result<u64, StoreError> {
    let tags: Vec<String> = subjects.iter().map(|s| tag(vault, *s)).collect();
    let mut tx = pool.begin().await?;
    let mut cleared = 0;
    for table in tables {
        let locked: Option<String> =
            sqlx::query_scalar("SELECT projection FROM projection_checkpoints WHERE projection = $1 FOR UPDATE")
                .bind(table)
                .fetch_optional(&mut *tx)
                .await?;
        if locked.is_none() {
            continue;
        }
        let sql = format!(
            "UPDATE {table} SET person = NULL, revision = nextval('funnel_revision') \
             WHERE person IS NOT NULL AND (attempt = ANY($1) OR person = ANY($2))"
        );
        cleared += sqlx::query(&sql).bind(attempts).bind(&tags).execute(&mut *tx).await?.rows_affected();
    }
    tx.commit().await?;
    Ok(cleared)
}
