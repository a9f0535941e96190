//! A ticket's pass: the place the line gave it and until when its holder need not be looked up
//! again, signed, beside the ticket's token in its cookie (`<token>.<place>.<until>.<mac>`).
//!
//! Past capacity most refused starts are holders asking again whether it is their turn, and
//! each asked the line one statement (look the ticket up, maybe renew it). While the pass is
//! fresh and its place is not yet at the door, the door answers from the pass and the sampler's
//! view of the line with no statement at all. "Fresh" ends early enough that the holder's next
//! try (within [`super::RENEW_BELOW`]: the longest wait with the page's jitter) still finds
//! the ticket in line and renews it. A try whose place is in the window, or whose pass is stale,
//! forged or missing, is looked up as before: the pass never lets anyone in.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use events::pii::SigningKey;

/// What the key is derived for from the vault's look-up key (`Vault::signing_key`), and the
/// label its tags are made under.
pub const SECRET_PURPOSE: &str = "admission-line-pass";
/// Taken off a pass's freshness for clocks that differ between replicas.
const CLOCK_MARGIN: Duration = Duration::from_secs(2);
/// The signature's length kept in the cookie (bytes; 128 bits).
const MAC_BYTES: usize = events::pii::SHORTEST_TAG;

/// What a ticket's cookie holds: its token and, when signed and fresh, the place its pass names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Held {
    pub token: String,
    /// The place of a pass that is fresh now (None: look the ticket up).
    pub fresh_place: Option<i64>,
}

/// The key that signs passes: derived from the vault's look-up key, so every replica has it.
#[derive(Clone, Debug)]
pub struct PassKey(SigningKey);

/// Milliseconds since the epoch, the passes' clock.
pub fn now_ms() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

/// How long a pass stays fresh for a ticket with `left` of its life in line (None: not at all):
/// a try answered from it at the last moment is followed within `renew_below` by one that finds
/// the ticket still in line.
pub fn fresh_for(left: Duration, renew_below: Duration) -> Option<Duration> {
    left.checked_sub(renew_below + CLOCK_MARGIN).filter(|fresh| !fresh.is_zero())
}

impl PassKey {
    pub fn new(key: SigningKey) -> Self {
        Self(key)
    }

    /// The cookie's value: `token` with a pass for `place`, fresh until `until_ms`.
    pub fn sign(&self, token: &str, place: i64, until_ms: u64) -> String {
        let signed = format!("{token}.{place}.{until_ms}");
        let tag = self.0.sign(SECRET_PURPOSE, &signed, MAC_BYTES);
        format!("{signed}.{}", hex::encode(tag))
    }

    /// The cookie's value read at `now_ms`: the token (64 hex characters; anything else is no
    /// ticket), and the pass's place when it is signed by this key and still fresh.
    pub fn read(&self, value: &str, now_ms: u64) -> Option<Held> {
        let mut parts = value.split('.');
        let token = parts.next().filter(|t| t.len() == 64 && t.bytes().all(|b| b.is_ascii_hexdigit()))?;
        let pass = (|| {
            let place: i64 = parts.next()?.parse().ok()?;
            let until_ms: u64 = parts.next()?.parse().ok()?;
            let tag = hex::decode(parts.next()?).ok()?;
            if parts.next().is_some() || tag.len() != MAC_BYTES || now_ms >= until_ms {
                return None;
            }
            self.0.verifies(SECRET_PURPOSE, &format!("{token}.{place}.{until_ms}"), &tag).then_some(place)
        })();
        Some(Held { token: token.to_string(), fresh_place: pass })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const NOW: u64 = 1_800_000_000_000;

    fn key(byte: u8) -> PassKey {
        PassKey::new(SigningKey::new([byte; 32]))
    }

    fn token() -> String {
        "ab".repeat(32)
    }

    #[test]
    fn a_signed_pass_names_its_place_until_it_is_stale() {
        let cookie = key(1).sign(&token(), 42, NOW + 8_000);
        assert_eq!(key(1).read(&cookie, NOW), Some(Held { token: token(), fresh_place: Some(42) }));
        assert_eq!(key(1).read(&cookie, NOW + 7_999).and_then(|h| h.fresh_place), Some(42));
        assert_eq!(key(1).read(&cookie, NOW + 8_000), Some(Held { token: token(), fresh_place: None }));
    }

    #[test]
    fn a_pass_changed_or_signed_by_another_key_only_leaves_its_token() {
        let cookie = key(1).sign(&token(), 42, NOW + 8_000);
        let no_pass = Some(Held { token: token(), fresh_place: None });
        assert_eq!(key(2).read(&cookie, NOW), no_pass);
        let earlier_place = cookie.replacen(".42.", ".1.", 1);
        assert_eq!(key(1).read(&earlier_place, NOW), no_pass);
        let later_end = cookie.replacen(&format!(".{}.", NOW + 8_000), &format!(".{}.", NOW + 80_000), 1);
        assert_eq!(key(1).read(&later_end, NOW), no_pass);
        assert_eq!(key(1).read(&format!("{cookie}.0"), NOW), no_pass);
    }

    #[test]
    fn a_token_alone_is_a_ticket_without_a_pass_and_anything_else_is_no_ticket() {
        assert_eq!(key(1).read(&token(), NOW), Some(Held { token: token(), fresh_place: None }));
        assert_eq!(key(1).read(&"ab".repeat(31), NOW), None);
        assert_eq!(key(1).read(&"zz".repeat(32), NOW), None);
        assert_eq!(key(1).read("", NOW), None);
    }

    #[test]
    fn a_pass_is_fresh_for_what_the_ticket_has_left_past_the_longest_wait_and_the_clocks_margin() {
        let renew_below = Duration::from_secs(15);
        assert_eq!(fresh_for(Duration::from_secs(25), renew_below), Some(Duration::from_secs(8)));
        assert_eq!(fresh_for(Duration::from_secs(17), renew_below), None);
        assert_eq!(fresh_for(Duration::from_secs(3), renew_below), None);
    }
}
