//! The invisible bot check: ALTCHA proof of work (protocol v2, the `altcha` crate). The
//! server signs a challenge whose answer is a counter it picked; the browser finds it by
//! hashing while the visitor types, and sends the solution with every command that sends a
//! code. Each solution is accepted once (`altcha_spent`) and only before it expires.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use altcha::{Challenge, CreateChallengeOptions, Payload, VerifySolutionOptions};
use base64::engine::general_purpose::STANDARD as B64;
use base64::Engine;
use rand::Rng;
use sqlx::PgConnection;

/// The header a browser sends its solution in (base64 of `{"challenge", "solution"}`, as the
/// ALTCHA widget's payload).
pub const HEADER: &str = "x-altcha";

/// The longest header accepted: a solution is well under 1 KiB.
const MAX_PAYLOAD_CHARS: usize = 4_096;

/// Issues and verifies challenges with secrets every replica derives alike.
#[derive(Clone)]
pub struct ProofOfWork {
    signature_secret: String,
    key_signature_secret: String,
    max_counter: u32,
    expires: Duration,
}

impl std::fmt::Debug for ProofOfWork {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ProofOfWork")
            .field("max_counter", &self.max_counter)
            .field("expires", &self.expires)
            .finish_non_exhaustive()
    }
}

/// Why a solution was not accepted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum ProofError {
    #[error("no proof of work sent")]
    Missing,
    #[error("proof of work unreadable")]
    Malformed,
    #[error("proof of work expired")]
    Expired,
    #[error("proof of work wrong or not ours")]
    Invalid,
    #[error("proof of work already used")]
    Spent,
}

/// An accepted solution, to spend in the command's transaction.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verified {
    signature: String,
    expires_at: i64,
}

fn unix_now() -> i64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_secs() as i64).unwrap_or(0)
}

impl ProofOfWork {
    pub fn new(
        signature_secret: [u8; 32],
        key_signature_secret: [u8; 32],
        max_counter: u32,
        expires: Duration,
    ) -> Self {
        Self {
            signature_secret: hex::encode(signature_secret),
            key_signature_secret: hex::encode(key_signature_secret),
            max_counter: max_counter.max(2),
            expires,
        }
    }

    /// A fresh challenge: iterated SHA-256 (one hash per counter), its counter drawn from the
    /// upper half of the range so every solve costs at least half the difficulty.
    pub fn challenge(&self) -> Result<Challenge, altcha::Error> {
        let counter = rand::thread_rng().gen_range(self.max_counter / 2..=self.max_counter);
        altcha::create_challenge(CreateChallengeOptions {
            algorithm: "SHA-256".into(),
            cost: 1,
            counter: Some(counter),
            expires_at: Some(unix_now() + self.expires.as_secs() as i64),
            hmac_signature_secret: Some(self.signature_secret.clone()),
            hmac_key_signature_secret: Some(self.key_signature_secret.clone()),
            ..CreateChallengeOptions::default()
        })
    }

    /// Checks the header's solution: ours, unexpired and solved (not yet whether it was used).
    pub fn verify(&self, header: Option<&str>) -> Result<Verified, ProofError> {
        let header = header.map(str::trim).filter(|h| !h.is_empty()).ok_or(ProofError::Missing)?;
        if header.len() > MAX_PAYLOAD_CHARS {
            return Err(ProofError::Malformed);
        }
        let bytes = B64.decode(header).map_err(|_| ProofError::Malformed)?;
        let payload: Payload = serde_json::from_slice(&bytes).map_err(|_| ProofError::Malformed)?;
        let mut options =
            VerifySolutionOptions::new(&payload.challenge, &payload.solution, self.signature_secret.clone());
        options.hmac_key_signature_secret = Some(self.key_signature_secret.clone());
        let result = altcha::verify_solution(options).map_err(|_| ProofError::Invalid)?;
        if result.expired {
            return Err(ProofError::Expired);
        }
        // A challenge without an expiry was not issued here, even if its signature held.
        let expires_at = payload.challenge.parameters.expires_at.filter(|at| *at > 0).ok_or(ProofError::Invalid)?;
        match (result.verified, payload.challenge.signature) {
            (true, Some(signature)) => Ok(Verified { signature, expires_at }),
            _ => Err(ProofError::Invalid),
        }
    }
}

/// Marks the solution used, in the command's transaction; `Spent` if it was used before.
pub async fn spend(conn: &mut PgConnection, verified: &Verified) -> Result<Result<(), ProofError>, sqlx::Error> {
    let inserted = sqlx::query(
        "INSERT INTO altcha_spent (signature, expires_at) VALUES ($1, to_timestamp($2)) ON CONFLICT (signature) DO NOTHING",
    )
    .bind(&verified.signature)
    .bind(verified.expires_at as f64)
    .execute(&mut *conn)
    .await?;
    Ok(if inserted.rows_affected() == 1 { Ok(()) } else { Err(ProofError::Spent) })
}

/// Solves a challenge the way the browser does (for tests, benchmarks and scripted checks of
/// our own; an attacker has the same code, and pays the same work per code sent).
pub fn solve(challenge: &Challenge) -> Option<String> {
    let solution = altcha::solve_challenge(altcha::SolveChallengeOptions::new(challenge)).ok()??;
    let payload = Payload { challenge: challenge.clone(), solution };
    Some(B64.encode(serde_json::to_vec(&payload).ok()?))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pow() -> ProofOfWork {
        ProofOfWork::new([1; 32], [2; 32], 200, Duration::from_secs(60))
    }

    #[test]
    fn a_solved_challenge_is_accepted() {
        let pow = pow();
        let payload = solve(&pow.challenge().expect("challenge")).expect("solved");
        assert!(pow.verify(Some(&payload)).is_ok());
    }

    #[test]
    fn no_header_garbage_or_a_foreign_challenge_is_refused() {
        let pow = pow();
        assert_eq!(pow.verify(None), Err(ProofError::Missing));
        assert_eq!(pow.verify(Some("  ")), Err(ProofError::Missing));
        assert_eq!(pow.verify(Some("not base64!")), Err(ProofError::Malformed));
        assert_eq!(pow.verify(Some(&B64.encode(b"{}"))), Err(ProofError::Malformed));
        let foreign = ProofOfWork::new([9; 32], [2; 32], 200, Duration::from_secs(60));
        let payload = solve(&foreign.challenge().expect("challenge")).expect("solved");
        assert_eq!(pow.verify(Some(&payload)), Err(ProofError::Invalid));
    }

    #[test]
    fn a_wrong_counter_is_refused() {
        let pow = pow();
        let challenge = pow.challenge().expect("challenge");
        let payload = solve(&challenge).expect("solved");
        let mut decoded: Payload = serde_json::from_slice(&B64.decode(payload).expect("b64")).expect("json");
        decoded.solution.derived_key = "00".repeat(32);
        let forged = B64.encode(serde_json::to_vec(&decoded).expect("json"));
        assert_eq!(pow.verify(Some(&forged)), Err(ProofError::Invalid));
    }

    #[test]
    fn an_expired_challenge_is_refused() {
        let pow = ProofOfWork::new([1; 32], [2; 32], 200, Duration::from_secs(0));
        let challenge = pow.challenge().expect("challenge");
        std::thread::sleep(Duration::from_millis(1_100));
        let payload = solve(&challenge).expect("solved");
        assert_eq!(pow.verify(Some(&payload)), Err(ProofError::Expired));
    }
}
