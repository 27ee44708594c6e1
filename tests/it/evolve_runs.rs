//! `evolve SPEC --runs K`: K independent runs of one spec into one folder, each an ordinary
//! run folder from a seed derived by the documented rule, then a tournament on fresh seeds
//! that crowns one; a folder interrupted anywhere resumes to the same bytes, and bad K is
//! refused before anything is written.

use crate::support::evolve_opts as options;
use evomcts::evolve::fitness::{evaluate_all, Request};
use evomcts::evolve::independent::{run_folder, run_seed, run_spec, MAX_RUNS, RUNS_FILE};
use evomcts::evolve::reestimate::reestimate_seeds;
use evomcts::evolve::run::generation_seeds;
use evomcts::evolve::tournament::{
    self, entrants, tournament_seeds, TournamentSpec, TOURNAMENT_CSV, TOURNAMENT_MD,
};
use evomcts::evolve::{
    run_evolution, run_independent, EvolveSpec, IndependentError, IndependentOptions,
};
use evomcts::formula::Formula;
use std::path::{Path, PathBuf};

const SPEC: &str = r#"(
    name: "independent-bandit",
    seed: 5,
    strategy: (mu: 2, lambda: 4, generations: 2, plus: true),
    noise: (samples: 6, elites: 1, elite_samples: 6, reestimate: (candidates: 2, samples: 10)),
    fitness: Bandit(arms: 5, epsilon: 0.2, horizon: 200, c_e: 0.5),
)"#;

fn spec() -> EvolveSpec {
    EvolveSpec::from_ron(SPEC, "independent.ron").unwrap()
}

fn scratch(name: &str) -> PathBuf {
    crate::support::scratch("evolve_runs", name)
}

fn opts(dir: &Path, threads: usize, resume: bool, stop: Option<usize>) -> IndependentOptions {
    IndependentOptions {
        out_dir: dir.to_path_buf(),
        resume,
        threads: Some(threads),
        progress: false,
        stop_after: stop,
        srun: None,
        tournament: TournamentSpec::with_samples(30),
    }
}

/// Every file below `dir` (but the lock) by its path relative to `dir`, with its bytes.
fn tree(dir: &Path) -> Vec<(String, Vec<u8>)> {
    fn walk(root: &Path, dir: &Path, out: &mut Vec<(String, Vec<u8>)>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(root, &path, out);
            } else {
                let name = path.strip_prefix(root).unwrap().display().to_string();
                out.push((name, std::fs::read(&path).unwrap()));
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, dir, &mut out);
    out.sort();
    out
}

fn assert_same_tree(a: &Path, b: &Path) {
    let (ta, tb) = (tree(a), tree(b));
    let names = |t: &[(String, Vec<u8>)]| t.iter().map(|x| x.0.clone()).collect::<Vec<_>>();
    assert_eq!(names(&ta), names(&tb));
    for ((name, x), (_, y)) in ta.iter().zip(&tb) {
        assert!(x == y, "{name} differs");
    }
}

#[test]
fn k_runs_write_k_ordinary_run_folders_and_a_tournament_that_crowns_one() {
    let spec = spec();
    let dir = scratch("two");
    let outcome = run_independent(&spec, 2, &opts(&dir, 2, false, None)).unwrap();
    assert_eq!(outcome.runs.len(), 2);
    // Run i is the spec with the derived seed and its own name: the same bytes as that spec
    // run alone, so every command that reads a run reads it.
    for i in 1..=2 {
        let alone = scratch(&format!("alone-{i}"));
        let single = run_spec(&spec, i);
        assert_eq!(single.seed, run_seed(spec.seed, i));
        assert_ne!(single.seed, spec.seed);
        assert_eq!(single.name, format!("independent-bandit-run-{i}"));
        run_evolution(&single, &options(&alone, 1, false, None)).unwrap();
        assert_same_tree(&run_folder(&dir, i), &alone);
    }
    assert_ne!(run_seed(spec.seed, 1), run_seed(spec.seed, 2));
    let crowned = outcome.tournament.expect("both runs finished");
    // The entrants: the seed formula first, then each run's champion (merged when equal).
    let champions: Vec<Formula> = (1..=2)
        .map(|i| {
            let text = std::fs::read_to_string(run_folder(&dir, i).join("champion.txt")).unwrap();
            text.trim().parse().unwrap()
        })
        .collect();
    let expected = entrants(&spec.seed_formula, &champions);
    assert_eq!(crowned.standings.len(), expected.len());
    assert_eq!(crowned.standings[0].entrant.sources[0], "seed");
    // Each entrant's samples are its formula on the tournament's own seeds, and the crowned
    // one has the highest mean of those not dropped.
    let seeds = tournament_seeds(spec.seed, 120);
    for (s, e) in crowned.standings.iter().zip(&expected) {
        assert_eq!(s.entrant, *e);
        let n = s.fitness.samples as usize;
        assert!(n >= 30 || s.dropped_after == Some(n as u64), "{n}");
        let samples = evaluate_all(
            &spec.fitness,
            &[Request {
                formula: &e.formula,
                seeds: &seeds[..n],
            }],
        )
        .unwrap();
        let mean = samples[0].iter().sum::<f64>() / n as f64;
        assert!((mean - s.fitness.mean).abs() < 1e-9);
        if s.dropped_after.is_none() {
            assert!(s.fitness.mean <= crowned.standings[crowned.crowned].fitness.mean);
        }
    }
    let csv = std::fs::read_to_string(dir.join(TOURNAMENT_CSV)).unwrap();
    assert_eq!(csv.lines().count(), 1 + expected.len());
    assert_eq!(csv.lines().filter(|l| l.contains(",true,\"")).count(), 1);
    let md = std::fs::read_to_string(dir.join(TOURNAMENT_MD)).unwrap();
    assert!(md.contains("Crowned: entrant"), "{md}");
    let champion = std::fs::read_to_string(dir.join("champion.txt")).unwrap();
    assert_eq!(champion, format!("{}\n", crowned.formula()));
    assert!(dir.join(RUNS_FILE).is_file());
}

