//! SMS codes as the upstreams use them: issue a code into the inbox, then check it (expiry, at
//! most [`MAX_WRONG_CODES`](crate::records::codes::MAX_WRONG_CODES) wrong codes, single use). Every upstream that sends codes goes
//! through here; the transactions themselves are kept in [`crate::records::codes`].

use chrono::{DateTime, Utc};

use super::error::{Refusal, Style};
use super::records::codes::{Channel, CodeOutcome};
use super::records::inbox::Sms;
use super::state::{SandboxState, World};

/// A 6-digit code, or 400 `INVALID_PINCODE` (a malformed code is not an attempt).
pub fn check_format(code: &str, style: Style) -> Result<(), Refusal> {
    if code.len() == 6 && code.bytes().all(|b| b.is_ascii_digit()) {
        Ok(())
    } else {
        Err(Refusal::bad_request(style, "INVALID_PINCODE", "O código deve ter 6 dígitos."))
    }
}

/// Checks a code the way every upstream does: 400 when malformed (not an attempt), then the
/// verified msisdn or the refusal its outcome maps to.
pub fn verify(
    state: &SandboxState,
    channel: Channel,
    transaction: &str,
    code: &str,
    now: DateTime<Utc>,
    style: Style,
) -> Result<String, Refusal> {
    check_format(code, style)?;
    state.with(|w| w.check_code(channel, transaction, code, now)).into_msisdn(style)
}

impl World {
    /// Issues a code for `msisdn` (`55DDNNNNNNNNN`), writes it to the inbox and returns the
    /// transaction id.
    pub fn send_code(&mut self, channel: Channel, msisdn: &str, now: DateTime<Utc>) -> String {
        let id = self.uuid().to_string();
        let code = self.code();
        self.inbox.push(Sms { to: msisdn.to_string(), text: channel.text(&code), code: code.clone(), sent_at: now });
        self.codes.open(id.clone(), channel, msisdn, code, now);
        id
    }

    pub fn check_code(&mut self, channel: Channel, id: &str, code: &str, now: DateTime<Utc>) -> CodeOutcome {
        self.codes.check(channel, id, code, now)
    }

    /// Whether `msisdn` ever confirmed a code on `channel`.
    pub fn is_verified(&self, channel: Channel, msisdn: &str) -> bool {
        self.codes.is_verified(channel, msisdn)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::SandboxConfig;
    use crate::records::codes::MAX_WRONG_CODES;
    use chrono::Duration;

    const PHONE: &str = "5511987654321";

    fn sent(channel: Channel) -> (SandboxState, String, String) {
        let state = SandboxState::new(SandboxConfig::default());
        let now = state.now();
        let id = state.with(|w| w.send_code(channel, PHONE, now));
        let code = state.with(|w| w.inbox.latest_for(PHONE).map(|sms| sms.code.clone())).unwrap();
        (state, id, code)
    }

    fn wrong(code: &str) -> String {
        format!("{:06}", (code.parse::<u32>().unwrap() + 1) % 1_000_000)
    }

    #[test]
    fn the_right_code_is_accepted_once() {
        let (state, id, code) = sent(Channel::Activation);
        let now = state.now();
        state.with(|w| {
            assert!(!w.is_verified(Channel::Activation, PHONE));
            assert_eq!(
                w.check_code(Channel::Activation, &id, &code, now),
                CodeOutcome::Accepted { msisdn: PHONE.into() }
            );
            assert!(w.is_verified(Channel::Activation, PHONE));
            assert!(!w.is_verified(Channel::Cloud, PHONE));
            assert_eq!(w.check_code(Channel::Activation, &id, &code, now), CodeOutcome::Used);
        });
    }

    #[test]
    fn five_wrong_codes_then_locked_even_for_the_right_one() {
        let (state, id, code) = sent(Channel::Activation);
        let now = state.now();
        state.with(|w| {
            for left in (0..MAX_WRONG_CODES).rev() {
                assert_eq!(
                    w.check_code(Channel::Activation, &id, &wrong(&code), now),
                    CodeOutcome::Wrong { attempts_left: left }
                );
            }
            assert_eq!(w.check_code(Channel::Activation, &id, &code, now), CodeOutcome::Locked);
        });
    }

    #[test]
    fn security_codes_last_15_minutes_and_cloud_codes_5() {
        for (channel, minutes) in [(Channel::Activation, 15), (Channel::Desktop, 15), (Channel::Cloud, 5)] {
            let (state, id, code) = sent(channel);
            let now = state.now();
            let just_before = now + Duration::minutes(minutes) - Duration::seconds(1);
            let at_expiry = now + Duration::minutes(minutes);
            state.with(|w| {
                assert_eq!(
                    w.check_code(channel, &id, &wrong(&code), just_before),
                    CodeOutcome::Wrong { attempts_left: 4 }
                );
                assert_eq!(w.check_code(channel, &id, &code, at_expiry), CodeOutcome::Expired, "{channel:?}");
            });
        }
    }

    #[test]
    fn a_transaction_belongs_to_its_channel() {
        let (state, id, code) = sent(Channel::Cloud);
        let now = state.now();
        state.with(|w| {
            assert_eq!(w.check_code(Channel::Activation, &id, &code, now), CodeOutcome::Unknown);
            assert_eq!(w.check_code(Channel::Cloud, "nope", &code, now), CodeOutcome::Unknown);
        });
    }
}
