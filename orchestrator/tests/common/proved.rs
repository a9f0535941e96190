/// Whether `command` of `flow` is one the browser attaches a proof of work to: the commands
/// `tests/vectors/guarded_commands.json` lists as sending a code (the web app reads the same
/// file). The server asks for a proof when the flow's decision sends a code, so a command the
/// list missed is refused in the journeys and browser tests.
pub fn sends_code(flow: &str, command: &serde_json::Value) -> bool {
    let vectors: serde_json::Value =
        serde_json::from_str(include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/vectors/guarded_commands.json")))
            .unwrap_or_default();
    let kind = command.get("type").and_then(serde_json::Value::as_str).unwrap_or("");
    vectors[flow]["sms"].as_array().is_some_and(|listed| listed.iter().any(|listed| listed == kind))
}
