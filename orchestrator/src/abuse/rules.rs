//! The limits, by rule: their windows, the Portuguese message a refusal shows, and the limits
//! in force for a deployment's mode (what a command will do comes from its flow's decision,
//! `events::flow::Guards`; the counting is `gate`'s).

use std::time::Duration;

use crate::config::AbuseConfig;
use crate::texts::{
    PARTNER_LOGINS, PROOF_MISSING, SMS_BUSY, SMS_PAUSED, SMS_PER_ATTEMPT, SMS_PER_DAY, SMS_PER_PHONE, SMS_PER_SESSION,
    STARTS_PER_IP, WRONG_CODES,
};

/// A limit, by the name its refusals carry (`abuse.limited`'s `rule`, metrics, docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Rule {
    /// Codes sent to one phone in 10 minutes.
    SmsPerPhone10Min,
    /// Codes sent to one phone in a day.
    SmsPerPhoneDay,
    /// Codes sent by one attempt in a day.
    SmsPerAttempt,
    /// Distinct phones one attempt sent codes to in a day (counted when a phone is new to it).
    SmsPhonesPerAttempt,
    /// Codes sent by the attempts of one visitor session in an hour.
    SmsPerSession,
    /// Codes sent for one client address in an hour.
    SmsPerIp,
    /// Codes sent by the whole portal in a minute (a GCRA rate: a refusal waits for the next
    /// place, and opens no breaker).
    SmsPerMinute,
    /// Codes sent to one number prefix in a minute: a burst there looks like pumping, and
    /// opens the breaker for that prefix.
    SmsPerPrefix,
    /// The breaker opened by [`Rule::SmsPerPrefix`] for its prefix, for the cool-down.
    SmsBreaker,
    /// Attempts started from one address in 10 minutes.
    StartsPerIp,
    /// Wrong codes in one attempt.
    WrongCodes,
    /// Partner log-ins with one e-mail in an hour.
    PartnerLoginsPerEmail,
    /// Partner log-ins from one address in an hour.
    PartnerLoginsPerIp,
    /// A command that sends a code came without a valid proof of work.
    ProofOfWork,
}

impl Rule {
    pub const ALL: [Rule; 14] = [
        Rule::SmsPerPhone10Min,
        Rule::SmsPerPhoneDay,
        Rule::SmsPerAttempt,
        Rule::SmsPhonesPerAttempt,
        Rule::SmsPerSession,
        Rule::SmsPerIp,
        Rule::SmsPerMinute,
        Rule::SmsPerPrefix,
        Rule::SmsBreaker,
        Rule::StartsPerIp,
        Rule::WrongCodes,
        Rule::PartnerLoginsPerEmail,
        Rule::PartnerLoginsPerIp,
        Rule::ProofOfWork,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Rule::SmsPerPhone10Min => "sms_per_phone_10min",
            Rule::SmsPerPhoneDay => "sms_per_phone_day",
            Rule::SmsPerAttempt => "sms_per_attempt",
            Rule::SmsPhonesPerAttempt => "sms_phones_per_attempt",
            Rule::SmsPerSession => "sms_per_session",
            Rule::SmsPerIp => "sms_per_ip",
            Rule::SmsPerMinute => "sms_per_minute",
            Rule::SmsPerPrefix => "sms_per_prefix",
            Rule::SmsBreaker => "sms_breaker",
            Rule::StartsPerIp => "starts_per_ip",
            Rule::WrongCodes => "wrong_codes",
            Rule::PartnerLoginsPerEmail => "partner_logins_per_email",
            Rule::PartnerLoginsPerIp => "partner_logins_per_ip",
            Rule::ProofOfWork => "proof_of_work",
        }
    }

    /// The sliding window the rule counts in.
    pub fn window(self) -> Duration {
        match self {
            Rule::SmsPerPhone10Min | Rule::StartsPerIp => Duration::from_secs(600),
            Rule::SmsPerPhoneDay | Rule::SmsPerAttempt | Rule::SmsPhonesPerAttempt => Duration::from_secs(86_400),
            Rule::SmsPerSession | Rule::SmsPerIp => Duration::from_secs(3_600),
            Rule::SmsPerMinute | Rule::SmsPerPrefix => Duration::from_secs(60),
            Rule::PartnerLoginsPerEmail | Rule::PartnerLoginsPerIp => Duration::from_secs(3_600),
            // Counted elsewhere (the breaker by its cool-down, the others per request).
            Rule::SmsBreaker | Rule::WrongCodes | Rule::ProofOfWork => Duration::ZERO,
        }
    }

    /// What the visitor reads; `flow` picks the wrong-code text (the activation spec's 406).
    pub fn message(self, flow: &str) -> &'static str {
        match self {
            Rule::SmsPerPhone10Min => SMS_PER_PHONE,
            Rule::SmsPerPhoneDay => SMS_PER_DAY,
            Rule::SmsPerAttempt | Rule::SmsPhonesPerAttempt => SMS_PER_ATTEMPT,
            Rule::SmsPerSession => SMS_PER_SESSION,
            Rule::SmsPerMinute => SMS_BUSY,
            Rule::SmsPerPrefix | Rule::SmsBreaker => SMS_PAUSED,
            Rule::StartsPerIp | Rule::SmsPerIp => STARTS_PER_IP,
            Rule::WrongCodes if flow == "activation" => events::flows::activation::messages::CODE_LOCKED,
            Rule::WrongCodes => WRONG_CODES,
            Rule::PartnerLoginsPerEmail | Rule::PartnerLoginsPerIp => PARTNER_LOGINS,
            Rule::ProofOfWork => PROOF_MISSING,
        }
    }
}

