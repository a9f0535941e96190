//! What a step's upstream call did, for the runner's events (support's timeline): the
//! endpoint's stable name, the HTTP status, the latency and the kind of failure. Never a URL,
//! a header, a body or a token: the clients record through [`CallLog::record`] only what is
//! listed here, and any text goes through [`sanitize`].

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde::Serialize;

/// Longest text of upstream or error origin an event may carry.
pub const MAX_TEXT: usize = 300;

/// One upstream call of a step.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct UpstreamCall {
    /// A fixed name such as `partner-api.send`, never the URL (it may hold a key or a code).
    pub endpoint: String,
    /// `None` when no answer came (time-out, connection failure).
    pub status: Option<u16>,
    pub latency_ms: u64,
    /// Why the answer was not usable, when it was not: `timeout`, `connect`, `in_use`, …
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// The calls one step made, shared by the step's client and the runner.
#[derive(Debug, Clone, Default)]
pub struct CallLog(Arc<Mutex<Vec<UpstreamCall>>>);

impl CallLog {
    /// Starts timing a call to `endpoint`.
    pub fn start(&self, endpoint: &str) -> CallTimer {
        CallTimer { log: self.clone(), endpoint: endpoint.to_string(), started: Instant::now() }
    }

    fn push(&self, call: UpstreamCall) {
        // A poisoned lock only means another thread panicked mid-push; the list is still usable.
        let mut calls = self.0.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        calls.push(call);
    }

    /// The calls made so far, oldest first.
    pub fn calls(&self) -> Vec<UpstreamCall> {
        self.0.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).clone()
    }

    /// The last call, the one whose answer decided the step.
    pub fn last(&self) -> Option<UpstreamCall> {
        self.calls().pop()
    }
}

/// A call being timed; recording it ends the timing.
pub struct CallTimer {
    log: CallLog,
    endpoint: String,
    started: Instant,
}

impl CallTimer {
    /// Records the call's answer (`status`) or its absence, with an error kind when unusable.
    pub fn record(self, status: Option<u16>, error: Option<&str>) {
        let latency = self.started.elapsed();
        self.log.push(UpstreamCall {
            endpoint: self.endpoint,
            status,
            latency_ms: millis(latency),
            error: error.map(sanitize),
        });
    }
}

fn millis(duration: Duration) -> u64 {
    u64::try_from(duration.as_millis()).unwrap_or(u64::MAX)
}

/// Text fit for an event or a log line: control characters (PostgreSQL refuses `\u0000` in
/// `jsonb`) become spaces, every URL keeps only its scheme and host (keys travel in query
/// strings, one-time OAuth codes in paths, credentials before an `@`), and the text is cut to
/// [`MAX_TEXT`] characters.
pub fn sanitize(text: &str) -> String {
    let cleaned: String = text.chars().map(|c| if c.is_control() { ' ' } else { c }).collect();
    let redacted = cleaned.split(' ').map(redact_url).collect::<Vec<_>>().join(" ");
    let trimmed = redacted.trim();
    match trimmed.char_indices().nth(MAX_TEXT) {
        Some((cut, _)) => format!("{}…", &trimmed[..cut]),
        None => trimmed.to_string(),
    }
}

/// `word` with any URL in it cut to `scheme://host` (and `/…` when something was cut): what
/// reqwest's ` for url (…)` and our own messages may carry.
fn redact_url(word: &str) -> String {
    let Some(scheme) = word.find("://") else { return word.to_string() };
    let after = scheme + 3;
    let rest = &word[after..];
    let end = rest.find(['/', '?', '#', ')', '"', '\'', ',']).unwrap_or(rest.len());
    let authority = &rest[..end];
    // `user:password@host`: the credentials go.
    let host = authority.rsplit_once('@').map_or(authority, |(_, host)| host);
    let tail = &rest[end..];
    let cut = tail.trim_end_matches([')', '"', '\'', ',']);
    let closing = &tail[cut.len()..];
    let marker = if cut.is_empty() && host.len() == authority.len() { "" } else { "/…" };
    format!("{}{host}{marker}{closing}", &word[..after])
}

/// Applies [`sanitize`]'s first rule to every string of an event payload: a `\u0000` or other
/// control character from an upstream must not make PostgreSQL refuse the whole outcome.
/// Strings are not shortened here: tokens and URLs the flow stores must stay whole.
pub fn strip_control(value: &mut serde_json::Value) {
    use serde_json::Value;
    match value {
        Value::String(text) if text.chars().any(|c| c.is_control() && c != '\n' && c != '\t') => {
            *text = text.chars().map(|c| if c.is_control() && c != '\n' && c != '\t' { ' ' } else { c }).collect();
        }
        Value::Array(items) => items.iter_mut().for_each(strip_control),
        Value::Object(map) => map.values_mut().for_each(strip_control),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn text_loses_control_characters_and_query_strings_and_is_capped() {
        assert_eq!(sanitize("bad\u{0}byte"), "bad byte");
        assert_eq!(
            sanitize("error sending request for url (http://h/v1/verifyCustomToken?key=secret)"),
            "error sending request for url (http://h/…)"
        );
        let long = "é".repeat(1000);
        let cut = sanitize(&long);
        assert_eq!(cut.chars().count(), MAX_TEXT + 1);
        assert!(cut.ends_with('…'));
    }

    #[test]
    fn urls_keep_only_their_scheme_and_host() {
        let cases = [
            (
                "error sending request for url (http://127.0.0.1:9/v1/send-code?key=LEAK-KEY)",
                "error sending request for url (http://127.0.0.1:9/…)",
            ),
            ("GET https://bff.example/customer/about/ONE-TIME-CODE failed", "GET https://bff.example/… failed"),
            ("upstream URL https://user:pa55@idp.example/x: bad", "upstream URL https://idp.example/… bad"),
            ("to http://host, then", "to http://host, then"),
            ("no url here", "no url here"),
        ];
        for (text, expected) in cases {
            let clean = sanitize(text);
            assert_eq!(clean, expected, "{text}");
            for secret in ["LEAK-KEY", "ONE-TIME-CODE", "pa55", "send-code"] {
                assert!(!clean.contains(secret), "{clean}");
            }
        }
    }

    #[test]
    fn payload_strings_lose_control_characters_at_any_depth() {
        let mut payload = json!({ "message": "a\u{0}b", "list": [{ "x": "c\u{7}d" }], "keep": "line\nbreak" });
        strip_control(&mut payload);
        assert_eq!(payload, json!({ "message": "a b", "list": [{ "x": "c d" }], "keep": "line\nbreak" }));
    }

    #[test]
    fn a_timed_call_is_recorded_with_its_status_and_error_kind() {
        let log = CallLog::default();
        log.start("partner-api.send").record(Some(503), Some("unavailable\u{0}"));
        let call = log.last().expect("a call");
        assert_eq!(
            (call.endpoint.as_str(), call.status, call.error.as_deref()),
            ("partner-api.send", Some(503), Some("unavailable"))
        );
    }
}
