//! How many event streams (SSE) are open, per attempt and in all: each one holds a connection
//! and reads the attempt on every change, so a few hundred of them must not be able to hold
//! the database pool. A stream past either cap is refused with 429; a stream's place is given
//! back when it ends (its [`Place`] is dropped).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// The caps, from configuration (`SSE_MAX_PER_ATTEMPT`, `SSE_MAX_TOTAL`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StreamCaps {
    pub per_attempt: usize,
    pub total: usize,
}

impl Default for StreamCaps {
    fn default() -> Self {
        let size = |value: u64| usize::try_from(value).unwrap_or(usize::MAX);
        Self {
            per_attempt: size(crate::config::DEFAULT_SSE_MAX_PER_ATTEMPT),
            total: size(crate::config::DEFAULT_SSE_MAX_TOTAL),
        }
    }
}

#[derive(Debug, Default)]
struct Open {
    total: usize,
    per_attempt: HashMap<String, usize>,
}

/// The open streams of this process.
#[derive(Debug, Clone)]
pub struct OpenStreams {
    caps: StreamCaps,
    open: Arc<Mutex<Open>>,
}

/// Which cap refused a stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Full {
    Attempt,
    Server,
}

/// A stream's place; given back on drop.
#[derive(Debug)]
pub struct Place {
    attempt: String,
    open: Arc<Mutex<Open>>,
}

impl Drop for Place {
    fn drop(&mut self) {
        // A poisoned lock means another holder panicked mid-update; the counts are still ours.
        let mut open = self.open.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        open.total = open.total.saturating_sub(1);
        if let Some(count) = open.per_attempt.get_mut(&self.attempt) {
            *count = count.saturating_sub(1);
            if *count == 0 {
                open.per_attempt.remove(&self.attempt);
            }
        }
    }
}

impl OpenStreams {
    pub fn new(caps: StreamCaps) -> Self {
        Self { caps, open: Arc::default() }
    }

    /// Streams open now, in the process.
    pub fn open_total(&self) -> usize {
        self.open.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).total
    }

    /// A place for one more stream of `attempt`, if both caps allow it.
    pub fn enter(&self, attempt: &str) -> Result<Place, Full> {
        let mut open = self.open.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if open.total >= self.caps.total {
            return Err(Full::Server);
        }
        let count = open.per_attempt.entry(attempt.to_string()).or_default();
        if *count >= self.caps.per_attempt {
            return Err(Full::Attempt);
        }
        *count += 1;
        open.total += 1;
        Ok(Place { attempt: attempt.to_string(), open: Arc::clone(&self.open) })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_attempt_and_the_server_have_a_cap_and_a_closed_stream_gives_its_place_back() {
        let streams = OpenStreams::new(StreamCaps { per_attempt: 2, total: 3 });
        let a1 = streams.enter("a").expect("first");
        let _a2 = streams.enter("a").expect("second");
        assert_eq!(streams.enter("a").err(), Some(Full::Attempt));
        let _b1 = streams.enter("b").expect("another attempt");
        assert_eq!(streams.enter("c").err(), Some(Full::Server));
        drop(a1);
        let _a3 = streams.enter("a").expect("a place was given back");
    }
}
