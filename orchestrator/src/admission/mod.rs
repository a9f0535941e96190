//! Admission control at the door (issue 30): the portal measures how busy it is live (runner
//! lag, steps in flight against the runners' slots, database pool waits) and, past capacity,
//! refuses a *new* attempt at once with 503 and `Retry-After`, so the attempts already started
//! keep their pace. Commands and steps of started attempts never pass through here. Refused
//! visitors wait in one line across replicas, first come, first in ([`line`], [`tickets`]).

pub mod line;
pub mod pace;
pub mod pass;
pub mod sampler;
pub mod signal;
pub mod tickets;
pub mod timed;

use std::sync::atomic::{AtomicI64, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use sqlx::PgPool;

use crate::config::AdmissionConfig;
use line::{LineSettings, LineView, Newcomer};
use pace::Pacer;
use pass::PassKey;
pub use signal::{Reading, Signal, Thresholds};
use timed::{LineStatements, LINE_TIMEOUT};

/// The live load of one process: what the runners and the sampler write, what the door reads.
#[derive(Debug, Default)]
pub struct Load {
    steps_in_flight: AtomicUsize,
    slots: AtomicUsize,
    lag_micros: AtomicU64,
    pool_wait_micros: AtomicU64,
    lag_past_for_micros: AtomicU64,
    pool_wait_past_for_micros: AtomicU64,
}

/// A step's place among the steps in flight, given back when dropped (a panic too).
#[derive(Debug)]
pub struct InFlight(Arc<Load>);

impl Drop for InFlight {
    fn drop(&mut self) {
        self.0.steps_in_flight.fetch_sub(1, Ordering::Relaxed);
    }
}

impl Load {
    /// Counts a step in flight until the returned guard is dropped.
    pub fn step_started(self: &Arc<Self>) -> InFlight {
        self.steps_in_flight.fetch_add(1, Ordering::Relaxed);
        InFlight(self.clone())
    }

    /// Adds the slots of a runner started in this process.
    pub fn add_slots(&self, slots: usize) {
        self.slots.fetch_add(slots, Ordering::Relaxed);
    }

    pub fn set_lag(&self, lag: Duration) {
        self.lag_micros.store(micros(lag), Ordering::Relaxed);
    }

    pub fn set_pool_wait(&self, wait: Duration) {
        self.pool_wait_micros.store(micros(wait), Ordering::Relaxed);
    }

    /// How long each timed signal has stood past its threshold (the sampler's account).
    pub fn set_past_for(&self, lag: Duration, pool_wait: Duration) {
        self.lag_past_for_micros.store(micros(lag), Ordering::Relaxed);
        self.pool_wait_past_for_micros.store(micros(pool_wait), Ordering::Relaxed);
    }

    pub fn reading(&self) -> Reading {
        Reading {
            lag: Duration::from_micros(self.lag_micros.load(Ordering::Relaxed)),
            steps_in_flight: self.steps_in_flight.load(Ordering::Relaxed),
            slots: self.slots.load(Ordering::Relaxed),
            pool_wait: Duration::from_micros(self.pool_wait_micros.load(Ordering::Relaxed)),
            lag_past_for: Duration::from_micros(self.lag_past_for_micros.load(Ordering::Relaxed)),
            pool_wait_past_for: Duration::from_micros(self.pool_wait_past_for_micros.load(Ordering::Relaxed)),
        }
    }
}

fn micros(d: Duration) -> u64 {
    u64::try_from(d.as_micros()).unwrap_or(u64::MAX)
}

/// The line as this process's sampler last saw it (see [`LineView`]).
#[derive(Debug, Default)]
pub struct Line {
    head: AtomicI64,
    tail: AtomicI64,
    live: AtomicI64,
    advance_milli_per_sec: AtomicU64,
}

impl Line {
    pub fn set(&self, view: &LineView) {
        self.head.store(view.head, Ordering::Relaxed);
        self.tail.store(view.tail, Ordering::Relaxed);
        self.live.store(view.live, Ordering::Relaxed);
        let milli = (view.advance_per_sec.max(0.0) * 1000.0).round() as u64;
        self.advance_milli_per_sec.store(milli, Ordering::Relaxed);
    }

    pub fn view(&self) -> LineView {
        LineView {
            head: self.head.load(Ordering::Relaxed),
            tail: self.tail.load(Ordering::Relaxed),
            live: self.live.load(Ordering::Relaxed),
            advance_per_sec: self.advance_milli_per_sec.load(Ordering::Relaxed) as f64 / 1000.0,
        }
    }
}

/// A ticket to carry in the visitor's cookie.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ticket {
    /// The cookie's value: the token, with its pass when one can be fresh.
    pub value: String,
    pub lifetime: Duration,
}

