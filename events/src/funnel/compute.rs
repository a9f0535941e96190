//! Funnel maths, pure: how far one attempt got ([`Progress`], fed its events in order) and the
//! step table over many attempts ([`Tally`]). Memory is per attempt in flight plus a fixed
//! histogram per step, whatever the size of the history.

use std::collections::HashMap;

use super::definitions::Funnel;

/// How steps must follow each other (PostHog's step order).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Order {
    /// In the funnel's order; other events may come in between.
    Sequential,
    /// In the funnel's order, and an event of any other funnel step (a repeat of an earlier
    /// one, or a later one out of turn) ends the attempt's progress. Events that are no step
    /// (upstream outcomes, resends) may come in between: every attempt has them.
    Strict,
    /// Each step counts at its first occurrence, in any order.
    Any,
}

impl Order {
    /// `sequential`, `strict` or `any`, as the CLI and the funnel page's query spell it.
    pub fn parse(text: &str) -> Option<Self> {
        Some(match text {
            "sequential" => Self::Sequential,
            "strict" => Self::Strict,
            "any" => Self::Any,
            _ => return None,
        })
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Sequential => "sequential",
            Self::Strict => "strict",
            Self::Any => "any",
        }
    }
}

/// How far one attempt got: the time (ms) each step was reached, first step first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Progress {
    order: Order,
    window_ms: i64,
    /// Sequential and strict: times of steps 0..n reached so far.
    reached: Vec<i64>,
    /// Any order: the first time of each step.
    first_seen: Vec<Option<i64>>,
    stopped: bool,
}

impl Progress {
    pub fn new(funnel: &Funnel, order: Order, window_ms: i64) -> Self {
        Self { order, window_ms, reached: Vec::new(), first_seen: vec![None; funnel.steps.len()], stopped: false }
    }

    /// Back to an attempt that has recorded nothing, keeping its memory (a fold of many
    /// attempts reuses one).
    pub fn reset(&mut self) {
        self.reached.clear();
        self.first_seen.fill(None);
        self.stopped = false;
    }

    /// One more event of the attempt, in the attempt's order.
    pub fn observe(&mut self, funnel: &Funnel, event_type: &str, at_ms: i64) {
        self.observe_step(funnel.step_of(event_type), at_ms);
    }

    /// One more event, already looked up: the funnel step it is (`None`: no step).
    pub fn observe_step(&mut self, step: Option<usize>, at_ms: i64) {
        let Some(step) = step else { return };
        match self.order {
            Order::Any => {
                if self.first_seen[step].is_none() {
                    self.first_seen[step] = Some(at_ms);
                }
            }
            Order::Sequential | Order::Strict => {
                if self.stopped {
                    return;
                }
                let next = self.reached.len();
                let in_window = self.reached.first().is_none_or(|start| at_ms - start <= self.window_ms);
                if step == next && in_window {
                    self.reached.push(at_ms);
                } else if self.order == Order::Strict && !self.reached.is_empty() {
                    self.stopped = true;
                }
            }
        }
    }

    /// Times of the steps reached, from the first: empty when the attempt never entered.
    pub fn reached(&self) -> Vec<i64> {
        let mut out = Vec::new();
        self.reached_into(&mut out);
        out
    }

    /// [`Progress::reached`] into `out` (cleared first), without allocating once it is big enough.
    pub fn reached_into(&self, out: &mut Vec<i64>) {
        out.clear();
        match self.order {
            Order::Sequential | Order::Strict => out.extend_from_slice(&self.reached),
            Order::Any => {
                let Some(Some(start)) = self.first_seen.first().copied() else { return };
                out.extend(self.first_seen.iter().map_while(|t| t.filter(|t| t - start <= self.window_ms)));
            }
        }
    }
}

/// Durations in a fixed set of buckets 2% wide: quantiles to within 2%, in constant memory
/// (about 1,100 buckets reach a year).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Histogram {
    /// Count per bucket, up to the highest bucket seen (so equal histograms are equal vectors).
    counts: Vec<u64>,
    total: u64,
}

const GROWTH: f64 = 1.02;

fn lower_bound(bucket: usize) -> i64 {
    (GROWTH.powi(bucket as i32) - 1.0).round() as i64
}

impl Histogram {
    pub fn add(&mut self, ms: i64) {
        let bucket = ((ms.max(0) as f64 + 1.0).ln() / GROWTH.ln()).floor() as usize;
        if bucket >= self.counts.len() {
            self.counts.resize(bucket + 1, 0);
        }
        self.counts[bucket] += 1;
        self.total += 1;
    }

    pub fn count(&self) -> u64 {
        self.total
    }

