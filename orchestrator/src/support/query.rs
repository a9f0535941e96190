//! The look-up's query string: one search key (a phone in any common form, a CPF/CNPJ, an
//! e-mail, a serial or an attempt id) and the filters, checked with Portuguese messages.

use std::collections::HashMap;

use chrono::NaiveDate;
use serde_json::{json, Value};

use crate::error::ApiError;

/// What the look-up searches by.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Key {
    /// `55` + DDD + number.
    Phone(String),
    Document(String),
    Email(String),
    Serial(String),
    Id(String),
}

pub const OUTCOMES: [&str; 6] = ["completed", "refused", "in_flight", "abandoned", "gave_up", "cancelled"];
pub const FLOWS: [&str; 3] = ["activation", "download", "cloud"];
pub const PAGE_SIZE: usize = 20;
const MAX_LEN: usize = 200;

#[derive(Debug, Clone, Default)]
pub struct Filters {
    pub flow: Option<String>,
    pub outcome: Option<String>,
    pub from: Option<NaiveDate>,
    pub to: Option<NaiveDate>,
    pub page: usize,
}

fn invalid(message: &str) -> ApiError {
    ApiError::Invalid(message.to_string())
}

/// A phone in any common form → `55` + its national digits (DDD + number):
/// `(11) 91000-0001`, `11910000001`, `+55 11 91000-0001`, `011910000001`.
pub fn normalize_phone(typed: &str) -> Option<String> {
    let mut digits: String = typed.chars().filter(char::is_ascii_digit).collect();
    if typed.chars().any(|c| c.is_ascii_alphabetic()) {
        return None;
    }
    if digits.len() >= 12 && digits.starts_with("55") {
        digits.drain(..2);
    } else if digits.len() >= 11 && digits.starts_with('0') {
        digits = digits.trim_start_matches('0').to_string();
    }
    if !(digits.len() == 10 || digits.len() == 11) || digits.starts_with('0') {
        return None;
    }
    Some(format!("55{digits}"))
}

/// The look-up's JSON body as the parameters [`parse`] reads: strings as they are, a number
/// (the page) in decimal, `null` as absent; `None` for anything else (an object, a list).
pub fn from_body(body: serde_json::Map<String, Value>) -> Option<HashMap<String, String>> {
    body.into_iter()
        .filter(|(_, value)| !value.is_null())
        .map(|(name, value)| match value {
            Value::String(text) => Some((name, text)),
            // Only the page is a number (docs/openapi.yaml); a number anywhere else is refused.
            Value::Number(number) if name == "page" => Some((name, number.to_string())),
            _ => None,
        })
        .collect()
}

/// The search key and filters of `POST /api/support/attempts/search`.
pub fn parse(params: &HashMap<String, String>) -> Result<(Key, Filters), ApiError> {
    if params.values().any(|v| v.chars().count() > MAX_LEN) {
        return Err(invalid(crate::texts::SEARCH_TOO_LONG));
    }
    if params.values().any(|v| events::flow::has_control(v)) {
        return Err(invalid(crate::texts::SEARCH_CONTROL_CHARACTER));
    }
    let get = |name: &str| params.get(name).map(|v| v.trim()).filter(|v| !v.is_empty());
    let key = if let Some(phone) = get("phone") {
        Key::Phone(normalize_phone(phone).ok_or_else(|| invalid(crate::texts::PHONE_INVALID))?)
    } else if let Some(document) = get("document") {
        let document: String =
            document.chars().filter(|c| !matches!(c, '.' | '-' | '/' | ' ')).map(|c| c.to_ascii_uppercase()).collect();
        if !(document.len() == 11 || document.len() == 14) || !document.chars().all(|c| c.is_ascii_alphanumeric()) {
            return Err(invalid("CPF ou CNPJ inválido. Digite os 11 ou 14 caracteres."));
        }
        Key::Document(document)
    } else if let Some(email) = get("email") {
        if !crate::staff::accounts::valid_email(email) {
            return Err(invalid("E-mail inválido. Confira o endereço digitado."));
        }
        Key::Email(email.to_lowercase())
    } else if let Some(serial) = get("serial") {
        Key::Serial(serial.to_string())
    } else if let Some(id) = get("id") {
        Key::Id(id.to_string())
    } else {
        return Err(invalid(crate::texts::SEARCH_EMPTY));
    };
    // The filters are the console's choices, taken as sent: empty is absent, and anything
    // else must be one of them exactly (as docs/openapi.yaml says).
    let choice = |name: &str| params.get(name).map(String::as_str).filter(|v| !v.is_empty());
    let flow = choice("flow").map(str::to_string);
    if flow.as_deref().is_some_and(|f| !FLOWS.contains(&f)) {
        return Err(invalid(crate::texts::FLOW_UNKNOWN));
    }
    let outcome = choice("outcome").map(str::to_string);
    if outcome.as_deref().is_some_and(|o| !OUTCOMES.contains(&o)) {
        return Err(invalid(crate::texts::OUTCOME_UNKNOWN));
    }
    let date = |name: &str| -> Result<Option<NaiveDate>, ApiError> {
        choice(name)
            .map(|d| NaiveDate::parse_from_str(d, "%Y-%m-%d").map_err(|_| invalid(crate::texts::SEARCH_DATE_INVALID)))
            .transpose()
    };
    let (from, to) = (date("from")?, date("to")?);
    let page = match choice("page") {
        None => 1,
        Some(p) => p
            .parse::<usize>()
            .ok()
            .filter(|p| (1..=100_000).contains(p))
            .ok_or_else(|| invalid(crate::texts::PAGE_INVALID))?,
    };
    Ok((key, Filters { flow, outcome, from, to, page }))
}

