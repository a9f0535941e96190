//! The funnel page's question, read from its query string: every field checked, each bad one
//! named with a Portuguese message (the page shows it beside the field).

use chrono::{Duration, NaiveDate};
use events::funnel::{funnel, Breakdown, Count, FunnelQuery, Order};
use serde::Deserialize;

/// The query string as sent: text, so that every mistake gets our message, not a parser's.
#[derive(Debug, Default, Deserialize)]
pub struct Params {
    pub flow: Option<String>,
    pub variant: Option<String>,
    pub from: Option<String>,
    pub to: Option<String>,
    pub window: Option<String>,
    pub order: Option<String>,
    pub breakdown: Option<String>,
    /// `attempts` (default) or `people`.
    pub count: Option<String>,
    /// The drill-down's (`dropoff`): the step (from 0), the page (from 1), the breakdown value.
    pub step: Option<String>,
    pub page: Option<String>,
    pub group: Option<String>,
}

/// A field the analyst must fix, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadField {
    pub field: &'static str,
    pub message: String,
}

pub(crate) fn bad(field: &'static str, message: &str) -> BadField {
    BadField { field, message: message.to_string() }
}

/// What the funnel counts: attempts unless `count=people`.
pub fn parse_count(params: &Params) -> Result<Count, BadField> {
    match params.count.as_deref().filter(|c| !c.is_empty()) {
        None => Ok(Count::Attempts),
        Some(text) => Count::parse(text).ok_or_else(|| bad("count", crate::texts::QUESTION_COUNT_UNKNOWN)),
    }
}

/// The longest window a question may ask (a year).
pub const MAX_WINDOW_DAYS: i64 = 365;

/// Reads the question; `today` (São Paulo) is the default end, 30 days before it the start.
pub fn parse(params: &Params, today: NaiveDate) -> Result<FunnelQuery, BadField> {
    let flow = params
        .flow
        .as_deref()
        .filter(|f| !f.is_empty())
        .ok_or_else(|| bad("flow", crate::texts::QUESTION_FLOW_MISSING))?;
    let variant = params.variant.as_deref().filter(|v| !v.is_empty());
    let funnel = funnel(flow, variant).map_err(|error| match error {
        events::funnel::FunnelError::UnknownFlow(_) => bad("flow", crate::texts::QUESTION_FLOW_UNKNOWN),
        events::funnel::FunnelError::UnknownVariant { .. } => bad("variant", crate::texts::QUESTION_VARIANT_UNKNOWN),
    })?;
    let date = |field: &'static str, text: &Option<String>| -> Result<Option<NaiveDate>, BadField> {
        match text.as_deref().filter(|t| !t.is_empty()) {
            None => Ok(None),
            Some(t) => NaiveDate::parse_from_str(t, "%Y-%m-%d")
                .map(Some)
                .map_err(|_| bad(field, crate::texts::QUESTION_DATE_INVALID)),
        }
    };
    let to = date("to", &params.to)?.unwrap_or(today);
    let from = date("from", &params.from)?.unwrap_or(to - Duration::days(30));
    if to < from {
        return Err(bad("to", crate::texts::QUESTION_DATES_REVERSED));
    }
    let window = match params.window.as_deref().filter(|w| !w.is_empty()) {
        None => 14,
        Some(text) => text.parse::<i64>().map_err(|_| bad("window", crate::texts::QUESTION_WINDOW_NOT_A_NUMBER))?,
    };
    if !(1..=MAX_WINDOW_DAYS).contains(&window) {
        return Err(bad("window", crate::texts::QUESTION_WINDOW_OUT_OF_RANGE));
    }
    let order = match params.order.as_deref().filter(|o| !o.is_empty()) {
        None => Order::Sequential,
        Some(text) => Order::parse(text).ok_or_else(|| bad("order", crate::texts::QUESTION_ORDER_UNKNOWN))?,
    };
    let breakdown = match params.breakdown.as_deref().filter(|b| !b.is_empty()) {
        None => None,
        Some(text) => {
            Some(Breakdown::parse(text).ok_or_else(|| bad("breakdown", crate::texts::QUESTION_BREAKDOWN_UNKNOWN))?)
        }
    };
    Ok(FunnelQuery { funnel, from, to, window: Duration::days(window), order, breakdown })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn today() -> NaiveDate {
        NaiveDate::from_ymd_opt(2026, 11, 24).expect("date")
    }

    fn params(pairs: &[(&str, &str)]) -> Params {
        let text: Vec<String> = pairs.iter().map(|(k, v)| format!("{k}={v}")).collect();
        let uri: axum::http::Uri = format!("/?{}", text.join("&")).parse().expect("uri");
        axum::extract::Query::<Params>::try_from_uri(&uri).expect("query string").0
    }

    #[test]
    fn a_bare_flow_asks_the_last_thirty_days_in_order_with_a_fourteen_day_window() {
        let query = parse(&params(&[("flow", "cloud")]), today()).expect("valid");
        assert_eq!((query.from.to_string(), query.to.to_string()), ("2026-10-25".into(), "2026-11-24".into()));
        assert_eq!((query.window, query.order, query.breakdown), (Duration::days(14), Order::Sequential, None));
    }

    #[test]
    fn every_field_is_read() {
        let query = parse(
            &params(&[
                ("flow", "activation"),
                ("variant", "carrier"),
                ("from", "2026-11-01"),
                ("to", "2026-11-20"),
                ("window", "3"),
                ("order", "strict"),
                ("breakdown", "os"),
            ]),
            today(),
        )
        .expect("valid");
        assert_eq!(query.funnel.variant, Some("carrier"));
        assert_eq!(
            (query.window, query.order, query.breakdown),
            (Duration::days(3), Order::Strict, Some(Breakdown::Os))
        );
    }

    #[test]
    fn each_mistake_names_its_field() {
        let field = |pairs: &[(&str, &str)]| parse(&params(pairs), today()).expect_err("refused").field;
        assert_eq!(field(&[]), "flow");
        assert_eq!(field(&[("flow", "vpn")]), "flow");
        assert_eq!(field(&[("flow", "cloud"), ("variant", "carrier")]), "variant");
        assert_eq!(field(&[("flow", "cloud"), ("from", "2026-11-10"), ("to", "2026-11-01")]), "to");
        assert_eq!(field(&[("flow", "cloud"), ("from", "01/11/2026")]), "from");
        assert_eq!(field(&[("flow", "cloud"), ("window", "0")]), "window");
        assert_eq!(field(&[("flow", "cloud"), ("window", "dois")]), "window");
        assert_eq!(field(&[("flow", "cloud"), ("order", "random")]), "order");
        assert_eq!(field(&[("flow", "cloud"), ("breakdown", "cpf")]), "breakdown");
    }

    #[test]
    fn the_count_is_attempts_unless_people_are_asked_for() {
        let count = |pairs: &[(&str, &str)]| parse_count(&params(pairs));
        assert_eq!(count(&[]), Ok(Count::Attempts));
        assert_eq!(count(&[("count", "")]), Ok(Count::Attempts));
        assert_eq!(count(&[("count", "people")]), Ok(Count::People));
        assert_eq!(count(&[("count", "pessoas")]).map_err(|b| b.field), Err("count"));
    }
}