    /// The `q` quantile (0..=1) in ms: the lower bound of its bucket.
    pub fn quantile(&self, q: f64) -> Option<i64> {
        if self.total == 0 {
            return None;
        }
        let rank = ((self.total as f64 - 1.0) * q).round() as u64;
        let mut seen = 0;
        for (bucket, count) in self.counts.iter().enumerate() {
            seen += count;
            if seen > rank {
                return Some(lower_bound(bucket));
            }
        }
        None
    }

    /// The buckets as `(lower bound ms, count)`, for a chart.
    pub fn buckets(&self) -> Vec<(i64, u64)> {
        self.counts.iter().enumerate().filter(|(_, c)| **c > 0).map(|(b, c)| (lower_bound(b), *c)).collect()
    }

    fn merge(&mut self, other: &Histogram) {
        if other.counts.len() > self.counts.len() {
            self.counts.resize(other.counts.len(), 0);
        }
        for (mine, theirs) in self.counts.iter_mut().zip(&other.counts) {
            *mine += theirs;
        }
        self.total += other.total;
    }
}

/// One row of the step table.
#[derive(Debug, Clone, PartialEq)]
pub struct StepRow {
    pub key: &'static str,
    pub label: &'static str,
    pub entered: u64,
    /// Of those who reached the previous step (1.0 for the first).
    pub from_previous: f64,
    pub from_first: f64,
    /// Reached this step and not the next.
    pub dropped: u64,
    /// The refusal messages of the attempts that stopped here, most frequent first.
    pub refusals: Vec<(String, u64)>,
    /// From the previous step: median and 90th percentile, in ms.
    pub median_ms: Option<i64>,
    pub p90_ms: Option<i64>,
}

/// The counts over many attempts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tally {
    entered: Vec<u64>,
    durations: Vec<Histogram>,
    refusals: Vec<HashMap<String, u64>>,
}

impl Tally {
    pub fn new(funnel: &Funnel) -> Self {
        let n = funnel.steps.len();
        Self { entered: vec![0; n], durations: vec![Histogram::default(); n], refusals: vec![HashMap::new(); n] }
    }

    /// One finished (or still open) attempt: the times of the steps it reached and, when it
    /// ended refused, the message the visitor read.
    pub fn add(&mut self, reached: &[i64], refusal: Option<&str>) {
        for (i, at) in reached.iter().enumerate().take(self.entered.len()) {
            self.entered[i] += 1;
            if i > 0 {
                self.durations[i].add((at - reached[i - 1]).max(0));
            }
        }
        if let (Some(message), Some(last)) = (refusal, reached.len().checked_sub(1)) {
            if let Some(counts) = self.refusals.get_mut(last) {
                match counts.get_mut(message) {
                    Some(count) => *count += 1,
                    None => {
                        counts.insert(message.to_string(), 1);
                    }
                }
            }
        }
    }

    /// Adds another tally of the same funnel (a breakdown's parts, parallel replays).
    pub fn merge(&mut self, other: &Tally) {
        for i in 0..self.entered.len().min(other.entered.len()) {
            self.entered[i] += other.entered[i];
            self.durations[i].merge(&other.durations[i]);
            for (message, count) in &other.refusals[i] {
                *self.refusals[i].entry(message.clone()).or_default() += count;
            }
        }
    }

    pub fn durations(&self, step: usize) -> Option<&Histogram> {
        self.durations.get(step)
    }

