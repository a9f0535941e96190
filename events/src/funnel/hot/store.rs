//! What is kept of each attempt: its facts as numbers into one table of names, its marks as
//! indices into the flow's step events, its person as 64 bits of their keyed tag.

use std::collections::hash_map::DefaultHasher;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

use chrono::{DateTime, NaiveDate, Utc};

use super::super::track::{step_events_of, AttemptFacts, FLOWS};

/// The facts an attempt is broken down by, in this order.
pub(super) const VARIANT: usize = 0;
pub(super) const BRAND: usize = 1;
pub(super) const PARTNER: usize = 2;
pub(super) const OS: usize = 3;
pub(super) const PLATFORM: usize = 4;

/// Names seen in facts and refusals, each stored once.
#[derive(Debug, Default)]
pub(super) struct Names {
    names: Vec<Arc<str>>,
    ids: HashMap<Arc<str>, u32>,
}

impl Names {
    fn id(&mut self, name: &str) -> u32 {
        if let Some(id) = self.ids.get(name) {
            return *id;
        }
        let id = self.names.len() as u32;
        let name: Arc<str> = Arc::from(name);
        self.names.push(name.clone());
        self.ids.insert(name, id);
        id
    }

    /// The id of a name already seen.
    pub(super) fn get(&self, name: &str) -> Option<u32> {
        self.ids.get(name).copied()
    }

    pub(super) fn name(&self, id: u32) -> &str {
        self.names.get(id as usize).map_or("", |n| n)
    }
}

/// One attempt as the funnel needs it.
#[derive(Debug, Clone)]
pub(super) struct HotAttempt {
    pub attempt: Arc<str>,
    pub started: DateTime<Utc>,
    pub day: NaiveDate,
    pub facts: [u32; 5],
    pub refusal: Option<u32>,
    /// 64 bits of the person's keyed tag: two people sharing them is about one chance in
    /// 10^19 per pair, a few in 10^8 among a million people.
    pub person: Option<u64>,
    /// (index into the flow's step events, ms after the attempt's first event); an event the
    /// flow no longer counts as a step is `u8::MAX`, a step of no funnel.
    pub marks: Box<[(u8, i64)]>,
}

/// One flow's attempts.
#[derive(Debug)]
pub(super) struct HotFlow {
    pub events: &'static [&'static str],
    pub attempts: Vec<HotAttempt>,
    at: HashMap<Arc<str>, usize>,
}

impl HotFlow {
    fn remove(&mut self, attempt: &str) {
        let Some(index) = self.at.remove(attempt) else { return };
        self.attempts.swap_remove(index);
        if let Some(moved) = self.attempts.get(index) {
            self.at.insert(moved.attempt.clone(), index);
        }
    }
}

/// The attempts of the three flows started on or after a São Paulo date.
#[derive(Debug)]
pub struct HotFunnels {
    pub(super) flows: Vec<HotFlow>,
    pub(super) names: Names,
    from: NaiveDate,
}

fn person_bits(tag: &str) -> u64 {
    let mut hasher = DefaultHasher::new();
    tag.hash(&mut hasher);
    hasher.finish()
}

impl HotFunnels {
    /// Holds the attempts started on `from` or later.
    pub fn new(from: NaiveDate) -> Self {
        let flows = FLOWS
            .iter()
            .map(|flow| HotFlow { events: step_events_of(flow), attempts: Vec::new(), at: HashMap::new() })
            .collect();
        Self { flows, names: Names::default(), from }
    }

    /// The first day held.
    pub fn from(&self) -> NaiveDate {
        self.from
    }

    /// Attempts held.
    pub fn len(&self) -> usize {
        self.flows.iter().map(|f| f.attempts.len()).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub(super) fn flow(&self, flow: &str) -> Option<&HotFlow> {
        FLOWS.iter().position(|f| *f == flow).map(|i| &self.flows[i])
    }

    /// The attempt as it stands now (a row of the projection): replaces what was held of it.
    pub fn upsert(&mut self, row: &AttemptFacts) {
        let Some(index) = FLOWS.iter().position(|f| *f == row.flow) else { return };
        if row.facts.day < self.from {
            self.flows[index].remove(&row.attempt);
            return;
        }
        let facts = [
            self.names.id(&row.facts.variant),
            self.names.id(&row.facts.brand),
            self.names.id(&row.facts.partner),
            self.names.id(&row.facts.os),
            self.names.id(&row.facts.platform),
        ];
        let refusal = row.refusal.as_deref().map(|r| self.names.id(r));
        let flow = &mut self.flows[index];
        let marks = row
            .marks
            .iter()
            .map(|(event, at)| {
                let step = flow.events.iter().position(|e| e == event).and_then(|i| u8::try_from(i).ok());
                (step.unwrap_or(u8::MAX), *at)
            })
            .collect();
        let held = HotAttempt {
            attempt: Arc::from(row.attempt.as_str()),
            started: row.started,
            day: row.facts.day,
            facts,
            refusal,
            person: row.person.as_deref().map(person_bits),
            marks,
        };
        match flow.at.get(row.attempt.as_str()) {
            Some(&at) => flow.attempts[at] = held,
            None => {
                flow.at.insert(held.attempt.clone(), flow.attempts.len());
                flow.attempts.push(held);
            }
        }
    }

    /// Lets go of the attempts started before `from` (the held days move on).
    pub fn forget_before(&mut self, from: NaiveDate) {
        if from <= self.from {
            return;
        }
        self.from = from;
        for flow in &mut self.flows {
            flow.attempts.retain(|a| a.day >= from);
            flow.at = flow.attempts.iter().enumerate().map(|(i, a)| (a.attempt.clone(), i)).collect();
        }
    }
}
