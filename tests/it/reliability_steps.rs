//! Files the job steps pass between processes are checked like every other input (issue 34,
//! E8, E9): a worker re-checks the work it reads with the spec checks and bounds, and a driver
//! refuses a result no task could have produced.

use crate::steps::{fake_slurm, run};
use crate::support::scratch;
use std::path::{Path, PathBuf};

fn s(path: &Path) -> &str {
    path.to_str().unwrap()
}

const VALIDATE: &str = "tests/slurm/validate-tiny.ron";

const BANDIT: &str = r#"(
    name: "b",
    seed: 7,
    strategy: (mu: 2, lambda: 4, generations: 1, plus: true),
    noise: (samples: 4, elites: 1, elite_samples: 4),
    fitness: Bandit(arms: 5, epsilon: 0.2, horizon: 50, c_e: 0.5),
)"#;

/// The one step folder of the run in `dir`.
fn step_folder(dir: &Path) -> PathBuf {
    std::fs::read_dir(dir.join("steps"))
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path()
}

/// A record of task 0 of the step in `step`, with the label its work gives and `values`.
fn plant_record(step: &Path, values: &[f64]) {
    let work: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(step.join("work.json")).unwrap()).unwrap();
    let label = if let Some(fitness) = work.get("Fitness") {
        let task = &fitness["tasks"][0];
        format!(
            "{} on sample seed {}",
            task["formula"].as_str().unwrap(),
            task["seed"]
        )
    } else {
        let pairings = &work["Pairings"];
        let task = &pairings["tasks"][0];
        let pairing = task["pairing"].as_u64().unwrap() as usize;
        format!(
            "{} on tile seed {}",
            pairings["pairings"][pairing]["label"].as_str().unwrap(),
            task["tile_seed"]
        )
    };
    let bits: Vec<u64> = values.iter().map(|v| v.to_bits()).collect();
    let record = serde_json::json!({"task": 0, "label": label, "values": bits, "seconds": 0.0});
    std::fs::write(step.join("results-planted.jsonl"), format!("{record}\n")).unwrap();
}

/// The driver `args` (with `--srun --resume --quiet`) refuses the planted record.
fn refuses_the_planted_record(args: &[&str], slurm: &Path, expected: &str) {
    let mut args = args.to_vec();
    args.extend(["--srun", "--resume", "--quiet"]);
    let out = run(&args, Some(slurm), &[]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("results-planted.jsonl:1") && stderr.contains(expected),
        "{stderr}"
    );
}

// E9: NaN, inf and out-of-range scores, and a bandit fitness above 0, are refused by the driver.
#[test]
fn impossible_step_results_are_refused_by_the_driver() {
    let slurm = fake_slurm("reliability-results");
    let dir = scratch("rsteps", "results");
    let validation = dir.join("v");
    let validate = ["validate", "carcassonne", VALIDATE, "--out", s(&validation)];
    let mut first = validate.to_vec();
    first.extend(["--srun", "--quiet"]);
    let failed = run(&first, Some(&slurm), &[("FAKE_SRUN_SKIP", "0")]);
    assert_eq!(failed.status.code(), Some(2));
    let step = step_folder(&validation);
    for values in [
        [f64::NAN, 1.0, 2.0, 3.0],
        [1.0, f64::INFINITY, 2.0, 3.0],
        [1.0, 2.0, -4.0, 3.0],
        [1.0, 2.0, 3.0, 1e308],
    ] {
        plant_record(&step, &values);
        refuses_the_planted_record(&validate, &slurm, "a final score of Carcassonne");
    }

    std::fs::create_dir_all(&dir).unwrap();
    let spec = dir.join("b.ron");
    std::fs::write(&spec, BANDIT).unwrap();
    let evolution = dir.join("pop");
    let evolve = ["evolve", s(&spec), "--out", s(&evolution)];
    let mut first = evolve.to_vec();
    first.extend(["--srun", "--quiet"]);
    let failed = run(&first, Some(&slurm), &[("FAKE_SRUN_SKIP", "0")]);
    assert_eq!(failed.status.code(), Some(2));
    let step = step_folder(&evolution);
    for value in [1e308, 0.5, f64::NAN, -11.0] {
        plant_record(&step, &[value]);
        refuses_the_planted_record(&evolve, &slurm, "minus a bandit run's regret");
    }
    let _ = std::fs::remove_dir_all(dir);
}
