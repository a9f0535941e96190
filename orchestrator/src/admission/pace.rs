//! The door's pace, apart from any I/O (issue 30): how many new attempts a second this process
//! lets in, learned from the live signals. The door alone is open or shut: open, it let in
//! everyone who came, the window of the line at once, until the runner lag had stood past its
//! threshold; shut, it let in nobody while the portal idled. Past capacity that was a cycle of
//! bursts and idle gaps, and the bursts were the commands' slow tails (docs/benchmarks.md, "The
//! twelfth session"). Paced, entries take a token of a bucket that fills at `rate`, and the rate
//! follows the signals as TCP's window follows losses (additive and multiplicative increase,
//! multiplicative decrease): cut to a share of what actually went in when the portal begins to
//! lag with a crowd at the door, raised while visitors are held back and it does not, and let
//! go slowly while nobody waits.

use std::time::{Duration, Instant};

use super::signal::{Reading, Signal, Thresholds};

/// The slowest pace: the line always moves.
pub const MIN_RATE: f64 = 1.0;
/// A cut keeps this share of the entries a second that went in lately.
pub const CUT_TO: f64 = 0.8;
/// A cut's effect shows in the signals only once the attempts already in have made their
/// steps: no second cut sooner.
pub const CUT_EVERY: Duration = Duration::from_secs(1);
/// While visitors are held back and the portal keeps up: the rate grows this share a second,
/// and by [`STEP_PER_SEC`] more.
pub const GROWTH_PER_SEC: f64 = 0.1;
pub const STEP_PER_SEC: f64 = 2.0;
/// The bucket holds this long of the rate: entries come smoothly, not in bursts.
pub const BURST: Duration = Duration::from_millis(200);
/// The portal begins to lag when a timed signal passes this share of the door's threshold:
/// the pace slows well before the door has to shut.
pub const EARLY_SHARE: f64 = 0.25;
/// How fast the measured entry rate follows the last sample (an exponential average).
const SMOOTHING: f64 = 0.3;

/// Whether the portal has begun to lag: an enabled timed signal past [`EARLY_SHARE`] of its
/// threshold. (The slots signal is a count of this instant, too jumpy to steer by.)
pub fn lagging(reading: &Reading, thresholds: &Thresholds) -> bool {
    let past = |value: Duration, max: Duration| value.as_secs_f64() > max.as_secs_f64() * EARLY_SHARE;
    thresholds.enabled.iter().any(|signal| match signal {
        Signal::Lag => past(reading.lag, thresholds.max_lag),
        Signal::Pool => past(reading.pool_wait, thresholds.max_pool_wait),
        Signal::Slots => false,
    })
}

#[derive(Debug, Clone)]
pub struct Pacer {
    max_rate: f64,
    rate: f64,
    tokens: f64,
    refilled: Instant,
    /// Entries since the last adjustment, and whether someone found no token.
    entered: u64,
    held_back: bool,
    /// Entries a second lately (smoothed over the adjustments).
    entering: f64,
    adjusted: Instant,
    cut: Option<Instant>,
}

impl Pacer {
    /// A pacer that starts at its fastest, `max_rate` entries a second: it learns the portal's
    /// pace from the first lag. `max_rate` 0 (`ADMISSION_PACE_MAX_PER_SEC=0`): no pace at all,
    /// every entry through an open door goes in.
    pub fn new(max_rate: f64, now: Instant) -> Option<Self> {
        if max_rate <= 0.0 {
            return None;
        }
        let max_rate = max_rate.max(MIN_RATE);
        Some(Self {
            max_rate,
            rate: max_rate,
            tokens: bucket(max_rate),
            refilled: now,
            entered: 0,
            held_back: false,
            entering: 0.0,
            adjusted: now,
            cut: None,
        })
    }

    /// Entries a second now.
    pub fn rate(&self) -> f64 {
        self.rate
    }

