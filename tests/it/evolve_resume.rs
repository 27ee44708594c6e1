//! Evolution runs on disk: a resumed run equals one never stopped (byte for byte), neither
//! the thread count nor progress reporting changes results, a corrupt generation file is reported with its
//! location and left alone, and spec errors name their place.

use evomcts::evolve::{run_evolution, EvolveError, EvolveSpec, RunOptions};
use std::path::{Path, PathBuf};

const SPEC: &str = r#"(
    name: "tiny-bandit",
    seed: 7,
    strategy: (mu: 2, lambda: 4, generations: 4, plus: true),
    noise: (samples: 8, elites: 1, elite_samples: 8),
    fitness: Bandit(arms: 5, epsilon: 0.2, horizon: 200, c_e: 0.5),
)"#;

fn spec_with_generations(generations: usize) -> EvolveSpec {
    let text = SPEC.replace("generations: 4", &format!("generations: {generations}"));
    EvolveSpec::from_ron(&text, "tiny.ron").unwrap()
}

fn scratch_dir(name: &str) -> PathBuf {
    crate::support::scratch("evolve", name)
}

use crate::support::evolve_opts as options;

/// Every file of the run folder, by name.
pub(crate) fn files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            (
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read(e.path()).unwrap(),
            )
        })
        .collect();
    out.sort();
    out
}

fn assert_same_files(a: &Path, b: &Path) {
    let (fa, fb) = (files(a), files(b));
    let names = |f: &[(String, Vec<u8>)]| f.iter().map(|x| x.0.clone()).collect::<Vec<_>>();
    assert_eq!(names(&fa), names(&fb));
    for ((name, x), (_, y)) in fa.iter().zip(&fb) {
        assert!(x == y, "{name} differs between {a:?} and {b:?}");
    }
}

#[test]
fn resumed_run_equals_uninterrupted_and_threads_do_not_matter() {
    let spec = spec_with_generations(4);
    let whole = scratch_dir("whole");
    let out = run_evolution(&spec, &options(&whole, 1, false, None)).unwrap();
    assert_eq!(out.last.generation, 4);
    assert_eq!(out.generations_run, 5);
    for g in 0..=4 {
        assert!(whole.join(format!("gen-{g:03}.ron")).exists());
    }

    // Two threads, stopped after generation 2, then resumed.
    let split = scratch_dir("split");
    let first = run_evolution(&spec, &options(&split, 2, false, Some(2))).unwrap();
    assert_eq!(first.last.generation, 2);
    assert!(!split.join("gen-003.ron").exists());
    // Starting afresh in a started folder is refused and writes nothing.
    let before = files(&split);
    let err = run_evolution(&spec, &options(&split, 2, false, None))
        .err()
        .unwrap();
    assert!(
        matches!(err, EvolveError::AlreadyStarted { last: 2, .. }),
        "{err}"
    );
    assert_eq!(before, files(&split));
    let second = run_evolution(&spec, &options(&split, 2, true, None)).unwrap();
    assert_eq!(second.resumed_from, Some(2));
    assert_eq!(second.generations_run, 2);
    assert_same_files(&whole, &split);

    // Uninterrupted with two threads, with progress counted on the workers and printed:
    // identical to one thread without progress.
    let two = scratch_dir("two");
    let with_progress = RunOptions {
        progress: true,
        ..options(&two, 2, false, None)
    };
    run_evolution(&spec, &with_progress).unwrap();
    assert_same_files(&whole, &two);

    // Resuming a finished run does nothing and changes nothing.
    let again = run_evolution(&spec, &options(&whole, 1, true, None)).unwrap();
    assert_eq!(again.generations_run, 0);
    assert_same_files(&whole, &two);

    for d in [whole, split, two] {
        std::fs::remove_dir_all(d).unwrap();
    }
}

#[test]
fn a_finished_run_extends_to_more_generations_as_if_planned() {
    let short = scratch_dir("short");
    run_evolution(&spec_with_generations(2), &options(&short, 2, false, None)).unwrap();
    run_evolution(&spec_with_generations(4), &options(&short, 2, true, None)).unwrap();
    let long = scratch_dir("long");
    run_evolution(&spec_with_generations(4), &options(&long, 2, false, None)).unwrap();
    // spec.ron keeps the first start's text; the populations must agree.
    for g in 0..=4 {
        let name = format!("gen-{g:03}.ron");
        assert_eq!(
            std::fs::read(short.join(&name)).unwrap(),
            std::fs::read(long.join(&name)).unwrap(),
            "{name}"
        );
    }
    std::fs::remove_dir_all(short).unwrap();
    std::fs::remove_dir_all(long).unwrap();
}

