//! A question over the attempts held: the same steps as [`crate::funnel::read`] (which
//! attempts count, how far each got, one per person when counting people), with the names
//! looked up once per question instead of once per attempt.

use std::collections::BTreeMap;

use chrono::{Datelike, NaiveDate};
use rustc_hash::FxHashMap;

use super::store::{HotAttempt, HotFlow, HotFunnels, BRAND, OS, PARTNER, PLATFORM, VARIANT};
use crate::funnel::answer::{FunnelAnswer, FunnelQuery};
use crate::funnel::compute::{Progress, Tally};
use crate::funnel::dropoff::{DrillDown, DroppedAttempt, DroppedPage};
use crate::funnel::people::Count;
use crate::funnel::track::{Breakdown, Facts};
use crate::funnel::Dropped;

/// The breakdown value of an attempt, as a number: a name's id, a day's number, 0 for "todas".
fn key_of(attempt: &HotAttempt, breakdown: Option<Breakdown>) -> u32 {
    match breakdown {
        None => 0,
        Some(Breakdown::Variant) => attempt.facts[VARIANT],
        Some(Breakdown::Brand) => attempt.facts[BRAND],
        Some(Breakdown::Partner) => attempt.facts[PARTNER],
        Some(Breakdown::Os) => attempt.facts[OS],
        Some(Breakdown::Platform) => attempt.facts[PLATFORM],
        Some(Breakdown::Day) => attempt.day.num_days_from_ce() as u32,
    }
}

/// One question over one flow's attempts.
struct Asked<'h, 'q> {
    hot: &'h HotFunnels,
    flow: &'h HotFlow,
    query: &'q FunnelQuery,
    /// For each of the flow's step events, the funnel step it is.
    step_of: Vec<Option<usize>>,
    variant: Option<u32>,
    progress: Progress,
}

impl<'h, 'q> Asked<'h, 'q> {
    /// `None` when no attempt held can belong to the question.
    fn new(hot: &'h HotFunnels, query: &'q FunnelQuery) -> Option<Self> {
        let flow = hot.flow(query.funnel.flow)?;
        let variant = match query.funnel.variant {
            None => None,
            Some(v) => Some(hot.names.get(v)?),
        };
        let step_of = flow.events.iter().map(|e| query.funnel.step_of(e)).collect();
        let progress = Progress::new(&query.funnel, query.order, query.window.num_milliseconds());
        Some(Self { hot, flow, query, step_of, variant, progress })
    }

    fn counts(&self, attempt: &HotAttempt) -> bool {
        attempt.day >= self.query.from
            && attempt.day <= self.query.to
            && self.variant.is_none_or(|v| attempt.facts[VARIANT] == v)
    }

    /// The times of the steps `attempt` reached, into `out`.
    fn reached(&mut self, attempt: &HotAttempt, out: &mut Vec<i64>) {
        self.progress.reset();
        for (event, at) in attempt.marks.iter() {
            self.progress.observe_step(self.step_of.get(usize::from(*event)).copied().flatten(), *at);
        }
        self.progress.reached_into(out);
    }

    /// Hands `each` the attempts the question counts with the steps each reached: all of them,
    /// or one per person and breakdown value (the furthest, then the earliest, then by id).
    fn each_counted(&mut self, count: Count, mut each: impl FnMut(&HotAttempt, &[i64])) {
        let flow = self.flow;
        let mut reached = Vec::with_capacity(self.query.funnel.steps.len());
        match count {
            Count::Attempts => {
                for attempt in &flow.attempts {
                    if !self.counts(attempt) {
                        continue;
                    }
                    self.reached(attempt, &mut reached);
                    each(attempt, &reached);
                }
            }
            Count::People => {
                // First the attempt that stands for each person and breakdown value, then those
                // attempts in the order they are held (memory read in order, not at random).
                let mut best: FxHashMap<(u32, u64), (usize, u32)> = FxHashMap::default();
                let mut chosen = vec![false; flow.attempts.len()];
                for (index, attempt) in flow.attempts.iter().enumerate() {
                    if !self.counts(attempt) {
                        continue;
                    }
                    let Some(person) = attempt.person else {
                        chosen[index] = true;
                        continue;
                    };
                    self.reached(attempt, &mut reached);
                    let this = (reached.len(), index as u32);
                    best.entry((key_of(attempt, self.query.breakdown), person))
                        .and_modify(|kept| {
                            if better(flow, this, *kept) {
                                *kept = this;
                            }
                        })
                        .or_insert(this);
                }
                for (_, index) in best.into_values() {
                    chosen[index as usize] = true;
                }
                for (attempt, _) in flow.attempts.iter().zip(&chosen).filter(|(_, chosen)| **chosen) {
                    self.reached(attempt, &mut reached);
                    each(attempt, &reached);
                }
            }
        }
    }

