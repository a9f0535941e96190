//! Given events / when command / then events or rejection, for any [`Flow`], after
//! cqrs-es's `TestFramework`. Pure: it folds plain event lists with `evolve` and asks
//! `decide`, `next_step` and `view`; no store, no clock of its own.
//!
//! Test support, not product API: compiled for this crate's unit tests, and for its
//! integration tests through the `testing` cargo feature, which `events/Cargo.toml` turns
//! on in `[dev-dependencies]` only. Nothing else should enable it.
//!
//! ```text
//! FlowTest::<CloudFlow>::given([submitted(), CloudEvent::PhoneChecked {}])
//!     .when(json!({"type": "submit_code", "code": "123456"}))
//!     .then_expect_rejection(Rejection::general(OUT_OF_ORDER));
//! ```
//!
//! Time: the n-th event given with [`given`](FlowTest::given) or [`and`](FlowTest::and)
//! is recorded at `t0 + n` seconds (`t0` is [`t0()`] unless the test starts with
//! [`starting_at`](FlowTest::starting_at)); [`when`](FlowTest::when) and
//! [`view`](FlowTest::view) look at the attempt one second after the last of them.
//! [`and_at`](FlowTest::and_at), [`when_at`](FlowTest::when_at) and
//! [`view_at`](FlowTest::view_at) take explicit times.

use std::fmt::Debug;

use chrono::{DateTime, Duration, TimeZone, Utc};
use serde_json::Value;

use super::{Flow, PlannedStep, Rejection};

/// The default start of a test's clock.
pub fn t0() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2025, 1, 6, 12, 0, 0).single().expect("valid date")
}

/// An attempt of flow `F` folded from the events a test gave it.
pub struct FlowTest<F: Flow> {
    t0: DateTime<Utc>,
    /// How many events were given: the next one is recorded at `t0 + given` seconds.
    given: i64,
    state: F::State,
}

impl<F: Flow> Clone for FlowTest<F> {
    fn clone(&self) -> Self {
        Self { t0: self.t0, given: self.given, state: self.state.clone() }
    }
}

impl<F: Flow> FlowTest<F> {
    /// No events yet, the clock starting at `t0`.
    pub fn starting_at(t0: DateTime<Utc>) -> Self {
        Self { t0, given: 0, state: F::State::default() }
    }

    /// No events yet, the clock starting at [`t0()`].
    pub fn given_no_previous_events() -> Self {
        Self::starting_at(t0())
    }

    /// `events`, one second apart from [`t0()`].
    pub fn given(events: impl IntoIterator<Item = F::Event>) -> Self {
        Self::given_no_previous_events().and(events)
    }

    /// More events, each one second after the previous slot of the clock.
    pub fn and(self, events: impl IntoIterator<Item = F::Event>) -> Self {
        events.into_iter().fold(self, |test, event| {
            let at = test.now();
            test.and_at(event, at)
        })
    }

    /// One more event, recorded at `at` (it takes a slot of the clock all the same).
    pub fn and_at(mut self, event: F::Event, at: DateTime<Utc>) -> Self {
        self.state = F::evolve(self.state, &event, at);
        self.given += 1;
        self
    }

    /// One second after the last given event (`t0` when there is none).
    pub fn now(&self) -> DateTime<Utc> {
        self.t0 + Duration::seconds(self.given)
    }

    pub fn state(&self) -> &F::State {
        &self.state
    }

    pub fn next_step(&self) -> Option<PlannedStep> {
        F::next_step(&self.state)
    }

    /// The name of the step due next, if any.
    pub fn step_name(&self) -> Option<String> {
        self.next_step().map(|step| step.name)
    }

    /// What the browser shows [`now`](Self::now).
    pub fn view(&self) -> Value {
        self.view_at(self.now())
    }

    pub fn view_at(&self, now: DateTime<Utc>) -> Value {
        F::view(&self.state, now)
    }

    /// Decides `command` (the browser's JSON) [`now`](Self::now).
    pub fn when(&self, command: Value) -> Decision<F> {
        self.when_at(command, self.now())
    }

    pub fn when_at(&self, command: Value, now: DateTime<Utc>) -> Decision<F> {
        let command: F::Command = match serde_json::from_value(command.clone()) {
            Ok(command) => command,
            Err(error) => panic!("{command} is not a {} command: {error}", F::CATEGORY),
        };
        Decision { result: F::decide(&self.state, command, now) }
    }
}

/// What `decide` answered, to assert on.
pub struct Decision<F: Flow> {
    result: Result<Vec<F::Event>, Rejection>,
}

impl<F: Flow> Decision<F>
where
    F::Event: PartialEq + Debug,
{
    /// Asserts the command was accepted with exactly `expected`; returns them.
    pub fn then_expect_events(self, expected: impl IntoIterator<Item = F::Event>) -> Vec<F::Event> {
        let expected: Vec<F::Event> = expected.into_iter().collect();
        assert_eq!(self.result, Ok(expected.clone()));
        expected
    }

    pub fn then_expect_rejection(self, expected: Rejection) {
        assert_eq!(self.result, Err(expected));
    }

    /// The events of an accepted command (panics on a rejection).
    pub fn events(self) -> Vec<F::Event> {
        self.result.unwrap_or_else(|rejection| panic!("expected the command to be accepted, got {rejection:?}"))
    }

    /// The rejection of a refused command (panics when it was accepted).
    pub fn rejection(self) -> Rejection {
        match self.result {
            Ok(events) => panic!("expected a rejection, got {events:?}"),
            Err(rejection) => rejection,
        }
    }

    pub fn is_accepted(&self) -> bool {
        self.result.is_ok()
    }

    pub fn inspect_result(self) -> Result<Vec<F::Event>, Rejection> {
        self.result
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::flow::tests::{Tiny, TinyEvent};
    use serde_json::json;

    #[test]
    fn given_events_fold_one_second_apart_and_commands_decide_after_them() {
        let test = FlowTest::<Tiny>::given([TinyEvent::Opened { n: 2 }, TinyEvent::Closed]);
        assert_eq!((*test.state(), test.now()), (20, t0() + Duration::seconds(2)));
        assert_eq!(test.view(), json!({ "panel": "20" }));
        assert_eq!(test.step_name(), None);
        test.when(json!({"type": "tiny.opened", "data": {"n": 1}})).then_expect_events([TinyEvent::Opened { n: 1 }]);
        let later = test.clone().and_at(TinyEvent::Opened { n: 1 }, t0() + Duration::hours(1));
        assert_eq!((*later.state(), later.now()), (21, t0() + Duration::seconds(3)));
    }
}