    /// The pace learned past capacity: once the portal has lagged with a crowd at the door,
    /// while it stays below its ceiling.
    pub fn learned(&self) -> Option<f64> {
        (self.cut.is_some() && self.rate < self.max_rate).then_some(self.rate)
    }

    /// One entry, if the pace allows it now.
    pub fn take(&mut self, now: Instant) -> bool {
        let elapsed = now.saturating_duration_since(self.refilled).as_secs_f64();
        self.tokens = (self.tokens + elapsed * self.rate).min(bucket(self.rate));
        self.refilled = now;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            self.entered += 1;
            true
        } else {
            self.held_back = true;
            false
        }
    }

    /// One sample of the signals: cut when the portal lags with a crowd at the door, grow while
    /// it does not lag and visitors are held back or nobody waits. While the door is shut the
    /// pace is moot and learns nothing: nobody goes in, so what went in says nothing of what the
    /// portal keeps up with, and a cut then would only hold back the first visitors after it
    /// opens (on a quiet portal, everyone).
    pub fn adjust(&mut self, sample: Sample, now: Instant) {
        let elapsed = now.saturating_duration_since(self.adjusted).as_secs_f64();
        if elapsed <= 0.0 {
            return;
        }
        if !sample.door_shut {
            self.learn(sample, elapsed, now);
        }
        self.entered = 0;
        self.held_back = false;
        self.adjusted = now;
    }

    /// What one sample of an open door teaches: the entries it let in, and whether to cut or grow.
    fn learn(&mut self, sample: Sample, elapsed: f64, now: Instant) {
        let entered_per_sec = self.entered as f64 / elapsed;
        self.entering = SMOOTHING * entered_per_sec + (1.0 - SMOOTHING) * self.entering;
        // A crowd: someone waits in line, or found no token since the last sample. Without one
        // the lag is not the door's doing (a blip on a busy machine, a slow upstream): a cut to
        // the few who were coming would hold back the next small group on an idle portal, and
        // the door's own thresholds still guard (three browser tests, 2026-11-28).
        let crowd = sample.waiting || self.held_back;
        let cut_due = self.cut.is_none_or(|at| now.saturating_duration_since(at) >= CUT_EVERY);
        if sample.lagging && crowd && cut_due {
            self.rate = (CUT_TO * self.rate.min(self.entering)).max(MIN_RATE);
            self.tokens = self.tokens.min(bucket(self.rate));
            self.cut = Some(now);
        } else if !sample.lagging && (self.held_back || !sample.waiting) {
            // Held back: find the portal's pace again. Nobody waiting: the learned pace is let
            // go, slowly, so that a crowd coming back soon meets it and a quiet portal is
            // eventually as open as the door.
            self.rate = (self.rate * (1.0 + GROWTH_PER_SEC * elapsed) + STEP_PER_SEC * elapsed).min(self.max_rate);
        }
    }
}

/// What one sample of the signals tells the pace.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Sample {
    /// The portal has begun to lag ([`lagging`]).
    pub lagging: bool,
    /// The door is shut: nobody goes in.
    pub door_shut: bool,
    /// Someone waits in the line (every replica's).
    pub waiting: bool,
}

