//! Who owns an attempt: its flow and the hash of the browser session that started it, kept in
//! memory once read. The `attempts` row is written once and never changed, so a copy cannot go
//! stale; every command, page load, event stream and installer download asks for it, and it was
//! a round trip each (issue 24: about five an attempt).
//!
//! Bounded by two generations: a hit in the older one moves the entry to the newer; when the
//! newer is full the older is dropped and the newer takes its place. Memory stays under twice
//! `capacity` entries, and the attempts in use (live visitors) stay in.

use std::collections::HashMap;
use std::sync::Mutex;

/// An attempt's flow and its owner's session hash.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Owner {
    pub flow: String,
    pub session_hash: Vec<u8>,
}

/// Entries per generation by default: about 100 bytes each, a few MB in all.
pub const DEFAULT_CAPACITY: usize = 50_000;

#[derive(Debug)]
pub struct Owners {
    capacity: usize,
    generations: Mutex<Generations>,
}

#[derive(Debug, Default)]
struct Generations {
    newer: HashMap<String, Owner>,
    older: HashMap<String, Owner>,
}

impl Default for Owners {
    fn default() -> Self {
        Self::with_capacity(DEFAULT_CAPACITY)
    }
}

impl Owners {
    pub fn with_capacity(capacity: usize) -> Self {
        Self { capacity: capacity.max(1), generations: Mutex::new(Generations::default()) }
    }

    /// The owner of `stream_id`, if it was read before and is still kept.
    pub fn get(&self, stream_id: &str) -> Option<Owner> {
        let mut kept = self.generations.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some(owner) = kept.newer.get(stream_id) {
            return Some(owner.clone());
        }
        let owner = kept.older.remove(stream_id)?;
        kept.insert(stream_id.to_string(), owner.clone(), self.capacity);
        Some(owner)
    }

    /// Keeps what the database said of `stream_id`.
    pub fn put(&self, stream_id: &str, owner: Owner) {
        let mut kept = self.generations.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        kept.insert(stream_id.to_string(), owner, self.capacity);
    }

    /// Entries kept now (both generations).
    pub fn len(&self) -> usize {
        let kept = self.generations.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        kept.newer.len() + kept.older.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl Generations {
    fn insert(&mut self, stream_id: String, owner: Owner, capacity: usize) {
        if self.newer.len() >= capacity && !self.newer.contains_key(&stream_id) {
            self.older = std::mem::take(&mut self.newer);
        }
        self.newer.insert(stream_id, owner);
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
    fn past_capacity_the_oldest_generation_goes_and_memory_stays_under_twice_the_capacity() {
        let owners = Owners::with_capacity(2);
        for i in 0..10 {
            owners.put(&format!("download-{i}"), owner("download"));
            assert!(owners.len() <= 4, "kept {} entries after {} puts", owners.len(), i + 1);
        }
        assert_eq!(owners.get("download-0"), None, "the first entries were dropped");
        assert_eq!(owners.get("download-9"), Some(owner("download")));
    }

    #[test]
    fn an_entry_in_use_survives_the_turn_of_a_generation() {
        let owners = Owners::with_capacity(2);
        owners.put("activation-live", owner("activation"));
        owners.put("activation-1", owner("activation"));
        // The newer generation is full: the next put turns it into the older one.
        owners.put("activation-2", owner("activation"));
        // Read while in the older generation: moved back to the newer one.
        assert!(owners.get("activation-live").is_some());
        owners.put("activation-3", owner("activation"));
        owners.put("activation-4", owner("activation"));
        assert!(owners.get("activation-live").is_some(), "a live visitor's attempt stays kept");
    }
}
