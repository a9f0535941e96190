//! Data keys this process unwrapped, or found or made while sealing, kept for a short while
//! (issue 30): an attempt's page, its event stream's frames and its steps open the same few keys
//! again and again, each a round trip to `pii_subjects` (about 7 an attempt, and 2 after the
//! reads were kept). A key is kept for [`KEPT_FOR`] at most.
//!
//! Erasure deletes a key in the database; this process must then stop opening with it.
//! [`OpenedKeys::forget_all`] (called by [`super::Vault::forget`]) drops every key at once, and
//! a read that started before it keeps nothing it found (the generation moved on). Another
//! process's erasure (a replica, `orchestrator person erase`) reaches this one within
//! [`KEPT_FOR`]: the bound docs/security.md states.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use quick_cache::sync::Cache;
use uuid::Uuid;

use super::KeyRef;

/// How long a key is used without asking the database whether it still exists.
pub const KEPT_FOR: Duration = Duration::from_secs(30);

/// Keys kept at most (each under 100 bytes).
const MAX_KEYS: usize = 20_000;

pub(super) struct OpenedKeys {
    kept: Cache<KeyRef, (Instant, Uuid, [u8; 32])>,
    /// Moves on with every erasure in this process.
    generation: AtomicU64,
}

/// Never the keys themselves.
impl std::fmt::Debug for OpenedKeys {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OpenedKeys").field("kept", &self.kept.len()).field("generation", &self.generation()).finish()
    }
}

impl Default for OpenedKeys {
    fn default() -> Self {
        Self { kept: Cache::new(MAX_KEYS), generation: AtomicU64::new(0) }
    }
}

impl OpenedKeys {
    /// Where erasures stand: pass it back to [`OpenedKeys::keep`] with what a read found.
    pub(super) fn generation(&self) -> u64 {
        self.generation.load(Ordering::SeqCst)
    }

    /// The key of `key_ref` with its subject, if kept and still young.
    pub(super) fn get(&self, key_ref: &KeyRef) -> Option<(Uuid, [u8; 32])> {
        self.get_at(key_ref, Instant::now())
    }

    fn get_at(&self, key_ref: &KeyRef, now: Instant) -> Option<(Uuid, [u8; 32])> {
        let (at, subject, key) = self.kept.get(key_ref)?;
        (now.saturating_duration_since(at) < KEPT_FOR).then_some((subject, key))
    }

    /// Keeps what a read begun at `generation` found, unless an erasure came since.
    pub(super) fn keep(&self, generation: u64, found: impl IntoIterator<Item = (KeyRef, (Uuid, [u8; 32]))>) {
        let now = Instant::now();
        for (key_ref, (subject, key)) in found {
            self.kept.insert(key_ref, (now, subject, key));
        }
        // An erasure since the read began (its clear may have come before these inserts).
        if self.generation() != generation {
            self.kept.clear();
        }
    }

    /// Drops every key: a subject was erased.
    pub(super) fn forget_all(&self) {
        self.generation.fetch_add(1, Ordering::SeqCst);
        self.kept.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(n: u8) -> (KeyRef, (Uuid, [u8; 32])) {
        (KeyRef::Link(Uuid::from_u128(n.into())), (Uuid::from_u128(100 + u128::from(n)), [n; 32]))
    }

    #[test]
    fn a_key_is_used_while_young_and_read_again_once_old() {
        let keys = OpenedKeys::default();
        keys.keep(keys.generation(), [found(1)]);
        let kept_at = Instant::now();
        assert_eq!(keys.get(&found(1).0), Some(found(1).1));
        assert_eq!(keys.get_at(&found(1).0, kept_at + KEPT_FOR), None, "as old as its time");
        assert_eq!(keys.get(&found(2).0), None, "never kept");
    }

    #[test]
    fn an_erasure_drops_every_key_and_what_a_read_begun_before_it_found() {
        let keys = OpenedKeys::default();
        keys.keep(keys.generation(), [found(1), found(2)]);
        let read_began = keys.generation();
        keys.forget_all();
        assert_eq!((keys.get(&found(1).0), keys.get(&found(2).0)), (None, None));
        keys.keep(read_began, [found(3)]);
        assert_eq!(keys.get(&found(3).0), None, "found before the erasure: not kept");
        keys.keep(keys.generation(), [found(3)]);
        assert_eq!(keys.get(&found(3).0), Some(found(3).1));
    }
}
