//! Commands sent under an `Idempotency-Key`: the answer is stored with the command's
//! fingerprint in the transaction that acted, and a later request with the key gets it back.

use events::pii::Vault;
use events::StreamId;
use serde_json::Value;

use super::reply::AttemptReply;
use crate::error::ApiError;
use crate::texts::KEY_REUSED;

/// The longest `Idempotency-Key` accepted; a longer one is refused, never cut.
pub const MAX_KEY_CHARS: usize = 100;

/// How long a command's answer is kept under its key.
pub const KEY_RETENTION_HOURS: i32 = 24;

/// What the command's fingerprint is keyed for (a label of [`Vault::tag`]).
pub const FINGERPRINT_TAG: &str = "command";

/// A keyed HMAC of the command as sent (serde_json keeps the keys of an object sorted, so the
/// same command always gives the same bytes). Keyed, not a bare SHA-256 (issue 26): a command
/// holds a phone or a CPF, and a hash of so few possible bodies is reversed by trying them all.
/// Rows written before were bare SHA-256: a retry of one within its day gets the key-reused
/// answer (422), as a changed command would.
pub fn fingerprint(vault: &Vault, command: &Value) -> Vec<u8> {
    vault.tag(FINGERPRINT_TAG, &command.to_string())
}

/// What an earlier request with this key answered (`stored`: its reply and fingerprint, as the
/// attempt's lock read them): the reply for the same command, 422 for another one.
pub fn earlier_answer(stored: (Value, Option<Vec<u8>>), fingerprint: &[u8]) -> Result<AttemptReply, ApiError> {
    let (response, stored) = stored;
    if stored.is_some_and(|stored| stored != fingerprint) {
        return Err(ApiError::Invalid(KEY_REUSED.to_string()));
    }
    serde_json::from_value::<AttemptReply>(response).map_err(|e| ApiError::Internal(e.into()))
}

/// Keeps `answer` under the key, in the transaction of the command that produced it.
pub async fn store_answer(
    conn: &mut sqlx::PgConnection,
    stream: &StreamId,
    key: &str,
    fingerprint: &[u8],
    answer: &AttemptReply,
) -> Result<(), ApiError> {
    sqlx::query(
        "INSERT INTO attempt_commands (stream_id, idempotency_key, fingerprint, response) VALUES ($1, $2, $3, $4)",
    )
    .bind(stream.as_str())
    .bind(key)
    .bind(fingerprint)
    .bind(serde_json::to_value(answer).map_err(|e| ApiError::Internal(e.into()))?)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// Forgets command answers older than [`KEY_RETENTION_HOURS`]; run periodically.
pub async fn purge_old_keys(db: &sqlx::PgPool) -> Result<u64, sqlx::Error> {
    let done = sqlx::query("DELETE FROM attempt_commands WHERE created_at < now() - make_interval(hours => $1)")
        .bind(KEY_RETENTION_HOURS)
        .execute(db)
        .await?;
    Ok(done.rows_affected())
}

#[cfg(test)]
mod tests {
    use super::*;
    use events::pii::Keys;
    use serde_json::json;

    fn vault(keys: Keys) -> Vault {
        Vault::new(sqlx::PgPool::connect_lazy("postgres://nobody@127.0.0.1:1/none").expect("lazy pool"), keys)
    }

    /// Issue 26: the fingerprint was a bare SHA-256 of the body, so a phone's was found by
    /// hashing every possible phone. Keyed, it is neither that hash nor the same under another key.
    #[tokio::test]
    async fn the_fingerprint_is_keyed_and_not_the_bare_hash_of_the_body() {
        use sha2::{Digest, Sha256};
        let command = json!({ "type": "submit_phone", "phone": "(11) 91000-0001" });
        let keyed = fingerprint(&vault(Keys::insecure_dev()), &command);
        assert_ne!(keyed, Sha256::digest(command.to_string().as_bytes()).to_vec());
        assert_ne!(keyed, fingerprint(&vault(Keys::generate()), &command));
        assert_eq!(keyed, fingerprint(&vault(Keys::insecure_dev()), &command), "the same command, the same key");
        assert_eq!(keyed.len(), 32);
    }
}
