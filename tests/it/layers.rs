//! The crate graph is the layering: each layer crate may depend only on the evomcts crates
//! below it (ARCHITECTURE.md), in its dependencies and its dev-dependencies alike, so no test
//! helper smuggles a higher layer in.

use std::path::Path;

/// Each layer crate, by folder, and the evomcts crates it may use.
const ALLOWED: [(&str, &[&str]); 5] = [
    ("games", &[]),
    ("formula", &[]),
    ("search", &["evomcts-games", "evomcts-formula"]),
    (
        "runs",
        &["evomcts-games", "evomcts-formula", "evomcts-search"],
    ),
    (
        "analysis",
        &[
            "evomcts-games",
            "evomcts-formula",
            "evomcts-search",
            "evomcts-runs",
        ],
    ),
];

/// The evomcts crates a manifest names, in any dependency table.
fn evomcts_dependencies(manifest: &str) -> Vec<String> {
    manifest
        .lines()
        .filter_map(|line| {
            let name = line.trim().split(['=', ' ', '.']).next()?;
            (name.starts_with("evomcts")).then(|| name.to_string())
        })
        .collect()
}

#[test]
fn every_layer_crate_uses_only_the_layers_below_it() {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("crates");
    let mut folders: Vec<String> = std::fs::read_dir(&crates)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    folders.sort();
    let mut listed: Vec<String> = ALLOWED.iter().map(|(f, _)| f.to_string()).collect();
    listed.sort();
    assert_eq!(folders, listed, "a crate folder this test does not know");
    for (folder, allowed) in ALLOWED {
        let manifest = std::fs::read_to_string(crates.join(folder).join("Cargo.toml")).unwrap();
        for dependency in evomcts_dependencies(&manifest) {
            assert!(
                allowed.contains(&dependency.as_str()),
                "crates/{folder} depends on {dependency}, a crate it may not use"
            );
        }
    }
}

#[test]
fn the_scan_reads_dependency_lines() {
    let manifest = "[dependencies]\nevomcts-games = { path = \"../games\" }\nrand = \"0.8\"\n# evomcts-runs is not used\n";
    assert_eq!(evomcts_dependencies(manifest), ["evomcts-games"]);
}
