//! The sandbox's memory: one world behind a mutex (never held across an await), the admin book,
//! a clock tests can move forward, and a seeded RNG so a seed replays the same codes and ids.

use std::collections::HashMap;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use chrono::{DateTime, Duration, Utc};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use uuid::Uuid;

use super::config::SandboxConfig;
use super::records::admin::AdminBook;
use super::records::codes::CodeBook;
use super::records::inbox::Inbox;
use super::records::partners::{BroadbandCustomer, HeroCustomer, OAuthGrant};
use super::records::subscriptions::Subscription;
use super::records::tokens::TokenBook;
use super::scenarios::{self, DesktopAccount};

#[derive(Clone)]
pub struct SandboxState {
    inner: Arc<Inner>,
}

struct Inner {
    /// What `POST /admin/reset` seeds the world with again.
    seed: u64,
    /// Milliseconds added to the wall clock by `POST /admin/clock`.
    clock_offset_ms: AtomicI64,
    world: Mutex<World>,
    admin: Mutex<AdminBook>,
    /// Ends every fault latency being waited out (`POST /admin/faults/release`).
    released: tokio::sync::Notify,
}

/// Everything the upstreams remember.
pub struct World {
    rng: StdRng,
    pub(super) tokens: TokenBook,
    pub(super) codes: CodeBook,
    pub(super) inbox: Inbox,
    /// Desktop users by their 11 national digits.
    pub(super) desktop: HashMap<String, DesktopAccount>,
    /// Activation and cloud subscriptions, oldest first.
    pub(super) subscriptions: Vec<Subscription>,
    /// Telecom-partner customers by lower-case e-mail.
    pub(super) hero_customers: HashMap<String, HeroCustomer>,
    pub(super) oauth_grants: HashMap<String, OAuthGrant>,
    /// Broadband customers by customer id.
    pub(super) broadband_customers: HashMap<String, BroadbandCustomer>,
}

impl SandboxState {
    pub fn new(config: SandboxConfig) -> Self {
        Self {
            inner: Arc::new(Inner {
                seed: config.seed,
                clock_offset_ms: AtomicI64::new(0),
                world: Mutex::new(World::seeded(config.seed)),
                admin: Mutex::new(admin_book(config.seed)),
                released: tokio::sync::Notify::new(),
            }),
        }
    }

    /// Back to the seeded state (`POST /admin/reset`): scenarios (devices, customers), inbox,
    /// codes, tokens, subscriptions, calls, faults, stored idempotent answers and the clock.
    pub fn reset(&self) {
        *lock(&self.inner.world) = World::seeded(self.inner.seed);
        *lock(&self.inner.admin) = admin_book(self.inner.seed);
        self.inner.clock_offset_ms.store(0, Ordering::SeqCst);
    }

    /// The sandbox clock: wall clock plus what tests advanced.
    pub fn now(&self) -> DateTime<Utc> {
        Utc::now() + Duration::milliseconds(self.inner.clock_offset_ms.load(Ordering::SeqCst))
    }

    pub fn advance(&self, by: Duration) -> DateTime<Utc> {
        self.inner.clock_offset_ms.fetch_add(by.num_milliseconds(), Ordering::SeqCst);
        self.now()
    }

    /// Waits out a fault's latency, or until a test releases the calls held
    /// ([`SandboxState::release`]): a test that needs a call in flight holds it for as long as
    /// it needs, not for a time it guesses.
    pub async fn latency(&self, latency: std::time::Duration) {
        let released = self.inner.released.notified();
        tokio::select! {
            () = tokio::time::sleep(latency) => {}
            () = released => {}
        }
    }

    /// Ends the latency of every call waiting one out now.
    pub fn release(&self) {
        self.inner.released.notify_waiters();
    }

    pub fn with<R>(&self, f: impl FnOnce(&mut World) -> R) -> R {
        f(&mut lock(&self.inner.world))
    }

    pub fn admin<R>(&self, f: impl FnOnce(&mut AdminBook) -> R) -> R {
        f(&mut lock(&self.inner.admin))
    }
}

/// A panic elsewhere must not take the whole sandbox down with a poisoned lock.
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Fault fractions roll their own stream, so setting a fault does not shift the codes.
fn admin_book(seed: u64) -> AdminBook {
    AdminBook::new(StdRng::seed_from_u64(seed.wrapping_add(1)))
}

impl World {
    fn seeded(seed: u64) -> Self {
        World {
            rng: StdRng::seed_from_u64(seed),
            tokens: TokenBook::default(),
            codes: CodeBook::default(),
            inbox: Inbox::default(),
            desktop: scenarios::desktop_accounts(),
            subscriptions: Vec::new(),
            hero_customers: HashMap::new(),
            oauth_grants: HashMap::new(),
            broadband_customers: HashMap::new(),
        }
    }

    /// A random 6-digit code.
    pub fn code(&mut self) -> String {
        format!("{:06}", self.rng.gen_range(0..1_000_000))
    }

    /// `prefix` and 32 random hex digits.
    pub fn token(&mut self, prefix: &str) -> String {
        let bytes: [u8; 16] = self.rng.gen();
        format!("{prefix}{}", hex::encode(bytes))
    }

    pub fn uuid(&mut self) -> Uuid {
        uuid::Builder::from_random_bytes(self.rng.gen()).into_uuid()
    }

    /// `n` random decimal digits.
    pub fn digits(&mut self, n: usize) -> String {
        (0..n).map(|_| char::from(b'0' + self.rng.gen_range(0..10u8))).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_seed_draws_the_same_values() {
        let draw =
            |seed| SandboxState::new(SandboxConfig { seed }).with(|w| (w.code(), w.token("t-"), w.uuid(), w.digits(8)));
        assert_eq!(draw(7), draw(7));
        assert_ne!(draw(7), draw(8));
        let (code, token, _, digits) = draw(7);
        assert_eq!(code.len(), 6);
        assert!(code.chars().all(|c| c.is_ascii_digit()));
        assert_eq!(token.len(), 2 + 32);
        assert_eq!(digits.len(), 8);
    }

    #[test]
    fn advancing_moves_the_clock_forward() {
        let state = SandboxState::new(SandboxConfig::default());
        let before = state.now();
        let after = state.advance(Duration::minutes(16));
        assert!(after - before >= Duration::minutes(16));
    }
}
