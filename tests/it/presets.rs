//! Every league spec shipped in runs/ parses and validates, and so does the built-in quick
//! league; a broken preset would otherwise only show when a researcher runs it.

use evomcts::league::LeagueSpec;
use std::path::Path;

fn league_specs(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        // runs/evolve and runs/validate hold evolution, validation and sweep specs, checked
        // by their own tests (evolve_*.rs, validate.rs); runs/portfolio a portfolio's spec and
        // folder (portfolio.rs).
        // An evolution run's folder (runs/open-spiel/pig-evolution) holds its own files.
        if path.is_dir()
            && !["evolve", "validate", "portfolio"]
                .contains(&path.file_name().unwrap().to_str().unwrap())
            && !path.join("champion.ron").exists()
        {
            league_specs(&path, out);
        } else if path.extension().is_some_and(|e| e == "ron")
            // The paper's published tables (read by `evomcts replicate`), not a league.
            && path.file_name().unwrap() != "published.ron"
        {
            out.push(path);
        }
    }
}

#[test]
fn every_league_preset_is_valid() {
    let mut specs = Vec::new();
    league_specs(Path::new("runs"), &mut specs);
    specs.sort();
    let names: Vec<String> = specs.iter().map(|p| p.display().to_string()).collect();
    for expected in [
        "runs/quick.ron",
        "runs/paper/finalists.ron",
        "runs/paper/star.ron",
    ] {
        assert!(
            names.iter().any(|n| n == expected),
            "{expected} missing from {names:?}"
        );
    }
    for path in &specs {
        // Specs that name files (champions, grammars) resolve them relative to the repository.
        let spec = LeagueSpec::from_file(path).unwrap_or_else(|e| panic!("{e}"));
        for c in &spec.controllers {
            c.spec
                .build::<evomcts::games::carcassonne::GameState>(1)
                .unwrap_or_else(|e| panic!("{}: {}: {e}", path.display(), c.name));
        }
    }
}