/// A new attempt refused at the door, and when to try again.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Busy {
    /// What refused it: the signal past its threshold, or `line` (the door is open and others
    /// are ahead).
    pub by: &'static str,
    pub retry_after: Duration,
    /// How many are ahead in line, when the visitor holds a ticket.
    pub ahead: Option<u64>,
    /// The visitor's ticket, new or kept.
    pub ticket: Option<Ticket>,
}

/// A start let in: the ticket it held, to take out of the line once the attempt exists.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Entry {
    pub ticket: Option<String>,
}

/// What refuses a start when the door is open and others wait ahead.
pub const BY_LINE: &str = "line";
/// What refuses a start when the door is open but the pace lets nobody more in this instant.
pub const BY_PACE: &str = "pace";

/// How long a ticket stays in line after its holder's last try: the longest wait, the page's
/// jitter and a margin ([`line::ticket_lifetime`]).
const TICKET_LIFETIME: Duration = Duration::from_secs(25);
/// A try renews its ticket when less than this is left: the longest wait with the page's jitter.
const RENEW_BELOW: Duration = Duration::from_secs(15);

/// The door: thresholds from the configuration over this process's [`Load`], and the line.
#[derive(Debug)]
pub struct Admission {
    pub thresholds: Thresholds,
    pub load: Arc<Load>,
    pub line: Arc<Line>,
    pub line_settings: LineSettings,
    pub sample_every: Duration,
    /// The line's own few connections (`ADMISSION_LINE_CONNECTIONS`, made by
    /// [`Admission::connect_line`]): a refusal never waits for one behind the commands of the
    /// attempts already in. None: the line uses the request's pool.
    pub line_db: Option<PgPool>,
    /// How many connections [`Admission::connect_line`] gives the line (0: none of its own).
    line_connections: u32,
    /// How many new attempts a second go in ([`pace`]): the sampler adjusts it, the door takes it.
    /// None: no pace, and no lock taken.
    pub pacer: Option<Arc<Mutex<Pacer>>>,
    /// The line's statements' times and those it gave up on (`/metrics` registers the same).
    pub line_statements: LineStatements,
    /// Signs the tickets' passes ([`pass`]): one of this process's own until
    /// [`Admission::sign_passes_with`] gives it the key every replica shares.
    pass_key: PassKey,
    retry_after: Duration,
}

impl Admission {
    pub fn from_config(config: &AdmissionConfig) -> anyhow::Result<Self> {
        let enabled = Signal::parse_list(&config.admission_signals)
            .map_err(|e| anyhow::anyhow!("ADMISSION_SIGNALS: {e} (known: lag, slots, pool)"))?;
        Ok(Self {
            thresholds: Thresholds {
                enabled,
                max_lag: Duration::from_millis(config.admission_max_runner_lag_ms),
                max_slots_busy_percent: config.admission_max_slots_busy_percent,
                max_pool_wait: Duration::from_millis(config.admission_max_pool_wait_ms),
                standing: Duration::from_millis(config.admission_standing_ms),
            },
            load: Arc::new(Load::default()),
            line: Arc::new(Line::default()),
            line_settings: LineSettings {
                window: config.admission_line_window,
                max: config.admission_line_max,
                max_per_address: config.admission_line_max_per_address,
                still_wait: Duration::from_secs(config.admission_retry_after_secs),
            },
            sample_every: Duration::from_millis(config.admission_sample_ms),
            line_db: None,
            line_connections: config.admission_line_connections,
            pacer: Pacer::new(config.admission_pace_max_per_sec as f64, Instant::now())
                .map(|pacer| Arc::new(Mutex::new(pacer))),
            line_statements: LineStatements::default(),
            pass_key: PassKey::new(events::pii::SigningKey::new(rand::random())),
            retry_after: Duration::from_secs(config.admission_retry_after_secs),
        })
    }

