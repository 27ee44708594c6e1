//! The front between simple and strong (`evolve::pareto`): a run whose spec asks for it
//! writes `pareto.csv` after its last generation, built from the hall of fame's distinct
//! simplified formulas and the seed formula on the front's own common seeds; a run stopped
//! before or during it resumes to the same bytes on another thread count; `evomcts pareto`
//! writes the same file for a run whose spec did not ask; parsimony pressure breeds smaller
//! survivors and, left out, leaves a spec's text (and hash) as it was.

use crate::evolve_resume::files;
use crate::support::evolve_opts as options;
use evomcts::evolve::fitness::{evaluate_all, Request};
use evomcts::evolve::pareto::{candidates, pareto_seeds, write_front, Front, Verdict, PARETO_CSV};
use evomcts::evolve::population::read_generations;
use evomcts::evolve::reestimate::reestimate_seeds;
use evomcts::evolve::run::generation_seeds;
use evomcts::evolve::{run_evolution, EvolveSpec, ParetoSpec};

const SPEC: &str = r#"(
    name: "pareto-bandit",
    seed: 11,
    strategy: (mu: 3, lambda: 6, generations: 3, plus: true),
    noise: (samples: 6, elites: 1, elite_samples: 6),
    fitness: Bandit(arms: 5, epsilon: 0.2, horizon: 200, c_e: 0.5),
    pareto: (candidates: 4, samples: 30),
)"#;

const PARETO: &str = ",\n    pareto: (candidates: 4, samples: 30),";

fn spec(text: &str) -> EvolveSpec {
    EvolveSpec::from_ron(text, "pareto.ron").unwrap()
}

fn scratch(name: &str) -> std::path::PathBuf {
    crate::support::scratch("evolve_pareto", name)
}

#[test]
fn a_run_that_asks_writes_the_front_of_its_simplified_candidates_on_the_front_seeds() {
    let spec = spec(SPEC);
    let dir = scratch("whole");
    run_evolution(&spec, &options(&dir, 2, false, None)).unwrap();
    let text = std::fs::read_to_string(dir.join(PARETO_CSV)).unwrap();
    // The file is the front of the hall's candidates, each re-played here on the front's seeds.
    let gens = read_generations(&dir).unwrap();
    let cands = candidates(&gens, 4);
    assert!(cands.len() >= 4 && cands.len() <= 5, "{}", cands.len());
    assert_eq!(
        cands.last().map(|c| c.id),
        Some(0),
        "the seed formula is judged"
    );
    let seeds = pareto_seeds(spec.seed, 30);
    let requests: Vec<Request<'_>> = cands
        .iter()
        .map(|c| Request {
            formula: &c.simplified,
            seeds: &seeds,
        })
        .collect();
    let samples = evaluate_all(&spec.fitness, &requests).unwrap();
    let front = Front::new(cands.clone(), &samples);
    assert_eq!(text, front.csv());
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some("complexity,verdict,id,born,mean,low,high,samples,against,p_holm,simplified,formula")
    );
    assert_eq!(lines.count(), cands.len());
    // Distinct simplified forms, complexities their node counts, at least one front member,
    // and the simplest candidate among them.
    for (i, c) in cands.iter().enumerate() {
        assert_eq!(c.complexity, c.simplified.size());
        assert_eq!(c.simplified, c.formula.simplify());
        assert!(cands[..i].iter().all(|d| d.simplified != c.simplified));
    }
    let members = front.members();
    let simplest = cands.iter().map(|c| c.complexity).min().unwrap();
    assert!(
        members
            .iter()
            .any(|&i| cands[i].complexity == simplest
                && front.judgements[i].verdict == Verdict::Front)
    );
}

#[test]
fn the_front_draws_seeds_no_generation_and_no_reestimate_draws() {
    let spec = spec(SPEC);
    let fresh = pareto_seeds(spec.seed, 1000);
    let reestimate = reestimate_seeds(spec.seed, 1000);
    assert!(fresh.iter().all(|s| !reestimate.contains(s)));
    for generation in 0..=50 {
        let (samples, elite) = generation_seeds(&spec, generation);
        assert!(samples.iter().chain(&elite).all(|s| !fresh.contains(s)));
    }
}

