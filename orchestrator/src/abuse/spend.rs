//! What one client may spend on codes (issue 26): the counters a code send is checked and
//! counted in besides its phone's, by the attempt that sends it, the visitor session that owns
//! that attempt and the client's address. Pure: the keys are made by the command path from the
//! attempt it locked, the session it checked and the address it read (`AbuseGuard::admit`),
//! never from a field of the command.

use super::gate::Check;
use super::rules::{Limits, Rule};

/// Who pays for a code: the keyed hashes the caps count under.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Spender {
    /// The attempt sending the code.
    pub attempt: Vec<u8>,
    /// The visitor session that owns the attempt.
    pub session: Option<Vec<u8>>,
    /// The client's address (IPv4, or IPv6 /64).
    pub address: Option<Vec<u8>>,
}

/// The caps a code send meets: every code counts against its attempt, its session and its
/// address (when the address cap is on); a code to a phone the attempt never sent to before
/// also takes one of the attempt's distinct phones.
pub fn checks(limits: &Limits, spender: &Spender, new_phone: bool) -> Vec<Check> {
    let mut checks =
        vec![Check { rule: Rule::SmsPerAttempt, key: spender.attempt.clone(), limit: limits.sms_per_attempt_day }];
    if new_phone {
        checks.push(Check {
            rule: Rule::SmsPhonesPerAttempt,
            key: spender.attempt.clone(),
            limit: limits.sms_phones_per_attempt_day,
        });
    }
    if let Some(session) = &spender.session {
        checks.push(Check { rule: Rule::SmsPerSession, key: session.clone(), limit: limits.sms_per_session_hour });
    }
    if let (Some(limit), Some(address)) = (limits.sms_per_ip_hour, &spender.address) {
        checks.push(Check { rule: Rule::SmsPerIp, key: address.clone(), limit });
    }
    checks
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::AbuseConfig;

    fn spender() -> Spender {
        Spender { attempt: b"attempt".to_vec(), session: Some(b"session".to_vec()), address: Some(b"ip".to_vec()) }
    }

    fn rules(checks: &[Check]) -> Vec<(Rule, &[u8], u32)> {
        checks.iter().map(|c| (c.rule, c.key.as_slice(), c.limit)).collect()
    }

    #[test]
    fn a_code_to_a_new_phone_counts_against_the_attempt_its_phones_the_session_and_the_address() {
        let limits = Limits::from_config(&AbuseConfig::default(), false);
        assert_eq!(
            rules(&checks(&limits, &spender(), true)),
            [
                (Rule::SmsPerAttempt, &b"attempt"[..], 8),
                (Rule::SmsPhonesPerAttempt, &b"attempt"[..], 3),
                (Rule::SmsPerSession, &b"session"[..], 15),
                (Rule::SmsPerIp, &b"ip"[..], 60),
            ]
        );
    }

    #[test]
    fn a_resend_or_a_phone_sent_to_before_takes_no_new_phone() {
        let limits = Limits::from_config(&AbuseConfig::default(), false);
        let rules: Vec<Rule> = checks(&limits, &spender(), false).iter().map(|c| c.rule).collect();
        assert_eq!(rules, [Rule::SmsPerAttempt, Rule::SmsPerSession, Rule::SmsPerIp]);
    }

    #[test]
    fn the_address_cap_is_off_in_sandbox_mode_unless_set_and_a_missing_key_counts_nothing() {
        let sandbox = Limits::from_config(&AbuseConfig::default(), true);
        let rules: Vec<Rule> = checks(&sandbox, &spender(), false).iter().map(|c| c.rule).collect();
        assert_eq!(rules, [Rule::SmsPerAttempt, Rule::SmsPerSession]);
        let set = Limits::from_config(&AbuseConfig { sms_per_ip_hour: Some(4), ..AbuseConfig::default() }, true);
        let anonymous = Spender { session: None, address: None, ..spender() };
        let rules: Vec<Rule> = checks(&set, &anonymous, true).iter().map(|c| c.rule).collect();
        assert_eq!(rules, [Rule::SmsPerAttempt, Rule::SmsPhonesPerAttempt]);
    }
}