    /// Gives the line connections of its own to the database of `db`, opened when first used.
    /// Past capacity every connection of the pool is busy with admitted work by design, and a
    /// refusal that waited its turn for one was the refused start's slow tail.
    pub fn connect_line(&mut self, db: &PgPool) {
        if self.line_connections == 0 {
            return;
        }
        let options = db.connect_options().as_ref().clone();
        self.line_db = Some(
            sqlx::postgres::PgPoolOptions::new()
                .max_connections(self.line_connections)
                .acquire_timeout(LINE_TIMEOUT)
                .connect_lazy_with(options),
        );
    }

    /// Signs the tickets' passes with `key` (the same in every replica, so a pass one gave is
    /// read by the others).
    pub fn sign_passes_with(&mut self, key: events::pii::SigningKey) {
        self.pass_key = PassKey::new(key);
    }

    /// The signal that shuts the door now, if any: atomics only.
    pub fn shut_by(&self) -> Option<Signal> {
        signal::past_capacity(&self.load.reading(), &self.thresholds)
    }

    /// Entries a second the door lets through now (0: no pace).
    pub fn pace(&self) -> f64 {
        self.pacer.as_deref().map_or(0.0, |pacer| lock(pacer).rate())
    }

    /// One entry through an open door, if the pace allows it now.
    fn paced_in(&self) -> bool {
        self.pacer.as_deref().is_none_or(|pacer| lock(pacer).take(Instant::now()))
    }

