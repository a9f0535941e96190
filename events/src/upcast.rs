//! Upcasting: old payload shapes are raised to the current shape when read, so the
//! stored history never has to be rewritten when an event type evolves.

use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

use serde_json::Value;

use crate::error::StoreError;

/// Why an upcaster refused a payload.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UpcastError(pub String);

impl UpcastError {
    pub fn new(message: impl Into<String>) -> Self {
        Self(message.into())
    }
}

impl fmt::Display for UpcastError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for UpcastError {}

type UpcastFn = Arc<dyn Fn(Value) -> Result<Value, UpcastError> + Send + Sync>;

/// Registry of `(event_type, from_schema_version) -> payload transform to from+1`.
/// Reads apply every step in a chain: v1 -> v2 -> v3 ...
#[derive(Clone, Default)]
pub struct Upcasters {
    steps: HashMap<(String, i32), UpcastFn>,
}

impl Upcasters {
    pub fn new() -> Self {
        Self::default()
    }

    /// Registers the transform of `event_type` payloads from `from_version` to
    /// `from_version + 1`. A later registration for the same key replaces it.
    pub fn register<F>(&mut self, event_type: &str, from_version: i32, step: F) -> &mut Self
    where
        F: Fn(Value) -> Result<Value, UpcastError> + Send + Sync + 'static,
    {
        self.steps.insert((event_type.to_owned(), from_version), Arc::new(step));
        self
    }

    /// Builder form of [`Upcasters::register`].
    pub fn with<F>(mut self, event_type: &str, from_version: i32, step: F) -> Self
    where
        F: Fn(Value) -> Result<Value, UpcastError> + Send + Sync + 'static,
    {
        self.register(event_type, from_version, step);
        self
    }

    /// Raises `payload` from `schema_version` as far as the registered chain goes;
    /// returns the new payload and its schema version.
    pub fn upcast(
        &self,
        event_type: &str,
        mut schema_version: i32,
        mut payload: Value,
    ) -> Result<(Value, i32), StoreError> {
        if self.steps.is_empty() {
            return Ok((payload, schema_version));
        }
        // Bounded by the number of registered steps, so a registry can never loop.
        for _ in 0..=self.steps.len() {
            let Some(step) = self.steps.get(&(event_type.to_owned(), schema_version)) else {
                return Ok((payload, schema_version));
            };
            payload = step(payload).map_err(|e| StoreError::Upcast {
                event_type: event_type.to_owned(),
                from_version: schema_version,
                message: e.0,
            })?;
            schema_version += 1;
        }
        Ok((payload, schema_version))
    }
}

impl fmt::Debug for Upcasters {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut keys: Vec<_> = self.steps.keys().collect();
        keys.sort();
        f.debug_struct("Upcasters").field("steps", &keys).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn registry() -> Upcasters {
        Upcasters::new()
            .with("PhoneSubmitted", 1, |mut p| {
                // v2 renamed `tel` to `phone`.
                let tel =
                    p.as_object_mut().and_then(|o| o.remove("tel")).ok_or_else(|| UpcastError::new("missing tel"))?;
                p["phone"] = tel;
                Ok(p)
            })
            .with("PhoneSubmitted", 2, |mut p| {
                p["country"] = json!("BR");
                Ok(p)
            })
    }

    #[test]
    fn chains_steps_to_the_latest_version() {
        let (p, v) = registry().upcast("PhoneSubmitted", 1, json!({"tel": "x"})).unwrap();
        assert_eq!(v, 3);
        assert_eq!(p, json!({"phone": "x", "country": "BR"}));
    }

    #[test]
    fn current_versions_and_other_types_pass_through() {
        let r = registry();
        assert_eq!(r.upcast("PhoneSubmitted", 3, json!({"a": 1})).unwrap(), (json!({"a": 1}), 3));
        assert_eq!(r.upcast("Other", 1, json!(null)).unwrap(), (json!(null), 1));
    }

    #[test]
    fn a_refusing_step_names_the_type_and_version() {
        let err = registry().upcast("PhoneSubmitted", 1, json!({})).unwrap_err();
        match err {
            StoreError::Upcast { event_type, from_version, message } => {
                assert_eq!(event_type, "PhoneSubmitted");
                assert_eq!(from_version, 1);
                assert_eq!(message, "missing tel");
            }
            other => panic!("unexpected {other:?}"),
        }
    }
}
