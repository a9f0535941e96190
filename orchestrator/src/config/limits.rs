//! The abuse limits and the HTTP server's bounds, each default one constant.

use clap::Args;

use super::networks::TrustedProxies;

/// The server's defaults, one constant each (the flags' and `ServerConfig::default`'s).
pub const DEFAULT_HEADER_READ_TIMEOUT_SECS: u64 = 10;
pub const DEFAULT_REQUEST_TIMEOUT_SECS: u64 = 30;
pub const DEFAULT_MAX_CONCURRENT_REQUESTS: u64 = 512;
pub const DEFAULT_MAX_BODY_BYTES: u64 = 65_536;
pub const DEFAULT_SSE_MAX_PER_ATTEMPT: u64 = 4;
pub const DEFAULT_SSE_MAX_TOTAL: u64 = 1_000;
/// A visitor with a few flow pages open in a few tabs (one stream each); below the six
/// connections a browser opens to one host over HTTP/1.1, which more streams would starve.
pub const DEFAULT_SSE_MAX_PER_SESSION: u64 = 4;
/// Many visitors share an address (an office, a carrier's NAT); one address still holds at
/// most 5% of the process's streams. A visitor past it reads the attempt every 2 s instead.
pub const DEFAULT_SSE_MAX_PER_ADDRESS: u64 = 50;
/// Longer than any flow's wait (a code lives 10 minutes); the browser reconnects after it.
pub const DEFAULT_SSE_LIFETIME_SECS: u64 = 900;

/// The abuse limits' defaults (production's), one constant each.
pub const DEFAULT_SMS_PER_PHONE_10MIN: u32 = 5;
pub const DEFAULT_SMS_PER_PHONE_DAY: u32 = 10;
/// 200 codes a second: the capacity target of the load benchmark (docs/benchmarks.md), so a
/// partner's campaign at capacity is never refused by the ceiling.
pub const DEFAULT_SMS_PER_MINUTE: u32 = 12_000;
/// A number block of 10,000 (area code, 9 and four digits) gets few legitimate codes a minute
/// even in a campaign; a burst there is what SMS pumping looks like (docs/abuse.md).
pub const DEFAULT_SMS_PER_PREFIX_MINUTE: u32 = 30;
pub const DEFAULT_SMS_PREFIX_DIGITS: u8 = 7;
pub const DEFAULT_SMS_BREAKER_COOLDOWN_SECS: u32 = 300;
pub const DEFAULT_WRONG_CODES_PER_ATTEMPT: u32 = 5;
/// A visitor's attempt: a first code, a few "Reenviar código", a "Voltar" or two.
pub const DEFAULT_SMS_PER_ATTEMPT_DAY: u32 = 8;
/// A mistyped number corrected twice; "Voltar" (cloud) or a restart (download) to a fourth
/// number in one attempt is a script walking a list.
pub const DEFAULT_SMS_PHONES_PER_ATTEMPT_DAY: u32 = 3;
/// One browser across the three flows: a few attempts of a few codes each.
pub const DEFAULT_SMS_PER_SESSION_HOUR: u32 = 15;
pub const DEFAULT_PARTNER_LOGINS_PER_EMAIL_HOUR: u32 = 5;
pub const DEFAULT_ALTCHA_MAX_COUNTER: u32 = 30_000;
pub const DEFAULT_ALTCHA_EXPIRES_SECS: u32 = 600;

