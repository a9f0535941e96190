//! SMS code transactions: issue a code into the inbox, then check it (expiry, at most
//! [`MAX_WRONG_CODES`] wrong codes, single use). Every upstream that sends codes uses this book.

use std::collections::{HashMap, HashSet};

use chrono::{DateTime, Duration, Utc};

use axum::http::StatusCode;

use super::error::{Refusal, Style};
use super::inbox::Sms;
use super::state::{SandboxState, World};

/// Wrong codes a transaction tolerates; the next attempt is refused (406).
pub const MAX_WRONG_CODES: u32 = 5;

/// Which service sent the code: each has its own validity and its own transactions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Channel {
    /// Desktop download, through the phone-auth service.
    Desktop,
    /// Security activation, through `/authentication/v1/send`.
    Activation,
    /// Cloud activation, through the cloud functions.
    Cloud,
}

impl Channel {
    /// Spec section 9: security codes 15 minutes, cloud codes 5 minutes.
    pub fn validity(self) -> Duration {
        match self {
            Self::Desktop | Self::Activation => Duration::minutes(15),
            Self::Cloud => Duration::minutes(5),
        }
    }

    fn text(self, code: &str) -> String {
        match self {
            Self::Desktop => {
                format!("EXA: {code} é o seu código para baixar o antivírus. Ele vale por 15 minutos.")
            }
            Self::Activation => format!(
                "EXA Segurança: seu código de ativação é {code}. Ele vale por 15 minutos. Não o compartilhe com ninguém."
            ),
            Self::Cloud => format!("EXA Cloud: seu código de ativação é {code}. Ele vale por 5 minutos."),
        }
    }
}

#[derive(Debug)]
struct Transaction {
    channel: Channel,
    msisdn: String,
    code: String,
    expires_at: DateTime<Utc>,
    wrong: u32,
    used: bool,
}

/// What checking a code found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CodeOutcome {
    Accepted {
        msisdn: String,
    },
    /// No such transaction on this channel.
    Unknown,
    Expired,
    /// The code was already accepted once.
    Used,
    Wrong {
        attempts_left: u32,
    },
    /// [`MAX_WRONG_CODES`] wrong codes were already given.
    Locked,
}

impl CodeOutcome {
    /// The verified msisdn, or how an upstream refuses this outcome. Same codes everywhere;
    /// the Portuguese messages are what the cloud page shows.
    pub fn into_msisdn(self, style: Style) -> Result<String, Refusal> {
        let (status, code, message) = match self {
            Self::Accepted { msisdn } => return Ok(msisdn),
            Self::Unknown => (
                StatusCode::NOT_FOUND,
                "TRANSACTION_NOT_FOUND",
                "Transação não encontrada. Solicite um novo código.".to_string(),
            ),
            Self::Expired => (
                StatusCode::FORBIDDEN,
                "CODE_EXPIRED",
                "Código expirado. Solicite um novo código.".to_string(),
            ),
            Self::Used => (
                StatusCode::FORBIDDEN,
                "CODE_ALREADY_USED",
                "Este código já foi usado. Solicite um novo código.".to_string(),
            ),
            Self::Wrong { attempts_left } => (
                StatusCode::FORBIDDEN,
                "INVALID_CODE",
                format!("Código inválido. Tentativas restantes: {attempts_left}."),
            ),
            Self::Locked => (
                StatusCode::NOT_ACCEPTABLE,
                "TOO_MANY_ATTEMPTS",
                "Número máximo de tentativas excedido. Solicite um novo código.".to_string(),
            ),
        };
        Err(Refusal::new(style, status, code, message))
    }
}