    /// Whether a new attempt may start now, for a visitor holding `ticket` (the line's cookie)
    /// from the client whose address `address` tags (a keyed hash, never the address itself;
    /// made only when a ticket is handed out). With the door open and nobody waiting it asks
    /// nothing of the database, nor does it for a holder whose fresh pass ([`pass`]) names a
    /// place not yet at the door. Refused, the visitor gets a place in the line, or keeps theirs,
    /// and is told how many are ahead; a client address that holds its share of the line
    /// already gets no new place.
    pub async fn enter(
        &self,
        db: &PgPool,
        ticket: Option<String>,
        address: impl FnOnce() -> Option<Vec<u8>>,
    ) -> Result<Entry, Busy> {
        let shut = self.shut_by();
        let open = shut.is_none();
        let by = shut.map_or(BY_LINE, Signal::name);
        // The database is what is short: the line, which writes to it, is not asked.
        if shut == Some(Signal::Pool) {
            return Err(self.refused(by));
        }
        let db = self.line_db.as_ref().unwrap_or(db);
        let view = self.line.view();
        let settings = &self.line_settings;
        // An entry the pace gave already (taken once, for a fresh pass at the door).
        let mut paced = false;
        if let Some(held) = ticket.and_then(|value| self.pass_key.read(&value, pass::now_ms())) {
            let token = held.token;
            // A fresh pass whose place is not at the door, or is but the pace lets nobody more
            // in now: the answer needs no statement, and the holder's cookie stays as it is.
            if let Some(ahead) = held.fresh_place.map(|place| view.ahead_of(place)) {
                if !line::goes_in(open, ahead, settings) {
                    return Err(self.in_line(by, ahead, &view, open, None));
                }
                if !self.paced_in() {
                    return Err(self.in_line(BY_PACE, ahead, &view, open, None));
                }
                paced = true;
            }
            match self.line_statements.on_time(tickets::visit(db, &token, TICKET_LIFETIME, RENEW_BELOW)).await {
                Some(Some((place, left))) => {
                    let ahead = view.ahead_of(place);
                    if !line::goes_in(open, ahead, settings) {
                        return Err(self.in_line(by, ahead, &view, open, Some(self.ticket(token, place, left))));
                    }
                    if !(paced || self.paced_in()) {
                        let ticket = Some(self.ticket(token, place, left));
                        return Err(self.in_line(BY_PACE, ahead, &view, open, ticket));
                    }
                    return Ok(Entry { ticket: Some(token) });
                }
                // No longer in line (it expired): as anyone new.
                Some(None) => {}
                // The line could not be asked: the door and its pace answer alone.
                None if open && (paced || self.paced_in()) => return Ok(Entry::default()),
                None => return Err(self.refused(if open { BY_PACE } else { by })),
            }
        }
        let (newcomer, by) = match line::newcomer(open, &view, settings) {
            // Held back by the pace: a place at the end of the line, as when the door is shut.
            Newcomer::Enter if !(paced || self.paced_in()) => (Newcomer::Join, BY_PACE),
            decided => (decided, by),
        };
        match newcomer {
            Newcomer::Enter => Ok(Entry::default()),
            Newcomer::Full => Err(no_place(by)),
            Newcomer::Join => {
                let token = crate::token::hex();
                let address = address();
                let share = tickets::Share { address: address.as_deref(), max: settings.max_per_address };
                match self.line_statements.on_time(tickets::join(db, &token, TICKET_LIFETIME, share)).await {
                    Some(Some(place)) => {
                        let ticket = Some(self.ticket(token, place, TICKET_LIFETIME));
                        Err(self.in_line(by, view.ahead_of(place), &view, open, ticket))
                    }
                    // This address holds its share of the line: as a full line.
                    Some(None) => Err(no_place(by)),
                    None => Err(self.refused(by)),
                }
            }
        }
    }

    /// A refusal with no place in line (the line could not be asked).
    fn refused(&self, by: &'static str) -> Busy {
        Busy { by, retry_after: self.retry_after, ahead: None, ticket: None }
    }

    /// A refusal with a place in line, and when to try again ([`line::wait`]; the door's learned
    /// pace counts while it is open).
    /// `ticket`: the cookie to set (None: the holder's stays as it is).
    fn in_line(&self, by: &'static str, ahead: u64, view: &LineView, open: bool, ticket: Option<Ticket>) -> Busy {
        let door_pace = self.pacer.as_deref().filter(|_| open).and_then(|pacer| lock(pacer).learned());
        Busy { by, retry_after: line::wait(ahead, view, &self.line_settings, door_pace), ahead: Some(ahead), ticket }
    }

    /// The cookie for a ticket at `place` with `left` of its life in line: its token, signed
    /// with a pass while one can be fresh.
    fn ticket(&self, token: String, place: i64, left: Duration) -> Ticket {
        let value = match pass::fresh_for(left, RENEW_BELOW) {
            Some(fresh) => {
                let until = pass::now_ms().saturating_add(u64::try_from(fresh.as_millis()).unwrap_or(u64::MAX));
                self.pass_key.sign(&token, place, until)
            }
            None => token,
        };
        Ticket { value, lifetime: TICKET_LIFETIME }
    }
}

/// The pacer, even if a holder panicked: its numbers stay sound between its own statements.
fn lock(pacer: &Mutex<Pacer>) -> MutexGuard<'_, Pacer> {
    pacer.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// A refusal with no place to give: the line, or the client address's share of it, is full.
fn no_place(by: &'static str) -> Busy {
    Busy { by, retry_after: line::MAX_WAIT, ahead: None, ticket: None }
}
