//! Racing and common random numbers: racing never drops the true best of a constructed
//! fitness with known means and gives the games it saves to the contenders; two copies of
//! one formula get identical samples; a raced run resumes byte for byte.

use evomcts::evolve::fitness::{evaluate_all, Request};
use evomcts::evolve::racing::race;
use evomcts::evolve::{run_evolution, EvolveSpec, RacingSpec};
use evomcts::formula::Formula;
use evomcts::games::GameRng;
use evomcts::league::schedule::derive_seed;
use rand::SeedableRng;
use rand_distr::{Distribution, Normal};

/// Sample of candidate `i` on seed `s`: its known mean plus noise shared by all candidates
/// on that seed (common random numbers) plus noise of its own.
fn constructed(means: &[f64], i: usize, s: u64) -> f64 {
    let normal = Normal::new(0.0, 1.0).unwrap();
    let mut shared = GameRng::seed_from_u64(derive_seed(s, &[0]));
    let mut own = GameRng::seed_from_u64(derive_seed(s, &[1, i as u64]));
    means[i] + 3.0 * normal.sample(&mut shared) + normal.sample(&mut own)
}

struct RaceStats {
    best_dropped: usize,
    worst_dropped: usize,
    extra_for_best: usize,
    best_alone: usize,
}

/// Races 300 replications of `means` (candidate 3 is the true best, 0 and 1 far worse).
fn race_replications(means: &[f64]) -> RaceStats {
    let samples = 16;
    let racing = RacingSpec {
        batch: 4,
        min_samples: 8,
        z: 2.326,
        max_samples: 64,
    };
    let mut stats = RaceStats {
        best_dropped: 0,
        worst_dropped: 0,
        extra_for_best: 0,
        best_alone: 0,
    };
    for rep in 0..300 {
        let seeds: Vec<u64> = (0..64).map(|j| derive_seed(rep, &[j])).collect();
        let out = race::<()>(
            means.len(),
            &seeds,
            samples,
            Some(&racing),
            |idx, batch| {
                Ok(idx
                    .iter()
                    .map(|&i| batch.iter().map(|&s| constructed(means, i, s)).collect())
                    .collect())
            },
            |p| assert!(p.spent <= p.budget, "{p:?}"),
        )
        .unwrap();
        // Never more than the nominal budget; every sample list is a prefix of the seeds.
        assert!(out.spent <= (samples * means.len()) as u64);
        assert_eq!(
            out.spent,
            out.samples.iter().map(|s| s.len() as u64).sum::<u64>()
        );
        for (i, xs) in out.samples.iter().enumerate() {
            match out.dropped_after[i] {
                Some(after) => {
                    assert_eq!(xs.len() as u64, after);
                    assert!(xs.len() >= racing.min_samples);
                }
                None => assert!(xs.len() >= samples),
            }
        }
        stats.best_dropped += usize::from(out.dropped_after[3].is_some());
        stats.worst_dropped +=
            usize::from(out.dropped_after[0].is_some() && out.dropped_after[1].is_some());
        stats.extra_for_best += usize::from(out.samples[3].len() > samples);
        stats.best_alone +=
            usize::from((0..means.len()).all(|i| (i == 3) == out.dropped_after[i].is_none()));
    }
    stats
}

#[test]
fn racing_never_drops_the_true_best_and_gives_it_the_saved_games() {
    // The true best (candidate 3) leads the next by 0.8; noise of their paired differences
    // has sd √2, plus large shared noise that common random numbers cancel.
    let separated = race_replications(&[-2.0, -1.5, 0.0, 1.0, 0.2]);
    assert_eq!(separated.best_dropped, 0, "the true best was dropped");
    // The far worse candidates (paired gap ≥ 2.5) are dropped early in nearly every race,
    // and their games go to the contenders: the true best either ends the race alone or
    // plays more than the nominal samples.
    assert!(
        separated.worst_dropped >= 270,
        "{}",
        separated.worst_dropped
    );
    assert!(separated.extra_for_best > 0 && separated.best_alone > 0);
    assert!(
        separated.extra_for_best + separated.best_alone >= 270,
        "{} + {}",
        separated.extra_for_best,
        separated.best_alone
    );
}

#[test]
fn racing_rarely_drops_a_true_best_that_leads_by_little() {
    // Leads of 0.1 and 0.3 (a fifth of the noise's sd): the test's error is controlled per
    // look (one-sided 1% at Student's t), so over a whole race the true best is dropped
    // rarely, not never; a reversed or unpaired rule would drop it most of the time.
    let close = race_replications(&[-2.0, -1.5, 0.7, 1.0, 0.9]);
    assert!(
        close.best_dropped <= 15,
        "dropped in {} of 300 races",
        close.best_dropped
    );
    assert!(close.worst_dropped >= 270, "{}", close.worst_dropped);
}

