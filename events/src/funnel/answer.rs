//! A funnel question over attempts ([`AttemptFacts`]) and its answer: per breakdown value the
//! step table's tally, and per day how many entered and how many converted. Pure; the replay
//! feeds it attempts folded from the log, the funnel page attempts read from the projection,
//! so both answer the same question the same way.

use std::collections::BTreeMap;

use chrono::{Duration, NaiveDate};

use super::compute::{Order, Progress, Tally};
use super::definitions::Funnel;
use super::drivers::Drivers;
use super::track::{AttemptFacts, Breakdown, Facts};

#[derive(Debug, Clone)]
pub struct FunnelQuery {
    pub funnel: Funnel,
    /// Attempts started on these São Paulo dates, both included.
    pub from: NaiveDate,
    pub to: NaiveDate,
    pub window: Duration,
    pub order: Order,
    pub breakdown: Option<Breakdown>,
}

impl FunnelQuery {
    /// Whether an attempt with these facts belongs to the question (its dates and variant).
    pub fn counts(&self, facts: &Facts) -> bool {
        let of_variant = self.funnel.variant.is_none_or(|v| v == facts.variant);
        of_variant && facts.day >= self.from && facts.day <= self.to
    }

    /// How far an attempt got: the times (ms after its first step) of the steps reached.
    pub fn reached(&self, attempt: &AttemptFacts) -> Vec<i64> {
        let mut progress = Progress::new(&self.funnel, self.order, self.window.num_milliseconds());
        for (event_type, at) in &attempt.marks {
            progress.observe(&self.funnel, event_type, *at);
        }
        progress.reached()
    }
}

/// Entered the first step, reached the last one.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DayCount {
    pub entered: u64,
    pub converted: u64,
}

/// The answer: one tally per breakdown value (`"todas"` without a breakdown).
#[derive(Debug, Clone, Default)]
pub struct FunnelAnswer {
    pub tallies: BTreeMap<String, Tally>,
    /// Over all breakdown values, by the day the attempt started.
    pub per_day: BTreeMap<NaiveDate, DayCount>,
    /// Attempts counted (entered the first step or not).
    pub attempts: u64,
    /// Over all breakdown values, what drives drop-off.
    pub drivers: Drivers,
}

impl FunnelAnswer {
    /// Counts one attempt of the question (the caller checked [`FunnelQuery::counts`]);
    /// returns the steps it reached.
    pub fn add(&mut self, query: &FunnelQuery, attempt: &AttemptFacts) -> Vec<i64> {
        let reached = query.reached(attempt);
        self.attempts += 1;
        let key = attempt.facts.key(query.breakdown);
        self.tallies.entry(key).or_insert_with(|| Tally::new(&query.funnel)).add(&reached, attempt.refusal.as_deref());
        if !reached.is_empty() {
            let converted = reached.len() == query.funnel.steps.len();
            let day = self.per_day.entry(attempt.facts.day).or_default();
            day.entered += 1;
            day.converted += u64::from(converted);
            self.drivers.add(&attempt.facts, converted);
        }
        reached
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::funnel::definitions::funnel;
    use chrono::DateTime;

    fn attempt(day: u32, variant: &str, marks: &[(&str, i64)], refusal: Option<&str>) -> AttemptFacts {
        AttemptFacts {
            attempt: format!("cloud-{day}-{}", marks.len()),
            flow: "cloud",
            started: DateTime::from_timestamp(0, 0).expect("epoch"),
            facts: Facts {
                variant: variant.into(),
                brand: "positivo".into(),
                partner: "—".into(),
                os: "android".into(),
                platform: "mobile".into(),
                day: NaiveDate::from_ymd_opt(2026, 11, day).expect("date"),
            },
            marks: marks.iter().map(|(t, at)| (t.to_string(), *at)).collect(),
            refusal: refusal.map(str::to_string),
            person: None,
        }
    }

    fn query(breakdown: Option<Breakdown>) -> FunnelQuery {
        FunnelQuery {
            funnel: funnel("cloud", None).expect("cloud"),
            from: NaiveDate::from_ymd_opt(2026, 11, 2).expect("date"),
            to: NaiveDate::from_ymd_opt(2026, 11, 3).expect("date"),
            window: Duration::days(14),
            order: Order::Sequential,
            breakdown,
        }
    }

    const ALL: [(&str, i64); 6] = [
        ("details.submitted", 0),
        ("phone.checked", 10),
        ("code.sent", 20),
        ("code.validated", 30),
        ("serial.registered", 40),
        ("cloud.activated", 50),
    ];

    #[test]
    fn the_dates_bound_the_question_both_included() {
        let q = query(None);
        assert!(!q.counts(&attempt(1, "—", &ALL, None).facts));
        assert!(q.counts(&attempt(2, "—", &ALL, None).facts));
        assert!(q.counts(&attempt(3, "—", &ALL, None).facts));
        assert!(!q.counts(&attempt(4, "—", &ALL, None).facts));
    }

    #[test]
    fn per_day_counts_who_entered_and_who_reached_the_last_step() {
        let q = query(Some(Breakdown::Day));
        let mut answer = FunnelAnswer::default();
        answer.add(&q, &attempt(2, "—", &ALL, None));
        answer.add(&q, &attempt(2, "—", &ALL[..2], Some("Número não encontrado.")));
        answer.add(&q, &attempt(3, "—", &[("phone.checked", 0)], None));
        let day = |d| answer.per_day.get(&NaiveDate::from_ymd_opt(2026, 11, d).expect("date")).copied();
        assert_eq!(day(2), Some(DayCount { entered: 2, converted: 1 }));
        assert_eq!(day(3), None, "an attempt that never entered the first step is no day's entry");
        assert_eq!(answer.attempts, 3);
        assert_eq!(answer.tallies.keys().collect::<Vec<_>>(), ["2026-11-02", "2026-11-03"]);
        let rows = answer.tallies["2026-11-02"].rows(&q.funnel, 3);
        assert_eq!(rows[1].refusals, vec![("Número não encontrado.".to_string(), 1)]);
    }
}