#[test]
fn the_tournament_draws_seeds_no_run_and_no_reestimate_draws() {
    let spec = spec();
    let fresh = tournament_seeds(spec.seed, 1000);
    let mut used = reestimate_seeds(spec.seed, 1000);
    for i in 0..=3 {
        let run = if i == 0 {
            spec.clone()
        } else {
            run_spec(&spec, i)
        };
        used.extend(reestimate_seeds(run.seed, 1000));
        for g in 0..=20 {
            let (samples, elite) = generation_seeds(&run, g);
            used.extend(samples);
            used.extend(elite);
        }
    }
    assert!(fresh.iter().all(|s| !used.contains(s)));
}

#[test]
fn the_tournament_crowns_the_better_formula_and_separates_it() {
    // On a 5-armed bandit, UCB1 (the seed formula at C = 0.5) has far less regret than
    // pulling every arm in turn (`1/n`) or the arm that looks worst (`1 - Q`).
    let spec = spec();
    let worse: Vec<Formula> = ["1/n", "1 - Q"]
        .iter()
        .map(|f| f.parse().unwrap())
        .collect();
    let ucb = spec.seed_formula.clone();
    let field = entrants(&worse[0], &[ucb.clone(), worse[1].clone()]);
    let formulas: Vec<Formula> = field.iter().map(|e| e.formula.clone()).collect();
    let crowned = tournament::play(
        field,
        spec.seed,
        &TournamentSpec::with_samples(40),
        1,
        |indices, seeds| {
            let requests: Vec<Request<'_>> = indices
                .iter()
                .map(|&i| Request {
                    formula: &formulas[i],
                    seeds,
                })
                .collect();
            evaluate_all(&spec.fitness, &requests)
        },
        |_| {},
    )
    .unwrap();
    assert_eq!(*crowned.formula(), ucb);
    assert_eq!(crowned.crowned, 1);
    for (i, s) in crowned.standings.iter().enumerate() {
        match &s.against_crowned {
            None => assert_eq!(i, crowned.crowned),
            Some(v) => assert!(v.separated(), "{i}: {v:?}"),
        }
    }
}

#[test]
fn a_folder_stopped_anywhere_resumes_to_the_same_bytes() {
    let spec = spec();
    let whole = scratch("whole");
    run_independent(&spec, 2, &opts(&whole, 1, false, None)).unwrap();

    // Stopped after generation 1 of every run, then resumed on more threads.
    let split = scratch("split");
    let first = run_independent(&spec, 2, &opts(&split, 1, false, Some(1))).unwrap();
    assert!(first.tournament.is_none());
    assert!(!split.join(TOURNAMENT_CSV).exists());
    run_independent(&spec, 2, &opts(&split, 2, true, None)).unwrap();
    assert_same_tree(&whole, &split);

    // Stopped during the second run (its last generation not written) and during the
    // tournament (one of its files written, the crowned formula not yet).
    let during = scratch("during");
    run_independent(&spec, 2, &opts(&during, 2, false, None)).unwrap();
    std::fs::remove_file(run_folder(&during, 2).join("gen-002.ron")).unwrap();
    std::fs::remove_file(during.join(TOURNAMENT_MD)).unwrap();
    std::fs::write(during.join("champion.txt"), "Q\n").unwrap();
    run_independent(&spec, 2, &opts(&during, 1, true, None)).unwrap();
    assert_same_tree(&whole, &during);
}

