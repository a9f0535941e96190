//! The waiting line past capacity, apart from any I/O (issue 30): first come, first in, across
//! every replica. A visitor refused at the door holds a ticket whose number orders the line
//! (`waiting_line.place`, one sequence for all replicas); each try tells them how many are
//! ahead, and when the door is open the ones at the head of the line go in first.

use std::time::Duration;

/// The line as the sampler last saw it (every replica sees the same table).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct LineView {
    /// The place of the first ticket still in line (0: nobody waits).
    pub head: i64,
    /// The place of the last ticket handed out (0: none yet).
    pub tail: i64,
    /// The tickets still in line, as last counted: a holder who went in leaves at once, one who
    /// stopped trying once the ticket expires.
    pub live: i64,
    /// Tickets that left the line per second lately (their holders went in, or stopped trying).
    pub advance_per_sec: f64,
}

impl LineView {
    /// How many wait: the tickets still in line, as last counted. (Head to tail would also
    /// count the holders who went in from the middle of the window, until the head passes them.)
    pub fn waiting(&self) -> u64 {
        u64::try_from(self.live).unwrap_or(0)
    }

    /// How many are ahead of the ticket at `place`: the places between the head and it, less
    /// the share of them whose holders already went in. Holders go in from anywhere in the
    /// window, leaving gaps behind a head whose holder is away between tries (or stopped
    /// trying): counted as places, those gaps would keep the window shut on the ones behind
    /// until the head came back or expired, and tell them of people who are not there.
    pub fn ahead_of(&self, place: i64) -> u64 {
        let places = place - self.head;
        if self.head == 0 || places <= 0 {
            return 0;
        }
        let span = self.tail - self.head + 1;
        if span <= 0 || self.live >= span {
            return places as u64;
        }
        (places as f64 * self.live.max(0) as f64 / span as f64).round() as u64
    }
}

/// The line's settings (`ADMISSION_LINE_*`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LineSettings {
    /// How many at the head of the line go in at once while the door is open.
    pub window: u64,
    /// The most tickets in line; past it a refused visitor gets none and tries again later.
    pub max: u64,
    /// The most tickets in line for one client address.
    pub max_per_address: u64,
    /// The wait when the line does not move (the door has stayed closed).
    pub still_wait: Duration,
}

/// The longest wait asked of anyone in line: a far place is told again, and better, soon, and
/// a holder who sleeps long while the line reaches them would keep a place of the window idle.
pub const MAX_WAIT: Duration = Duration::from_secs(10);
/// The shortest wait.
pub const HEAD_WAIT: Duration = Duration::from_secs(1);

/// What the door does with a visitor who holds no ticket (or one no longer in line).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Newcomer {
    /// In at once: the door is open and the line short enough that they would be let in anyway.
    Enter,
    /// A ticket at the end of the line.
    Join,
    /// The line is full: no ticket, try again later.
    Full,
}

pub fn newcomer(door_open: bool, view: &LineView, settings: &LineSettings) -> Newcomer {
    let waiting = view.waiting();
    if door_open && waiting < settings.window {
        Newcomer::Enter
    } else if waiting >= settings.max {
        Newcomer::Full
    } else {
        Newcomer::Join
    }
}

/// Whether the ticket holder with `ahead` people before them goes in now.
pub fn goes_in(door_open: bool, ahead: u64, settings: &LineSettings) -> bool {
    door_open && ahead < settings.window
}

/// When a visitor refused with `ahead` people before them should try again, at the line's
/// recent pace (1 s to 10 s); while the line does not move (the door has stayed shut),
/// `still_wait`.
///
/// Outside the window, about when enough have gone in that they are in it: any holder in the
/// window goes in at their next try while the door is open, so one who came back only when all
/// those ahead should have gone in would keep the line at whatever pace it had (every holder
/// timing their return to it, the window full of sleepers while the door stands open: half of
/// capacity past it, docs/benchmarks.md). In the window, refused only because the door is
/// shut, about when the ones ahead will have gone in, so their tries spread out in order.
///
/// `door_pace`: the open door's learned pace, when it has one. The line's own pace is only what
/// its holders made of the waits it asked: with the door paced, holders timed by a slow line
/// kept it slow while the portal idled, and nobody the pace held back made it grow. So while
/// the door would let them in faster, they are asked back at its pace.
pub fn wait(ahead: u64, view: &LineView, settings: &LineSettings, door_pace: Option<f64>) -> Duration {
    let pace = door_pace.map_or(view.advance_per_sec, |door| view.advance_per_sec.max(door));
    if pace <= 0.0 {
        return settings.still_wait.clamp(HEAD_WAIT, MAX_WAIT);
    }
    let to_go = if ahead >= settings.window { ahead - settings.window + 1 } else { ahead + 1 };
    let through = to_go as f64 / pace;
    Duration::from_secs_f64(through.ceil()).clamp(HEAD_WAIT, MAX_WAIT)
}

