//! Values that identify no person but tie attempts together (licences, serials; issue 26):
//! sealed under a person's key like any personal field, and found again by a keyed tag per
//! link of that key ([`PiiKind::is_tagged`]), never by a subject of their own. The tags hang
//! on the link (`pii_value_tags`, migration 0034), so deleting the person's key deletes them:
//! after an erasure the value neither opens nor finds the attempts that held it.

use sqlx::PgConnection;

use super::crypto::lookup_hmac;
use super::{PiiKind, StreamLink, Vault};
use crate::error::StoreError;

impl Vault {
    /// Records that the field of `kind` sealed under `link` holds `value`, in the caller's
    /// transaction (the append's: the tag exists only if the event does).
    pub async fn tag_value_in(
        &self,
        conn: &mut PgConnection,
        link: StreamLink,
        kind: PiiKind,
        value: &str,
    ) -> Result<(), StoreError> {
        sqlx::query("INSERT INTO pii_value_tags (kind, hmac, link_id) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING")
            .bind(kind.as_str())
            .bind(lookup_hmac(&self.keys.hmac, kind, &kind.normalize(value)))
            .bind(link.link_id)
            .execute(conn)
            .await?;
        Ok(())
    }

    /// The streams where a field of one of `kinds` holds `value` and its key still exists,
    /// oldest link first (none once the people who typed it are erased).
    pub async fn streams_tagged(&self, kinds: &[PiiKind], value: &str) -> Result<Vec<String>, StoreError> {
        let mut names = Vec::with_capacity(kinds.len());
        let mut macs = Vec::with_capacity(kinds.len());
        for kind in kinds {
            names.push(kind.as_str().to_string());
            macs.push(lookup_hmac(&self.keys.hmac, *kind, &kind.normalize(value)));
        }
        Ok(sqlx::query_scalar(
            "SELECT l.stream_id FROM pii_value_tags t \
             JOIN pii_stream_links l ON l.link_id = t.link_id \
             JOIN unnest($1::text[], $2::bytea[]) AS wanted (kind, hmac) \
               ON wanted.kind = t.kind AND wanted.hmac = t.hmac \
             GROUP BY l.stream_id ORDER BY min(l.linked_at), l.stream_id",
        )
        .bind(&names)
        .bind(&macs)
        .fetch_all(&self.pool)
        .await?)
    }
}