    /// The name of a breakdown value.
    fn key_name(&self, key: u32) -> String {
        match self.query.breakdown {
            None => "todas".into(),
            Some(Breakdown::Day) => {
                NaiveDate::from_num_days_from_ce_opt(key as i32).map(|d| d.to_string()).unwrap_or_default()
            }
            Some(_) => self.hot.names.name(key).to_string(),
        }
    }

    /// The breakdown value a drill-down's `group` names: `None` when no attempt can have it.
    fn key_named(&self, group: &str) -> Option<u32> {
        match self.query.breakdown {
            None => (group == "todas").then_some(0),
            Some(Breakdown::Day) => {
                group.parse::<NaiveDate>().ok().filter(|d| d.to_string() == group).map(|d| d.num_days_from_ce() as u32)
            }
            Some(_) => self.hot.names.get(group),
        }
    }

    fn facts(&self, facts: &[u32; 5], day: NaiveDate) -> Facts {
        let name = |i: usize| self.hot.names.name(facts[i]).to_string();
        Facts {
            variant: name(VARIANT),
            brand: name(BRAND),
            partner: name(PARTNER),
            os: name(OS),
            platform: name(PLATFORM),
            day,
        }
    }
}

/// Whether attempt `a` (steps reached, index) stands for its person rather than `b`
/// (`funnel::people`'s rule).
fn better(flow: &HotFlow, a: (usize, u32), b: (usize, u32)) -> bool {
    if a.0 != b.0 {
        return a.0 > b.0;
    }
    let (x, y) = (&flow.attempts[a.1 as usize], &flow.attempts[b.1 as usize]);
    (a.0, std::cmp::Reverse(x.started), std::cmp::Reverse(&x.attempt))
        > (b.0, std::cmp::Reverse(y.started), std::cmp::Reverse(&y.attempt))
}

impl HotFunnels {
    /// Whether the question's days are all held.
    pub fn covers(&self, query: &FunnelQuery) -> bool {
        query.from >= self.from()
    }

    /// The question's answer, as [`crate::funnel::read::answer`] gives it from the projection.
    pub fn answer(&self, query: &FunnelQuery, count: Count) -> FunnelAnswer {
        let mut answer = FunnelAnswer::default();
        let Some(mut asked) = Asked::new(self, query) else { return answer };
        let steps = query.funnel.steps.len();
        let mut tallies: FxHashMap<u32, Tally> = FxHashMap::default();
        // Entered and converted, by facts and day: what the daily counts and the drivers need.
        let mut outcomes: FxHashMap<([u32; 5], NaiveDate), (u64, u64)> = FxHashMap::default();
        asked.each_counted(count, |attempt, reached| {
            answer.attempts += 1;
            let refusal = attempt.refusal.map(|r| self.names.name(r));
            tallies
                .entry(key_of(attempt, query.breakdown))
                .or_insert_with(|| Tally::new(&query.funnel))
                .add(reached, refusal);
            if !reached.is_empty() {
                let outcome = outcomes.entry((attempt.facts, attempt.day)).or_default();
                outcome.0 += 1;
                outcome.1 += u64::from(reached.len() == steps);
            }
        });
        answer.tallies = tallies.into_iter().map(|(key, tally)| (asked.key_name(key), tally)).collect();
        let mut per_day: BTreeMap<NaiveDate, (u64, u64)> = BTreeMap::new();
        for ((facts, day), (entered, converted)) in outcomes {
            let total = per_day.entry(day).or_default();
            total.0 += entered;
            total.1 += converted;
            answer.drivers.add_many(&asked.facts(&facts, day), entered, converted);
        }
        for (day, (entered, converted)) in per_day {
            let counted = answer.per_day.entry(day).or_default();
            counted.entered = entered;
            counted.converted = converted;
        }
        answer
    }

    /// The drill-down, as [`crate::funnel::read::dropped`] gives it from the projection.
    pub fn dropped(&self, query: &FunnelQuery, count: Count, drill: &DrillDown) -> DroppedPage {
        let (step, page, per_page) = (drill.step, drill.page, drill.per_page);
        let mut dropped = Dropped::new(step, drill.group.clone());
        let Some(mut asked) = Asked::new(self, query) else { return dropped.page(page, per_page) };
        let wanted = match drill.group.as_deref() {
            None => None,
            Some(name) => match asked.key_named(name) {
                Some(key) => Some(key),
                None => return dropped.page(page, per_page),
            },
        };
        let last = query.funnel.steps.len();
        asked.each_counted(count, |attempt, reached| {
            if wanted.is_some_and(|k| k != key_of(attempt, query.breakdown)) {
                return;
            }
            if step + 1 < last && reached.len() == step + 1 {
                dropped.push(DroppedAttempt {
                    attempt: attempt.attempt.to_string(),
                    started: attempt.started,
                    variant: self.names.name(attempt.facts[VARIANT]).to_string(),
                    os: self.names.name(attempt.facts[OS]).to_string(),
                    platform: self.names.name(attempt.facts[PLATFORM]).to_string(),
                    refusal: attempt.refusal.map(|r| self.names.name(r).to_string()),
                });
            }
        });
        dropped.page(page, per_page)
    }
}