/// How long a ticket stays in line without its holder trying again: the wait asked, the page's
/// jitter (up to half of it) and a margin for a slow network.
pub fn ticket_lifetime(wait: Duration) -> Duration {
    wait.mul_f64(1.5) + Duration::from_secs(10)
}

/// One look at the line: when, the last place handed out, and the tickets still in it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Count {
    pub at: Duration,
    pub tail: i64,
    pub live: i64,
}

/// The line's pace between two looks: tickets that left it per second, the ones handed out
/// (the tail's move) less the growth of the ones still in it. Measured on what left, not on the
/// head's move: a head whose holder is away between tries does not stop the others going in.
pub fn advance_per_sec(oldest: Count, newest: Count) -> f64 {
    let seconds = newest.at.saturating_sub(oldest.at).as_secs_f64();
    if seconds <= 0.0 {
        return 0.0;
    }
    let left = (newest.tail - oldest.tail) - (newest.live - oldest.live);
    (left.max(0) as f64) / seconds
}

#[cfg(test)]
mod tests {
    use super::*;

    const SETTINGS: LineSettings =
        LineSettings { window: 10, max: 1_000, max_per_address: 100, still_wait: Duration::from_secs(5) };

    /// A line with every place from head to tail still in it.
    fn line(head: i64, tail: i64, advance_per_sec: f64) -> LineView {
        let live = if head == 0 { 0 } else { tail - head + 1 };
        LineView { head, tail, live, advance_per_sec }
    }

    #[test]
    fn with_nobody_in_line_an_open_door_lets_a_newcomer_in_and_a_closed_one_hands_a_ticket() {
        assert_eq!(newcomer(true, &LineView::default(), &SETTINGS), Newcomer::Enter);
        assert_eq!(newcomer(false, &LineView::default(), &SETTINGS), Newcomer::Join);
    }

    #[test]
    fn a_newcomer_does_not_pass_a_line_longer_than_the_window() {
        assert_eq!(newcomer(true, &line(100, 108, 0.0), &SETTINGS), Newcomer::Enter, "9 waiting: all go in anyway");
        assert_eq!(newcomer(true, &line(100, 109, 0.0), &SETTINGS), Newcomer::Join, "10 waiting");
    }

    #[test]
    fn a_full_line_hands_no_more_tickets() {
        assert_eq!(newcomer(false, &line(1, 999, 0.0), &SETTINGS), Newcomer::Join);
        assert_eq!(newcomer(false, &line(1, 1_000, 0.0), &SETTINGS), Newcomer::Full);
        assert_eq!(newcomer(true, &line(1, 1_000, 0.0), &SETTINGS), Newcomer::Full);
    }

    #[test]
    fn the_head_of_the_line_goes_in_first_and_only_while_the_door_is_open() {
        let view = line(100, 200, 0.0);
        assert_eq!(view.ahead_of(100), 0);
        assert_eq!(view.ahead_of(109), 9);
        assert!(goes_in(true, view.ahead_of(109), &SETTINGS));
        assert!(!goes_in(true, view.ahead_of(110), &SETTINGS), "the eleventh waits for the ten ahead");
        assert!(!goes_in(false, view.ahead_of(100), &SETTINGS), "the door is closed");
        assert_eq!(view.ahead_of(50), 0, "a ticket the sampler has not seen move is at the head");
    }

    #[test]
    fn in_the_window_the_wait_grows_with_the_place_at_the_lines_pace() {
        let moving = line(100, 500, 2.0);
        assert_eq!(wait(0, &moving, &SETTINGS, None), HEAD_WAIT);
        assert_eq!(wait(1, &moving, &SETTINGS, None), Duration::from_secs(1), "2 through in a second");
        assert_eq!(wait(2, &moving, &SETTINGS, None), Duration::from_secs(2));
        assert_eq!(
            wait(9, &moving, &SETTINGS, None),
            Duration::from_secs(5),
            "the last of the window: 10 at 2 a second"
        );
        assert_eq!(wait(50, &line(100, 500, 0.0), &SETTINGS, None), Duration::from_secs(5), "a still line");
        assert_eq!(wait(0, &line(100, 500, 0.0), &SETTINGS, None), Duration::from_secs(5), "the head of a still line");
    }

