//! Who owns an attempt: its flow and the hash of the browser session that started it, kept in
//! memory once read. The `attempts` row is written once and never changed, so a copy cannot go
//! stale; every command, page load, event stream and installer download asks for it, and it was
//! a round trip each (issue 24: about five an attempt).
//!
//! Bounded (quick_cache): entries read often, the attempts of live visitors, stay in; memory
//! stays under `capacity` entries.

use quick_cache::sync::Cache;

/// An attempt's flow and its owner's session hash.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Owner {
    pub flow: String,
    pub session_hash: Vec<u8>,
}

/// Entries kept by default: about 100 bytes each, some MB in all.
pub const DEFAULT_CAPACITY: usize = 100_000;

pub struct Owners {
    kept: Cache<String, Owner>,
}

impl Default for Owners {
    fn default() -> Self {
        Self::with_capacity(DEFAULT_CAPACITY)
    }
}

impl Owners {
    pub fn with_capacity(capacity: usize) -> Self {
        Self { kept: Cache::new(capacity.max(1)) }
    }

    /// The owner of `stream_id`, if it was read before and is still kept.
    pub fn get(&self, stream_id: &str) -> Option<Owner> {
        self.kept.get(stream_id)
    }

    /// Keeps what the database said of `stream_id`.
    pub fn put(&self, stream_id: &str, owner: Owner) {
        self.kept.insert(stream_id.to_string(), owner);
    }

    /// Entries kept now.
    pub fn len(&self) -> usize {
        self.kept.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn owner(flow: &str) -> Owner {
        Owner { flow: flow.to_string(), session_hash: vec![1, 2, 3] }
    }

    #[test]
    fn what_was_put_is_found_and_nothing_else() {
        let owners = Owners::with_capacity(4);
        owners.put("cloud-a", owner("cloud"));
        assert_eq!(owners.get("cloud-a"), Some(owner("cloud")));
        assert_eq!(owners.get("cloud-b"), None);
    }

    #[test]
    fn past_capacity_entries_go_and_memory_stays_bounded() {
        let owners = Owners::with_capacity(100);
        for i in 0..1_000 {
            owners.put(&format!("download-{i}"), owner("download"));
            assert!(owners.len() <= 100, "kept {} entries after {} puts", owners.len(), i + 1);
        }
        assert!((0..1_000).filter(|i| owners.get(&format!("download-{i}")).is_none()).count() >= 900);
    }

    #[test]
    fn an_entry_in_use_stays_kept() {
        let owners = Owners::with_capacity(100);
        owners.put("activation-live", owner("activation"));
        for i in 0..1_000 {
            owners.put(&format!("activation-{i}"), owner("activation"));
            assert!(owners.get("activation-live").is_some(), "a live visitor's attempt stays kept ({i} puts)");
        }
    }
}
