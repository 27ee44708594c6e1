//! The crate graph is the layering: each layer crate may depend only on the evomcts crates
//! below it (ARCHITECTURE.md), in its dependencies and its dev-dependencies alike, so no test
//! helper smuggles a higher layer in.

use std::path::Path;

/// Each layer crate, by folder, lowest first, and the evomcts crates it may use: those below it
/// (ARCHITECTURE.md's map). The run crates are floors: records and run folders, the arena, job
/// steps and the worker pool, leagues, evolution, validation, tuning, studies, portfolios, Slurm;
/// then analysis, and the speed measurements beside it.
const ALLOWED: [(&str, &[&str]); 16] = [
    ("games", &[]),
    ("twins", &["evomcts-games"]),
    ("formula", &[]),
    ("search", &["evomcts-games", "evomcts-formula"]),
    ("records", &["evomcts-formula", "evomcts-search"]),
    (
        "arena",
        &[
            "evomcts-games",
            "evomcts-twins",
            "evomcts-search",
            "evomcts-records",
        ],
    ),
    ("steps", &["evomcts-records", "evomcts-arena"]),
    (
        "league",
        &[
            "evomcts-games",
            "evomcts-search",
            "evomcts-records",
            "evomcts-arena",
            "evomcts-steps",
        ],
    ),
    (
        "evolve",
        &[
            "evomcts-games",
            "evomcts-formula",
            "evomcts-search",
            "evomcts-records",
            "evomcts-arena",
            "evomcts-steps",
        ],
    ),
    (
        "validation",
        &[
            "evomcts-games",
            "evomcts-formula",
            "evomcts-search",
            "evomcts-records",
            "evomcts-arena",
            "evomcts-steps",
            "evomcts-evolve",
        ],
    ),
    (
        "tune",
        &[
            "evomcts-games",
            "evomcts-formula",
            "evomcts-search",
            "evomcts-records",
            "evomcts-arena",
            "evomcts-steps",
            "evomcts-evolve",
            "evomcts-validation",
        ],
    ),
    (
        "study",
        &[
            "evomcts-games",
            "evomcts-formula",
            "evomcts-search",
            "evomcts-records",
            "evomcts-arena",
            "evomcts-steps",
            "evomcts-evolve",
            "evomcts-validation",
            "evomcts-tune",
        ],
    ),
    (
        "portfolio",
        &[
            "evomcts-games",
            "evomcts-formula",
            "evomcts-search",
            "evomcts-records",
            "evomcts-arena",
            "evomcts-steps",
            "evomcts-evolve",
            "evomcts-validation",
            "evomcts-tune",
            "evomcts-study",
        ],
    ),
    (
        "slurm",
        &[
            "evomcts-games",
            "evomcts-formula",
            "evomcts-search",
            "evomcts-records",
            "evomcts-arena",
            "evomcts-steps",
            "evomcts-league",
            "evomcts-evolve",
            "evomcts-validation",
            "evomcts-tune",
            "evomcts-study",
            "evomcts-portfolio",
        ],
    ),
    (
        "analysis",
        &[
            "evomcts-games",
            "evomcts-formula",
            "evomcts-search",
            "evomcts-records",
            "evomcts-arena",
            "evomcts-steps",
            "evomcts-league",
            "evomcts-evolve",
            "evomcts-validation",
            "evomcts-tune",
            "evomcts-study",
            "evomcts-portfolio",
        ],
    ),
    (
        "speed",
        &[
            "evomcts-games",
            "evomcts-search",
            "evomcts-records",
            "evomcts-arena",
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

/// The order of [`ALLOWED`] is the layering: a crate may use only crates listed before it, so
/// the allowed sets themselves hold no circle and no edge running back up.
#[test]
fn the_allowed_crates_lie_below() {
    for (i, (folder, allowed)) in ALLOWED.iter().enumerate() {
        let below: Vec<String> = ALLOWED[..i]
            .iter()
            .map(|(f, _)| format!("evomcts-{f}"))
            .collect();
        for dependency in *allowed {
            assert!(
                below.iter().any(|b| b == dependency),
                "crates/{folder} may use {dependency}, which is not below it"
            );
        }
    }
}

#[test]
fn the_scan_reads_dependency_lines() {
    let manifest = "[dependencies]\nevomcts-games = { path = \"../games\" }\nrand = \"0.8\"\n# evomcts-runs is not used\n";
    assert_eq!(evomcts_dependencies(manifest), ["evomcts-games"]);
}
