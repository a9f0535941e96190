//! From a drop-off to its attempts, pure: the attempts a question counts that reached step *k*
//! and not step *k + 1* within the window, by the same maths as the step table
//! ([`FunnelQuery::reached`]), so there are as many as the table's `dropped` at *k*. Nobody
//! drops at the last step: they converted.

use chrono::{DateTime, Utc};

use super::answer::FunnelQuery;
use super::track::AttemptFacts;

/// What the drill-down shows of an attempt (no personal data).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DroppedAttempt {
    pub attempt: String,
    pub started: DateTime<Utc>,
    pub variant: String,
    pub os: String,
    pub platform: String,
    /// The message the visitor read, if they were refused.
    pub refusal: Option<String>,
}

/// What a drill-down asks: the step (from 0), the breakdown value (`None`: all), the page
/// (from 1) and its size.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DrillDown {
    pub step: usize,
    pub group: Option<String>,
    pub page: usize,
    pub per_page: usize,
}

/// Whether `attempt` stopped at `step` (reached it, not the next).
pub fn dropped_at(query: &FunnelQuery, attempt: &AttemptFacts, step: usize) -> bool {
    step + 1 < query.funnel.steps.len() && query.reached(attempt).len() == step + 1
}

/// The attempts that dropped at one step (of one breakdown value, or of all).
#[derive(Debug, Clone)]
pub struct Dropped {
    step: usize,
    group: Option<String>,
    rows: Vec<DroppedAttempt>,
}

/// One page of them, newest first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DroppedPage {
    /// All that dropped there, on every page.
    pub total: usize,
    pub rows: Vec<DroppedAttempt>,
}

impl Dropped {
    pub fn new(step: usize, group: Option<String>) -> Self {
        Self { step, group, rows: Vec::new() }
    }

    /// One attempt the question counts.
    pub fn add(&mut self, query: &FunnelQuery, attempt: &AttemptFacts) {
        if self.group.as_ref().is_some_and(|g| *g != attempt.facts.key(query.breakdown)) {
            return;
        }
        if dropped_at(query, attempt, self.step) {
            self.rows.push(DroppedAttempt {
                attempt: attempt.attempt.clone(),
                started: attempt.started,
                variant: attempt.facts.variant.clone(),
                os: attempt.facts.os.clone(),
                platform: attempt.facts.platform.clone(),
                refusal: attempt.refusal.clone(),
            });
        }
    }

    /// One attempt already known to have stopped at the step, of the group asked.
    pub fn push(&mut self, row: DroppedAttempt) {
        self.rows.push(row);
    }

