//! Evolution folders that lost or damaged a generation in the middle are refused on resume,
//! naming the file; `spec.ron` follows a run that grew more generations (issue 18, defect 11).
//! A generation file holding a value no run of its spec could have written is refused by
//! `evolve --resume`, `report` and `plot all`, naming the file and the field (issue 43, cause 3).

use crate::reliability::{evolve_opts, EVOLVE};
use evomcts::evolve::{run_evolution, EvolveSpec};

fn scratch(name: &str) -> std::path::PathBuf {
    let dir = crate::support::scratch("relgen", name);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

// 11. A missing or damaged middle generation is found; spec.ron follows more generations.
#[test]
fn evolution_folders_with_a_missing_middle_generation_are_refused() {
    let spec = EvolveSpec::from_ron(EVOLVE, "tiny-bandit.ron").unwrap();
    let dir = scratch("gens");
    run_evolution(&spec, &evolve_opts(&dir, false, Some(2))).unwrap();
    let middle = dir.join("gen-001.ron");
    let saved = std::fs::read(&middle).unwrap();
    std::fs::remove_file(&middle).unwrap();
    let err = run_evolution(&spec, &evolve_opts(&dir, true, None))
        .err()
        .expect("a gap is refused")
        .to_string();
    assert!(
        err.contains("gen-001.ron") && err.contains("missing"),
        "{err}"
    );
    std::fs::write(&middle, b"Generation(oops").unwrap();
    let err = run_evolution(&spec, &evolve_opts(&dir, true, None))
        .err()
        .expect("a damaged generation is refused")
        .to_string();
    assert!(err.contains("gen-001.ron"), "{err}");
    std::fs::write(&middle, saved).unwrap();
    run_evolution(&spec, &evolve_opts(&dir, true, None)).unwrap();
    // More generations later: the folder's spec says so.
    let longer = EvolveSpec::from_ron(
        &EVOLVE.replace("generations: 3", "generations: 5"),
        "tiny-bandit.ron",
    )
    .unwrap();
    let outcome = run_evolution(&longer, &evolve_opts(&dir, true, None)).unwrap();
    assert_eq!(outcome.last.generation, 5);
    let stored = EvolveSpec::from_file(dir.join("spec.ron")).unwrap();
    assert_eq!(stored.strategy.generations, 5);
    let _ = std::fs::remove_dir_all(dir);
}

/// A Pig evolution scored by win rate, stopped after generation 2 of 3 (built once; each test
/// edits a copy).
const PIG_EVOLVE: &str = r#"(
    name: "pig-values",
    seed: 5,
    strategy: (mu: 2, lambda: 3, generations: 3, plus: true),
    noise: (samples: 3, elites: 1, elite_samples: 3),
    fitness: Games(
        game: Pig(target: 20),
        candidate: (sims: 20, reward: WinLoss),
        baseline: Mcts(sims: 20, c_e: 1.0, reward: WinLoss),
        score: WinRate,
    ),
)"#;

fn pig_run() -> &'static std::path::Path {
    static RUN: std::sync::OnceLock<std::path::PathBuf> = std::sync::OnceLock::new();
    RUN.get_or_init(|| {
        let dir = crate::support::fixture_dir("relgen", "pig-values");
        let spec = EvolveSpec::from_ron(PIG_EVOLVE, "pig-values.ron").unwrap();
        run_evolution(&spec, &evolve_opts(&dir, false, Some(2))).unwrap();
        dir
    })
}

/// A copy of the Pig run whose `gen-002.ron` has, for each `(field, value)`, the first parent's
/// `field` (the first line `field: ...` after `parents: [`) set to `value`.
fn pig_run_with(name: &str, edits: &[(&str, &str)]) -> std::path::PathBuf {
    let dir = crate::support::scratch("relgen", name);
    std::fs::create_dir_all(&dir).unwrap();
    for entry in std::fs::read_dir(pig_run()).unwrap() {
        let path = entry.unwrap().path();
        std::fs::copy(&path, dir.join(path.file_name().unwrap())).unwrap();
    }
    let file = dir.join("gen-002.ron");
    let mut text = std::fs::read_to_string(&file).unwrap();
    let parents = text.find("parents: [").expect("a parents list");
    for (field, value) in edits {
        // A member's fields are indented 12 spaces in the list, its estimate's 16.
        let indent = if ["samples", "mean", "m2", "low", "high"].contains(field) {
            16
        } else {
            12
        };
        let key = format!("\n{}{field}: ", " ".repeat(indent));
        let at = parents
            + text[parents..]
                .find(&key)
                .unwrap_or_else(|| panic!("no {key:?}"));
        let start = at + key.len();
        let end = start + text[start..].find(",\n").unwrap();
        text.replace_range(start..end, value);
    }
    std::fs::write(&file, text).unwrap();
    dir
}

/// `evolve --resume`, `report` and `plot all` on `dir` each end with status 2 naming
/// `gen-002.ron`, `field` and `says`.
fn refused_everywhere(dir: &std::path::Path, field: &str, says: &str) {
    let d = dir.to_str().unwrap();
    let spec = dir.join("spec.ron");
    let out = dir.join("out");
    let o = out.to_str().unwrap();
    for args in [
        vec![
            "evolve",
            spec.to_str().unwrap(),
            "--out",
            d,
            "--resume",
            "--quiet",
        ],
        vec!["report", d, "--out", o],
        vec!["plot", "all", d, "--out", o],
    ] {
        let run = crate::support::evomcts(&args);
        let err = String::from_utf8_lossy(&run.stderr);
        assert_eq!(run.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.contains("gen-002.ron") && err.contains(field) && err.contains(says),
            "{args:?}: {err}"
        );
    }
    assert!(!dir.join("gen-003.ron").exists(), "the run went on");
}

