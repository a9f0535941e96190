//! Injected faults: per endpoint, added latency and one effect (an HTTP status, a time-out or a
//! dropped connection), for the next N calls, a fraction of calls, or until cleared.

use rand::rngs::StdRng;
use rand::Rng;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Longest a time-out holds a request (the caller's own time-out normally fires first).
const MAX_HOLD_MS: u64 = 300_000;
const DEFAULT_HOLD_MS: u64 = 30_000;
const MAX_LATENCY_MS: u64 = 60_000;

/// Whether the effect happens before the contract runs (no side effect) or after (the side
/// effect happened, the answer is lost or replaced).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Phase {
    Before,
    After,
}

/// Body of `POST /admin/faults`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FaultRequest {
    /// An endpoint name, `<upstream>.*`, or `*`.
    pub endpoint: String,
    #[serde(default)]
    pub latency_ms: u64,
    pub status: Option<u16>,
    pub body: Option<Value>,
    #[serde(default)]
    pub timeout: bool,
    pub hold_ms: Option<u64>,
    #[serde(default)]
    pub drop: bool,
    pub phase: Option<Phase>,
    pub times: Option<u32>,
    pub fraction: Option<f64>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Effect {
    Status { status: u16, body: Option<Value> },
    Timeout { hold_ms: u64 },
    Drop,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Fault {
    pub id: u64,
    pub endpoint: String,
    pub latency_ms: u64,
    /// `None`: only the added latency.
    pub effect: Option<Effect>,
    pub phase: Phase,
    /// Calls left when the fault was set for the next N calls.
    pub times_left: Option<u32>,
    pub fraction: Option<f64>,
}

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum FaultError {
    #[error("unknown endpoint {0:?}; see GET /admin/endpoints")]
    UnknownEndpoint(String),
    #[error("status, timeout and drop exclude each other")]
    ConflictingEffects,
    #[error("a fault needs latency_ms, status, timeout or drop")]
    NoEffect,
    #[error("status must be between 200 and 599, got {0}")]
    InvalidStatus(u16),
    #[error("times and fraction exclude each other")]
    TimesAndFraction,
    #[error("times must be at least 1")]
    ZeroTimes,
    #[error("fraction must be in (0, 1], got {0}")]
    InvalidFraction(f64),
    #[error("latency_ms is at most {MAX_LATENCY_MS}, hold_ms at most {MAX_HOLD_MS}")]
    TooLong,
    #[error("body and hold_ms belong to status and timeout faults")]
    StrayOption,
}

impl FaultRequest {
    fn into_fault(self, id: u64, endpoints: &[&str]) -> Result<Fault, FaultError> {
        if !is_known_pattern(&self.endpoint, endpoints) {
            return Err(FaultError::UnknownEndpoint(self.endpoint));
        }
        let effects = usize::from(self.status.is_some()) + usize::from(self.timeout) + usize::from(self.drop);
        if effects > 1 {
            return Err(FaultError::ConflictingEffects);
        }
        if effects == 0 && self.latency_ms == 0 {
            return Err(FaultError::NoEffect);
        }
        if (self.body.is_some() && self.status.is_none()) || (self.hold_ms.is_some() && !self.timeout) {
            return Err(FaultError::StrayOption);
        }
        let hold_ms = self.hold_ms.unwrap_or(DEFAULT_HOLD_MS);
        if self.latency_ms > MAX_LATENCY_MS || hold_ms > MAX_HOLD_MS {
            return Err(FaultError::TooLong);
        }
        let effect = match (self.status, self.timeout, self.drop) {
            (Some(status), _, _) if !(200..=599).contains(&status) => return Err(FaultError::InvalidStatus(status)),
            (Some(status), _, _) => Some(Effect::Status { status, body: self.body }),
            (None, true, _) => Some(Effect::Timeout { hold_ms }),
            (None, false, true) => Some(Effect::Drop),
            (None, false, false) => None,
        };
        match (self.times, self.fraction) {
            (Some(_), Some(_)) => return Err(FaultError::TimesAndFraction),
            (Some(0), None) => return Err(FaultError::ZeroTimes),
            (None, Some(f)) if !(f > 0.0 && f <= 1.0) => return Err(FaultError::InvalidFraction(f)),
            _ => {}
        }
        // A refused status is most useful before the contract runs; a lost answer after it.
        let phase = self.phase.unwrap_or(match effect {
            Some(Effect::Timeout { .. } | Effect::Drop) => Phase::After,
            None | Some(Effect::Status { .. }) => Phase::Before,
        });
        Ok(Fault {
            id,
            endpoint: self.endpoint,
            latency_ms: self.latency_ms,
            effect,
            phase,
            times_left: self.times,
            fraction: self.fraction,
        })
    }
}

fn is_known_pattern(pattern: &str, endpoints: &[&str]) -> bool {
    pattern == "*" || endpoints.iter().any(|endpoint| matches(pattern, endpoint))
}

fn matches(pattern: &str, endpoint: &str) -> bool {
    match pattern.strip_suffix(".*") {
        _ if pattern == "*" => true,
        Some(upstream) => endpoint.strip_prefix(upstream).is_some_and(|rest| rest.starts_with('.')),
        None => pattern == endpoint,
    }
}

pub struct FaultBook {
    faults: Vec<Fault>,
    next_id: u64,
    rng: StdRng,
}

impl FaultBook {
    pub fn new(rng: StdRng) -> Self {
        Self { faults: Vec::new(), next_id: 1, rng }
    }

    pub fn add(&mut self, request: FaultRequest, endpoints: &[&str]) -> Result<Fault, FaultError> {
        let fault = request.into_fault(self.next_id, endpoints)?;
        self.next_id += 1;
        self.faults.push(fault.clone());
        Ok(fault)
    }

    pub fn clear(&mut self) {
        self.faults.clear();
    }

    pub fn list(&self) -> Vec<Fault> {
        self.faults.clone()
    }

    /// The fault that applies to this call of `endpoint`, if any: the first matching one, in
    /// the order they were set, whose budget allows it.
    pub fn take(&mut self, endpoint: &str) -> Option<Fault> {
        let mut chosen = None;
        for fault in self.faults.iter_mut().filter(|fault| matches(&fault.endpoint, endpoint)) {
            if let Some(fraction) = fault.fraction {
                if self.rng.gen::<f64>() >= fraction {
                    continue;
                }
            }
            if let Some(left) = fault.times_left.as_mut() {
                *left -= 1;
            }
            chosen = Some(fault.clone());
            break;
        }
        self.faults.retain(|fault| fault.times_left != Some(0));
        chosen
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    const ENDPOINTS: &[&str] = &["bff.packs", "bff.subscribe-serial", "cloud.send-code"];

    fn request(json: Value) -> FaultRequest {
        serde_json::from_value(json).expect("valid")
    }

    fn book() -> FaultBook {
        FaultBook::new(StdRng::seed_from_u64(3))
    }

    #[test]
    fn times_counts_down_then_the_fault_is_gone() {
        let mut book = book();
        book.add(request(serde_json::json!({"endpoint": "bff.packs", "status": 503, "times": 2})), ENDPOINTS)
            .expect("valid");
        assert!(book.take("bff.subscribe-serial").is_none());
        let first = book.take("bff.packs").expect("valid");
        assert_eq!(first.effect, Some(Effect::Status { status: 503, body: None }));
        assert_eq!(first.phase, Phase::Before);
        assert!(book.take("bff.packs").is_some());
        assert!(book.take("bff.packs").is_none());
        assert!(book.list().is_empty());
    }

    #[test]
    fn a_fraction_applies_to_about_that_share_of_calls() {
        let mut book = book();
        book.add(request(serde_json::json!({"endpoint": "bff.*", "drop": true, "fraction": 0.25})), ENDPOINTS)
            .expect("valid");
        let hits = (0..4000).filter(|_| book.take("bff.packs").is_some()).count();
        assert!((800..1200).contains(&hits), "{hits}");
        assert!(book.take("cloud.send-code").is_none());
    }

    #[test]
    fn without_budget_it_lasts_until_cleared() {
        let mut book = book();
        book.add(request(serde_json::json!({"endpoint": "*", "latency_ms": 5})), ENDPOINTS).expect("valid");
        assert!((0..10).all(|_| book.take("cloud.send-code").is_some()));
        book.clear();
        assert!(book.take("cloud.send-code").is_none());
    }

    #[test]
    fn time_outs_and_drops_happen_after_the_contract_by_default() {
        let mut book = book();
        let timeout =
            book.add(request(serde_json::json!({"endpoint": "bff.packs", "timeout": true})), ENDPOINTS).expect("valid");
        assert_eq!((timeout.effect, timeout.phase), (Some(Effect::Timeout { hold_ms: DEFAULT_HOLD_MS }), Phase::After));
        let early = request(serde_json::json!({"endpoint": "bff.packs", "drop": true, "phase": "before"}));
        assert_eq!(book.add(early, ENDPOINTS).expect("valid").phase, Phase::Before);
    }

    #[test]
    fn invalid_requests_are_refused() {
        let refused = |json| book().add(request(json), ENDPOINTS).unwrap_err();
        use serde_json::json;
        assert_eq!(
            refused(json!({"endpoint": "bff.nada", "status": 500})),
            FaultError::UnknownEndpoint("bff.nada".into())
        );
        assert_eq!(refused(json!({"endpoint": "nada.*", "status": 500})), FaultError::UnknownEndpoint("nada.*".into()));
        assert_eq!(
            refused(json!({"endpoint": "bff.packs", "status": 500, "drop": true})),
            FaultError::ConflictingEffects
        );
        assert_eq!(refused(json!({"endpoint": "bff.packs"})), FaultError::NoEffect);
        assert_eq!(refused(json!({"endpoint": "bff.packs", "status": 99})), FaultError::InvalidStatus(99));
        assert_eq!(
            refused(json!({"endpoint": "bff.packs", "drop": true, "times": 1, "fraction": 0.5})),
            FaultError::TimesAndFraction
        );
        assert_eq!(refused(json!({"endpoint": "bff.packs", "drop": true, "times": 0})), FaultError::ZeroTimes);
        assert_eq!(
            refused(json!({"endpoint": "bff.packs", "drop": true, "fraction": 1.5})),
            FaultError::InvalidFraction(1.5)
        );
        assert_eq!(refused(json!({"endpoint": "bff.packs", "drop": true, "hold_ms": 5})), FaultError::StrayOption);
        assert_eq!(refused(json!({"endpoint": "bff.packs", "latency_ms": 600000})), FaultError::TooLong);
    }
}