    /// Page `page` (from 1) of `per_page`, the newest first (then by id, so pages never overlap).
    pub fn page(mut self, page: usize, per_page: usize) -> DroppedPage {
        self.rows.sort_by(|a, b| b.started.cmp(&a.started).then_with(|| b.attempt.cmp(&a.attempt)));
        let total = self.rows.len();
        let start = page.saturating_sub(1).saturating_mul(per_page);
        let rows = self.rows.into_iter().skip(start).take(per_page).collect();
        DroppedPage { total, rows }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::funnel::answer::FunnelAnswer;
    use crate::funnel::compute::Order;
    use crate::funnel::definitions::funnel;
    use crate::funnel::track::Breakdown;
    use chrono::{Duration, NaiveDate};

    fn attempt(n: i64, os: &str, marks: &[(usize, i64)], refusal: Option<&str>) -> AttemptFacts {
        let mut facts = crate::funnel::fixtures::cloud_attempt(&format!("cloud-{n}"), n * 60, os, marks);
        facts.refusal = refusal.map(str::to_string);
        facts
    }

    fn query(order: Order, breakdown: Option<Breakdown>) -> FunnelQuery {
        FunnelQuery {
            funnel: funnel("cloud", None).expect("cloud"),
            from: NaiveDate::from_ymd_opt(2026, 11, 1).expect("date"),
            to: NaiveDate::from_ymd_opt(2026, 11, 3).expect("date"),
            window: Duration::days(1),
            order,
            breakdown,
        }
    }

    fn history() -> Vec<AttemptFacts> {
        let day = 86_400_000;
        vec![
            attempt(1, "android", &[(0, 0)], Some("Número de celular não encontrado.")),
            attempt(2, "android", &[(0, 0), (1, 10), (2, 20)], None),
            attempt(3, "ios", &[(0, 0), (1, 10), (2, 20), (3, 30), (4, 40), (5, 50)], None),
            // The code was sent after the window: it stopped at the phone check.
            attempt(4, "ios", &[(0, 0), (1, 10), (2, day + 1)], Some("Código expirado.")),
            // Out of turn: counts in any order, stops at the start in strict order.
            attempt(5, "android", &[(0, 0), (2, 5), (1, 10), (2, 20)], None),
            attempt(6, "ios", &[(1, 0)], None),
        ]
    }

    #[test]
    fn as_many_drop_at_each_step_as_the_step_table_says_in_every_order() {
        for order in [Order::Sequential, Order::Strict, Order::Any] {
            let q = query(order, None);
            let mut answer = FunnelAnswer::default();
            for a in history() {
                answer.add(&q, &a);
            }
            let rows = answer.tallies["todas"].rows(&q.funnel, 0);
            for (step, row) in rows.iter().enumerate() {
                let mut dropped = Dropped::new(step, None);
                for a in history() {
                    dropped.add(&q, &a);
                }
                assert_eq!(dropped.page(1, 50).total as u64, row.dropped, "{order:?}, step {step}");
            }
        }
    }

    #[test]
    fn the_attempts_that_stopped_come_newest_first_with_the_refusal_they_read() {
        let q = query(Order::Sequential, None);
        let mut dropped = Dropped::new(1, None);
        for a in history() {
            dropped.add(&q, &a);
        }
        let page = dropped.page(1, 50);
        assert_eq!(page.rows.iter().map(|r| r.attempt.as_str()).collect::<Vec<_>>(), ["cloud-4"]);
        assert_eq!(page.rows[0].refusal.as_deref(), Some("Código expirado."));
        let mut at_start = Dropped::new(0, None);
        for a in history() {
            at_start.add(&q, &a);
        }
        assert_eq!(at_start.page(1, 50).rows.iter().map(|r| r.attempt.as_str()).collect::<Vec<_>>(), ["cloud-1"]);
    }

    #[test]
    fn pages_split_the_list_without_overlap_and_a_group_narrows_it() {
        let q = query(Order::Sequential, Some(Breakdown::Os));
        let many: Vec<AttemptFacts> =
            (1..=5).map(|n| attempt(n, if n % 2 == 0 { "ios" } else { "android" }, &[(0, 0)], None)).collect();
        let ids = |group: Option<&str>, page: usize| {
            let mut d = Dropped::new(0, group.map(str::to_string));
            for a in &many {
                d.add(&q, a);
            }
            let p = d.page(page, 2);
            (p.total, p.rows.into_iter().map(|r| r.attempt).collect::<Vec<_>>())
        };
        assert_eq!(ids(None, 1), (5, vec!["cloud-5".to_string(), "cloud-4".into()]));
        assert_eq!(ids(None, 3), (5, vec!["cloud-1".to_string()]));
        assert_eq!(ids(None, 4), (5, vec![]));
        assert_eq!(ids(Some("ios"), 1), (2, vec!["cloud-4".to_string(), "cloud-2".into()]));
        let mut last = Dropped::new(5, None);
        last.add(&q, &attempt(9, "ios", &[(0, 0), (1, 1), (2, 2), (3, 3), (4, 4), (5, 5)], None));
        assert_eq!(last.page(1, 2).total, 0, "the last step is no drop-off");
    }
}
