//! The broadband partner's OAuth round trip (RFC 6749 with PKCE, RFC 7636; issue 16, item 5).
//!
//! The attempt that shows the partner-login button keeps a random `state` and a PKCE verifier
//! in `oauth_states`. The visitor comes back to the return page with `?code=&state=`, which
//! starts another attempt; its look-up step accepts the return only when the state is known,
//! unexpired, not used by another attempt, and was prepared in the same browser session. Only
//! then is the code exchanged, server-side, with the verifier. Anything else is refused with
//! the spec's look-up failure message, and nothing is sent upstream.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use events::pii::SecretBox;
use sha2::{Digest, Sha256};
use sqlx::PgPool;

/// How long the visitor may take at the partner's consent page.
pub const STATE_TTL: std::time::Duration = std::time::Duration::from_secs(30 * 60);
/// The name the verifier is sealed under, bound to the attempt that prepared the login.
const VERIFIER_NAME: &str = "oauth_verifier";

/// One authorization request: its state and PKCE verifier, both 256 random bits.
pub struct Authorization {
    pub state: String,
    pub verifier: String,
}

impl Authorization {
    pub fn random() -> Self {
        Self { state: crate::token::url_safe(), verifier: crate::token::url_safe() }
    }

    /// The S256 challenge sent in the authorization URL.
    pub fn challenge(&self) -> String {
        pkce_challenge(&self.verifier)
    }
}

/// BASE64URL(SHA-256(verifier)), unpadded (RFC 7636, section 4.2).
pub fn pkce_challenge(verifier: &str) -> String {
    URL_SAFE_NO_PAD.encode(Sha256::digest(verifier.as_bytes()))
}

/// Why a return was refused (logged for operators; the visitor reads the spec's message).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReturnRefusal {
    /// No state, or one the portal never issued (a forged return).
    Unknown,
    /// Already used by another attempt (a replayed return).
    Replayed,
    Expired,
    /// Prepared in another browser session (a return planted on someone else).
    OtherSession,
}

impl ReturnRefusal {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Unknown => "unknown_state",
            Self::Replayed => "replayed_state",
            Self::Expired => "expired_state",
            Self::OtherSession => "other_session",
        }
    }
}

/// What the database holds for a presented state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Presented {
    pub live: bool,
    pub same_session: bool,
    pub consumed_by: Option<String>,
}

/// Whether the attempt `returning` may use the state it presented. A retry of its own look-up
/// finds the state it consumed and is accepted again.
pub fn judge(found: Option<&Presented>, returning: &str) -> Result<(), ReturnRefusal> {
    let found = found.ok_or(ReturnRefusal::Unknown)?;
    if found.consumed_by.as_deref().is_some_and(|by| by != returning) {
        return Err(ReturnRefusal::Replayed);
    }
    if !found.live {
        return Err(ReturnRefusal::Expired);
    }
    if !found.same_session {
        return Err(ReturnRefusal::OtherSession);
    }
    Ok(())
}

/// An accepted return: what the code exchange must send.
pub struct Accepted {
    pub redirect_uri: String,
    pub verifier: String,
}

/// Keeps `authorization` for the attempt `stream`, which sends the visitor to `redirect_uri`.
pub async fn remember(
    db: &PgPool,
    sealer: &SecretBox,
    stream: &str,
    authorization: &Authorization,
    redirect_uri: &str,
) -> Result<(), PartnerLoginError> {
    let verifier = sealer
        .seal(stream, VERIFIER_NAME, &authorization.verifier)
        .map_err(|e| PartnerLoginError::Crypto(e.to_string()))?;
    sqlx::query(
        "INSERT INTO oauth_states (state_hash, stream_id, redirect_uri, verifier, expires_at)
         VALUES ($1, $2, $3, $4, now() + make_interval(secs => $5::double precision))",
    )
    .bind(crate::token::hash(&authorization.state))
    .bind(stream)
    .bind(redirect_uri)
    .bind(verifier)
    .bind(STATE_TTL.as_secs_f64())
    .execute(db)
    .await?;
    Ok(())
}

