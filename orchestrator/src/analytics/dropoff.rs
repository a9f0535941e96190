//! The drill-down's own fields, beside the funnel question (`question.rs`): which step (from
//! 0, a drop-off happens at any step but the last), which page (from 1) and, with a breakdown,
//! which of its values. Each bad one named with a Portuguese message; and the ids the list
//! shows: the attempt's own for staff who may open it in the support console, else an
//! anonymous one.

use events::funnel::FunnelQuery;
use events::pii::Vault;

use super::question::{bad, BadField, Params};

/// Attempts per page.
pub const PER_PAGE: usize = 50;
/// The `Vault::tag` purpose of the anonymous ids.
pub const ANONYMOUS: &str = "funnel_anonymous";

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Drill {
    pub step: usize,
    pub page: usize,
    pub group: Option<String>,
}

pub fn parse(params: &Params, query: &FunnelQuery) -> Result<Drill, BadField> {
    let step = params
        .step
        .as_deref()
        .filter(|s| !s.is_empty())
        .ok_or_else(|| bad("step", crate::texts::QUESTION_STEP_MISSING))?;
    let step = step
        .parse::<usize>()
        .ok()
        .filter(|s| s + 1 < query.funnel.steps.len())
        .ok_or_else(|| bad("step", crate::texts::QUESTION_STEP_UNKNOWN))?;
    let page = match params.page.as_deref().filter(|p| !p.is_empty()) {
        None => 1,
        Some(text) => text
            .parse::<usize>()
            .ok()
            .filter(|p| (1..=1_000_000).contains(p))
            .ok_or_else(|| bad("page", crate::texts::QUESTION_PAGE_INVALID))?,
    };
    let group = match params.group.as_deref().filter(|g| !g.is_empty()) {
        None => None,
        Some(g) if g.chars().count() > 200 || events::flow::has_control(g) => {
            return Err(bad("group", crate::texts::QUESTION_GROUP_INVALID))
        }
        Some(g) => Some(g.to_string()),
    };
    Ok(Drill { step, page, group })
}

/// An attempt's anonymous id: a keyed tag of it (64 bits, hex), the same at every ask, that
/// leads nowhere without the server's key.
pub fn anonymous_id(vault: &Vault, attempt: &str) -> String {
    hex::encode(&vault.tag(ANONYMOUS, attempt)[..8])
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::{Duration, NaiveDate};
    use events::funnel::{funnel, Order};

    fn query() -> FunnelQuery {
        let day = NaiveDate::from_ymd_opt(2026, 11, 2).expect("date");
        FunnelQuery {
            funnel: funnel("cloud", None).expect("cloud"),
            from: day,
            to: day,
            window: Duration::days(14),
            order: Order::Sequential,
            breakdown: None,
        }
    }

    fn params(step: Option<&str>, page: Option<&str>, group: Option<&str>) -> Params {
        Params {
            step: step.map(str::to_string),
            page: page.map(str::to_string),
            group: group.map(str::to_string),
            ..Params::default()
        }
    }

    #[test]
    fn a_step_before_the_last_and_a_page_from_one_are_read() {
        assert_eq!(parse(&params(Some("4"), None, None), &query()), Ok(Drill { step: 4, page: 1, group: None }));
        assert_eq!(
            parse(&params(Some("0"), Some("3"), Some("android")), &query()),
            Ok(Drill { step: 0, page: 3, group: Some("android".into()) })
        );
    }

    #[test]
    fn each_mistake_names_its_field() {
        let field = |step, page, group| parse(&params(step, page, group), &query()).expect_err("refused").field;
        assert_eq!(field(None, None, None), "step");
        assert_eq!(field(Some("5"), None, None), "step", "nobody drops at the last step");
        assert_eq!(field(Some("-1"), None, None), "step");
        assert_eq!(field(Some("1"), Some("0"), None), "page");
        assert_eq!(field(Some("1"), Some("um"), None), "page");
        assert_eq!(field(Some("1"), None, Some("a\u{0}b")), "group");
    }
}