    /// The step table, with the `top` most frequent refusals per step.
    pub fn rows(&self, funnel: &Funnel, top: usize) -> Vec<StepRow> {
        let first = self.entered.first().copied().unwrap_or(0);
        funnel
            .steps
            .iter()
            .enumerate()
            .map(|(i, step)| {
                let entered = self.entered[i];
                let previous = if i == 0 { entered } else { self.entered[i - 1] };
                let next = self.entered.get(i + 1).copied().unwrap_or(entered);
                let ratio = |a: u64, b: u64| if b == 0 { 0.0 } else { a as f64 / b as f64 };
                let mut refusals: Vec<(String, u64)> = self.refusals[i].iter().map(|(m, c)| (m.clone(), *c)).collect();
                refusals.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
                refusals.truncate(top);
                StepRow {
                    key: step.key,
                    label: step.label,
                    entered,
                    from_previous: ratio(entered, previous),
                    from_first: ratio(entered, first),
                    dropped: if i + 1 == self.entered.len() { 0 } else { entered - next },
                    refusals,
                    median_ms: (i > 0).then(|| self.durations[i].quantile(0.5)).flatten(),
                    p90_ms: (i > 0).then(|| self.durations[i].quantile(0.9)).flatten(),
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::super::definitions::funnel;
    use super::*;

    const MIN: i64 = 60_000;

    fn progress(order: Order, window_ms: i64, events: &[(&str, i64)]) -> Vec<i64> {
        let f = funnel("cloud", None).expect("cloud");
        let mut p = Progress::new(&f, order, window_ms);
        for (event, at) in events {
            p.observe(&f, event, *at);
        }
        p.reached()
    }

    #[test]
    fn sequential_skips_other_events_and_needs_the_order() {
        let events = [
            ("details.submitted", 0),
            ("code.sent", 5),
            ("phone.checked", 10),
            ("code.sent", 20),
            ("code.validated", 30),
        ];
        // code.sent before phone.checked does not count; the later one does.
        assert_eq!(progress(Order::Sequential, MIN, &events), vec![0, 10, 20, 30]);
    }

    #[test]
    fn strict_stops_at_a_step_out_of_turn() {
        let events = [("details.submitted", 0), ("code.sent", 5), ("phone.checked", 10), ("code.sent", 20)];
        assert_eq!(progress(Order::Strict, MIN, &events), vec![0]);
        let in_turn = [("details.submitted", 0), ("phone.refused.not_a_step", 1), ("phone.checked", 10)];
        assert_eq!(progress(Order::Strict, MIN, &in_turn), vec![0, 10]);
    }

    #[test]
    fn any_order_counts_each_step_once_up_to_the_first_missing_one() {
        let events = [("details.submitted", 0), ("code.sent", 5), ("phone.checked", 10), ("serial.registered", 30)];
        assert_eq!(progress(Order::Any, MIN, &events), vec![0, 10, 5]);
    }

    #[test]
    fn a_step_after_the_window_does_not_count() {
        let events = [("details.submitted", 0), ("phone.checked", 10), ("code.sent", MIN + 1)];
        assert_eq!(progress(Order::Sequential, MIN, &events), vec![0, 10]);
        assert_eq!(progress(Order::Any, MIN, &events), vec![0, 10]);
        assert_eq!(progress(Order::Sequential, MIN, &[("phone.checked", 0)]), Vec::<i64>::new(), "never entered");
    }

    #[test]
    fn the_table_counts_entries_drops_refusals_and_times() {
        let f = funnel("cloud", None).expect("cloud");
        let mut tally = Tally::new(&f);
        tally.add(&[0, 1_000, 2_000], None);
        tally.add(&[0, 3_000], Some("Número de celular não encontrado."));
        tally.add(&[0], Some("Número de celular não encontrado."));
        tally.add(&[0], Some("Outro motivo"));
        let rows = tally.rows(&f, 5);
        assert_eq!(rows.iter().map(|r| r.entered).collect::<Vec<_>>(), [4, 2, 1, 0, 0, 0]);
        assert_eq!(rows.iter().map(|r| r.dropped).collect::<Vec<_>>(), [2, 1, 1, 0, 0, 0]);
        assert_eq!((rows[1].from_previous, rows[2].from_first), (0.5, 0.25));
        assert_eq!(
            rows[0].refusals,
            vec![("Número de celular não encontrado.".to_string(), 1), ("Outro motivo".to_string(), 1)]
        );
        assert_eq!(rows[1].refusals, vec![("Número de celular não encontrado.".to_string(), 1)]);
        let median = rows[1].median_ms.expect("times");
        assert!((980..=1_000).contains(&median) || (2_940..=3_000).contains(&median), "{median}");
        assert_eq!(rows[0].median_ms, None);
    }

    #[test]
    fn quantiles_are_within_two_percent() {
        let mut h = Histogram::default();
        for ms in 1..=10_000 {
            h.add(ms);
        }
        let median = h.quantile(0.5).expect("some") as f64;
        assert!((median - 5_000.0).abs() / 5_000.0 < 0.02, "{median}");
        let p90 = h.quantile(0.9).expect("some") as f64;
        assert!((p90 - 9_000.0).abs() / 9_000.0 < 0.02, "{p90}");
    }

    #[test]
    fn merged_tallies_equal_one_tally_of_everything() {
        let f = funnel("download", None).expect("download");
        let (mut a, mut b, mut all) = (Tally::new(&f), Tally::new(&f), Tally::new(&f));
        for (i, reached) in [vec![0, 5], vec![0], vec![0, 2, 9]].iter().enumerate() {
            let part = if i % 2 == 0 { &mut a } else { &mut b };
            part.add(reached, Some("x"));
            all.add(reached, Some("x"));
        }
        a.merge(&b);
        assert_eq!(a, all);
    }
}
