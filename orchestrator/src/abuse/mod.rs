//! Limits against SMS pumping, code guessing, scripted starts and account probing, checked
//! before any upstream call and counted in PostgreSQL so they hold across replicas
//! (docs/abuse.md). Every refusal becomes an `abuse.limited` event, so support sees it and
//! funnels count it.

pub mod gate;
pub mod proof;
pub mod rate;
pub mod rules;
pub mod spend;

use std::time::Duration;

use events::flow::{Guards, SmsTo};
use events::pii::Vault;
use serde_json::Value;
use sqlx::PgConnection;

use crate::config::AbuseConfig;
use gate::Check;
use proof::{ProofError, ProofOfWork};
use rules::{Limits, Rule};

/// A refused action: the rule, how long until it may be tried again (when the rule knows),
/// and what failed for a proof of work.
#[derive(Debug, Clone, PartialEq)]
pub struct Refusal {
    pub rule: Rule,
    pub retry_after: Option<Duration>,
    pub proof: Option<ProofError>,
    /// The prefix key whose breaker the refusal opens (a burst to one prefix).
    pub trips: Option<Vec<u8>>,
}

impl Refusal {
    fn rule(rule: Rule) -> Self {
        Self { rule, retry_after: None, proof: None, trips: None }
    }

    /// The answer the refused request gets in `flow` (the rule's message; 403 for the proof of
    /// work, 429 otherwise).
    pub fn answer(&self, flow: &str) -> crate::error::Limited {
        crate::error::Limited {
            rule: self.rule.name(),
            message: self.rule.message(flow),
            retry_after: self.retry_after,
            forbidden: self.rule == Rule::ProofOfWork,
        }
    }
}

/// What the caller's request brought besides its command.
#[derive(Debug, Clone, Copy, Default)]
pub struct Request<'a> {
    /// The `X-Altcha` header.
    pub proof: Option<&'a str>,
    /// The key per-address limits count the client under: its IPv4 address, or its IPv6 /64
    /// (`http::client_ip::limit_key`).
    pub ip: Option<&'a str>,
    /// The hash of the visitor session that owns the attempt: set by the command path once it
    /// checked the cookie against the attempt (a start's is the session it is opened in).
    pub session: Option<&'a [u8]>,
}

/// The limits in force, the proof of work, and counts of refusals for the metrics.
#[derive(Debug)]
pub struct AbuseGuard {
    pub limits: Limits,
    pub pow: ProofOfWork,
    trusted_proxies: crate::config::TrustedProxies,
}

impl AbuseGuard {
    pub fn new(config: &AbuseConfig, sandbox_mode: bool, vault: &Vault) -> Self {
        let pow = ProofOfWork::new(
            vault.derived_secret("altcha-signature"),
            vault.derived_secret("altcha-key-signature"),
            config.altcha_max_counter,
            Duration::from_secs(config.altcha_expires_secs.into()),
        );
        Self { limits: Limits::from_config(config, sandbox_mode), pow, trusted_proxies: config.trusted_proxies.clone() }
    }