#[test]
fn bad_k_and_a_folder_begun_otherwise_are_refused_with_nothing_written() {
    let spec = spec();
    for k in [0, MAX_RUNS + 1, usize::MAX] {
        let dir = scratch(&format!("bad-{k}"));
        let Err(err) = run_independent(&spec, k, &opts(&dir, 1, false, None)) else {
            panic!("--runs {k} was accepted")
        };
        assert!(
            matches!(err, IndependentError::Runs(got) if got == k),
            "{err}"
        );
        assert!(err
            .to_string()
            .contains(&format!("--runs must be between 1 and {MAX_RUNS}, got {k}")));
        assert!(!dir.exists());
    }
    let dir = scratch("begun");
    run_independent(&spec, 1, &opts(&dir, 1, false, Some(0))).unwrap();
    let before = tree(&dir);
    let Err(again) = run_independent(&spec, 1, &opts(&dir, 1, false, None)) else {
        panic!("a begun folder was run again without --resume")
    };
    assert!(again.to_string().contains("pass --resume"), "{again}");
    let Err(other) = run_independent(&spec, 2, &opts(&dir, 1, true, None)) else {
        panic!("a folder of one run was resumed with two")
    };
    assert!(other.to_string().contains("records --runs 1"), "{other}");
    assert_eq!(tree(&dir), before);
}

#[test]
fn the_command_refuses_zero_runs_with_status_2() {
    let dir = scratch("cli");
    std::fs::create_dir_all(&dir).unwrap();
    let spec = dir.join("spec.ron");
    std::fs::write(&spec, SPEC).unwrap();
    let out = dir.join("out");
    let output = crate::support::evomcts(&[
        "evolve",
        spec.to_str().unwrap(),
        "--runs",
        "0",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("--runs must be between 1 and 64, got 0"),
        "{stderr}"
    );
    assert!(!out.exists());
}

#[test]
fn independent_runs_played_as_job_steps_are_the_same_bytes() {
    use crate::steps::{fake_slurm, run};
    let slurm = fake_slurm("srun-runs");
    let folders: Vec<PathBuf> = ["local", "steps"].iter().map(|n| scratch(n)).collect();
    // One generation of a few Carcassonne games at 4 simulations: job steps play games.
    let spec_file = scratch("steps-spec").with_extension("ron");
    std::fs::write(
        &spec_file,
        r#"(
            name: "steps-runs",
            seed: 3,
            strategy: (mu: 1, lambda: 2, generations: 1, plus: true),
            noise: (samples: 2, elites: 1, elite_samples: 1),
            fitness: Carcassonne(
                candidate: (sims: 4, c_e: 0.01, reward: ScaledScoreDiff(50.0)),
                baseline: Mcts(sims: 4, c_e: 0.01, reward: ScaledScoreDiff(50.0)),
            ),
        )"#,
    )
    .unwrap();
    let spec = spec_file.to_str().unwrap();
    for (dir, srun) in folders.iter().zip([false, true]) {
        let mut args = vec![
            "evolve",
            spec,
            "--runs",
            "2",
            "--tournament-samples",
            "3",
            "--out",
            dir.to_str().unwrap(),
            "--quiet",
        ];
        if srun {
            args.push("--srun");
        }
        let out = run(&args, srun.then_some(slurm.as_path()), &[]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let without_progress = |dir: &Path| {
        tree(dir)
            .into_iter()
            .filter(|(name, _)| !name.ends_with("steps-progress.txt"))
            .collect::<Vec<_>>()
    };
    let (local, steps) = (without_progress(&folders[0]), without_progress(&folders[1]));
    assert!(local.iter().any(|(n, _)| n == TOURNAMENT_CSV));
    assert!(local == steps, "the files differ");
    // The tournament's batches were job steps too.
    let progress = std::fs::read_to_string(folders[1].join("steps-progress.txt")).unwrap();
    assert!(progress.contains("the tournament"), "{progress}");
}

#[test]
fn the_slurm_driver_of_independent_runs_runs_evolve_with_runs() {
    let dir = scratch("slurm");
    let out = dir.join("out");
    let spec = "tests/slurm/evolve-tiny.ron";
    let args = |k: &str, kind: &str| {
        crate::support::evomcts(&[
            "slurm",
            spec,
            "--kind",
            kind,
            "--tasks",
            "2",
            "--runs",
            k,
            "--out",
            out.to_str().unwrap(),
            "--bin",
            "/bin/true",
        ])
    };
    let made = args("3", "evolve");
    assert!(
        made.status.success(),
        "{}",
        String::from_utf8_lossy(&made.stderr)
    );
    let script = std::fs::read_to_string(out.join("slurm/run.sbatch")).unwrap();
    assert!(script.contains(" evolve --runs 3 "), "{script}");
    for (k, kind, message) in [
        ("0", "evolve", "--runs must be between 1 and 64, got 0"),
        ("2", "league", "--runs is a flag of --kind evolve only"),
    ] {
        let refused = args(k, kind);
        assert_eq!(refused.status.code(), Some(2));
        let stderr = String::from_utf8_lossy(&refused.stderr);
        assert!(stderr.contains(message), "{stderr}");
    }
}