/// Limits against SMS pumping, code guessing and account probing (see docs/abuse.md). The
/// defaults are production's; in sandbox mode the per-address limits are off unless set.
#[derive(Debug, Clone, Args)]
pub struct AbuseConfig {
    /// Codes sent to one phone in 10 minutes, across flows and attempts.
    #[arg(long, env = "LIMIT_SMS_PER_PHONE_10MIN", default_value_t = DEFAULT_SMS_PER_PHONE_10MIN)]
    pub sms_per_phone_10min: u32,
    /// Codes sent to one phone in 24 hours.
    #[arg(long, env = "LIMIT_SMS_PER_PHONE_DAY", default_value_t = DEFAULT_SMS_PER_PHONE_DAY)]
    pub sms_per_phone_day: u32,
    /// Codes sent by the whole portal in one minute, as a rate: past it a send waits for the
    /// next place (429 with a short `Retry-After`); it opens no breaker.
    #[arg(long, env = "LIMIT_SMS_PER_MINUTE", default_value_t = DEFAULT_SMS_PER_MINUTE, value_parser = clap::value_parser!(u32).range(1..))]
    pub sms_per_minute: u32,
    /// Codes sent to one number prefix (`SMS_PREFIX_DIGITS` leading digits) in one minute;
    /// past it that prefix's sends are refused for `SMS_BREAKER_COOLDOWN_SECS` and an alert is
    /// logged (the circuit breaker), the other prefixes going on.
    #[arg(long, env = "LIMIT_SMS_PER_PREFIX_MINUTE", default_value_t = DEFAULT_SMS_PER_PREFIX_MINUTE, value_parser = clap::value_parser!(u32).range(1..))]
    pub sms_per_prefix_minute: u32,
    /// Leading national digits of a number's prefix (7: area code, 9 and four digits).
    #[arg(long, env = "SMS_PREFIX_DIGITS", default_value_t = DEFAULT_SMS_PREFIX_DIGITS, value_parser = clap::value_parser!(u8).range(3..=11))]
    pub sms_prefix_digits: u8,
    /// How long the SMS circuit breaker stays open for a prefix once tripped.
    #[arg(long, env = "SMS_BREAKER_COOLDOWN_SECS", default_value_t = DEFAULT_SMS_BREAKER_COOLDOWN_SECS)]
    pub sms_breaker_cooldown_secs: u32,
    /// Codes sent by one attempt in 24 hours, "Reenviar código" and "Voltar" included.
    #[arg(long, env = "LIMIT_SMS_PER_ATTEMPT_DAY", default_value_t = DEFAULT_SMS_PER_ATTEMPT_DAY)]
    pub sms_per_attempt_day: u32,
    /// Distinct phones one attempt sends codes to in 24 hours (cloud's "Voltar" and a new
    /// phone, download's restart).
    #[arg(long, env = "LIMIT_SMS_PHONES_PER_ATTEMPT_DAY", default_value_t = DEFAULT_SMS_PHONES_PER_ATTEMPT_DAY)]
    pub sms_phones_per_attempt_day: u32,
    /// Codes sent by the attempts of one visitor session (the browser's cookie) in one hour.
    #[arg(long, env = "LIMIT_SMS_PER_SESSION_HOUR", default_value_t = DEFAULT_SMS_PER_SESSION_HOUR)]
    pub sms_per_session_hour: u32,
    /// Codes sent for one client address (an IPv6 /64) in one hour (production default 60;
    /// off in sandbox mode unless set; `0` turns it off).
    #[arg(long, env = "LIMIT_SMS_PER_IP_HOUR")]
    pub sms_per_ip_hour: Option<u32>,
    /// Attempts started from one client address in 10 minutes (production default 20;
    /// off in sandbox mode unless set).
    #[arg(long, env = "LIMIT_STARTS_PER_IP_10MIN")]
    pub starts_per_ip_10min: Option<u32>,
    /// Wrong codes per attempt before code checks are refused.
    #[arg(long, env = "LIMIT_WRONG_CODES_PER_ATTEMPT", default_value_t = DEFAULT_WRONG_CODES_PER_ATTEMPT)]
    pub wrong_codes_per_attempt: u32,
    /// Partner log-ins (telecom partner e-mail) per e-mail in one hour.
    #[arg(long, env = "LIMIT_PARTNER_LOGINS_PER_EMAIL_HOUR", default_value_t = DEFAULT_PARTNER_LOGINS_PER_EMAIL_HOUR)]
    pub partner_logins_per_email_hour: u32,
    /// Partner log-ins from one client address in one hour (production default 20; off in
    /// sandbox mode unless set).
    #[arg(long, env = "LIMIT_PARTNER_LOGINS_PER_IP_HOUR")]
    pub partner_logins_per_ip_hour: Option<u32>,
    /// The networks of the proxies in front of the portal (CIDRs, comma-separated). Only a
    /// peer in them is believed about `X-Forwarded-For`, read from the right; the client is the
    /// first address outside them. Empty: the client is the connection's peer.
    #[arg(long, env = "TRUSTED_PROXIES", default_value = "")]
    pub trusted_proxies: TrustedProxies,
    /// Retired (issue 26): `TRUSTED_PROXIES` replaces it; set, the portal refuses to start.
    #[arg(long, env = "TRUSTED_PROXY_HOPS", hide = true)]
    pub retired_trusted_proxy_hops: Option<String>,
    /// Proof-of-work difficulty: the largest counter a browser may have to reach (the
    /// expected work is three quarters of it, one SHA-256 each).
    /// The default keeps the worst solve under a second on a mid-range phone
    /// (docs/benchmarks.md).
    #[arg(long, env = "ALTCHA_MAX_COUNTER", default_value_t = DEFAULT_ALTCHA_MAX_COUNTER, value_parser = clap::value_parser!(u32).range(2..))]
    pub altcha_max_counter: u32,
    /// Seconds a proof-of-work challenge stays valid.
    #[arg(long, env = "ALTCHA_EXPIRES_SECS", default_value_t = DEFAULT_ALTCHA_EXPIRES_SECS)]
    pub altcha_expires_secs: u32,
}

