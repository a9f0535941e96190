//! docs/openapi.yaml describes exactly the routes the server has: every `.route(...)` in the
//! source, with its methods, is a path of the document, and the document has no other. It is
//! valid YAML whose links name operations it has (schemathesis runs it against the portal:
//! tests/api/schemathesis.sh).

use std::collections::BTreeSet;
use std::path::Path;

const METHODS: [&str; 5] = ["get", "post", "put", "patch", "delete"];

fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("source folder").flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// `(path, method)` of every `.route("path", get(h).post(h))` in `source`.
fn routes_in(source: &str, out: &mut BTreeSet<(String, String)>) {
    let mut rest = source;
    while let Some(at) = rest.find(".route(\"") {
        rest = &rest[at + 8..];
        let Some(end) = rest.find('"') else { return };
        let path = rest[..end].to_string();
        // The call's arguments: up to the parenthesis that closes `.route(`.
        let mut depth = 1;
        let mut close = rest.len();
        for (i, c) in rest.char_indices() {
            match c {
                '(' => depth += 1,
                ')' => {
                    depth -= 1;
                    if depth == 0 {
                        close = i;
                        break;
                    }
                }
                _ => {}
            }
        }
        let args = &rest[end..close];
        for method in METHODS {
            let call = format!("{method}(");
            let starts = args.match_indices(&call).filter(|(i, _)| {
                let before = args[..*i].chars().last();
                matches!(before, Some(' ' | ',' | '.'))
            });
            if starts.count() > 0 {
                out.insert((path.clone(), method.to_string()));
            }
        }
        rest = &rest[close..];
    }
}

/// `(path, method)` of the document: paths at two spaces of indent, methods at four.
fn documented(yaml: &str) -> BTreeSet<(String, String)> {
    let mut out = BTreeSet::new();
    let mut in_paths = false;
    let mut path = None;
    for line in yaml.lines() {
        if !line.starts_with(' ') {
            in_paths = line.trim_end() == "paths:";
            continue;
        }
        if !in_paths {
            continue;
        }
        if let Some(p) = line.strip_prefix("  /").and_then(|l| l.strip_suffix(':')) {
            path = Some(format!("/{p}"));
        } else if let (Some(p), Some(m)) = (&path, line.strip_prefix("    ").and_then(|l| l.strip_suffix(':'))) {
            if METHODS.contains(&m) {
                out.insert((p.clone(), m.to_string()));
            }
        }
    }
    out
}

#[test]
fn the_openapi_document_lists_every_route_and_method_the_server_has() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    rust_files(&root.join("src"), &mut files);
    // The admin port (Prometheus metrics, docs/metrics.md) is not the public API.
    files.retain(|file| !file.ends_with("http/admin.rs"));
    let mut served = BTreeSet::new();
    for file in files {
        routes_in(&std::fs::read_to_string(&file).expect("source"), &mut served);
    }
    assert!(
        served.contains(&("/api/support/erase".to_string(), "post".to_string())),
        "the scan finds routes: {served:?}"
    );
    let yaml = std::fs::read_to_string(root.join("../docs/openapi.yaml")).expect("docs/openapi.yaml");
    let listed = documented(&yaml);
    let undocumented: Vec<_> = served.difference(&listed).collect();
    let stale: Vec<_> = listed.difference(&served).collect();
    assert!(
        undocumented.is_empty() && stale.is_empty(),
        "missing from docs/openapi.yaml: {undocumented:?}; listed but not served: {stale:?}"
    );
}

#[test]
fn the_scan_reads_chained_methods() {
    let mut found = BTreeSet::new();
    routes_in(r#"Router::new().route("/a", post(x).get(y)).route("/b/{id}", get(load))"#, &mut found);
    let pairs: Vec<(&str, &str)> = found.iter().map(|(p, m)| (p.as_str(), m.as_str())).collect();
    assert_eq!(pairs, [("/a", "get"), ("/a", "post"), ("/b/{id}", "get")]);
}

fn document() -> serde_json::Value {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let yaml = std::fs::read_to_string(root.join("../docs/openapi.yaml")).expect("docs/openapi.yaml");
    serde_norway::from_str(&yaml).unwrap_or_else(|e| panic!("docs/openapi.yaml is not valid YAML: {e}"))
}

#[test]
fn the_document_is_yaml_and_its_links_name_its_own_operations() {
    let doc = document();
    assert_eq!(doc["openapi"], "3.1.0");
    let operations: BTreeSet<String> = doc["paths"]
        .as_object()
        .expect("paths")
        .values()
        .flat_map(|item| METHODS.iter().filter_map(|m| item.get(*m)?.get("operationId")?.as_str().map(str::to_string)))
        .collect();
    let start = &doc["paths"]["/api/attempts"]["post"]["responses"]["201"]["links"];
    let mut targets: Vec<&str> = start
        .as_object()
        .expect("links from POST /api/attempts")
        .values()
        .filter_map(|l| l["operationId"].as_str())
        .collect();
    targets.sort_unstable();
    assert_eq!(targets, ["getAttempt", "sendCommand"]);
    for target in targets {
        assert!(operations.contains(target), "{target} is not an operation of the document: {operations:?}");
        assert_eq!(
            start
                .as_object()
                .into_iter()
                .flat_map(|l| l.values())
                .find(|l| l["operationId"] == target)
                .map(|l| &l["parameters"]["id"]),
            Some(&serde_json::json!("$response.body#/id"))
        );
    }
}
