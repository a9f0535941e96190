//! The support console names every step of every flow in Portuguese
//! (`web/src/features/support/labels.json`): a step added to a flow without a label fails here.

use events::flows::activation::ActivationStep;
use events::flows::cloud::CloudStep;
use events::flows::download::DownloadStep;

#[test]
fn every_step_of_the_three_flows_has_a_portuguese_label() {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../web/src/features/support/labels.json"))
        .expect("the console's labels");
    let labels: serde_json::Value = serde_json::from_str(&text).expect("labels are JSON");
    let names = ActivationStep::ALL
        .iter()
        .map(|s| s.name())
        .chain(DownloadStep::ALL.iter().map(|s| s.name()))
        .chain(CloudStep::ALL.iter().map(|s| s.name()));
    let missing: Vec<&str> = names.filter(|n| labels["steps"][n].as_str().is_none_or(|l| l.is_empty())).collect();
    assert!(missing.is_empty(), "steps without a label: {missing:?}");
}