impl Default for AbuseConfig {
    fn default() -> Self {
        Self {
            sms_per_phone_10min: DEFAULT_SMS_PER_PHONE_10MIN,
            sms_per_phone_day: DEFAULT_SMS_PER_PHONE_DAY,
            sms_per_minute: DEFAULT_SMS_PER_MINUTE,
            sms_per_prefix_minute: DEFAULT_SMS_PER_PREFIX_MINUTE,
            sms_prefix_digits: DEFAULT_SMS_PREFIX_DIGITS,
            sms_breaker_cooldown_secs: DEFAULT_SMS_BREAKER_COOLDOWN_SECS,
            sms_per_attempt_day: DEFAULT_SMS_PER_ATTEMPT_DAY,
            sms_phones_per_attempt_day: DEFAULT_SMS_PHONES_PER_ATTEMPT_DAY,
            sms_per_session_hour: DEFAULT_SMS_PER_SESSION_HOUR,
            sms_per_ip_hour: None,
            starts_per_ip_10min: None,
            wrong_codes_per_attempt: DEFAULT_WRONG_CODES_PER_ATTEMPT,
            partner_logins_per_email_hour: DEFAULT_PARTNER_LOGINS_PER_EMAIL_HOUR,
            partner_logins_per_ip_hour: None,
            trusted_proxies: TrustedProxies::default(),
            retired_trusted_proxy_hops: None,
            altcha_max_counter: DEFAULT_ALTCHA_MAX_COUNTER,
            altcha_expires_secs: DEFAULT_ALTCHA_EXPIRES_SECS,
        }
    }
}

/// The HTTP server's bounds (docs/throughput.md).
#[derive(Debug, Clone, Args)]
pub struct ServerConfig {
    /// Seconds a client has to send a request's headers (also how long an idle keep-alive
    /// connection stays open): a slowloris is cut off after it.
    #[arg(long, env = "HTTP_HEADER_READ_TIMEOUT_SECS", default_value_t = DEFAULT_HEADER_READ_TIMEOUT_SECS, value_parser = clap::value_parser!(u64).range(1..=300))]
    pub header_read_timeout_secs: u64,
    /// Seconds from a request's headers to its answer's (an event stream's body is not bound).
    #[arg(long, env = "HTTP_REQUEST_TIMEOUT_SECS", default_value_t = DEFAULT_REQUEST_TIMEOUT_SECS, value_parser = clap::value_parser!(u64).range(1..=600))]
    pub request_timeout_secs: u64,
    /// Requests handled at once by this process; more wait their turn within the time-out.
    #[arg(long, env = "HTTP_MAX_CONCURRENT_REQUESTS", default_value_t = DEFAULT_MAX_CONCURRENT_REQUESTS, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    pub max_concurrent_requests: u64,
    /// Largest request body in bytes.
    #[arg(long, env = "HTTP_MAX_BODY_BYTES", default_value_t = DEFAULT_MAX_BODY_BYTES, value_parser = clap::value_parser!(u64).range(1_024..=16_777_216))]
    pub max_body_bytes: u64,
    /// Event streams (SSE) open at once for one attempt.
    #[arg(long, env = "SSE_MAX_PER_ATTEMPT", default_value_t = DEFAULT_SSE_MAX_PER_ATTEMPT, value_parser = clap::value_parser!(u64).range(1..=100))]
    pub sse_max_per_attempt: u64,
    /// Event streams (SSE) open at once in this process.
    #[arg(long, env = "SSE_MAX_TOTAL", default_value_t = DEFAULT_SSE_MAX_TOTAL, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    pub sse_max_total: u64,
    /// Visitors' event streams open at once for one browser session.
    #[arg(long, env = "SSE_MAX_PER_SESSION", default_value_t = DEFAULT_SSE_MAX_PER_SESSION, value_parser = clap::value_parser!(u64).range(1..=100))]
    pub sse_max_per_session: u64,
    /// Visitors' event streams open at once from one client address (an IPv6 /64).
    #[arg(long, env = "SSE_MAX_PER_ADDRESS", default_value_t = DEFAULT_SSE_MAX_PER_ADDRESS, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    pub sse_max_per_address: u64,
    /// Seconds one visitor's event stream stays open before the server ends it.
    #[arg(long, env = "SSE_LIFETIME_SECS", default_value_t = DEFAULT_SSE_LIFETIME_SECS, value_parser = clap::value_parser!(u64).range(1..=86_400))]
    pub sse_lifetime_secs: u64,
}

impl Default for ServerConfig {
    fn default() -> Self {
        Self {
            header_read_timeout_secs: DEFAULT_HEADER_READ_TIMEOUT_SECS,
            request_timeout_secs: DEFAULT_REQUEST_TIMEOUT_SECS,
            max_concurrent_requests: DEFAULT_MAX_CONCURRENT_REQUESTS,
            max_body_bytes: DEFAULT_MAX_BODY_BYTES,
            sse_max_per_attempt: DEFAULT_SSE_MAX_PER_ATTEMPT,
            sse_max_total: DEFAULT_SSE_MAX_TOTAL,
            sse_max_per_session: DEFAULT_SSE_MAX_PER_SESSION,
            sse_max_per_address: DEFAULT_SSE_MAX_PER_ADDRESS,
            sse_lifetime_secs: DEFAULT_SSE_LIFETIME_SECS,
        }
    }
}