/// The phones of `docs/sandbox.md`'s scenarios (national digits): in sandbox mode they are
/// exempt from the per-phone limits, so scenarios can be walked again and again.
pub const SANDBOX_SCENARIO_PHONES: [&str; 13] = [
    "11910000001",
    "11910000002",
    "11910000003",
    "11910000004",
    "11910000005",
    "11910000006",
    "11910000007",
    "11920000001",
    "11920000002",
    "11930000001",
    "11930000002",
    "11930000003",
    "11940000001",
];

/// The limits in force: the configuration read with the deployment's mode.
#[derive(Debug, Clone)]
pub struct Limits {
    pub sms_per_phone_10min: u32,
    pub sms_per_phone_day: u32,
    pub sms_per_minute: u32,
    pub sms_per_prefix_minute: u32,
    /// Leading national digits that make a number's prefix (area code and exchange).
    pub prefix_digits: usize,
    pub breaker_cooldown: Duration,
    pub sms_per_attempt_day: u32,
    pub sms_phones_per_attempt_day: u32,
    pub sms_per_session_hour: u32,
    pub sms_per_ip_hour: Option<u32>,
    pub starts_per_ip_10min: Option<u32>,
    pub wrong_codes_per_attempt: u32,
    pub partner_logins_per_email_hour: u32,
    pub partner_logins_per_ip_hour: Option<u32>,
    pub exempt_phones: Vec<String>,
}

/// Production's per-address limits, used outside sandbox mode when none is configured.
pub const PRODUCTION_STARTS_PER_IP_10MIN: u32 = 20;
pub const PRODUCTION_PARTNER_LOGINS_PER_IP_HOUR: u32 = 20;
/// Many visitors share an address (an office, a carrier's NAT): three times the starts an
/// address may make in 10 minutes, over an hour.
pub const PRODUCTION_SMS_PER_IP_HOUR: u32 = 60;

impl Limits {
    pub fn from_config(config: &AbuseConfig, sandbox_mode: bool) -> Self {
        // Every local browser and test comes from one address: off in sandbox mode unless set.
        let per_ip = |configured: Option<u32>, production: u32| match configured {
            Some(0) => None,
            Some(limit) => Some(limit),
            None if sandbox_mode => None,
            None => Some(production),
        };
        Self {
            sms_per_phone_10min: config.sms_per_phone_10min,
            sms_per_phone_day: config.sms_per_phone_day,
            sms_per_minute: config.sms_per_minute,
            sms_per_prefix_minute: config.sms_per_prefix_minute,
            prefix_digits: usize::from(config.sms_prefix_digits),
            breaker_cooldown: Duration::from_secs(config.sms_breaker_cooldown_secs.into()),
            sms_per_attempt_day: config.sms_per_attempt_day,
            sms_phones_per_attempt_day: config.sms_phones_per_attempt_day,
            sms_per_session_hour: config.sms_per_session_hour,
            sms_per_ip_hour: per_ip(config.sms_per_ip_hour, PRODUCTION_SMS_PER_IP_HOUR),
            starts_per_ip_10min: per_ip(config.starts_per_ip_10min, PRODUCTION_STARTS_PER_IP_10MIN),
            wrong_codes_per_attempt: config.wrong_codes_per_attempt,
            partner_logins_per_email_hour: config.partner_logins_per_email_hour,
            partner_logins_per_ip_hour: per_ip(
                config.partner_logins_per_ip_hour,
                PRODUCTION_PARTNER_LOGINS_PER_IP_HOUR,
            ),
            exempt_phones: if sandbox_mode {
                SANDBOX_SCENARIO_PHONES.iter().map(|p| p.to_string()).collect()
            } else {
                Vec::new()
            },
        }
    }

