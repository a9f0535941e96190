//! `docs/architecture.md` names files and folders of the tree for a newcomer: every path it
//! names in backticks must exist (issue 24, item 10), so the page cannot drift from the code.

use std::path::{Path, PathBuf};

/// Every file and folder of the repository, as paths relative to its root ("a/b.rs", "a/b/").
fn tree(root: &Path) -> Vec<String> {
    let mut found = Vec::new();
    let mut pending = vec![PathBuf::new()];
    while let Some(relative) = pending.pop() {
        let Ok(entries) = std::fs::read_dir(root.join(&relative)) else { continue };
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.starts_with('.') || ["target", "node_modules", "dist"].contains(&name.as_str()) {
                continue;
            }
            let path = relative.join(&name);
            if entry.file_type().is_ok_and(|t| t.is_dir()) {
                found.push(format!("{}/", path.to_string_lossy()));
                pending.push(path);
            } else {
                found.push(path.to_string_lossy().into_owned());
            }
        }
    }
    found
}

/// The backticked names that look like paths: with a slash or a source file's extension, and
/// no placeholder (`flows/<flow>/`) or glob.
fn named_paths(doc: &str) -> Vec<String> {
    doc.split('`')
        .skip(1)
        .step_by(2)
        .filter(|t| !t.contains(['<', '{', '*', ' ', '=', '(']) && !t.starts_with(['.', '/']) && !t.contains("://"))
        // Build output is not part of the tree.
        .filter(|t| !t.starts_with("target/"))
        .filter(|t| t.contains('/') || [".rs", ".ts", ".tsx", ".md", ".sql", ".json"].iter().any(|e| t.ends_with(e)))
        .map(str::to_string)
        .collect()
}

#[test]
fn every_path_the_architecture_page_names_exists() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let doc = std::fs::read_to_string(root.join("docs/architecture.md")).expect("docs/architecture.md");
    let tree = tree(&root);
    let named = named_paths(&doc);
    assert!(named.len() > 40, "the page names {} paths: {named:?}", named.len());
    // A name may be written from the repository's root or from any folder inside it.
    let missing: Vec<&String> = named
        .iter()
        .filter(|name| {
            let name = name.trim_end_matches('/');
            !tree
                .iter()
                .map(|path| path.trim_end_matches('/'))
                .any(|path| path == name || path.ends_with(&format!("/{name}")))
        })
        .collect();
    assert!(missing.is_empty(), "docs/architecture.md names paths that do not exist: {missing:?}");
}

#[test]
fn a_path_that_is_gone_is_reported() {
    let named = named_paths("the runner's schedule (`runner/schedule.rs`) and `flows/<flow>/` and `http://x/`");
    assert_eq!(named, ["runner/schedule.rs"]);
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    assert!(!tree(&root).iter().any(|p| p.ends_with("/runner/schedule.rs")), "moved to write_path/");
}