#[test]
fn two_copies_of_one_formula_get_identical_samples() {
    let spec = EvolveSpec::from_ron(
        r#"(
            name: "crn",
            seed: 1,
            strategy: (mu: 1, lambda: 2, generations: 1, plus: true),
            noise: (samples: 2, elites: 1, elite_samples: 0),
            fitness: Carcassonne(candidate: (sims: 60, reward: ScaledScoreDiff(50.0)), baseline: Mcts(sims: 60, reward: ScaledScoreDiff(50.0))),
        )"#,
        "crn.ron",
    )
    .unwrap();
    let a: Formula = "Q + C*sqrt(ln(N)/n)".parse().unwrap();
    let b = a.clone();
    let other: Formula = "Q + 2/n".parse().unwrap();
    // Enough simulations that the formula decides something (with very few, every
    // simulation expands a new child and the formula is never consulted).
    let seeds = [11, 12, 13];
    let out = evaluate_all(
        &spec.fitness,
        &[
            Request {
                formula: &a,
                seeds: &seeds,
            },
            Request {
                formula: &other,
                seeds: &seeds,
            },
            Request {
                formula: &b,
                seeds: &seeds,
            },
        ],
    )
    .unwrap();
    assert_eq!(out[0], out[2]);
    assert_ne!(
        out[0], out[1],
        "a different formula should play different games"
    );
    // The same samples whichever batch they are played in (racing plays seeds in batches).
    let alone = evaluate_all(
        &spec.fitness,
        &[Request {
            formula: &b,
            seeds: &seeds[1..],
        }],
    )
    .unwrap();
    assert_eq!(alone[0], out[0][1..]);
}

const RACED: &str = r#"(
    name: "raced-bandit",
    seed: 5,
    strategy: (mu: 2, lambda: 6, generations: 3, plus: true),
    noise: (samples: 8, elites: 1, elite_samples: 8,
            racing: (batch: 2, min_samples: 4, z: 1.645, max_samples: 24)),
    fitness: Bandit(arms: 5, epsilon: 0.2, horizon: 200, c_e: 0.5),
)"#;

use crate::support::evolve_opts as options;

fn scratch(name: &str) -> std::path::PathBuf {
    crate::support::scratch("race", name)
}

#[test]
fn a_raced_run_drops_candidates_within_budget_and_resumes_byte_for_byte() {
    let spec = EvolveSpec::from_ron(RACED, "raced.ron").unwrap();
    let whole = scratch("whole");
    let out = run_evolution(&spec, &options(&whole, 1, false, None)).unwrap();
    assert_eq!(out.last.generation, 3);
    let split = scratch("split");
    run_evolution(&spec, &options(&split, 2, false, Some(1))).unwrap();
    run_evolution(&spec, &options(&split, 2, true, None)).unwrap();
    assert_eq!(
        crate::evolve_resume::files(&whole),
        crate::evolve_resume::files(&split)
    );
    let mut dropped = 0;
    for g in 1..=3 {
        let gen =
            evomcts::evolve::Generation::read(&whole.join(format!("gen-{g:03}.ron")), g).unwrap();
        // (2 + 6): 8 candidates × 8 nominal samples, plus 8 elite samples.
        assert!(gen.spent <= 8 * 8 + 8, "gen {g} spent {}", gen.spent);
        dropped += gen.dropped;
        let marked = gen
            .offspring
            .iter()
            .chain(&gen.parents)
            .filter(|m| m.dropped_after.is_some());
        assert!(marked.count() <= gen.dropped);
        // Survivors that were not dropped rank before those that were.
        let first_dropped = gen.parents.iter().position(|m| m.dropped_after.is_some());
        if let Some(k) = first_dropped {
            assert!(gen.parents[k..].iter().all(|m| m.dropped_after.is_some()));
        }
    }
    assert!(
        dropped > 0,
        "a bandit population with mutated formulas should lose some"
    );
    for d in [whole, split] {
        std::fs::remove_dir_all(d).unwrap();
    }
}

#[test]
fn racing_settings_errors_name_the_field() {
    let good = ["batch: 2", "min_samples: 4", "z: 1.645", "max_samples: 24"];
    for (bad, field) in [
        ("batch: 0", "noise.racing.batch"),
        ("min_samples: 1", "noise.racing.min_samples"),
        ("z: -1.0", "noise.racing.z"),
        ("max_samples: 4", "noise.racing.max_samples"),
    ] {
        let key = bad.split(':').next().unwrap();
        let racing: Vec<&str> = good
            .iter()
            .map(|g| {
                if g.split(':').next() == Some(key) {
                    bad
                } else {
                    *g
                }
            })
            .collect();
        let text = RACED.replace(&good.join(", "), &racing.join(", "));
        assert_ne!(text, RACED);
        let err = EvolveSpec::from_ron(&text, "bad.ron")
            .unwrap_err()
            .to_string();
        assert!(err.contains(field), "{bad}: {err}");
    }
}
