//! The SMS inbox: every code the sandbox "sent", newest first, up to a capacity.

use std::collections::VecDeque;

use chrono::{DateTime, SecondsFormat, Utc};
use serde::Serialize;

/// Oldest messages are forgotten past this many, so a long demo does not grow without bound.
const CAPACITY: usize = 1000;

#[derive(Debug, Clone, Serialize)]
pub struct Sms {
    /// `55DDNNNNNNNNN`.
    pub to: String,
    pub code: String,
    pub text: String,
    #[serde(serialize_with = "rfc3339")]
    pub sent_at: DateTime<Utc>,
}

fn rfc3339<S: serde::Serializer>(at: &DateTime<Utc>, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_str(&at.to_rfc3339_opts(SecondsFormat::Millis, true))
}

/// Newest at the front.
#[derive(Debug, Default)]
pub struct Inbox(VecDeque<Sms>);

impl Inbox {
    pub fn push(&mut self, sms: Sms) {
        self.0.push_front(sms);
        self.0.truncate(CAPACITY);
    }

    #[cfg(test)]
    pub fn latest_for(&self, to: &str) -> Option<&Sms> {
        self.0.iter().find(|sms| sms.to == to)
    }

    /// Messages to `to`, newest first.
    pub fn for_phone(&self, to: &str) -> Vec<Sms> {
        self.0.iter().filter(|sms| sms.to == to).cloned().collect()
    }

    /// Every message, newest first.
    pub fn all(&self) -> Vec<Sms> {
        self.0.iter().cloned().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn newest_first_and_capped() {
        let mut inbox = Inbox::default();
        for i in 0..CAPACITY + 5 {
            inbox.push(Sms {
                to: "5511910000001".into(),
                code: format!("{i:06}"),
                text: String::new(),
                sent_at: Utc::now(),
            });
        }
        assert_eq!(inbox.all().len(), CAPACITY);
        assert_eq!(inbox.latest_for("5511910000001").map(|s| s.code.as_str()), Some("001004"));
    }
}
