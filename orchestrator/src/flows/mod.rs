//! The registry of flows: their pure logic for the API and their steps for the runner.
//! Each flow adds itself in `registry` with one `register` call.

pub mod activation;
pub mod cloud;
pub mod download;

use std::sync::Arc;

use events::flow::Erased;

use crate::attempts::Flows;
use crate::config::{DownloadConfig, PartnerConfig};
use crate::runner::StepFlow;
use crate::runner::{FlowRunner, FlowSteps, StepDeps};

/// What the flows' steps are configured with.
#[derive(Debug, Clone, Default)]
pub struct FlowSettings {
    pub partners: PartnerConfig,
    pub download: DownloadConfig,
}

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

/// Every flow of the portal, with the flows' own settings.
pub fn registry(deps: &StepDeps, settings: &FlowSettings) -> Registry {
    Registry { flows: Flows::default(), steps: Vec::new() }
        .register(cloud::CloudSteps, deps)
        .register(activation::ActivationSteps::new(settings.partners.clone()), deps)
        .register(download::DownloadSteps::new(settings.download.clone()), deps)
}
