//! Constants fitted inside evolution (`noise.fit_constants`): on a bandit whose best exploration
//! constant is far below the seed's, fitting brings the constant down and the fitted formula
//! replaces the survivor; the generation file records both, its games count in the run's
//! samples; a run with fitting resumes byte for byte on another thread count; the settings are
//! bounded, naming the field, and a spec without them is unchanged.

use crate::evolve_resume::files;
use crate::support::evolve_opts as options;
use evomcts::evolve::fitness::{evaluate_all, Request};
use evomcts::evolve::run::generation_seeds;
use evomcts::evolve::{run_evolution, Estimate, EvolveSpec, Generation};
use evomcts::formula::{Expr, Formula};
use std::path::Path;

/// UCB with the coefficient 4 on sqrt(ln N / n): on 5 arms 0.2 apart over 300 pulls it explores
/// far too much (its best coefficient is below 1, see the first test).
const SPEC: &str = r#"(
    name: "fitted-bandit",
    seed: 3,
    seed_formula: "Q + 4*sqrt(ln(N)/n)",
    strategy: (mu: 2, lambda: 2, generations: 3, plus: true, initial: Seed),
    noise: (samples: 12, elites: 1, elite_samples: 4,
            fit_constants: (candidates: 1, steps: 6, samples: 12)),
    fitness: Bandit(arms: 5, epsilon: 0.2, horizon: 300, c_e: 0.5),
)"#;

fn spec() -> EvolveSpec {
    EvolveSpec::from_ron(SPEC, "fitted.ron").unwrap()
}

fn scratch(name: &str) -> std::path::PathBuf {
    crate::support::scratch("evolve_fitting", name)
}

fn generation(dir: &Path, g: usize) -> Generation {
    Generation::read(&dir.join(format!("gen-{g:03}.ron")), g).unwrap()
}

/// The first constant of `formula`.
fn constant(formula: &Formula) -> f64 {
    let mut found = None;
    formula.expr().for_each_node(&mut |n| {
        if let (Expr::Const(v), None) = (n, found) {
            found = Some(*v);
        }
    });
    found.unwrap()
}

/// The mean fitness of UCB with coefficient `c` on 200 bandit runs of the spec's domain.
fn mean_fitness(spec: &EvolveSpec, c: f64) -> f64 {
    let formula: Formula = format!("Q + {c}*sqrt(ln(N)/n)").parse().unwrap();
    let seeds: Vec<u64> = (1_000..1_200).collect();
    let samples = evaluate_all(
        &spec.fitness,
        &[Request {
            formula: &formula,
            seeds: &seeds,
        }],
    )
    .unwrap();
    Estimate::from_samples(&samples[0]).mean
}

/// The domain's known answer first (measured here on 200 runs each: the coefficient 4 loses to
/// every one from 0.5 to 2), then the run: generation 0's fitting moves the survivor's 4 down,
/// and the fitted formula, better on the paired samples, takes its place among the parents as
/// an individual of its own. With the step's sign flipped in `fitting` this fails.
#[test]
fn fitting_brings_an_over_exploring_constant_down_and_replaces_the_survivor() {
    let spec = spec();
    let at_four = mean_fitness(&spec, 4.0);
    for c in [0.5, 1.0, 2.0] {
        assert!(mean_fitness(&spec, c) > at_four, "{c} is not better than 4");
    }
    let dir = scratch("run");
    run_evolution(&spec, &options(&dir, 2, false, Some(0))).unwrap();
    let g0 = generation(&dir, 0);
    assert_eq!(g0.fitting.len(), 1);
    let r = &g0.fitting[0];
    assert_eq!(r.before.to_string(), "Q + 4*sqrt(ln(N)/n)");
    assert!(constant(&r.after) < 4.0, "{}", r.after);
    assert!(r.after_fitness.mean > r.before_fitness.mean, "{r:?}");
    assert!(r.replaced, "{r:?}");
    assert_eq!((r.parameters, r.steps, r.spent), (1, 6, 14 * 12));
    // The fitted formula is born in generation 0 from the survivor, with the next id.
    assert_eq!(r.fitted_id, 3);
    assert_eq!(g0.next_id, 4);
    let fitted = g0.parents.iter().find(|m| m.id == r.fitted_id).unwrap();
    assert_eq!(
        (fitted.parent, fitted.born, &fitted.formula),
        (Some(r.id), 0, &r.after)
    );
    assert!(g0.parents.iter().all(|m| m.id != r.id));
    // The survivor's samples are its own on the generation's first 12 sample seeds.
    let (common, _) = generation_seeds(&spec, 0);
    let before = evaluate_all(
        &spec.fitness,
        &[Request {
            formula: &r.before,
            seeds: &common[..12],
        }],
    )
    .unwrap();
    assert_eq!(Estimate::from_samples(&before[0]), r.before_fitness);
    // Its games count in the generation's samples: the parents', the reference's, the elite's
    // and the fitting's.
    let (mu, n, elite) = (2, 12, 4);
    assert_eq!(g0.spent, mu * n + (n + elite) + elite + r.spent);
    let text = std::fs::read_to_string(dir.join("gen-000.ron")).unwrap();
    assert!(text.contains("fitting: [") && text.contains("before_fitness:"));
}

