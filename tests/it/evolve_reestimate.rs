//! The champion's re-estimate: the hall of fame's best re-played on fresh samples from a seed
//! stream no generation draws from, the champion crowned by those, both estimates written to
//! `reestimate.csv`, and a run resumed (between generations or during the re-estimate) equal
//! to one never stopped, byte for byte.

use crate::evolve_resume::files;
use crate::support::evolve_opts as options;
use evomcts::evolve::fitness::{evaluate_all, Request};
use evomcts::evolve::reestimate::{reestimate_seeds, REESTIMATE_CSV};
use evomcts::evolve::run::generation_seeds;
use evomcts::evolve::{run_evolution, Estimate, EvolveSpec};
use evomcts::formula::Formula;

const SPEC: &str = r#"(
    name: "reestimated-bandit",
    seed: 9,
    strategy: (mu: 2, lambda: 4, generations: 3, plus: true),
    noise: (samples: 6, elites: 1, elite_samples: 6, reestimate: (candidates: 3, samples: 20)),
    fitness: Bandit(arms: 5, epsilon: 0.2, horizon: 200, c_e: 0.5),
)"#;

fn spec() -> EvolveSpec {
    EvolveSpec::from_ron(SPEC, "reestimated.ron").unwrap()
}

fn scratch(name: &str) -> std::path::PathBuf {
    crate::support::scratch("evolve_reestimate", name)
}

/// The rows of `reestimate.csv` as (id, fresh mean, fresh samples, crowned, formula).
fn rows(dir: &std::path::Path) -> Vec<(usize, f64, u64, bool, String)> {
    let text = std::fs::read_to_string(dir.join(REESTIMATE_CSV)).unwrap();
    let mut lines = text.lines();
    assert!(lines
        .next()
        .unwrap()
        .starts_with("rank,id,born,evolution_mean"));
    lines
        .map(|line| {
            let (numbers, formula) = line.split_once(",\"").unwrap();
            let cells: Vec<&str> = numbers.split(',').collect();
            (
                cells[1].parse().unwrap(),
                cells[7].parse().unwrap(),
                cells[10].parse().unwrap(),
                cells[11] == "true",
                formula.trim_end_matches('"').replace("\"\"", "\""),
            )
        })
        .collect()
}

#[test]
fn the_champion_is_the_best_of_the_hall_of_fame_on_fresh_samples() {
    let spec = spec();
    let dir = scratch("whole");
    let outcome = run_evolution(&spec, &options(&dir, 2, false, None)).unwrap();
    let (reestimated, crowned) = outcome
        .reestimated
        .expect("the last generation was reached");
    let rows = rows(&dir);
    assert_eq!(rows.len(), 3);
    assert_eq!(reestimated.len(), 3);
    assert_eq!(rows.iter().filter(|r| r.3).count(), 1);
    let best = rows.iter().map(|r| r.1).fold(f64::NEG_INFINITY, f64::max);
    let winner = &rows[crowned];
    assert!(winner.3 && winner.1 == best);
    let champion = std::fs::read_to_string(dir.join("champion.txt")).unwrap();
    assert_eq!(champion.trim(), winner.4);
    // Each fresh estimate is its formula's samples on the re-estimate's own seeds.
    let seeds = reestimate_seeds(spec.seed, 20);
    for row in &rows {
        assert_eq!(row.2, 20);
        let formula: Formula = row.4.parse().unwrap();
        let samples = evaluate_all(
            &spec.fitness,
            &[Request {
                formula: &formula,
                seeds: &seeds,
            }],
        )
        .unwrap();
        let fresh = Estimate::from_samples(&samples[0]);
        assert!((fresh.mean - row.1).abs() <= 1e-12 * fresh.mean.abs().max(1.0));
    }
}

