//! What support does to an attempt of any flow (issue 27): retry now a step waiting on its
//! back-off, cancel the attempt, add a note. Decided here, purely, on the facts the console's
//! command path gathers (the folded attempt, and what the runner's schedule says of its step),
//! and appended to the attempt's stream like a visitor's command's events.
//!
//! - `attempt.cancelled`: every flow reads it ([`super::Erased`], the runner's plan): no step is
//!   planned after it, every visitor command is refused with [`CANCELLED_MESSAGE`], and the
//!   visitor's page (which receives it) shows that message.
//! - `support.retry_requested`: the flows ignore it, so the write path plans the same step again
//!   at its first due time, which is past: the runner takes it at once. The runner's tries walk
//!   over it, so the step keeps its idempotency key.
//! - `support.note_added`: the note's text is personal data of the attempt (sealed under the
//!   attempt's own key, forgotten when anyone in the attempt is erased); it never reaches the
//!   visitor's page (no flow knows the type).

use chrono::{DateTime, Utc};
use serde_json::{json, Value};

use super::{Outcome, PiiField, Rejection};
use crate::pii::PiiKind;
use crate::types::RecordedEvent;

pub const ATTEMPT_CANCELLED: &str = "attempt.cancelled";
pub const RETRY_REQUESTED: &str = "support.retry_requested";
pub const NOTE_ADDED: &str = "support.note_added";

/// What the visitor reads once support cancelled the attempt.
pub const CANCELLED_MESSAGE: &str =
    "Esta tentativa foi encerrada pelo nosso atendimento. Comece de novo quando quiser.";
pub const ALREADY_CANCELLED: &str = "Esta tentativa já foi encerrada pelo atendimento.";
pub const ALREADY_COMPLETED: &str = "Esta tentativa já foi concluída: não há o que encerrar nem repetir.";
pub const NOTHING_WAITING: &str = "Nenhuma etapa desta tentativa está aguardando uma nova tentativa agora.";
pub const NOTE_EMPTY: &str = "Escreva a nota.";
pub const NOTE_TOO_LONG: &str = "A nota é longa demais (até 2000 caracteres).";
pub const NOTE_CONTROL: &str = "A nota tem caracteres que não podem ser gravados.";

/// Longest note, in characters.
pub const NOTE_MAX_CHARS: usize = 2000;

/// A command of a support agent (its reason is the staff trail's, not the attempt's), built
/// by the console's routes from their own bodies.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SupportCommand {
    RetryNow,
    Cancel,
    AddNote { text: String },
}

impl SupportCommand {
    pub fn name(&self) -> &'static str {
        match self {
            Self::RetryNow => "retry_now",
            Self::Cancel => "cancel",
            Self::AddNote { .. } => "add_note",
        }
    }
}

/// The runner's schedule row of the attempt, as the decision needs it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Scheduled {
    pub step: String,
    pub due_at: DateTime<Utc>,
    /// Tries of this plan so far.
    pub tries: i32,
    /// A runner holds it now (mid-call).
    pub running: bool,
}

/// What support's decision reads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Facts {
    /// Where the flow says the attempt stands.
    pub outcome: Outcome,
    pub cancelled: bool,
    pub scheduled: Option<Scheduled>,
    pub now: DateTime<Utc>,
}

impl Facts {
    /// The step waiting on its back-off: tried, not running, due later.
    pub fn backing_off(&self) -> Option<&Scheduled> {
        self.scheduled.as_ref().filter(|s| s.tries > 0 && !s.running && s.due_at > self.now)
    }
}

/// The events of `command` on an attempt with these `facts`, or the agent's refusal.
pub fn decide(facts: &Facts, command: SupportCommand) -> Result<Vec<(String, Value)>, Rejection> {
    match command {
        SupportCommand::AddNote { text } => {
            // The limit is on what was sent, as the API's schema states it; the trim comes after.
            if text.chars().count() > NOTE_MAX_CHARS {
                return Err(Rejection::field("text", NOTE_TOO_LONG));
            }
            let text = text.trim();
            if text.is_empty() {
                return Err(Rejection::field("text", NOTE_EMPTY));
            }
            if text.chars().any(|c| c.is_control() && c != '\n') {
                return Err(Rejection::field("text", NOTE_CONTROL));
            }
            let note = PiiField::clear(PiiKind::SupportNote, text);
            Ok(vec![(NOTE_ADDED.to_string(), json!({ "note": note }))])
        }
        SupportCommand::Cancel | SupportCommand::RetryNow if facts.cancelled => {
            Err(Rejection::general(ALREADY_CANCELLED))
        }
        SupportCommand::Cancel | SupportCommand::RetryNow if facts.outcome == Outcome::Completed => {
            Err(Rejection::general(ALREADY_COMPLETED))
        }
        SupportCommand::Cancel => {
            let step = facts.scheduled.as_ref().map(|s| s.step.clone());
            Ok(vec![(ATTEMPT_CANCELLED.to_string(), json!({ "step": step }))])
        }
        SupportCommand::RetryNow => match facts.backing_off() {
            Some(waiting) => Ok(vec![(
                RETRY_REQUESTED.to_string(),
                json!({ "step": waiting.step, "was_due_at": waiting.due_at, "tries": waiting.tries }),
            )]),
            None => Err(Rejection::general(NOTHING_WAITING)),
        },
    }
}