/// A run with fitting stopped after generation 1 and resumed on another thread count writes the
/// same bytes as one never stopped. Without the fitted ids counted in `next_id` this fails.
#[test]
fn a_run_with_fitting_resumes_to_the_same_bytes() {
    let spec = spec();
    let whole = scratch("whole");
    run_evolution(&spec, &options(&whole, 1, false, None)).unwrap();
    let split = scratch("split");
    run_evolution(&spec, &options(&split, 2, false, Some(1))).unwrap();
    run_evolution(&spec, &options(&split, 2, true, None)).unwrap();
    assert_eq!(files(&whole), files(&split));
    let fitted: usize = (0..=3).map(|g| generation(&whole, g).fitting.len()).sum();
    assert_eq!(fitted, 4, "one survivor fitted each generation");
    // Each generation's ids: mu + 1 + lambda·g births, plus the fitted formulas.
    assert_eq!(generation(&whole, 3).next_id, 2 + 1 + 2 * 3 + fitted);
}

/// A generation file whose fitting records were removed no longer accounts for its ids, and
/// the resume refuses it, naming the file and the counter.
#[test]
fn a_generation_without_its_fitting_records_is_refused() {
    let spec = spec();
    let dir = scratch("edited");
    run_evolution(&spec, &options(&dir, 2, false, Some(1))).unwrap();
    let path = dir.join("gen-001.ron");
    let mut g = generation(&dir, 1);
    g.fitting.clear();
    std::fs::write(&path, g.to_ron()).unwrap();
    let error = run_evolution(&spec, &options(&dir, 2, true, None))
        .err()
        .expect("refused")
        .to_string();
    assert!(
        error.contains("gen-001.ron") && error.contains("next_id"),
        "{error}"
    );
}

#[test]
fn fitting_settings_are_bounded_and_absent_ones_leave_the_spec_unchanged() {
    let setting = "(candidates: 1, steps: 6, samples: 12)";
    for (bad, field) in [
        ("(candidates: 0, steps: 6, samples: 12)", "candidates"),
        ("(candidates: 3, steps: 6, samples: 12)", "candidates"),
        ("(candidates: 1, steps: 0, samples: 12)", "steps"),
        ("(candidates: 1, steps: 101, samples: 12)", "steps"),
        ("(candidates: 1, steps: 6, samples: 1)", "samples"),
        ("(candidates: 1, steps: 6, samples: 13)", "samples"),
        (
            "(candidates: 1, steps: 6, samples: 12, spread: 1)",
            "spread",
        ),
        ("(candidates: 1, steps: 6, samples: 12, c: 0.6)", "c"),
        ("(candidates: 1, steps: 6, samples: 12, z: 0)", "z"),
        ("(candidates: 1, steps: 6, samples: 12, a: -1)", "a"),
    ] {
        let text = SPEC.replace(setting, bad);
        let error = EvolveSpec::from_ron(&text, "bad.ron")
            .unwrap_err()
            .to_string();
        assert!(
            error.contains(&format!("noise.fit_constants.{field}")),
            "{bad}: {error}"
        );
    }
    let without = SPEC.replace(&format!(",\n            fit_constants: {setting}"), "");
    let plain = EvolveSpec::from_ron(&without, "plain.ron").unwrap();
    assert!(plain.noise.fit_constants.is_none());
    assert!(!plain.to_ron().contains("fit_constants"));
    assert_ne!(plain.hash(), spec().hash());
    // The run's budget and its ETA count the fitting's samples: 1 candidate × (2 × 6 steps + 2
    // evaluations) × 12 samples a generation, generation 0 included.
    let (with, without) = (
        spec().samples_per_generation(),
        plain.samples_per_generation(),
    );
    assert_eq!((with.0 - without.0, with.1 - without.1), (168, 168));
}
