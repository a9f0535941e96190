//! Attempts of the three flows as the public API drives them: the browser binding, the
//! command path (decide → seal personal data → append + schedule), the steps' context
//! and the live stream of changes.

pub mod api;
pub mod notifier;
pub mod pii;
pub mod secrets;
pub mod service;
pub mod session;
pub mod steps;

use std::collections::HashMap;
use std::sync::Arc;

use events::flow::AttemptFlow;

pub use secrets::Secrets;
pub use steps::{FlowRunner, FlowSteps, StepContext, StepDeps};

/// Every flow the API knows, by stream category.
#[derive(Default, Clone)]
pub struct Flows {
    by_name: HashMap<&'static str, Arc<dyn AttemptFlow>>,
}

impl Flows {
    pub fn with(mut self, flow: Arc<dyn AttemptFlow>) -> Self {
        self.by_name.insert(flow.category(), flow);
        self
    }

    pub fn get(&self, name: &str) -> Option<&dyn AttemptFlow> {
        self.by_name.get(name).map(|f| f.as_ref())
    }
}