/// The query as the answer echoes it: the normalized key, never more than what was typed.
pub fn echo(key: &Key, filters: &Filters) -> Value {
    let (name, value) = match key {
        Key::Phone(p) => ("phone", p.trim_start_matches("55").to_string()),
        Key::Document(d) => ("document", d.clone()),
        Key::Email(e) => ("email", e.clone()),
        Key::Serial(s) => ("serial", s.clone()),
        Key::Id(i) => ("id", i.clone()),
    };
    json!({
        name: value,
        "flow": filters.flow,
        "outcome": filters.outcome,
        "from": filters.from.map(|d| d.to_string()),
        "to": filters.to.map(|d| d.to_string()),
        "page": filters.page,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_search_body_takes_text_and_a_numeric_page_only() {
        let body = |text: &str| serde_json::from_str::<serde_json::Map<String, Value>>(text).expect("json");
        let read = from_body(body(r#"{"phone": "(11) 91000-0001", "page": 2, "flow": null}"#)).expect("read");
        assert_eq!(
            (read.get("phone").map(String::as_str), read.get("page").map(String::as_str)),
            (Some("(11) 91000-0001"), Some("2"))
        );
        assert_eq!(from_body(body(r#"{"phone": "(11) 91000-0001", "id": 0}"#)), None);
        assert_eq!(from_body(body(r#"{"phone": ["x"]}"#)), None);
    }

    #[test]
    fn a_value_with_a_nul_or_another_control_character_is_refused_before_any_query() {
        // Schemathesis sent a serial with a NUL byte: PostgreSQL refused the text and the
        // look-up answered 500.
        for serial in ["EXA\u{0}0001", "EXA\u{1e}0001"] {
            let params = HashMap::from([("serial".to_string(), serial.to_string())]);
            assert!(matches!(parse(&params), Err(ApiError::Invalid(m)) if m == crate::texts::SEARCH_CONTROL_CHARACTER));
        }
        let params = HashMap::from([("serial".to_string(), "EXA-0000-0001".to_string())]);
        assert!(parse(&params).is_ok());
    }

    #[test]
    fn phones_in_every_common_form_normalize_alike() {
        for typed in
            ["(11) 91000-0001", "11910000001", "+55 11 91000-0001", "0 11 91000-0001", "011910000001", "5511910000001"]
        {
            assert_eq!(normalize_phone(typed).as_deref(), Some("5511910000001"), "{typed}");
        }
        for bad in ["1234", "abc", "119100000011234", "0000000000"] {
            assert_eq!(normalize_phone(bad), None, "{bad}");
        }
    }

    #[test]
    fn bad_filters_are_refused_in_portuguese() {
        let params = |pairs: &[(&str, &str)]| {
            pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect::<HashMap<_, _>>()
        };
        assert!(parse(&params(&[("phone", "11910000001"), ("from", "ontem")])).is_err());
        assert!(parse(&params(&[("phone", "11910000001"), ("outcome", "x")])).is_err());
        assert!(parse(&params(&[("phone", "11910000001"), ("outcome", " ")])).is_err());
        assert!(parse(&params(&[("phone", "11910000001"), ("outcome", "")])).is_ok());
        assert!(parse(&params(&[])).is_err());
        let (key, filters) = parse(&params(&[("phone", "(11) 91000-0001"), ("page", "2")])).expect("parses");
        assert_eq!(key, Key::Phone("5511910000001".into()));
        assert_eq!(filters.page, 2);
    }
}