#[test]
fn a_corrupt_generation_is_reported_with_its_location_and_left_alone() {
    let spec = spec_with_generations(4);
    let dir = scratch_dir("corrupt");
    run_evolution(&spec, &options(&dir, 2, false, Some(2))).unwrap();
    let path = dir.join("gen-002.ron");
    let text = std::fs::read_to_string(&path).unwrap();
    // Break the first formula's text on its own line.
    let line = text
        .lines()
        .position(|l| l.contains("formula:"))
        .expect("a formula line")
        + 1;
    let broken = text.replacen("formula: \"", "formula: ((", 1);
    std::fs::write(&path, &broken).unwrap();
    let before = files(&dir);
    let err = run_evolution(&spec, &options(&dir, 2, true, None))
        .err()
        .unwrap();
    let msg = err.to_string();
    let location = format!("{}:{line}:", path.display());
    assert!(msg.starts_with(&location), "{msg} (expected {location})");
    assert!(msg.contains("corrupt"), "{msg}");
    assert_eq!(before, files(&dir), "nothing written after a corrupt file");
    assert!(!dir.join("gen-003.ron").exists());

    // A formula that does not parse is reported too.
    let bad_formula = text.replacen("formula: \"", "formula: \"Q + + ", 1);
    std::fs::write(&path, &bad_formula).unwrap();
    let msg = run_evolution(&spec, &options(&dir, 2, true, None))
        .err()
        .unwrap()
        .to_string();
    assert!(
        msg.contains(&format!("{}:{line}:", path.display())),
        "{msg}"
    );
    assert_eq!(std::fs::read_to_string(&path).unwrap(), bad_formula);

    // Restored, the run resumes.
    std::fs::write(&path, &text).unwrap();
    let out = run_evolution(&spec, &options(&dir, 2, true, None)).unwrap();
    assert_eq!(out.last.generation, 4);
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn spec_errors_name_line_and_column_or_the_field() {
    let bad = SPEC.replace("seed: 7,", "seed: seven,");
    let msg = EvolveSpec::from_ron(&bad, "tiny.ron")
        .unwrap_err()
        .to_string();
    assert!(msg.starts_with("tiny.ron:3:"), "{msg}");

    let bad = SPEC.replace(
        "mu: 2, lambda: 4, generations: 4, plus: true",
        "mu: 4, lambda: 2, generations: 4",
    );
    let msg = EvolveSpec::from_ron(&bad, "tiny.ron")
        .unwrap_err()
        .to_string();
    assert!(
        msg.contains("field `strategy`") && msg.contains("lambda"),
        "{msg}"
    );

    let bad = SPEC.replace("epsilon: 0.2", "epsilon: 0.7");
    let msg = EvolveSpec::from_ron(&bad, "tiny.ron")
        .unwrap_err()
        .to_string();
    assert!(msg.contains("fitness.epsilon"), "{msg}");

    let bad = SPEC.replace("samples: 8, elites: 1", "samples: 1, elites: 1");
    let msg = EvolveSpec::from_ron(&bad, "tiny.ron")
        .unwrap_err()
        .to_string();
    assert!(msg.contains("noise.samples"), "{msg}");

    let bad = SPEC.replace("seed: 7,", "seed: 7, grammar: \"no/such/grammar.ron\",");
    let msg = EvolveSpec::from_ron(&bad, "tiny.ron")
        .unwrap_err()
        .to_string();
    assert!(
        msg.contains("field `grammar`") && msg.contains("no/such/grammar.ron"),
        "{msg}"
    );

    let bad = SPEC.replace("seed: 7,", "seed: 7, seed_formula: \"Q + \",");
    let msg = EvolveSpec::from_ron(&bad, "tiny.ron")
        .unwrap_err()
        .to_string();
    assert!(msg.starts_with("tiny.ron:3:"), "{msg}");
}

#[test]
fn resuming_under_a_different_spec_is_refused() {
    let dir = scratch_dir("changed");
    run_evolution(&spec_with_generations(1), &options(&dir, 2, false, None)).unwrap();
    let other = EvolveSpec::from_ron(&SPEC.replace("seed: 7,", "seed: 8,"), "other.ron").unwrap();
    let before = files(&dir);
    let err = run_evolution(&other, &options(&dir, 2, true, None))
        .err()
        .unwrap();
    assert!(matches!(err, EvolveError::SpecChanged { .. }), "{err}");
    assert_eq!(before, files(&dir));
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn comma_selection_keeps_the_best_offspring_and_plus_lets_parents_compete() {
    use evomcts::evolve::Generation;
    for plus in [false, true] {
        let text = SPEC.replace("plus: true", &format!("plus: {plus}"));
        let spec = EvolveSpec::from_ron(&text, "tiny.ron").unwrap();
        let dir = scratch_dir(&format!("select-{plus}"));
        run_evolution(&spec, &options(&dir, 2, false, None)).unwrap();
        let mut older_parent_survived = false;
        for g in 1..=4 {
            let generation = Generation::read(&dir.join(format!("gen-{g:03}.ron")), g).unwrap();
            assert_eq!(generation.offspring.len(), 4);
            assert_eq!(generation.parents.len(), 2);
            for child in &generation.offspring {
                assert_eq!(child.born, g);
                assert_eq!(child.fitness.samples, 8);
                assert!(child.parent.is_some());
            }
            let mut ranked = generation.offspring.clone();
            ranked.sort_by(|a, b| b.fitness.mean.total_cmp(&a.fitness.mean));
            let cutoff = ranked[1].fitness.mean;
            if !plus {
                // (μ, λ): the survivors are the two best offspring.
                for p in &generation.parents {
                    assert_eq!(p.born, g);
                    let at_selection = generation.offspring.iter().find(|c| c.id == p.id).unwrap();
                    assert!(at_selection.fitness.mean >= cutoff);
                }
            } else {
                older_parent_survived |= generation.parents.iter().any(|p| p.born < g);
                // Re-evaluated survivors carry more samples than one evaluation.
                for p in generation.parents.iter().filter(|p| p.born < g) {
                    assert!(p.fitness.samples > 8, "{p:?}");
                }
            }
            // The champion is the best elite: a survivor with the extra samples.
            assert!(generation.parents.iter().any(|p| p == &generation.champion));
            assert!(generation.champion.fitness.samples >= 16);
        }
        assert!(
            !plus || older_parent_survived,
            "no parent ever survived in (2 + 4)"
        );
        std::fs::remove_dir_all(dir).unwrap();
    }
}

/// A committed run begun before specs carried the files they name: its `spec.ron` names its
/// grammar by a path relative to the working directory, and its generation files carry that
/// spec's hash. Resumed from its spec file it keeps its own hash and writes the same bytes; a
/// stored spec whose named file now holds another grammar is refused.
#[test]
fn a_run_stored_with_a_grammar_path_resumes_with_its_own_hash() {
    let committed = Path::new(env!("CARGO_MANIFEST_DIR")).join("populations/carcassonne-uct100");
    let stored = std::fs::read_to_string(committed.join("spec.ron")).unwrap();
    assert!(
        stored.contains("grammar: \"grammars/carcassonne_scaled.ron\""),
        "{stored}"
    );
    let copy = crate::support::scratch("evolve-resume", "legacy");
    std::fs::create_dir_all(&copy).unwrap();
    for (name, bytes) in files(&committed) {
        std::fs::write(copy.join(name), bytes).unwrap();
    }
    let spec = EvolveSpec::from_file("runs/evolve/carcassonne-uct100.ron").unwrap();
    let outcome = run_evolution(&spec, &options(&copy, 2, true, None)).unwrap();
    assert_eq!(outcome.last.generation, 12);
    let run_files = |dir: &Path| -> Vec<(String, Vec<u8>)> {
        files(dir)
            .into_iter()
            .filter(|(name, _)| name != ".evomcts.lock")
            .collect()
    };
    let (before, after) = (run_files(&committed), run_files(&copy));
    assert_eq!(before.len(), after.len());
    for ((name, a), (_, b)) in before.iter().zip(&after) {
        assert!(a == b, "{name} differs after the resume");
    }

    let other = stored.replace(
        "grammars/carcassonne_scaled.ron",
        "grammars/carcassonne_scaled_tuned.ron",
    );
    std::fs::write(copy.join("spec.ron"), other).unwrap();
    let refused = run_evolution(&spec, &options(&copy, 2, true, None))
        .err()
        .expect("refused");
    assert!(refused.to_string().contains("spec.ron"), "{refused}");
    std::fs::remove_dir_all(&copy).unwrap();
}
