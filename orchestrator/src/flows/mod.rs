//! The registry of flows: their pure logic for the API and their steps for the runner.
//! Each flow adds itself in `registry` with one `register` call.

pub mod activation;
pub mod cloud;
pub mod download;

use std::sync::Arc;

use events::flow::Erased;

use crate::attempts::Flows;
use crate::runner::{FlowRunner, FlowSteps, StepDeps};
use crate::runner::StepFlow;

/// The API's flows and the runner's step executors.
pub struct Registry {
    pub flows: Flows,
    pub steps: Vec<Arc<dyn StepFlow>>,
}

impl Registry {
    /// Adds a flow: its pure logic to the API, its steps to the runner.
    pub fn register<S: FlowSteps>(mut self, steps: S, deps: &StepDeps) -> Self {
        self.flows = self.flows.with(Arc::new(Erased::<S::F>::default()));
        self.steps.push(Arc::new(FlowRunner::new(steps, deps.clone())));
        self
    }
}

/// Every flow of the portal.
pub fn registry(deps: &StepDeps) -> Registry {
    Registry { flows: Flows::default(), steps: Vec::new() }
        .register(cloud::CloudSteps, deps)
        .register(activation::ActivationSteps::from_env(), deps)
        .register(download::DownloadSteps::from_env(), deps)
}
