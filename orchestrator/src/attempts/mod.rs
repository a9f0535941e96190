//! Attempts of the three flows as the browser drives them: the browser binding, the command
//! path (decide, then the one write path of [`crate::write_path`]) and the live stream of
//! changes. What runs steps lives in [`crate::runner`].

pub mod client_info;
pub mod notifier;
pub mod owners;
pub mod return_url;
pub mod service;
pub mod session;
pub mod streams;

use std::collections::HashMap;
use std::sync::Arc;

use events::flow::AttemptFlow;

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
