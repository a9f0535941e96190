//! The attempts held answer every question as the projection's rows do: the same histories
//! folded both ways, for every order, breakdown, count, window and drill-down.

use chrono::{DateTime, Duration, NaiveDate};

use super::HotFunnels;
use crate::funnel::answer::{FunnelAnswer, FunnelQuery};
use crate::funnel::compute::Order;
use crate::funnel::definitions::{funnel, ACTIVATION_VARIANTS};
use crate::funnel::people::{Count, Counted};
use crate::funnel::track::{step_events_of, AttemptFacts, Breakdown, Facts};
use crate::funnel::{DrillDown, Dropped};

/// A small deterministic generator (no dependency for a test's dice).
struct Dice(u64);

impl Dice {
    fn roll(&mut self, sides: usize) -> usize {
        self.0 = self.0.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 33) % sides as u64) as usize
    }
}

const DAY_MS: i64 = 86_400_000;

/// Attempts of `flow` over ten days: any step events in any order (repeats, gaps, a few spread
/// over days), refusals, people with several attempts, and a few with no proved phone.
fn history(flow: &'static str, n: usize, dice: &mut Dice) -> Vec<AttemptFacts> {
    let events = step_events_of(flow);
    let oses = ["android", "ios", "windows"];
    let refusals = ["Número de celular não encontrado.", "Código expirado.", "Ops, ocorreu um erro."];
    (0..n)
        .map(|i| {
            let mut at = 0;
            let marks = (0..dice.roll(9))
                .map(|_| {
                    at += match dice.roll(10) {
                        0 => dice.roll(4) as i64 * DAY_MS,
                        _ => dice.roll(90_000) as i64,
                    };
                    (events[dice.roll(events.len())].to_string(), at)
                })
                .collect();
            let day = NaiveDate::from_ymd_opt(2026, 11, 1 + dice.roll(10) as u32).expect("date");
            AttemptFacts {
                attempt: format!("{flow}-{i:04}"),
                flow,
                // Equal start times on purpose: the people's rule then orders by id.
                started: DateTime::from_timestamp(1_764_000_000 + dice.roll(50) as i64, 0).expect("time"),
                facts: Facts {
                    variant: if flow == "activation" {
                        ACTIVATION_VARIANTS[dice.roll(ACTIVATION_VARIANTS.len())].into()
                    } else {
                        "—".into()
                    },
                    brand: ["positivo", "—"][dice.roll(2)].into(),
                    partner: ["vivo", "—"][dice.roll(2)].into(),
                    os: oses[dice.roll(oses.len())].into(),
                    platform: ["mobile", "desktop"][dice.roll(2)].into(),
                    day,
                },
                marks,
                refusal: (dice.roll(3) == 0).then(|| refusals[dice.roll(refusals.len())].to_string()),
                person: (dice.roll(5) != 0).then(|| format!("pessoa-{}", dice.roll(n / 3 + 1))),
            }
        })
        .collect()
}

/// What `read::answer` does with the projection's rows, over `rows`.
fn from_rows(rows: &[AttemptFacts], query: &FunnelQuery, count: Count) -> FunnelAnswer {
    let mut answer = FunnelAnswer::default();
    let mut counted = Counted::new(query, count);
    let mut add = |a: &AttemptFacts| {
        answer.add(query, a);
    };
    for row in rows.iter().filter(|r| r.flow == query.funnel.flow && query.counts(&r.facts)) {
        counted.add(row.clone(), &mut add);
    }
    counted.finish(&mut add);
    answer
}

fn dropped_from_rows(
    rows: &[AttemptFacts],
    query: &FunnelQuery,
    count: Count,
    step: usize,
    group: Option<String>,
) -> crate::funnel::DroppedPage {
    let mut dropped = Dropped::new(step, group);
    let mut counted = Counted::new(query, count);
    for row in rows.iter().filter(|r| r.flow == query.funnel.flow && query.counts(&r.facts)) {
        counted.add(row.clone(), &mut |a: &AttemptFacts| dropped.add(query, a));
    }
    counted.finish(&mut |a: &AttemptFacts| dropped.add(query, a));
    dropped.page(1, 1_000)
}

fn drill(step: usize, group: Option<String>, page: usize, per_page: usize) -> DrillDown {
    DrillDown { step, group, page, per_page }
}

fn same(a: &FunnelAnswer, b: &FunnelAnswer, what: &str) {
    assert_eq!(a.attempts, b.attempts, "{what}: attempts");
    assert_eq!(a.tallies, b.tallies, "{what}: tallies");
    assert_eq!(a.per_day, b.per_day, "{what}: per day");
    assert_eq!(a.drivers.findings(), b.drivers.findings(), "{what}: drivers");
}

