//! Validation: its tile sequences are disjoint from every sequence evolution and the UCT
//! sweep play; a formula equal to the baseline comes out exactly even; games resume byte for
//! byte; the sweep finds the opponent's own constant exactly even; bandit baselines.

use evomcts::evolve::bandit::BanditScratch;
use evomcts::evolve::fitness::sample;
use evomcts::evolve::namespace::{
    evolution_tile_seed, is_validation_seed, sweep_tile_seed, validation_tile_seed, VALIDATION_BIT,
};
use evomcts::evolve::run::generation_seeds;
use evomcts::evolve::spec::BanditSpec;
use evomcts::evolve::{EvolveSpec, FitnessSpec};
use evomcts::formula::{CompiledFormula, Formula};
use evomcts::runfs::SpecFile;
use evomcts::validation::sweep::{run_sweep, SweepSpec};
use evomcts::validation::{bandit_baselines, run_validation, thompson_regret, ValidateSpec};
use std::collections::HashSet;
use std::path::PathBuf;

/// Every tile sequence a run of `spec` can play: all generations' sample seeds (racing's cap
/// included) and elite seeds.
fn evolution_sequences(spec: &EvolveSpec) -> HashSet<u64> {
    let mut out = HashSet::new();
    for g in 0..=spec.strategy.generations {
        let (samples, elites) = generation_seeds(spec, g);
        out.extend(samples.into_iter().chain(elites).map(evolution_tile_seed));
    }
    out
}

fn committed(dir: &str, ext: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == ext))
        .collect();
    v.sort();
    v
}

#[test]
fn validation_sequences_are_disjoint_from_evolution_and_sweep_sequences() {
    // By construction: the top bit separates the namespaces, for any master seeds.
    for master in [0, 1, 7, u64::MAX] {
        for j in 0..2000 {
            assert!(is_validation_seed(validation_tile_seed(master, j)));
            assert!(!is_validation_seed(sweep_tile_seed(master, j)));
        }
    }
    for s in [0, 1, VALIDATION_BIT, u64::MAX, 0x8000_0000_0000_0001] {
        assert!(!is_validation_seed(evolution_tile_seed(s)));
    }
    // And over the ranges actually used by the committed specs (every file in
    // runs/validate is one or the other).
    let mut validation = HashSet::new();
    for path in committed("runs/validate", "ron") {
        if let Ok(spec) = ValidateSpec::from_file(&path) {
            validation.extend(spec.tile_seeds());
        } else {
            SweepSpec::from_file(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        }
    }
    let mut seen = HashSet::new();
    for path in committed("runs/validate", "ron") {
        if let Ok(spec) = SweepSpec::from_file(&path) {
            seen.extend(spec.tile_seeds());
        }
    }
    for path in committed("runs/evolve", "ron") {
        let spec = EvolveSpec::from_file(&path).unwrap();
        if matches!(spec.fitness, FitnessSpec::Games(_)) {
            seen.extend(evolution_sequences(&spec));
        }
    }
    assert!(
        validation.len() >= 500,
        "{} validation sequences",
        validation.len()
    );
    assert!(
        seen.len() >= 500,
        "{} evolution and sweep sequences",
        seen.len()
    );
    assert!(validation.is_disjoint(&seen));
}

#[test]
fn the_fitness_plays_the_evolution_namespace_whatever_the_sample_seed() {
    let spec = EvolveSpec::from_ron(
        r#"(name: "ns", seed: 1, strategy: (mu: 1, lambda: 1, generations: 1),
            noise: (samples: 2, elite_samples: 0),
            fitness: Carcassonne(candidate: (sims: 6), baseline: Mcts(sims: 6)))"#,
        "ns.ron",
    )
    .unwrap();
    let f: Formula = "Q + 2/n".parse().unwrap();
    let c = CompiledFormula::new(&f).unwrap();
    let mut scratch = BanditScratch::default();
    for s in [3u64, 4] {
        let low = sample(&spec.fitness, &f, &c, s, &mut scratch).unwrap();
        let high = sample(&spec.fitness, &f, &c, s | VALIDATION_BIT, &mut scratch).unwrap();
        assert_eq!(low, high, "sample seed {s}: the top bit must be cleared");
    }
}

const VALIDATE: &str = r#"(
    name: "tiny-validate",
    seed: 4,
    sequences: 5,
    candidate: Mcts(sims: 8, reward: ScaledScoreDiff(50.0), selection: Formula("Q + 2*C*sqrt(2*ln(N)/n)"), c_e: 0.25),
    baseline: Mcts(sims: 8, reward: ScaledScoreDiff(50.0), c_e: 0.25),
)"#;

use crate::support::validate_opts as opts;

fn scratch(name: &str) -> PathBuf {
    crate::support::scratch("validate", name)
}

