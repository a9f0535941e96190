//! SMS code transactions: which code went to which phone on which channel, until when, how many
//! wrong codes it took, and which phones confirmed one. Checking a code is [`CodeBook::check`];
//! sending one (a fresh code into the inbox) is `World::send_code` in [`crate::codes`].

use std::collections::{HashMap, HashSet};

use axum::http::StatusCode;
use chrono::{DateTime, Duration, Utc};

use crate::error::{Refusal, Style};

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

    /// The SMS that carries `code`.
    pub fn text(self, code: &str) -> String {
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
            Self::Expired => {
                (StatusCode::FORBIDDEN, "CODE_EXPIRED", "Código expirado. Solicite um novo código.".to_string())
            }
            Self::Used => (
                StatusCode::FORBIDDEN,
                "CODE_ALREADY_USED",
                "Este código já foi usado. Solicite um novo código.".to_string(),
            ),
            // A typo, not a dead code: verification services answer it with a 4xx other than
            // 403, which the activation page tells apart (spec section 8, docs/sandbox.md).
            Self::Wrong { attempts_left } => (
                StatusCode::BAD_REQUEST,
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

#[derive(Debug, Default)]
pub struct CodeBook {
    transactions: HashMap<String, Transaction>,
    /// Phones that confirmed a code, per channel (subscriptions require it).
    verified: HashSet<(Channel, String)>,
}

impl CodeBook {
    /// Records transaction `id`: `code` sent to `msisdn` on `channel` at `now`.
    pub fn open(&mut self, id: String, channel: Channel, msisdn: &str, code: String, now: DateTime<Utc>) {
        let transaction = Transaction {
            channel,
            msisdn: msisdn.to_string(),
            code,
            expires_at: now + channel.validity(),
            wrong: 0,
            used: false,
        };
        self.transactions.insert(id, transaction);
    }

    /// Checks `code` against transaction `id` of `channel`, counting a wrong code and marking
    /// the phone verified when it is right.
    pub fn check(&mut self, channel: Channel, id: &str, code: &str, now: DateTime<Utc>) -> CodeOutcome {
        let Some(transaction) = self.transactions.get_mut(id).filter(|t| t.channel == channel) else {
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
            return CodeOutcome::Wrong { attempts_left: MAX_WRONG_CODES - transaction.wrong };
        }
        transaction.used = true;
        let msisdn = transaction.msisdn.clone();
        self.verified.insert((channel, msisdn.clone()));
        CodeOutcome::Accepted { msisdn }
    }

    /// Whether `msisdn` ever confirmed a code on `channel`.
    pub fn is_verified(&self, channel: Channel, msisdn: &str) -> bool {
        self.verified.contains(&(channel, msisdn.to_string()))
    }
}