#[test]
fn a_run_stopped_before_or_during_the_front_resumes_to_the_same_bytes() {
    let spec = spec(SPEC);
    let whole = scratch("uninterrupted");
    run_evolution(&spec, &options(&whole, 1, false, None)).unwrap();

    let split = scratch("split");
    run_evolution(&spec, &options(&split, 2, false, Some(1))).unwrap();
    assert!(!split.join(PARETO_CSV).exists());
    run_evolution(&spec, &options(&split, 2, true, None)).unwrap();
    assert_eq!(files(&whole), files(&split));

    // Stopped during the front: every generation written, no pareto.csv yet.
    let during = scratch("during");
    run_evolution(&spec, &options(&during, 2, false, None)).unwrap();
    std::fs::remove_file(during.join(PARETO_CSV)).unwrap();
    run_evolution(&spec, &options(&during, 2, true, None)).unwrap();
    assert_eq!(files(&whole), files(&during));
}

#[test]
fn the_command_writes_the_same_front_for_a_run_whose_spec_did_not_ask() {
    let asked = scratch("asked");
    run_evolution(&spec(SPEC), &options(&asked, 2, false, None)).unwrap();
    let plain_spec = spec(&SPEC.replace(PARETO, ","));
    let plain = scratch("plain");
    run_evolution(&plain_spec, &options(&plain, 2, false, None)).unwrap();
    assert!(!plain.join(PARETO_CSV).exists());
    let settings = ParetoSpec {
        candidates: 4,
        samples: 30,
    };
    write_front(&plain_spec, &plain, settings, Some(2), &|| {}).unwrap();
    assert_eq!(
        std::fs::read(plain.join(PARETO_CSV)).unwrap(),
        std::fs::read(asked.join(PARETO_CSV)).unwrap()
    );
    // Through the binary, on the run's stored spec: the same file, and the table printed.
    std::fs::remove_file(plain.join(PARETO_CSV)).unwrap();
    let run = plain.to_str().unwrap();
    let (stdout, _) = crate::support::evomcts_ok(&[
        "pareto",
        run,
        "--samples",
        "30",
        "--candidates",
        "4",
        "--quiet",
    ]);
    assert!(
        stdout.contains("front: the candidates no simpler"),
        "{stdout}"
    );
    assert_eq!(
        std::fs::read(plain.join(PARETO_CSV)).unwrap(),
        std::fs::read(asked.join(PARETO_CSV)).unwrap()
    );
    // Another spec than the run's is refused, naming both hashes, and nothing is written.
    std::fs::remove_file(plain.join(PARETO_CSV)).unwrap();
    let other_dir = scratch("other-spec");
    std::fs::create_dir_all(&other_dir).unwrap();
    let other = other_dir.join("other.ron");
    std::fs::write(&other, SPEC.replace("seed: 11", "seed: 12")).unwrap();
    let out = crate::support::evomcts(&["pareto", run, "--spec", other.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("different spec"), "{stderr}");
    assert!(!plain.join(PARETO_CSV).exists());
    // Bad settings name the option.
    let out = crate::support::evomcts(&["pareto", run, "--samples", "1"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("pareto.samples"));
}

#[test]
fn pareto_and_parsimony_settings_are_bounded_and_absent_ones_leave_the_spec_unchanged() {
    for (from, to, field) in [
        ("candidates: 4", "candidates: 0", "pareto.candidates"),
        ("samples: 30", "samples: 1", "pareto.samples"),
        (
            "plus: true",
            "plus: true, parsimony: -1.0",
            "strategy.parsimony",
        ),
    ] {
        let error = EvolveSpec::from_ron(&SPEC.replace(from, to), "bad.ron")
            .unwrap_err()
            .to_string();
        assert!(error.contains(field), "{error}");
    }
    let plain = spec(&SPEC.replace(PARETO, ","));
    let text = plain.to_ron();
    assert!(
        !text.contains("pareto:") && !text.contains("parsimony"),
        "{text}"
    );
}

#[test]
fn parsimony_pressure_breeds_smaller_survivors() {
    // A long horizon's regret is tens of pulls; 5 per node outweighs any difference in it.
    let base = SPEC
        .replace(PARETO, ",")
        .replace("generations: 3", "generations: 4");
    let mean_size = |text: &str, name: &str| {
        let dir = scratch(name);
        run_evolution(&spec(text), &options(&dir, 2, false, None)).unwrap();
        let gens = read_generations(&dir).unwrap();
        let last = gens.last().unwrap();
        last.parents.iter().map(|m| m.size).sum::<usize>() as f64 / last.parents.len() as f64
    };
    let free = mean_size(&base, "free");
    let pressed = mean_size(
        &base.replace("plus: true", "plus: true, parsimony: 5.0"),
        "pressed",
    );
    assert!(pressed < free, "{pressed} vs {free}");
}