#[test]
fn the_reestimate_draws_seeds_no_generation_draws() {
    let spec = spec();
    let fresh = reestimate_seeds(spec.seed, 1000);
    for generation in 0..=50 {
        let (samples, elite) = generation_seeds(&spec, generation);
        assert!(samples.iter().chain(&elite).all(|s| !fresh.contains(s)));
    }
    // Another master seed draws other fresh seeds.
    assert!(reestimate_seeds(spec.seed + 1, 1000)
        .iter()
        .all(|s| !fresh.contains(s)));
}

#[test]
fn a_run_stopped_before_or_during_the_reestimate_resumes_to_the_same_bytes() {
    let spec = spec();
    let whole = scratch("uninterrupted");
    run_evolution(&spec, &options(&whole, 1, false, None)).unwrap();

    let split = scratch("split");
    let first = run_evolution(&spec, &options(&split, 2, false, Some(1))).unwrap();
    assert!(first.reestimated.is_none());
    assert!(!split.join(REESTIMATE_CSV).exists());
    run_evolution(&spec, &options(&split, 2, true, None)).unwrap();
    assert_eq!(files(&whole), files(&split));

    // Stopped during the re-estimate: the last generation written, its own champion in
    // champion.txt, no reestimate.csv yet.
    let during = scratch("during");
    let last = run_evolution(&spec, &options(&during, 1, false, Some(3))).unwrap();
    assert!(last.reestimated.is_some());
    std::fs::remove_file(during.join(REESTIMATE_CSV)).unwrap();
    std::fs::write(
        during.join("champion.txt"),
        format!("{}\n", last.last.champion.formula),
    )
    .unwrap();
    run_evolution(&spec, &options(&during, 1, true, None)).unwrap();
    assert_eq!(files(&whole), files(&during));
}

#[test]
fn reestimate_settings_are_bounded_and_absent_ones_leave_the_spec_unchanged() {
    for (setting, field) in [
        (
            "(candidates: 0, samples: 20)",
            "noise.reestimate.candidates",
        ),
        (
            "(candidates: 101, samples: 20)",
            "noise.reestimate.candidates",
        ),
        ("(candidates: 3, samples: 1)", "noise.reestimate.samples"),
    ] {
        let text = SPEC.replace("(candidates: 3, samples: 20)", setting);
        let error = EvolveSpec::from_ron(&text, "bad.ron")
            .unwrap_err()
            .to_string();
        assert!(error.contains(field), "{error}");
    }
    let without = SPEC.replace(", reestimate: (candidates: 3, samples: 20)", "");
    let spec = EvolveSpec::from_ron(&without, "plain.ron").unwrap();
    assert!(!spec.to_ron().contains("reestimate:"));
}

#[test]
fn the_report_shows_the_estimates_before_and_after_the_reestimate() {
    let dir = scratch("report");
    run_evolution(&spec(), &options(&dir, 2, false, None)).unwrap();
    let rows = rows(&dir);
    let crowned = rows.iter().find(|r| r.3).unwrap();
    let out = dir.join("report");
    evomcts::analysis::report::write_evolution_report(&dir, &out).unwrap();
    let page = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert!(page.contains(&format!("Champion by the re-estimate (#{})", crowned.0)));
    assert!(page.contains("id=\"reestimate\""));
    // Every candidate's fresh mean is in the table, to three decimals.
    for row in &rows {
        assert!(page.contains(&format!("{:.3}", row.1)), "{}", row.1);
    }
}

#[test]
fn a_report_of_a_run_without_a_reestimate_has_no_such_section() {
    let dir = scratch("report-none");
    let text = SPEC.replace(", reestimate: (candidates: 3, samples: 20)", "");
    let spec = EvolveSpec::from_ron(&text, "plain.ron").unwrap();
    run_evolution(&spec, &options(&dir, 2, false, None)).unwrap();
    let out = dir.join("report");
    evomcts::analysis::report::write_evolution_report(&dir, &out).unwrap();
    let page = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert!(!page.contains("re-estimate"));
}