/// A 6-digit code, or 400 `INVALID_PINCODE` (a malformed code is not an attempt).
pub fn check_format(code: &str, style: Style) -> Result<(), Refusal> {
    if code.len() == 6 && code.bytes().all(|b| b.is_ascii_digit()) {
        Ok(())
    } else {
        Err(Refusal::bad_request(
            style,
            "INVALID_PINCODE",
            "O código deve ter 6 dígitos.",
        ))
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
    state
        .with(|w| w.check_code(channel, transaction, code, now))
        .into_msisdn(style)
}

#[derive(Debug, Default)]
pub struct CodeBook {
    transactions: HashMap<String, Transaction>,
    /// Phones that confirmed a code, per channel (subscriptions require it).
    verified: HashSet<(Channel, String)>,
}

impl World {
    /// Issues a code for `msisdn` (`55DDNNNNNNNNN`), writes it to the inbox and returns the
    /// transaction id.
    pub fn send_code(&mut self, channel: Channel, msisdn: &str, now: DateTime<Utc>) -> String {
        let id = self.uuid().to_string();
        let code = self.code();
        self.inbox.push(Sms {
            to: msisdn.to_string(),
            text: channel.text(&code),
            code: code.clone(),
            sent_at: now,
        });
        let transaction = Transaction {
            channel,
            msisdn: msisdn.to_string(),
            code,
            expires_at: now + channel.validity(),
            wrong: 0,
            used: false,
        };
        self.codes.transactions.insert(id.clone(), transaction);
        id
    }

    pub fn check_code(
        &mut self,
        channel: Channel,
        id: &str,
        code: &str,
        now: DateTime<Utc>,
    ) -> CodeOutcome {
        let Some(transaction) = self
            .codes
            .transactions
            .get_mut(id)
            .filter(|t| t.channel == channel)
        else {
            return CodeOutcome::Unknown;
        };
        if transaction.used {
            return CodeOutcome::Used;
        }
        if transaction.wrong >= MAX_WRONG_CODES {
            return CodeOutcome::Locked;
        }
        if now >= transaction.expires_at {
            return CodeOutcome::Expired;
        }
        if transaction.code != code {
            transaction.wrong += 1;
            return CodeOutcome::Wrong {
                attempts_left: MAX_WRONG_CODES - transaction.wrong,
            };
        }
        transaction.used = true;
        let msisdn = transaction.msisdn.clone();
        self.codes.verified.insert((channel, msisdn.clone()));
        CodeOutcome::Accepted { msisdn }
    }

    /// Whether `msisdn` ever confirmed a code on `channel`.
    pub fn is_verified(&self, channel: Channel, msisdn: &str) -> bool {
        self.codes.verified.contains(&(channel, msisdn.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{SandboxConfig, SandboxState};

    const PHONE: &str = "5511987654321";

    fn sent(channel: Channel) -> (SandboxState, String, String) {
        let state = SandboxState::new(SandboxConfig::default());
        let now = state.now();
        let id = state.with(|w| w.send_code(channel, PHONE, now));
        let code = state
            .with(|w| w.inbox.latest_for(PHONE).map(|sms| sms.code.clone()))
            .unwrap();
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
                CodeOutcome::Accepted {
                    msisdn: PHONE.into()
                }
            );
            assert!(w.is_verified(Channel::Activation, PHONE));
            assert!(!w.is_verified(Channel::Cloud, PHONE));
            assert_eq!(
                w.check_code(Channel::Activation, &id, &code, now),
                CodeOutcome::Used
            );
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
                    CodeOutcome::Wrong {
                        attempts_left: left
                    }
                );
            }
            assert_eq!(
                w.check_code(Channel::Activation, &id, &code, now),
                CodeOutcome::Locked
            );
        });
    }

    #[test]
    fn security_codes_last_15_minutes_and_cloud_codes_5() {
        for (channel, minutes) in [
            (Channel::Activation, 15),
            (Channel::Desktop, 15),
            (Channel::Cloud, 5),
        ] {
            let (state, id, code) = sent(channel);
            let now = state.now();
            let just_before = now + Duration::minutes(minutes) - Duration::seconds(1);
            let at_expiry = now + Duration::minutes(minutes);
            state.with(|w| {
                assert_eq!(
                    w.check_code(channel, &id, &wrong(&code), just_before),
                    CodeOutcome::Wrong { attempts_left: 4 }
                );
                assert_eq!(
                    w.check_code(channel, &id, &code, at_expiry),
                    CodeOutcome::Expired,
                    "{channel:?}"
                );
            });
        }
    }

    #[test]
    fn a_transaction_belongs_to_its_channel() {
        let (state, id, code) = sent(Channel::Cloud);
        let now = state.now();
        state.with(|w| {
            assert_eq!(
                w.check_code(Channel::Activation, &id, &code, now),
                CodeOutcome::Unknown
            );
            assert_eq!(
                w.check_code(Channel::Cloud, "nope", &code, now),
                CodeOutcome::Unknown
            );
        });
    }
}