/// The bucket's size at `rate`: [`BURST`] of it, at least one entry.
fn bucket(rate: f64) -> f64 {
    (rate * BURST.as_secs_f64()).max(1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn thresholds() -> Thresholds {
        Thresholds {
            enabled: Signal::ALL.to_vec(),
            max_lag: Duration::from_millis(1_000),
            max_slots_busy_percent: 90,
            max_pool_wait: Duration::from_millis(250),
            standing: Duration::from_millis(1_000),
        }
    }

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    /// A sample: lagging or not, the door open, and someone waiting in line or not.
    fn seen(lagging: bool, waiting: bool) -> Sample {
        Sample { lagging, door_shut: false, waiting }
    }

    const SHUT: Sample = Sample { lagging: true, door_shut: true, waiting: true };

    /// Offers `per_sec` entries a second for `secs`, sampling every 200 ms as `sample`: how
    /// many went in.
    fn offer(pacer: &mut Pacer, t: &mut Instant, per_sec: u64, secs: u64, sample: Sample) -> u64 {
        let mut went_in = 0;
        let gap = Duration::from_secs(1) / u32::try_from(per_sec).expect("small");
        for i in 1..=per_sec * secs {
            *t += gap;
            went_in += u64::from(pacer.take(*t));
            if i % (per_sec / 5).max(1) == 0 {
                pacer.adjust(sample, *t);
            }
        }
        went_in
    }

    #[test]
    fn the_portal_lags_past_a_quarter_of_a_timed_threshold() {
        let quiet = Reading { lag: ms(200), pool_wait: ms(50), steps_in_flight: 10, slots: 10, ..Reading::default() };
        assert!(!lagging(&quiet, &thresholds()), "slots alone do not slow the pace");
        assert!(lagging(&Reading { lag: ms(251), ..quiet }, &thresholds()));
        assert!(lagging(&Reading { pool_wait: ms(63), ..quiet }, &thresholds()));
        let lag_only = Thresholds { enabled: vec![Signal::Lag], ..thresholds() };
        assert!(!lagging(&Reading { pool_wait: ms(200), ..quiet }, &lag_only), "a disabled signal");
    }

    #[test]
    fn a_pace_of_zero_is_no_pace() {
        assert!(Pacer::new(0.0, Instant::now()).is_none());
        assert!(Pacer::new(-1.0, Instant::now()).is_none());
    }

    fn pacer(max_rate: f64, t: Instant) -> Pacer {
        Pacer::new(max_rate, t).expect("a pace")
    }

    /// A pace of 1,000 a second cut once: 100 a second went in with a line, then the portal lagged.
    fn cut_once(t: &mut Instant) -> Pacer {
        let mut pacer = pacer(1_000.0, *t);
        offer(&mut pacer, t, 100, 1, seen(false, true));
        *t += ms(200);
        pacer.adjust(seen(true, true), *t);
        pacer
    }

    #[test]
    fn under_its_pace_everyone_goes_in_and_a_burst_takes_only_the_bucket() {
        let mut t = Instant::now();
        let mut pacer = pacer(100.0, t);
        assert_eq!(offer(&mut pacer, &mut t, 50, 2, seen(false, false)), 100, "50 a second under a pace of 100");
        // 100 at the same instant, a second later: the bucket holds 200 ms of the pace.
        t += Duration::from_secs(1);
        let burst = (0..100).filter(|_| pacer.take(t)).count();
        assert_eq!(burst, 20);
    }

    #[test]
    fn lagging_with_a_line_cuts_the_pace_to_a_share_of_what_went_in_once_a_second() {
        let mut t = Instant::now();
        let mut pacer = pacer(1_000.0, t);
        offer(&mut pacer, &mut t, 200, 3, seen(false, true));
        assert_eq!(pacer.rate(), 1_000.0, "nobody was held back: no reason to change");
        t += ms(200);
        pacer.adjust(seen(true, true), t);
        let first = pacer.rate();
        assert!((100.0..=170.0).contains(&first), "{first}: 0.8 of about 200 a second that went in");
        t += ms(200);
        pacer.adjust(seen(true, true), t);
        assert_eq!(pacer.rate(), first, "no second cut within a second");
        t += ms(1_000);
        pacer.adjust(seen(true, true), t);
        assert!(pacer.rate() < first);
        for _ in 0..100 {
            t += ms(1_000);
            pacer.adjust(seen(true, true), t);
        }
        assert_eq!(pacer.rate(), MIN_RATE, "never below the floor: the line always moves");
    }

    #[test]
    fn a_lag_with_nobody_waiting_or_held_back_leaves_the_pace_as_it_was() {
        let mut t = Instant::now();
        let mut pacer = pacer(1_000.0, t);
        // A few visitors a second on a busy machine whose runners lag a moment.
        offer(&mut pacer, &mut t, 3, 5, seen(true, false));
        assert_eq!(pacer.rate(), 1_000.0, "the lag was not the door's doing");
        t += ms(100);
        let group = (0..10).filter(|_| pacer.take(t)).count();
        assert_eq!(group, 10, "the next small group goes in at once");
    }

    #[test]
    fn a_shut_door_leaves_the_pace_as_it_was() {
        let mut t = Instant::now();
        let mut pacer = pacer(1_000.0, t);
        offer(&mut pacer, &mut t, 5, 3, seen(false, false));
        // The door shuts for 2 s, the portal lagging: nobody goes in, and nothing is learned.
        for _ in 0..10 {
            t += ms(200);
            pacer.adjust(SHUT, t);
        }
        assert_eq!(pacer.rate(), 1_000.0, "a quiet portal's visitors are not held back once it opens");
        // Open, lagging, and the ones who came while it was shut wait in line: the cut is from
        // what went in while it was open.
        t += ms(200);
        pacer.adjust(seen(true, true), t);
        assert!(pacer.rate() < 5.0, "{}", pacer.rate());
    }

    #[test]
    fn a_paced_door_holds_back_the_excess_then_grows_while_the_portal_keeps_up() {
        let mut t = Instant::now();
        let mut pacer = cut_once(&mut t);
        let cut = pacer.rate();
        // 200 a second come: about the pace goes in, and the pace grows while nobody lags.
        let went_in = offer(&mut pacer, &mut t, 200, 5, seen(false, true));
        assert!(went_in < 1_000, "{went_in} of 1,000: the excess was held back");
        assert!(pacer.rate() > cut * 1.5, "{} from {cut}: 10 % a second and 2 more", pacer.rate());
        let grown = pacer.rate();
        offer(&mut pacer, &mut t, 10, 5, seen(false, true));
        assert_eq!(pacer.rate(), grown, "a line, but nobody held back: it stays");
        offer(&mut pacer, &mut t, 400, 20, seen(false, true));
        let met = pacer.rate();
        assert!((400.0..500.0).contains(&met), "{met}: grown to what comes, then nobody is held back");
        offer(&mut pacer, &mut t, 2_000, 30, seen(false, true));
        assert_eq!(pacer.rate(), 1_000.0, "never past its fastest");
    }

    #[test]
    fn with_nobody_waiting_the_learned_pace_is_let_go_slowly() {
        let mut t = Instant::now();
        let mut pacer = cut_once(&mut t);
        let cut = pacer.rate();
        // The crowd is served; a few visitors a second, nobody in line, no lag.
        offer(&mut pacer, &mut t, 5, 1, seen(false, false));
        let a_second_later = pacer.rate();
        assert!(a_second_later > cut && a_second_later < cut * 1.2 + 2.0 * 1.2, "{a_second_later} from {cut}");
        offer(&mut pacer, &mut t, 5, 60, seen(false, false));
        assert_eq!(pacer.rate(), 1_000.0, "a quiet minute: as open as the door");
    }

    #[test]
    fn the_pace_is_learned_from_the_first_cut_until_it_is_back_at_its_ceiling() {
        let mut t = Instant::now();
        let mut quiet = pacer(1_000.0, t);
        offer(&mut quiet, &mut t, 100, 1, seen(true, false));
        assert_eq!(quiet.learned(), None, "no cut yet: the ceiling is no measure of the portal");
        let mut pacer = cut_once(&mut t);
        assert_eq!(pacer.learned(), Some(pacer.rate()));
        offer(&mut pacer, &mut t, 5, 60, seen(false, false));
        assert_eq!(pacer.learned(), None, "let go");
    }
}