    pub fn phone_exempt(&self, national: &str) -> bool {
        self.exempt_phones.iter().any(|p| p == national)
    }

    /// The prefix a national number's burst is counted under.
    pub fn prefix<'n>(&self, national: &'n str) -> &'n str {
        national.get(..self.prefix_digits).unwrap_or(national)
    }

    /// The portal-wide ceiling as a rate.
    pub fn global_rate(&self) -> super::rate::Rate {
        super::rate::Rate::per(self.sms_per_minute, Rule::SmsPerMinute.window())
    }

    /// One prefix's burst limit as a rate.
    pub fn prefix_rate(&self) -> super::rate::Rate {
        super::rate::Rate::per(self.sms_per_prefix_minute, Rule::SmsPerPrefix.window())
    }

    /// The per-phone rules a code send to a phone counts against.
    pub fn phone_rules(&self) -> [(Rule, u32); 2] {
        [(Rule::SmsPerPhone10Min, self.sms_per_phone_10min), (Rule::SmsPerPhoneDay, self.sms_per_phone_day)]
    }
}

/// Wrong codes an attempt has had: every flow records a refused code as `code.rejected`.
pub fn wrong_codes(history: &[events::RecordedEvent]) -> usize {
    history.iter().filter(|e| e.event_type == "code.rejected").count()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    #[test]
    fn per_address_limits_are_off_in_sandbox_mode_unless_configured() {
        let config = AbuseConfig::default();
        assert_eq!(Limits::from_config(&config, true).starts_per_ip_10min, None);
        assert_eq!(Limits::from_config(&config, false).starts_per_ip_10min, Some(20));
        assert_eq!(Limits::from_config(&config, false).partner_logins_per_ip_hour, Some(20));
        assert_eq!(Limits::from_config(&config, true).sms_per_ip_hour, None);
        assert_eq!(Limits::from_config(&config, false).sms_per_ip_hour, Some(60));
        let set = AbuseConfig { starts_per_ip_10min: Some(3), ..AbuseConfig::default() };
        assert_eq!(Limits::from_config(&set, true).starts_per_ip_10min, Some(3));
        let off = AbuseConfig { starts_per_ip_10min: Some(0), ..AbuseConfig::default() };
        assert_eq!(Limits::from_config(&off, false).starts_per_ip_10min, None);
    }

    #[test]
    fn a_numbers_prefix_is_its_area_code_and_exchange() {
        let limits = Limits::from_config(&AbuseConfig::default(), false);
        assert_eq!(limits.prefix("11987654321"), "1198765");
        assert_eq!(limits.prefix("119"), "119");
    }

    #[test]
    fn only_sandbox_mode_exempts_the_scenario_phones() {
        let config = AbuseConfig::default();
        assert!(Limits::from_config(&config, true).phone_exempt("11910000001"));
        assert!(!Limits::from_config(&config, true).phone_exempt("11987654321"));
        assert!(!Limits::from_config(&config, false).phone_exempt("11910000001"));
    }

    #[test]
    fn the_exempt_phones_are_the_documented_scenarios() {
        let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/sandbox.md"))
            .expect("docs/sandbox.md");
        for phone in SANDBOX_SCENARIO_PHONES {
            let shown = format!("({}) {}-{}", &phone[..2], &phone[2..7], &phone[7..]);
            assert!(doc.contains(&shown), "{shown} is not a scenario of docs/sandbox.md");
        }
    }

    #[test]
    fn the_support_console_names_every_rule_in_portuguese() {
        let labels: Value =
            serde_json::from_str(include_str!("../../../web/src/features/support/labels.json")).expect("labels.json");
        for rule in Rule::ALL {
            assert!(
                labels["limits"][rule.name()].as_str().is_some_and(|l| !l.is_empty()),
                "no label for {}",
                rule.name()
            );
        }
    }

    #[test]
    fn the_activation_flow_refuses_the_sixth_code_with_the_specs_406_text() {
        assert_eq!(Rule::WrongCodes.message("activation"), events::flows::activation::messages::CODE_LOCKED);
        assert_eq!(Rule::WrongCodes.message("cloud"), WRONG_CODES);
    }
}