fn questions(flow: &str) -> Vec<FunnelQuery> {
    let variants: Vec<Option<&str>> = if flow == "activation" {
        std::iter::once(None).chain(ACTIVATION_VARIANTS.iter().copied().map(Some)).collect()
    } else {
        vec![None]
    };
    let breakdowns = [
        None,
        Some(Breakdown::Variant),
        Some(Breakdown::Brand),
        Some(Breakdown::Partner),
        Some(Breakdown::Os),
        Some(Breakdown::Platform),
        Some(Breakdown::Day),
    ];
    let mut out = Vec::new();
    for variant in variants {
        for (i, breakdown) in breakdowns.iter().enumerate() {
            for order in [Order::Sequential, Order::Strict, Order::Any] {
                out.push(FunnelQuery {
                    funnel: funnel(flow, variant).expect("funnel"),
                    from: NaiveDate::from_ymd_opt(2026, 11, 1 + (i % 3) as u32).expect("date"),
                    to: NaiveDate::from_ymd_opt(2026, 11, 8 + (i % 3) as u32).expect("date"),
                    window: Duration::days(1 + (i as i64 % 3)),
                    order,
                    breakdown: *breakdown,
                });
            }
        }
    }
    out
}

fn held(rows: &[AttemptFacts]) -> HotFunnels {
    let mut hot = HotFunnels::new(NaiveDate::from_ymd_opt(2026, 10, 1).expect("date"));
    for row in rows {
        hot.upsert(row);
    }
    hot
}

#[test]
fn every_question_is_answered_as_from_the_projections_rows() {
    let mut dice = Dice(27);
    let (mut converted, mut fewer_people) = (0, 0);
    for flow in ["cloud", "download", "activation"] {
        let rows = history(flow, 600, &mut dice);
        let hot = held(&rows);
        for query in questions(flow) {
            for count in [Count::Attempts, Count::People] {
                let what =
                    format!("{flow} {:?} {:?} {:?} {count:?}", query.funnel.variant, query.order, query.breakdown);
                let expected = from_rows(&rows, &query, count);
                same(&hot.answer(&query, count), &expected, &what);
                converted += expected.per_day.values().map(|d| d.converted).sum::<u64>();
            }
            fewer_people += u64::from(
                from_rows(&rows, &query, Count::People).attempts < from_rows(&rows, &query, Count::Attempts).attempts,
            );
        }
    }
    // The histories are rich enough to mean something: attempts convert, people repeat.
    assert!(converted > 100 && fewer_people > 100, "{converted} converted, {fewer_people} questions with repeats");
}

#[test]
fn every_drop_off_lists_the_same_attempts_as_from_the_projections_rows() {
    let mut dice = Dice(30);
    for flow in ["cloud", "activation"] {
        let rows = history(flow, 500, &mut dice);
        let hot = held(&rows);
        for query in questions(flow).into_iter().step_by(2) {
            for count in [Count::Attempts, Count::People] {
                let answer = from_rows(&rows, &query, count);
                let groups = std::iter::once(None).chain(answer.tallies.keys().cloned().map(Some));
                for group in groups.chain([Some("nenhum".to_string())]) {
                    for step in 0..query.funnel.steps.len() - 1 {
                        let expected = dropped_from_rows(&rows, &query, count, step, group.clone());
                        let got = hot.dropped(&query, count, &drill(step, group.clone(), 1, 1_000));
                        assert_eq!(got, expected, "{flow} {:?} {count:?} {group:?} step {step}", query.order);
                    }
                }
                let expected = dropped_from_rows(&rows, &query, count, 0, None);
                let page = hot.dropped(&query, count, &drill(0, None, 2, 7));
                assert_eq!(page.total, expected.total);
                assert_eq!(page.rows, expected.rows.iter().skip(7).take(7).cloned().collect::<Vec<_>>());
            }
        }
    }
}

#[test]
fn an_attempt_held_again_replaces_what_was_held_and_one_before_the_first_day_goes() {
    let mut dice = Dice(3);
    let mut rows = history("cloud", 50, &mut dice);
    let mut hot = held(&rows);
    let query = &questions("cloud")[0];
    // The attempt moves on (a later row of the projection), and another is held no more.
    rows[0].marks.push(("cloud.activated".into(), 1_000));
    rows[0].refusal = None;
    hot.upsert(&rows[0]);
    rows[1].facts.day = NaiveDate::from_ymd_opt(2026, 9, 30).expect("date");
    hot.upsert(&rows[1]);
    assert_eq!(hot.len(), 49);
    same(&hot.answer(query, Count::People), &from_rows(&rows, query, Count::People), "after the updates");
    hot.forget_before(NaiveDate::from_ymd_opt(2026, 11, 6).expect("date"));
    let kept: Vec<AttemptFacts> = rows.iter().filter(|r| r.facts.day >= hot.from()).cloned().collect();
    assert_eq!(hot.len(), kept.len());
    same(&hot.answer(query, Count::Attempts), &from_rows(&kept, query, Count::Attempts), "after the days moved on");
    assert!(!hot.covers(query), "the question starts before the first day held");
}