    /// The portal-wide ceiling, kept in shards ([`rate`]).
    fn ceiling(&self) -> rate::Shared<'static> {
        rate::Shared { rule: Rule::SmsPerMinute, key: gate::GLOBAL_KEY, rate: self.limits.global_rate() }
    }

    /// Writes the ceiling's missing shards, before the first send (see [`rate::prepare`]).
    pub async fn prepare(&self, db: &sqlx::PgPool) -> Result<(), sqlx::Error> {
        rate::prepare(db, self.ceiling()).await
    }

    /// The proxies whose `X-Forwarded-For` is believed (`TRUSTED_PROXIES`).
    pub fn trusted_proxies(&self) -> &crate::config::TrustedProxies {
        &self.trusted_proxies
    }

    /// Checks what a decided command will do (its flow's [`Guards`]) against every limit it
    /// meets, counting it where there is room, in `conn`'s transaction (the command's own);
    /// `wrong_codes` is how many codes the attempt already had refused.
    pub async fn admit(
        &self,
        conn: &mut PgConnection,
        vault: &Vault,
        stream: &str,
        wrong_codes: usize,
        guarded: &Guards,
        request: Request<'_>,
    ) -> Result<Result<(), Refusal>, sqlx::Error> {
        // Past the limit no code of this attempt can be checked, so none is sent either: a
        // resend (or a new phone on the same attempt) would cost an SMS that can never count.
        if wrong_codes >= self.limits.wrong_codes_per_attempt as usize && (guarded.code_check || guarded.sms.is_some())
        {
            return Ok(Err(Refusal::rule(Rule::WrongCodes)));
        }
        let mut checks = Vec::new();
        // Set when a code is sent: its prefix's key, unless exempt.
        let mut rates: Option<Option<Vec<u8>>> = None;
        if let Some(sms) = &guarded.sms {
            let verified = match self.pow.verify(request.proof) {
                Ok(verified) => verified,
                Err(error) => return Ok(Err(Refusal { proof: Some(error), ..Refusal::rule(Rule::ProofOfWork) })),
            };
            if let Err(error) = proof::spend(conn, &verified).await? {
                return Ok(Err(Refusal { proof: Some(error), ..Refusal::rule(Rule::ProofOfWork) }));
            }
            let (phone_key, exempt, national, new_phone) = match sms {
                SmsTo::Phone(national) => {
                    let key = vault.tag("abuse:phone", national);
                    let new_phone = gate::set_attempt_phone(conn, stream, &key).await?;
                    (key, self.limits.phone_exempt(national), Some(national), new_phone)
                }
                SmsTo::AttemptPhone => match gate::attempt_phone(conn, stream).await? {
                    Some(key) => (key, false, None, false),
                    // No code sent yet: the flow refuses the resend; count it by attempt anyway.
                    None => (vault.tag("abuse:attempt", stream), false, None, false),
                },
            };
            let exempt = exempt || self.exempt_key(vault, &phone_key);
            // A resend goes to a number whose first send was counted in its prefix already.
            let prefix = national.filter(|_| !exempt).map(|n| vault.tag("abuse:prefix", self.limits.prefix(n)));
            if let Some(prefix) = &prefix {
                if let Some(left) = gate::breaker_open(conn, prefix, self.limits.breaker_cooldown).await? {
                    return Ok(Err(Refusal { retry_after: Some(left), ..Refusal::rule(Rule::SmsBreaker) }));
                }
            }
            if !exempt {
                checks.extend(self.limits.phone_rules().map(|(rule, limit)| Check {
                    rule,
                    key: phone_key.clone(),
                    limit,
                }));
                checks.extend(spend::checks(&self.limits, &Self::spender(vault, stream, request), new_phone));
            }
            rates = Some(prefix);
        }
        if let Some(email) = &guarded.partner_login {
            checks.push(Check {
                rule: Rule::PartnerLoginsPerEmail,
                key: vault.tag("abuse:email", email),
                limit: self.limits.partner_logins_per_email_hour,
            });
            if let (Some(limit), Some(ip)) = (self.limits.partner_logins_per_ip_hour, request.ip) {
                checks.push(Check { rule: Rule::PartnerLoginsPerIp, key: vault.tag("abuse:ip", ip), limit });
            }
        }
        if let Err(limited) = gate::admit(conn, &checks).await? {
            return Ok(Err(Refusal { retry_after: Some(limited.retry_after), ..Refusal::rule(limited.rule) }));
        }
        // The rates last: a send another limit refused takes no place in them.
        match rates {
            Some(prefix) => self.take_rates(conn, prefix).await,
            None => Ok(Ok(())),
        }
    }

    /// Takes a place in the sent number's prefix and in the portal-wide ceiling, both or
    /// neither, in one statement of the command's transaction. A full prefix is a burst: its
    /// refusal opens the prefix's breaker ([`AbuseGuard::record`]).
    async fn take_rates(
        &self,
        conn: &mut PgConnection,
        prefix: Option<Vec<u8>>,
    ) -> Result<Result<(), Refusal>, sqlx::Error> {
        let mut each = Vec::with_capacity(1);
        if let Some(key) = &prefix {
            each.push((Rule::SmsPerPrefix, key.as_slice(), self.limits.prefix_rate()));
        }
        let ceiling = self.ceiling();
        let full = rate::take_all(conn, &each, ceiling).await?;
        let rule_at = |index: usize| each.get(index).map_or(ceiling.rule, |(rule, _, _)| *rule);
        Ok(match full.map(|(index, wait)| (rule_at(index), wait)) {
            None => Ok(()),
            Some((Rule::SmsPerPrefix, _)) => Err(Refusal {
                retry_after: Some(self.limits.breaker_cooldown),
                trips: prefix.clone(),
                ..Refusal::rule(Rule::SmsPerPrefix)
            }),
            Some((rule, wait)) => {
                let after = Duration::from_secs_f64(wait.as_secs_f64().max(1.0).ceil());
                Err(Refusal { retry_after: Some(after), ..Refusal::rule(rule) })
            }
        })
    }

    /// Whether a start meets any limit (most starts do not, and skip the checks).
    pub fn watches_start(&self, guarded: &Guards) -> bool {
        self.limits.starts_per_ip_10min.is_some() || !guarded.is_empty()
    }

    /// Checks an attempt's start: the per-address limit, then what it will do like any command.
    pub async fn admit_start(
        &self,
        conn: &mut PgConnection,
        vault: &Vault,
        stream: &str,
        guarded: &Guards,
        request: Request<'_>,
    ) -> Result<Result<(), Refusal>, sqlx::Error> {
        if let (Some(limit), Some(ip)) = (self.limits.starts_per_ip_10min, request.ip) {
            let check = Check { rule: Rule::StartsPerIp, key: vault.tag("abuse:ip", ip), limit };
            if let Err(limited) = gate::admit(conn, &[check]).await? {
                return Ok(Err(Refusal { retry_after: Some(limited.retry_after), ..Refusal::rule(limited.rule) }));
            }
        }
        self.admit(conn, vault, stream, 0, guarded, request).await
    }

    /// The keys a code send is charged to besides its phone: the attempt, the session that
    /// owns it and the client's address, as keyed hashes.
    fn spender(vault: &Vault, stream: &str, request: Request<'_>) -> spend::Spender {
        spend::Spender {
            attempt: vault.tag("abuse:attempt-sms", stream),
            session: request.session.map(|hash| vault.tag("abuse:session", &hex::encode(hash))),
            address: request.ip.map(|ip| vault.tag("abuse:ip", ip)),
        }
    }

    /// A resend's phone is known only by its hash: it is exempt when it is a scenario phone's.
    fn exempt_key(&self, vault: &Vault, key: &[u8]) -> bool {
        self.limits.exempt_phones.iter().any(|phone| vault.tag("abuse:phone", phone) == key)
    }

    /// Counts a refusal for the metrics, and opens a prefix's breaker when a burst to it was
    /// refused (in `conn`, the refusal's own transaction, so it stays open for every replica).
    pub async fn record(
        &self,
        conn: &mut PgConnection,
        refusal: &Refusal,
        metrics: &crate::metrics::Metrics,
    ) -> Result<(), sqlx::Error> {
        metrics.abuse_refused(refusal.rule.name());
        if let Some(prefix) = &refusal.trips {
            gate::trip_breaker(conn, prefix).await?;
            metrics.sms_breaker_tripped();
            tracing::error!(
                alert = "sms_breaker_open",
                limit = self.limits.sms_per_prefix_minute,
                cooldown_secs = self.limits.breaker_cooldown.as_secs(),
                "SMS circuit breaker open for a number prefix: a burst of codes to it looks like pumping; its sends are refused for the cool-down, other prefixes go on"
            );
        } else {
            tracing::warn!(rule = refusal.rule.name(), proof = ?refusal.proof, "abuse limit refused a request");
        }
        Ok(())
    }
}

/// The `abuse.limited` event's payload: the rule, the command by its flow's name for it, and
/// what the visitor was told; never the phone, e-mail or address the count was kept by.
pub fn limited_event(refusal: &Refusal, flow: &str, command: &str) -> Value {
    serde_json::json!({
        "rule": refusal.rule.name(),
        "command": command,
        "message": refusal.rule.message(flow),
        "retry_after_secs": refusal.retry_after.map(|d| d.as_secs()),
        "proof": refusal.proof.map(|e| e.to_string()),
    })
}
