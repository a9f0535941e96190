//! What drives drop-off: for each breakdown (variant, partner, brand, OS, platform, day of the
//! week), the values over- or under-represented among the attempts that entered the funnel and
//! did not convert, with the odds ratio against every other value. Only values seen often
//! enough to mean something are listed (PostHog's correlation analysis asks for the same: at
//! least 25 attempts and 2 % of them).

use std::collections::BTreeMap;

use chrono::Datelike;

use super::track::Facts;

/// A value is listed only with at least this many attempts...
pub const MIN_ATTEMPTS: u64 = 25;
/// ...and at least this share of all attempts.
pub const MIN_SHARE: f64 = 0.02;
/// At most this many values, the strongest first.
pub const LISTED: usize = 12;

/// The breakdowns looked at, in the order the page lists them.
pub const DIMENSIONS: [&str; 6] = ["variant", "partner", "brand", "os", "platform", "weekday"];

const WEEKDAYS: [&str; 7] =
    ["segunda-feira", "terça-feira", "quarta-feira", "quinta-feira", "sexta-feira", "sábado", "domingo"];

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Outcome {
    entered: u64,
    converted: u64,
}

impl Outcome {
    fn dropped(self) -> u64 {
        self.entered - self.converted
    }
}

/// Counts, per breakdown value, the attempts that entered and those that converted.
#[derive(Debug, Clone, Default)]
pub struct Drivers {
    by_value: BTreeMap<(&'static str, String), Outcome>,
    total: Outcome,
}

/// One value that drives drop-off up (`odds_ratio` > 1) or down (< 1).
#[derive(Debug, Clone, PartialEq)]
pub struct Driver {
    pub dimension: &'static str,
    pub value: String,
    pub attempts: u64,
    pub dropped: u64,
    /// Drop-off among this value's attempts, 0–1.
    pub drop_rate: f64,
    /// Drop-off among every other attempt, 0–1.
    pub others_drop_rate: f64,
    /// Odds of dropping with this value against the odds with any other (0.5 added to each
    /// cell, so a value where nobody or everybody dropped still has a finite ratio).
    pub odds_ratio: f64,
}

fn value_of(facts: &Facts, dimension: &str) -> String {
    match dimension {
        "variant" => facts.variant.clone(),
        "partner" => facts.partner.clone(),
        "brand" => facts.brand.clone(),
        "os" => facts.os.clone(),
        "platform" => facts.platform.clone(),
        _ => WEEKDAYS[facts.day.weekday().num_days_from_monday() as usize].to_string(),
    }
}

impl Drivers {
    /// One attempt that entered the funnel's first step.
    pub fn add(&mut self, facts: &Facts, converted: bool) {
        self.add_many(facts, 1, u64::from(converted));
    }

    /// `entered` attempts with the same facts that entered the funnel, `converted` of them
    /// reaching its last step.
    pub fn add_many(&mut self, facts: &Facts, entered: u64, converted: u64) {
        let count = |outcome: &mut Outcome| {
            outcome.entered += entered;
            outcome.converted += converted;
        };
        count(&mut self.total);
        for dimension in DIMENSIONS {
            count(self.by_value.entry((dimension, value_of(facts, dimension))).or_default());
        }
    }

    /// The values seen often enough whose odds ratio is furthest from 1, strongest first.
    pub fn findings(&self) -> Vec<Driver> {
        let total = self.total;
        let floor = (MIN_SHARE * total.entered as f64).ceil() as u64;
        let mut found: Vec<Driver> = self
            .by_value
            .iter()
            .filter(|(_, o)| o.entered >= MIN_ATTEMPTS.max(floor) && o.entered < total.entered)
            .map(|((dimension, value), o)| {
                let others = Outcome { entered: total.entered - o.entered, converted: total.converted - o.converted };
                let odds = |outcome: Outcome| (outcome.dropped() as f64 + 0.5) / (outcome.converted as f64 + 0.5);
                Driver {
                    dimension,
                    value: value.clone(),
                    attempts: o.entered,
                    dropped: o.dropped(),
                    drop_rate: o.dropped() as f64 / o.entered as f64,
                    others_drop_rate: others.dropped() as f64 / others.entered as f64,
                    odds_ratio: odds(*o) / odds(others),
                }
            })
            .filter(|d| (d.odds_ratio.ln()).abs() > f64::EPSILON)
            .collect();
        found.sort_by(|a, b| b.odds_ratio.ln().abs().total_cmp(&a.odds_ratio.ln().abs()));
        found.truncate(LISTED);
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::NaiveDate;

    fn facts(os: &str, day: u32) -> Facts {
        Facts {
            variant: "standard".into(),
            brand: "—".into(),
            partner: "—".into(),
            os: os.into(),
            platform: "mobile".into(),
            day: NaiveDate::from_ymd_opt(2026, 11, day).expect("day"),
        }
    }

    fn add(drivers: &mut Drivers, os: &str, day: u32, converted: u64, dropped: u64) {
        for _ in 0..converted {
            drivers.add(&facts(os, day), true);
        }
        for _ in 0..dropped {
            drivers.add(&facts(os, day), false);
        }
    }

    #[test]
    fn a_value_that_drops_more_than_the_rest_is_listed_with_its_odds_ratio() {
        let mut drivers = Drivers::default();
        // iOS: 30 of 40 drop; Android: 20 of 80 drop. Both on a Monday (2026-11-02).
        add(&mut drivers, "iOS", 2, 10, 30);
        add(&mut drivers, "Android", 2, 60, 20);
        let found = drivers.findings();
        let ios = found.iter().find(|d| d.value == "iOS").expect("iOS listed");
        assert_eq!((ios.dimension, ios.attempts, ios.dropped), ("os", 40, 30));
        assert_eq!((ios.drop_rate, ios.others_drop_rate), (0.75, 0.25));
        // (30.5 / 10.5) / (20.5 / 60.5)
        assert!((ios.odds_ratio - 8.5726).abs() < 1e-3, "{}", ios.odds_ratio);
        let android = found.iter().find(|d| d.value == "Android").expect("Android listed");
        assert!((android.odds_ratio - 1.0 / 8.5726).abs() < 1e-3);
        // Every attempt shares the variant, the platform and the weekday: nothing to compare.
        assert!(found.iter().all(|d| d.dimension == "os"), "{found:?}");
    }

    #[test]
    fn values_seen_too_rarely_are_not_listed() {
        let mut drivers = Drivers::default();
        add(&mut drivers, "Android", 2, 1_400, 100);
        // 24 attempts: under 25.
        add(&mut drivers, "iOS", 2, 0, 24);
        // 29 attempts, but under 2 % of 1,553.
        add(&mut drivers, "Linux", 3, 0, 29);
        let found = drivers.findings();
        assert!(found.iter().all(|d| d.value != "iOS" && d.value != "Linux"), "{found:?}");
    }

    #[test]
    fn the_day_counts_as_its_day_of_the_week() {
        let mut drivers = Drivers::default();
        // 2026-11-07 is a Saturday, 2026-11-02 a Monday.
        add(&mut drivers, "Android", 7, 5, 35);
        add(&mut drivers, "Android", 2, 35, 5);
        let found = drivers.findings();
        let saturday = found.iter().find(|d| d.dimension == "weekday" && d.value == "sábado").expect("Saturday listed");
        assert_eq!((saturday.attempts, saturday.dropped), (40, 35));
        assert!(saturday.odds_ratio > 1.0);
    }
}