#[test]
fn a_generation_with_a_nan_fitness_is_refused() {
    let dir = pig_run_with("nan", &[("mean", "NaN")]);
    refused_everywhere(
        &dir,
        "parents[0].fitness.mean",
        "NaN is not a number a run writes",
    );
}

#[test]
fn a_generation_with_a_win_rate_above_one_is_refused() {
    let dir = pig_run_with("huge", &[("mean", "1e308")]);
    refused_everywhere(
        &dir,
        "parents[0].fitness.mean",
        "is not a fitness this run could have written: a win rate of two games is from 0 to 1",
    );
}

#[test]
fn a_generation_with_an_interval_that_misses_its_mean_is_refused() {
    let dir = pig_run_with("low", &[("low", "5.0")]);
    refused_everywhere(&dir, "parents[0].fitness.low", "does not hold its mean");
}

/// Estimates no run writes, each refused for what its fields contradict.
#[test]
fn a_generation_with_an_estimate_its_fields_contradict_is_refused() {
    type Case<'a> = (&'a str, &'a [(&'a str, &'a str)], &'a str, &'a str);
    let cases: [Case; 6] = [
        // No samples beside a mean, a spread and an interval.
        (
            "no-samples",
            &[("samples", "0")],
            "parents[0].fitness.",
            "but the estimate has no samples (a run writes 0)",
        ),
        (
            "negative-m2",
            &[("m2", "-0.5")],
            "parents[0].fitness.m2",
            "is negative",
        ),
        (
            "wide-m2",
            &[("m2", "1000.0")],
            "parents[0].fitness.m2",
            "is more spread than",
        ),
        (
            "one-sample",
            &[("samples", "1"), ("m2", "0.25")],
            "parents[0].fitness.m2",
            "one sample has no spread",
        ),
        // An interval that holds the mean but is not its mean ∓ 1.96 standard errors.
        (
            "bounds",
            &[("low", "0.0"), ("high", "1.0")],
            "parents[0].fitness.low",
            "samples of mean",
        ),
        (
            "off-step",
            &[("mean", "0.3")],
            "parents[0].fitness.mean",
            "is no mean of",
        ),
    ];
    for (name, edits, field, says) in cases {
        let dir = pig_run_with(name, edits);
        refused_everywhere(&dir, field, says);
    }
}

#[test]
fn a_generation_with_a_member_born_later_is_refused() {
    let dir = pig_run_with("born", &[("born", "99")]);
    refused_everywhere(
        &dir,
        "parents[0].born",
        "99 is later than this file's generation 2",
    );
}

#[test]
fn a_generation_with_a_size_its_formula_does_not_have_is_refused() {
    let dir = pig_run_with("size", &[("size", "999")]);
    refused_everywhere(&dir, "parents[0].size", "999, but the formula's size is");
}

#[test]
fn a_generation_with_a_formula_the_grammar_cannot_breed_is_refused() {
    // Consistent size and depth, so only the grammar (Q, N, n, C; no V) refuses it.
    let dir = pig_run_with(
        "grammar",
        &[("formula", "\"Q + V\""), ("size", "3"), ("depth", "1")],
    );
    refused_everywhere(
        &dir,
        "parents[0].formula",
        "not one this run's grammar breeds: terminal V is not in the grammar",
    );
}

/// The untouched run resumes, and every committed evolution folder passes the checks.
#[test]
fn generations_a_run_wrote_pass_the_value_checks() {
    let dir = pig_run_with("intact", &[]);
    let spec = EvolveSpec::from_file(dir.join("spec.ron")).unwrap();
    let outcome = run_evolution(&spec, &evolve_opts(&dir, true, None)).unwrap();
    assert_eq!(outcome.last.generation, 3);
    let mut read = 0;
    let populations = std::fs::read_dir("populations")
        .unwrap()
        .map(|entry| entry.unwrap().path());
    for folder in populations.chain([std::path::PathBuf::from("runs/open-spiel/pig-evolution")]) {
        if folder.join("gen-000.ron").is_file() {
            evomcts::evolve::population::read_generations(&folder)
                .unwrap_or_else(|e| panic!("{}: {e}", folder.display()));
            read += 1;
        }
    }
    assert!(read >= 6, "only {read} committed evolution folders");
}

#[test]
fn a_generation_whose_best_fitness_is_out_of_range_is_refused() {
    let dir = pig_run_with("best", &[]);
    let file = dir.join("gen-002.ron");
    let text = std::fs::read_to_string(&file).unwrap();
    let start = text.find("\n    best: ").unwrap() + "\n    best: ".len();
    let end = start + text[start..].find(",\n").unwrap();
    std::fs::write(&file, format!("{}7.5{}", &text[..start], &text[end..])).unwrap();
    refused_everywhere(&dir, "best: 7.5", "a win rate of two games is from 0 to 1");
}