/// Where in `history` support cancelled the attempt, if it did.
pub fn cancelled_at(history: &[RecordedEvent]) -> Option<usize> {
    history.iter().position(|e| e.event_type == ATTEMPT_CANCELLED)
}

/// A view of a cancelled attempt: the panel it was on, no loader, the message in its banner.
pub fn cancelled_view(mut view: Value) -> Value {
    if let Value::Object(map) = &mut view {
        map.insert("cancelled".into(), Value::Bool(true));
        map.insert("loading".into(), Value::Bool(false));
        map.insert("error".into(), Value::String(CANCELLED_MESSAGE.into()));
    }
    view
}

/// The outcome of a cancelled attempt: refused, with the message the visitor read.
pub fn cancelled_outcome() -> Outcome {
    Outcome::refused(CANCELLED_MESSAGE)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(text: &str) -> DateTime<Utc> {
        text.parse().expect("time")
    }

    fn facts(scheduled: Option<Scheduled>) -> Facts {
        Facts { outcome: Outcome::Open, cancelled: false, scheduled, now: at("2026-11-26T12:00:00Z") }
    }

    fn waiting(tries: i32, running: bool, due: &str) -> Option<Scheduled> {
        Some(Scheduled { step: "send_code".into(), due_at: at(due), tries, running })
    }

    #[test]
    fn retry_now_takes_a_step_waiting_on_its_back_off_and_nothing_else() {
        let events = decide(&facts(waiting(2, false, "2026-11-26T12:00:08Z")), SupportCommand::RetryNow)
            .expect("a step backs off");
        assert_eq!(
            events,
            vec![(
                RETRY_REQUESTED.to_string(),
                json!({ "step": "send_code", "was_due_at": "2026-11-26T12:00:08Z", "tries": 2 })
            )]
        );
        for scheduled in [
            None,
            waiting(0, false, "2026-11-26T12:00:08Z"),
            waiting(2, true, "2026-11-26T12:00:08Z"),
            waiting(2, false, "2026-11-26T11:59:00Z"),
        ] {
            let refused = decide(&facts(scheduled.clone()), SupportCommand::RetryNow);
            assert_eq!(refused, Err(Rejection::general(NOTHING_WAITING)), "{scheduled:?}");
        }
    }

    #[test]
    fn cancel_names_the_step_it_stops_and_happens_once() {
        let events = decide(&facts(waiting(1, true, "2026-11-26T12:00:08Z")), SupportCommand::Cancel).expect("open");
        assert_eq!(events, vec![(ATTEMPT_CANCELLED.to_string(), json!({ "step": "send_code" }))]);
        let cancelled = Facts { cancelled: true, ..facts(None) };
        assert_eq!(decide(&cancelled, SupportCommand::Cancel), Err(Rejection::general(ALREADY_CANCELLED)));
        assert_eq!(decide(&cancelled, SupportCommand::RetryNow), Err(Rejection::general(ALREADY_CANCELLED)));
        let completed = Facts { outcome: Outcome::Completed, ..facts(None) };
        assert_eq!(decide(&completed, SupportCommand::Cancel), Err(Rejection::general(ALREADY_COMPLETED)));
    }

    #[test]
    fn a_note_is_personal_data_marked_for_sealing_and_checked() {
        let events =
            decide(&facts(None), SupportCommand::AddNote { text: "  Cliente ligou.\nRetornar amanhã. ".into() })
                .expect("a note");
        assert_eq!(events.len(), 1);
        assert_eq!(events[0].0, NOTE_ADDED);
        let note: PiiField = serde_json::from_value(events[0].1["note"].clone()).expect("field");
        assert_eq!(
            (note.kind(), note.clear_text()),
            (Some(PiiKind::SupportNote), Some("Cliente ligou.\nRetornar amanhã."))
        );
        let refused = |text: &str| decide(&facts(None), SupportCommand::AddNote { text: text.into() });
        assert_eq!(refused("   "), Err(Rejection::field("text", NOTE_EMPTY)));
        assert_eq!(refused(&"a".repeat(2001)), Err(Rejection::field("text", NOTE_TOO_LONG)));
        // Whitespace around counts: 2,001 characters sent are too many even if 2,000 stay.
        assert_eq!(refused(&format!("\u{b}{}", "a".repeat(2000))), Err(Rejection::field("text", NOTE_TOO_LONG)));
        assert!(decide(&facts(None), SupportCommand::AddNote { text: format!(" {}", "a".repeat(1999)) }).is_ok());
        assert_eq!(refused("nota\u{0}"), Err(Rejection::field("text", NOTE_CONTROL)));
        // Notes are allowed on a cancelled or completed attempt too.
        let done = Facts { cancelled: true, outcome: Outcome::Completed, ..facts(None) };
        assert!(decide(&done, SupportCommand::AddNote { text: "Encerrada a pedido.".into() }).is_ok());
    }

    #[test]
    fn a_cancelled_view_keeps_its_panel_and_shows_the_message() {
        let view = cancelled_view(json!({ "panel": "code", "loading": true, "error": null }));
        assert_eq!(view, json!({ "panel": "code", "loading": false, "error": CANCELLED_MESSAGE, "cancelled": true }));
    }
}
