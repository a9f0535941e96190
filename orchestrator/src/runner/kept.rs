//! The tokens a step keeps for later steps during one try ([`StepContext::keep_secret`]), held
//! in memory until the runner writes them in the transaction that appends the try's outcome
//! (issue 24: a write of its own for each token was about 4.6 transaction ids a complete
//! attempt). A try that fails, or whose outcome does not commit, drops them: its retry asks the
//! upstream again (docs/reliability.md, "Tokens a step keeps").
//!
//! [`StepContext::keep_secret`]: super::StepContext::keep_secret

use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use secrecy::{ExposeSecret, SecretString};

use crate::write_path::Secrets;

/// One token waiting for its try's outcome.
struct Kept {
    name: String,
    value: SecretString,
    ttl: Duration,
}

/// One try's kept tokens, the newest value of each name. Never shows a value: its `Debug`
/// lists the names.
#[derive(Default)]
pub struct KeptSecrets(Mutex<Vec<Kept>>);

impl KeptSecrets {
    fn lock(&self) -> MutexGuard<'_, Vec<Kept>> {
        // A poisoned lock only means a step panicked mid-push; that try is failed anyway.
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Keeps `value` as `name`, replacing what the try kept under that name before. Its `ttl`
    /// counts from the outcome's write (at most the step time-out later than from the call).
    pub fn keep(&self, name: &str, value: &SecretString, ttl: Duration) {
        let mut kept = self.lock();
        kept.retain(|k| k.name != name);
        kept.push(Kept { name: name.to_string(), value: value.clone(), ttl });
    }

    /// What the try kept as `name`, if anything.
    pub fn get(&self, name: &str) -> Option<SecretString> {
        self.lock().iter().find(|k| k.name == name).map(|k| k.value.clone())
    }

    /// Drops what the try kept as `name`.
    pub fn forget(&self, name: &str) {
        self.lock().retain(|k| k.name != name);
    }

    /// Drops what the try kept under any name but `keep`.
    pub fn forget_except(&self, keep: &[&str]) {
        self.lock().retain(|k| keep.contains(&k.name.as_str()));
    }

    /// The names kept, in the order they were (last) kept.
    fn names(&self) -> Vec<String> {
        self.lock().iter().map(|k| k.name.clone()).collect()
    }

    /// Writes the kept tokens into the attempt's `secrets` on `conn`, the transaction that
    /// appends the try's outcome.
    pub async fn write_in(self, conn: &mut sqlx::PgConnection, secrets: &Secrets) -> Result<(), sqlx::Error> {
        let kept = self.0.into_inner().unwrap_or_else(PoisonError::into_inner);
        for Kept { name, value, ttl } in kept {
            secrets.put_in(&mut *conn, &name, value.expose_secret(), ttl).await?;
        }
        Ok(())
    }
}

impl std::fmt::Debug for KeptSecrets {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("KeptSecrets").field("names", &self.names()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MINUTE: Duration = Duration::from_secs(60);

    fn text(value: Option<SecretString>) -> Option<String> {
        value.map(|v| v.expose_secret().to_string())
    }

    #[test]
    fn the_newest_value_of_a_name_is_read_back() {
        let kept = KeptSecrets::default();
        assert_eq!(text(kept.get("flow.token")), None);
        kept.keep("flow.token", &SecretString::from("first"), MINUTE);
        kept.keep("flow.other", &SecretString::from("other"), MINUTE);
        kept.keep("flow.token", &SecretString::from("second"), MINUTE);
        assert_eq!(text(kept.get("flow.token")).as_deref(), Some("second"));
        assert_eq!(kept.names(), ["flow.other", "flow.token"], "one entry a name");
    }

    #[test]
    fn forgetting_drops_all_but_the_names_kept() {
        let kept = KeptSecrets::default();
        kept.keep("flow.a", &SecretString::from("a"), MINUTE);
        kept.keep("flow.b", &SecretString::from("b"), MINUTE);
        kept.keep("flow.c", &SecretString::from("c"), MINUTE);
        kept.forget_except(&["flow.b", "flow.c"]);
        assert_eq!(kept.names(), ["flow.b", "flow.c"]);
        kept.forget("flow.c");
        assert_eq!(kept.names(), ["flow.b"]);
    }

    #[test]
    fn debug_output_names_the_tokens_without_their_values() {
        let kept = KeptSecrets::default();
        kept.keep("flow.token", &SecretString::from("sbx-very-secret"), MINUTE);
        let shown = format!("{kept:?}");
        assert!(shown.contains("flow.token"), "{shown}");
        assert!(!shown.contains("sbx-very-secret"), "{shown}");
    }
}
