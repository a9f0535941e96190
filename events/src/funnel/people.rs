//! Counting people instead of attempts, pure. A person is the keyed tag of the phone an attempt
//! proved with an SMS code ([`AttemptFacts::person`]); within each breakdown value a person
//! counts once, by the attempt of theirs that went furthest (the earliest of those that went
//! as far). An attempt that proved no phone is a person of its own: nothing says two such
//! attempts were one visitor, and most drop before the code, where a funnel most needs them.

use std::collections::HashMap;

use super::answer::FunnelQuery;
use super::track::AttemptFacts;

/// What a funnel counts.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Count {
    #[default]
    Attempts,
    People,
}

impl Count {
    /// `attempts` or `people`, as the page's query spells it.
    pub fn parse(text: &str) -> Option<Self> {
        Some(match text {
            "attempts" => Self::Attempts,
            "people" => Self::People,
            _ => return None,
        })
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Attempts => "attempts",
            Self::People => "people",
        }
    }
}

/// The attempts a funnel counts, one per person and breakdown value (see the module).
#[derive(Debug, Default)]
pub struct People {
    /// (breakdown value, person) -> (steps reached, the attempt).
    best: HashMap<(String, String), (usize, AttemptFacts)>,
    /// Attempts with no proved phone, each a person of its own.
    alone: Vec<AttemptFacts>,
}

impl People {
    /// One attempt of the question (the caller checked [`FunnelQuery::counts`]).
    pub fn add(&mut self, query: &FunnelQuery, attempt: AttemptFacts) {
        let Some(person) = attempt.person.clone() else {
            self.alone.push(attempt);
            return;
        };
        let reached = query.reached(&attempt).len();
        let key = (attempt.facts.key(query.breakdown), person);
        match self.best.get(&key) {
            Some((best, kept)) if !better(reached, &attempt, *best, kept) => {}
            _ => {
                self.best.insert(key, (reached, attempt));
            }
        }
    }

    /// The attempts that stand for each person, in no particular order.
    pub fn into_attempts(self) -> impl Iterator<Item = AttemptFacts> {
        self.best.into_values().map(|(_, attempt)| attempt).chain(self.alone)
    }
}

/// Whether `a` (reached `ra` steps) stands for its person rather than `b`.
fn better(ra: usize, a: &AttemptFacts, rb: usize, b: &AttemptFacts) -> bool {
    (ra, std::cmp::Reverse(a.started), std::cmp::Reverse(&a.attempt))
        > (rb, std::cmp::Reverse(b.started), std::cmp::Reverse(&b.attempt))
}

/// Feeds `each` the attempts a question counts: all of them, or one per person.
pub struct Counted<'q> {
    query: &'q FunnelQuery,
    count: Count,
    people: People,
}

impl<'q> Counted<'q> {
    pub fn new(query: &'q FunnelQuery, count: Count) -> Self {
        Self { query, count, people: People::default() }
    }

    /// One attempt of the question: handed on at once when counting attempts.
    pub fn add(&mut self, attempt: AttemptFacts, each: &mut impl FnMut(&AttemptFacts)) {
        match self.count {
            Count::Attempts => each(&attempt),
            Count::People => self.people.add(self.query, attempt),
        }
    }

    /// Hands on the people's attempts, once all attempts were added.
    pub fn finish(self, each: &mut impl FnMut(&AttemptFacts)) {
        for attempt in self.people.into_attempts() {
            each(&attempt);
        }
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

    fn attempt(id: &str, os: &str, steps: usize, person: Option<&str>) -> AttemptFacts {
        let marks: Vec<(usize, i64)> = (0..steps).map(|i| (i, i as i64 * 1_000)).collect();
        let mut facts = crate::funnel::fixtures::cloud_attempt(id, id.len() as i64, os, &marks);
        facts.person = person.map(str::to_string);
        facts
    }

    fn entered(count: Count, breakdown: Option<Breakdown>, attempts: Vec<AttemptFacts>) -> Vec<(String, Vec<u64>)> {
        let query = FunnelQuery {
            funnel: funnel("cloud", None).expect("cloud"),
            from: NaiveDate::from_ymd_opt(2026, 11, 1).expect("date"),
            to: NaiveDate::from_ymd_opt(2026, 11, 3).expect("date"),
            window: Duration::days(14),
            order: Order::Sequential,
            breakdown,
        };
        let mut answer = FunnelAnswer::default();
        let mut counted = Counted::new(&query, count);
        let mut add = |a: &AttemptFacts| {
            answer.add(&query, a);
        };
        for a in attempts {
            counted.add(a, &mut add);
        }
        counted.finish(&mut add);
        answer
            .tallies
            .iter()
            .map(|(k, t)| (k.clone(), t.rows(&query.funnel, 0).iter().map(|r| r.entered).collect()))
            .collect()
    }

    #[test]
    fn a_person_counts_once_by_their_furthest_attempt_and_attempts_without_a_proved_phone_alone() {
        let attempts = vec![
            attempt("a1", "android", 4, Some("ana")),
            attempt("a2", "android", 6, Some("ana")),
            attempt("a3", "android", 5, Some("ana")),
            attempt("b1", "android", 4, Some("bia")),
            attempt("x1", "android", 2, None),
            attempt("x2", "android", 1, None),
        ];
        assert_eq!(entered(Count::Attempts, None, attempts.clone()), vec![("todas".into(), vec![6, 5, 4, 4, 2, 1])]);
        assert_eq!(entered(Count::People, None, attempts), vec![("todas".into(), vec![4, 3, 2, 2, 1, 1])]);
    }

    #[test]
    fn a_person_counts_once_in_each_breakdown_value_they_appear_in() {
        let attempts = vec![
            attempt("a1", "android", 4, Some("ana")),
            attempt("a2", "ios", 6, Some("ana")),
            attempt("a3", "ios", 2, Some("ana")),
        ];
        assert_eq!(
            entered(Count::People, Some(Breakdown::Os), attempts),
            vec![("android".into(), vec![1, 1, 1, 1, 0, 0]), ("ios".into(), vec![1, 1, 1, 1, 1, 1])]
        );
    }

    #[test]
    fn the_count_is_spelt_as_the_query_spells_it() {
        assert_eq!(Count::parse("people"), Some(Count::People));
        assert_eq!(Count::parse("attempts").map(Count::as_str), Some("attempts"));
        assert_eq!(Count::parse("pessoas"), None);
        assert_eq!(Count::default(), Count::Attempts);
    }
}
