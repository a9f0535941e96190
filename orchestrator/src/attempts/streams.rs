//! How many event streams (SSE) are open, per attempt, per client and in all: each one holds a
//! connection and reads the attempt on every change, so a few hundred of them must not be able
//! to hold the database pool, and one client (a session, an address) must not be able to hold
//! every place (issue 26). A stream past any cap is refused with 429; a stream's place is given
//! back when it ends (its [`Place`] is dropped), and a visitor's stream ends after its lifetime
//! (the browser opens it again, under the caps again).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

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

/// What one client may hold, from configuration (`SSE_MAX_PER_SESSION`,
/// `SSE_MAX_PER_ADDRESS`, `SSE_LIFETIME_SECS`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClientCaps {
    pub per_session: usize,
    pub per_address: usize,
    /// How long one stream stays open.
    pub lifetime: Duration,
}

impl Default for ClientCaps {
    fn default() -> Self {
        let size = |value: u64| usize::try_from(value).unwrap_or(usize::MAX);
        Self {
            per_session: size(crate::config::DEFAULT_SSE_MAX_PER_SESSION),
            per_address: size(crate::config::DEFAULT_SSE_MAX_PER_ADDRESS),
            lifetime: Duration::from_secs(crate::config::DEFAULT_SSE_LIFETIME_SECS),
        }
    }
}

/// Who opens a stream: the browser's session and its address (the per-address limits' key),
/// each counted when known.
#[derive(Debug, Clone, Copy, Default)]
pub struct Client<'a> {
    pub session: Option<&'a str>,
    pub address: Option<&'a str>,
}

#[derive(Debug, Default)]
struct Open {
    total: usize,
    /// Streams per key: `a:` an attempt, `s:` a session, `i:` an address.
    per_key: HashMap<String, usize>,
}

/// The open streams of this process.
#[derive(Debug, Clone)]
pub struct OpenStreams {
    caps: StreamCaps,
    clients: Option<ClientCaps>,
    open: Arc<Mutex<Open>>,
}

/// Which cap refused a stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Full {
    Attempt,
    Session,
    Address,
    Server,
}

/// A stream's place; given back on drop.
#[derive(Debug)]
pub struct Place {
    keys: Vec<String>,
    lifetime: Option<Duration>,
    open: Arc<Mutex<Open>>,
}

impl Place {
    /// How long the stream may stay open; none for streams without client caps.
    pub fn lifetime(&self) -> Option<Duration> {
        self.lifetime
    }
}

impl Drop for Place {
    fn drop(&mut self) {
        // A poisoned lock means another holder panicked mid-update; the counts are still ours.
        let mut open = self.open.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        open.total = open.total.saturating_sub(1);
        for key in &self.keys {
            if let Some(count) = open.per_key.get_mut(key) {
                *count = count.saturating_sub(1);
                if *count == 0 {
                    open.per_key.remove(key);
                }
            }
        }
    }
}

impl OpenStreams {
    pub fn new(caps: StreamCaps) -> Self {
        Self { caps, clients: None, open: Arc::default() }
    }

    /// The same, with per-client caps and a lifetime (the visitors' streams).
    pub fn with_clients(mut self, clients: ClientCaps) -> Self {
        self.clients = Some(clients);
        self
    }

    /// Streams open now, in the process.
    pub fn open_total(&self) -> usize {
        self.open.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).total
    }

    /// A place for one more stream of `attempt`, if the attempt's and the server's caps allow it.
    pub fn enter(&self, attempt: &str) -> Result<Place, Full> {
        self.enter_for(attempt, Client::default())
    }

    /// A place for one more stream of `attempt` opened by `client`, if every cap allows it.
    pub fn enter_for(&self, attempt: &str, client: Client<'_>) -> Result<Place, Full> {
        let mut wanted = vec![(format!("a:{attempt}"), self.caps.per_attempt, Full::Attempt)];
        if let Some(caps) = self.clients {
            if let Some(session) = client.session {
                wanted.push((format!("s:{session}"), caps.per_session, Full::Session));
            }
            if let Some(address) = client.address {
                wanted.push((format!("i:{address}"), caps.per_address, Full::Address));
            }
        }
        let mut open = self.open.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if open.total >= self.caps.total {
            return Err(Full::Server);
        }
        for (key, cap, full) in &wanted {
            if open.per_key.get(key).copied().unwrap_or(0) >= *cap {
                return Err(*full);
            }
        }
        for (key, _, _) in &wanted {
            *open.per_key.entry(key.clone()).or_default() += 1;
        }
        open.total += 1;
        Ok(Place {
            keys: wanted.into_iter().map(|(key, _, _)| key).collect(),
            lifetime: self.clients.map(|caps| caps.lifetime),
            open: Arc::clone(&self.open),
        })
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

    #[test]
    fn one_session_and_one_address_have_a_cap_across_attempts() {
        let clients = ClientCaps { per_session: 2, per_address: 3, lifetime: Duration::from_secs(60) };
        let streams = OpenStreams::new(StreamCaps { per_attempt: 4, total: 100 }).with_clients(clients);
        let (one, two) =
            (Client { session: Some("s1"), address: Some("ip") }, Client { session: Some("s2"), address: Some("ip") });
        let first = streams.enter_for("a", one).expect("first");
        let _second = streams.enter_for("b", one).expect("second");
        assert_eq!(streams.enter_for("c", one).err(), Some(Full::Session));
        let _third = streams.enter_for("c", two).expect("another session at the address");
        assert_eq!(streams.enter_for("d", two).err(), Some(Full::Address));
        let elsewhere = Client { session: Some("s3"), address: Some("other") };
        let other = streams.enter_for("d", elsewhere).expect("another address");
        assert_eq!(other.lifetime(), Some(clients.lifetime));
        drop(first);
        let _again = streams.enter_for("c", one).expect("a place was given back to the session and the address");
        assert_eq!(streams.open_total(), 4);
    }
}
