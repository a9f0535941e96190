//! What an attempt's event metadata keeps of the visitor's browser: the coarse facts funnels
//! break down by (browser family, operating system, phone or computer). Never the user-agent
//! string itself: it narrows a visitor down, and the same string in several attempts would tie
//! them together after the person's data was erased.

use axum::http::HeaderMap;
use serde_json::{json, Value};
use woothee::parser::Parser;

/// The coarse browser facts of a request, or `None` without a user agent.
pub fn from_headers(headers: &HeaderMap) -> Option<Value> {
    let user_agent = headers.get("user-agent").and_then(|v| v.to_str().ok())?;
    Some(coarse(user_agent))
}

/// `{"browser", "os", "platform"}` of a user-agent string; `platform` is `mobile`,
/// `desktop` or `other`, and anything unrecognised reads `desconhecido`.
pub fn coarse(user_agent: &str) -> Value {
    const UNKNOWN: &str = "desconhecido";
    // Long strings are cut before parsing: nothing in the first 512 bytes is lost.
    let cut: String = user_agent.chars().take(512).collect();
    let Some(parsed) = Parser::new().parse(&cut) else {
        return json!({ "browser": UNKNOWN, "os": UNKNOWN, "platform": "other" });
    };
    let known = |s: &str| if s.is_empty() || s == "UNKNOWN" { UNKNOWN.to_string() } else { s.to_string() };
    let platform = match parsed.category {
        "smartphone" | "mobilephone" => "mobile",
        "pc" => "desktop",
        _ => "other",
    };
    json!({ "browser": known(parsed.name), "os": known(parsed.os), "platform": platform })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_phone_browser_becomes_its_family_os_and_platform_only() {
        let android = "Mozilla/5.0 (Linux; Android 14; SM-S918B Build/UP1A.231005.007) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.6367.82 Mobile Safari/537.36";
        let facts = coarse(android);
        assert_eq!(facts, json!({ "browser": "Chrome", "os": "Android", "platform": "mobile" }));
        assert!(!facts.to_string().contains("SM-S918B"), "the device model is not kept");
    }

    #[test]
    fn a_desktop_browser_and_an_unknown_agent() {
        let windows = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36 Edg/124.0";
        assert_eq!(coarse(windows)["platform"], "desktop");
        assert_eq!(coarse(windows)["browser"], "Edge");
        assert_eq!(
            coarse("curl-ish/1"),
            json!({ "browser": "desconhecido", "os": "desconhecido", "platform": "other" })
        );
    }
}