/// Consumes `state` for the attempt `returning`: the verifier and redirect URI when
/// [`judge`] accepts it, else why not. The row is locked while it is judged, so two returns
/// with one state cannot both pass.
pub async fn consume(
    db: &PgPool,
    sealer: &SecretBox,
    state: Option<&str>,
    returning: &str,
) -> Result<Result<Accepted, ReturnRefusal>, PartnerLoginError> {
    let Some(state) = state else { return Ok(Err(ReturnRefusal::Unknown)) };
    let mut tx = db.begin().await?;
    let row: Option<(String, String, String, bool, bool, Option<String>)> = sqlx::query_as(
        "SELECT o.stream_id, o.redirect_uri, o.verifier, o.expires_at > now(),
                COALESCE(origin.session_hash = back.session_hash, false), o.consumed_by
           FROM oauth_states o
           JOIN attempts origin ON origin.stream_id = o.stream_id
           LEFT JOIN attempts back ON back.stream_id = $2
          WHERE o.state_hash = $1
            FOR UPDATE OF o",
    )
    .bind(crate::token::hash(state))
    .bind(returning)
    .fetch_optional(&mut *tx)
    .await?;
    let presented = row.as_ref().map(|(_, _, _, live, same_session, consumed_by)| Presented {
        live: *live,
        same_session: *same_session,
        consumed_by: consumed_by.clone(),
    });
    if let Err(refusal) = judge(presented.as_ref(), returning) {
        return Ok(Err(refusal));
    }
    let Some((origin, redirect_uri, sealed, ..)) = row else { return Ok(Err(ReturnRefusal::Unknown)) };
    sqlx::query("UPDATE oauth_states SET consumed_by = $2 WHERE state_hash = $1")
        .bind(crate::token::hash(state))
        .bind(returning)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    let verifier =
        sealer.open(&origin, VERIFIER_NAME, &sealed).map_err(|e| PartnerLoginError::Crypto(e.to_string()))?;
    Ok(Ok(Accepted { redirect_uri, verifier }))
}

/// Deletes expired states; run with the attempts' secrets purge.
pub async fn purge_expired(db: &PgPool) -> Result<u64, sqlx::Error> {
    Ok(sqlx::query("DELETE FROM oauth_states WHERE expires_at <= now()").execute(db).await?.rows_affected())
}

#[derive(Debug, thiserror::Error)]
pub enum PartnerLoginError {
    #[error("oauth states: {0}")]
    Database(#[from] sqlx::Error),
    #[error("oauth verifier: {0}")]
    Crypto(String),
}

#[cfg(test)]
mod tests {
    use super::*;

    fn presented(live: bool, same_session: bool, consumed_by: Option<&str>) -> Presented {
        Presented { live, same_session, consumed_by: consumed_by.map(str::to_string) }
    }

    #[test]
    fn the_rfc_7636_example_verifier_gives_its_challenge() {
        assert_eq!(
            pkce_challenge("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"),
            "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"
        );
    }

    #[test]
    fn a_random_authorization_is_two_distinct_256_bit_tokens() {
        let a = Authorization::random();
        assert_eq!((a.state.len(), a.verifier.len()), (43, 43));
        assert_ne!(a.state, a.verifier);
        assert_ne!(a.state, Authorization::random().state);
        assert_eq!(a.challenge().len(), 43);
    }

    #[test]
    fn a_fresh_state_of_the_same_session_is_accepted_and_again_by_the_same_attempt() {
        assert_eq!(judge(Some(&presented(true, true, None)), "a-2"), Ok(()));
        assert_eq!(judge(Some(&presented(true, true, Some("a-2"))), "a-2"), Ok(()));
    }

    #[test]
    fn forged_replayed_expired_and_planted_returns_are_refused() {
        assert_eq!(judge(None, "a-2"), Err(ReturnRefusal::Unknown));
        assert_eq!(judge(Some(&presented(true, true, Some("a-3"))), "a-2"), Err(ReturnRefusal::Replayed));
        assert_eq!(judge(Some(&presented(false, true, None)), "a-2"), Err(ReturnRefusal::Expired));
        assert_eq!(judge(Some(&presented(true, false, None)), "a-2"), Err(ReturnRefusal::OtherSession));
    }
}