    #[test]
    fn outside_the_window_the_wait_is_until_the_window_reaches_the_place() {
        let moving = line(100, 500, 2.0);
        assert_eq!(wait(10, &moving, &SETTINGS, None), HEAD_WAIT, "the first outside: in once one more goes in");
        assert_eq!(wait(13, &moving, &SETTINGS, None), Duration::from_secs(2), "4 to go in at 2 a second");
        assert_eq!(wait(29, &moving, &SETTINGS, None), MAX_WAIT, "20 to go in");
        assert_eq!(wait(10_000, &moving, &SETTINGS, None), MAX_WAIT);
        // A strict line (a window of one) waits for everyone ahead.
        let strict = LineSettings { window: 1, ..SETTINGS };
        assert_eq!(wait(6, &moving, &strict, None), Duration::from_secs(3), "6 to go in at 2 a second");
    }

    #[test]
    fn an_open_doors_faster_pace_asks_the_holders_back_sooner() {
        let slow = line(100, 500, 2.0);
        assert_eq!(wait(9, &slow, &SETTINGS, Some(10.0)), HEAD_WAIT, "10 to go through at 10 a second");
        assert_eq!(wait(9, &slow, &SETTINGS, Some(1.0)), Duration::from_secs(5), "the line is faster: its pace");
        assert_eq!(wait(9, &line(100, 500, 0.0), &SETTINGS, Some(5.0)), Duration::from_secs(2));
    }

    #[test]
    fn a_ticket_outlives_the_wait_with_the_pages_jitter() {
        assert_eq!(ticket_lifetime(Duration::from_secs(1)), Duration::from_millis(11_500));
        assert_eq!(ticket_lifetime(MAX_WAIT), Duration::from_secs(25));
        assert_eq!(super::super::TICKET_LIFETIME, ticket_lifetime(MAX_WAIT));
    }

    #[test]
    fn the_pace_is_what_left_the_line_over_time() {
        let look = |secs, tail, live| Count { at: Duration::from_secs(secs), tail, live };
        assert_eq!(advance_per_sec(look(0, 100, 50), look(4, 140, 50)), 10.0, "40 came and 40 left");
        assert_eq!(advance_per_sec(look(0, 100, 50), look(4, 140, 90)), 0.0, "40 came and none left");
        assert_eq!(advance_per_sec(look(0, 100, 50), look(4, 100, 10)), 10.0, "none came, 40 left");
        assert_eq!(advance_per_sec(look(4, 100, 50), look(4, 140, 10)), 0.0, "one look");
    }

    #[test]
    fn a_place_counts_the_share_of_those_ahead_still_in_line() {
        // Places 100 to 1,099 were handed out and half of them went in: the head's holder is away.
        let view = LineView { head: 100, tail: 1_099, live: 500, advance_per_sec: 0.0 };
        assert_eq!(view.ahead_of(100), 0, "the head");
        assert_eq!(view.ahead_of(600), 250, "500 places ahead, half of them still in line");
        assert_eq!(view.ahead_of(1_100), 500, "a ticket handed out after the look");
        assert!(goes_in(true, view.ahead_of(1_100), &LineSettings { window: 501, ..SETTINGS }));
        assert!(!goes_in(true, view.ahead_of(1_100), &LineSettings { window: 500, ..SETTINGS }));
    }

    #[test]
    fn waiting_counts_the_tickets_still_in_line() {
        assert_eq!(LineView::default().waiting(), 0);
        assert_eq!(line(7, 7, 0.0).waiting(), 1);
        assert_eq!(line(7, 16, 0.0).waiting(), 10);
    }

    #[test]
    fn holders_who_went_in_from_the_middle_of_the_window_make_room_for_newcomers() {
        // Places 100 to 109 were handed out; 102 to 109 went in, 100 and 101 still wait.
        let view = LineView { head: 100, tail: 109, live: 2, advance_per_sec: 0.0 };
        assert_eq!(view.waiting(), 2);
        assert_eq!(newcomer(true, &view, &SETTINGS), Newcomer::Enter, "2 wait, fewer than the window of 10");
    }
}
