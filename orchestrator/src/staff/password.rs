//! Staff passwords: argon2id with OWASP's parameters (19 MiB, 2 passes, 1 lane), PHC strings.

use std::sync::LazyLock;

use argon2::password_hash::rand_core::OsRng;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::{Algorithm, Argon2, Params, Version};

pub const MIN_LEN: usize = 12;
/// Longer inputs are refused before hashing (hashing cost grows with the input).
pub const MAX_LEN: usize = 1024;

fn argon2() -> Argon2<'static> {
    // OWASP Password Storage Cheat Sheet: m=19456 KiB, t=2, p=1.
    let params = Params::new(19_456, 2, 1, None).expect("valid argon2 parameters");
    Argon2::new(Algorithm::Argon2id, Version::V0x13, params)
}

/// Why a new password is refused, in Portuguese; `None` when it is acceptable.
pub fn weakness(password: &str) -> Option<&'static str> {
    let len = password.chars().count();
    if len < MIN_LEN {
        Some(crate::texts::PASSWORD_TOO_SHORT)
    } else if len > MAX_LEN {
        Some(crate::texts::PASSWORD_TOO_LONG)
    } else {
        None
    }
}

/// The PHC string of a fresh salted hash.
pub fn hash(password: &str) -> anyhow::Result<String> {
    let salt = SaltString::generate(&mut OsRng);
    argon2()
        .hash_password(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| anyhow::anyhow!("hashing the password: {e}"))
}

/// Whether `password` matches the PHC string (false for a malformed one).
pub fn verify(password: &str, phc: &str) -> bool {
    if password.len() > MAX_LEN {
        return false;
    }
    match PasswordHash::new(phc) {
        Ok(parsed) => argon2().verify_password(password.as_bytes(), &parsed).is_ok(),
        Err(_) => false,
    }
}

/// Spends the time of one verification, for an e-mail nobody has: the answer's timing then
/// does not say whether the e-mail exists.
pub fn verify_nobody(password: &str) {
    static NOBODY: LazyLock<String> = LazyLock::new(|| hash("nobody-has-this-password").unwrap_or_default());
    let _ = verify(password, &NOBODY);
}

/// At most one password hash per core at once: each takes 19 MiB and a core for a while, and a
/// burst of sign-ins must not take every core and memory from the portal (issue 26). The rest
/// wait their turn.
pub async fn hashing_slot() -> Option<tokio::sync::SemaphorePermit<'static>> {
    static SLOTS: LazyLock<tokio::sync::Semaphore> = LazyLock::new(|| {
        tokio::sync::Semaphore::new(std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get))
    });
    // `None` only if the semaphore were closed, which it never is.
    SLOTS.acquire().await.ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hashes_with_argon2id_and_owasp_parameters_and_verifies() {
        let phc = hash("uma senha bem longa").expect("hash");
        assert!(phc.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"), "{phc}");
        assert!(verify("uma senha bem longa", &phc));
        assert!(!verify("outra senha qualquer", &phc));
        assert!(!verify("x", "not a phc string"));
    }

    #[test]
    fn short_passwords_are_refused() {
        assert!(weakness("curta").is_some());
        assert!(weakness("123456789012").is_none());
    }
}