#[test]
fn a_formula_equal_to_the_baseline_validates_exactly_even() {
    let spec = ValidateSpec::from_ron(VALIDATE, "v.ron").unwrap();
    let dir = scratch("even");
    let s = run_validation(&spec, &opts(&dir, false, 2, None)).unwrap();
    assert_eq!((s.sequences, s.games), (5, 10));
    assert_eq!(s.diff_mean, 0.0);
    assert_eq!(s.wins, s.losses);
    assert_eq!(s.win_rate, 0.5);
    assert_eq!(s.wilcoxon_p, 1.0);
    let games = std::fs::read_to_string(dir.join("games.csv")).unwrap();
    assert_eq!(games.lines().count(), 11);
    for line in games.lines().skip(1) {
        let seed: u64 = line.split(',').nth(2).unwrap().parse().unwrap();
        assert!(is_validation_seed(seed), "{line}");
    }
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn validation_resumes_byte_for_byte_and_refuses_a_changed_spec() {
    let spec = ValidateSpec::from_ron(
        &VALIDATE.replace(
            "selection: Formula(\"Q + 2*C*sqrt(2*ln(N)/n)\")",
            "selection: Formula(\"Q + 2/n\")",
        ),
        "v.ron",
    )
    .unwrap();
    let whole = scratch("whole");
    let a = run_validation(&spec, &opts(&whole, false, 1, None)).unwrap();
    assert_ne!(
        a.diff_mean, 0.0,
        "a different formula plays different games"
    );
    let split = scratch("split");
    run_validation(&spec, &opts(&split, false, 2, Some(2))).unwrap();
    assert!(
        run_validation(&spec, &opts(&split, false, 2, None)).is_err(),
        "needs --resume"
    );
    let b = run_validation(&spec, &opts(&split, true, 2, None)).unwrap();
    assert_eq!(a, b);
    for f in ["games.csv", "summary.md", "spec.ron"] {
        assert_eq!(
            std::fs::read(whole.join(f)).unwrap(),
            std::fs::read(split.join(f)).unwrap(),
            "{f}"
        );
    }
    let other = ValidateSpec::from_ron(&VALIDATE.replace("seed: 4", "seed: 5"), "v.ron").unwrap();
    let err = run_validation(&other, &opts(&split, true, 2, None)).unwrap_err();
    assert!(err.to_string().contains("different spec"), "{err}");
    for d in [whole, split] {
        std::fs::remove_dir_all(d).unwrap();
    }
}

#[test]
fn validation_spec_errors_name_the_field() {
    for (from, to, field) in [
        ("sequences: 5", "sequences: 1", "sequences"),
        ("sims: 8, reward", "sims: 0, reward", "candidate"),
        ("name: \"tiny-validate\"", "name: \"a/b\"", "name"),
    ] {
        let err = ValidateSpec::from_ron(&VALIDATE.replacen(from, to, 1), "v.ron")
            .unwrap_err()
            .to_string();
        assert!(err.contains(field), "{to}: {err}");
    }
}

#[test]
fn the_sweep_finds_the_opponents_own_constant_exactly_even() {
    let spec = SweepSpec::from_ron(
        r#"(name: "tiny-sweep", seed: 2, sequences: 3,
            settings: (sims: 8, reward: ScaledScoreDiff(50.0)),
            c_values: [0.1, 0.5],
            opponent: Mcts(sims: 8, reward: ScaledScoreDiff(50.0), c_e: 0.5))"#,
        "s.ron",
    )
    .unwrap();
    let dir = scratch("sweep");
    let out = run_sweep(&spec, &opts(&dir, false, 2, None)).unwrap();
    assert_eq!(out.summaries.len(), 2);
    assert_eq!(out.summaries[1].1.diff_mean, 0.0);
    assert_eq!(out.summaries[1].1.win_rate, 0.5);
    let best = out
        .summaries
        .iter()
        .max_by(|a, b| a.1.diff_mean.total_cmp(&b.1.diff_mean))
        .unwrap();
    assert_eq!(out.best, best.0);
    assert!(
        std::fs::read_to_string(dir.join("sweep.csv"))
            .unwrap()
            .lines()
            .count()
            == 3
    );
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn bandit_baselines_are_measured_on_shared_runs() {
    let spec = BanditSpec {
        arms: 5,
        epsilon: 0.2,
        horizon: 300,
        ..BanditSpec::default()
    };
    // Thompson sampling is a real bandit policy: far below uniform play.
    let runs = 200;
    let ts = (0..runs).map(|s| thompson_regret(&spec, s)).sum::<f64>() / runs as f64;
    let uniform = 0.8 * 300.0 * 0.2;
    assert!(ts < 0.5 * uniform, "Thompson {ts} vs uniform {uniform}");
    let champion: Formula = "Q + 2/n".parse().unwrap();
    let reference: Formula = "Q + 2*C*sqrt(2*ln(N)/n)".parse().unwrap();
    let b = bandit_baselines(&spec, 1, &champion, &reference, &[0.1, 0.5, 1.0], 100, 200).unwrap();
    let min = b.sweep.iter().map(|s| s.1).fold(f64::INFINITY, f64::min);
    assert_eq!(b.sweep.iter().find(|s| s.0 == b.best_c).unwrap().1, min);
    assert_eq!(b.lines.len(), 6);
    assert!(b.lines[0].champion_minus.is_none());
    // Paired differences: the champion minus itself would be 0; minus another policy it is
    // the difference of the two means, exactly (same runs).
    for l in &b.lines[1..] {
        let (d, lo, hi, p) = l.champion_minus.unwrap();
        assert!((d - (b.lines[0].regret - l.regret)).abs() < 1e-9);
        assert!(lo <= d && d <= hi && (0.0..=1.0).contains(&p));
    }
}
