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
    std::fs::write(&spec, crate::reliability_paths::TINY_EVOLVE).unwrap();
    let evolution = dir.join("pop");
    let evolve = ["evolve", s(&spec), "--out", s(&evolution)];
    let mut first = evolve.to_vec();
    first.extend(["--srun", "--quiet"]);
    let failed = run(&first, Some(&slurm), &[("FAKE_SRUN_SKIP", "0")]);
    assert_eq!(failed.status.code(), Some(2));
    let step = step_folder(&evolution);
    // Horizon 100 × epsilon 0.2: a sample is from −20 to 0.
    for value in [1e308, 0.5, f64::NAN, -21.0] {
        plant_record(&step, &[value]);
        refuses_the_planted_record(&evolve, &slurm, "minus a bandit run's regret");
    }
    let _ = std::fs::remove_dir_all(dir);
}

/// `evomcts step-worker` on a step folder holding `work` (JSON) and `todo`; returns within
/// 20 s, refused with a message naming the file and holding `expected`.
fn worker_refuses(dir: &Path, work: &str, todo: &str, expected: &str) {
    std::fs::create_dir_all(dir).unwrap();
    std::fs::write(dir.join("work.json"), work).unwrap();
    std::fs::write(dir.join("todo.json"), todo).unwrap();
    let out = crate::support::evomcts_within(&["step-worker", s(dir), "--worker", "0/1"], 20);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{work}: {stderr}");
    assert!(
        stderr.contains(".json") && stderr.contains(expected),
        "{work}: {stderr}"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
}

/// A work file of pairings, both controllers `controller` (RON), as the library writes it.
fn pairings_work(controller: &str) -> String {
    use evomcts::arena::Pairing;
    use evomcts::evolve::work::{PairingTask, Work};
    // Parsed without the checks a spec passes: the work file is what is checked.
    let controller: evomcts::search::ControllerSpec =
        evomcts::runfs::parse_spec(controller, "test", |_| Ok(())).unwrap();
    serde_json::to_string(&Work::Pairings {
        game: Default::default(),
        rules: Default::default(),
        pairings: vec![Pairing {
            label: "p".into(),
            candidate: controller.clone(),
            other: controller,
        }],
        tasks: vec![PairingTask {
            pairing: 0,
            tile_seed: 1,
        }],
    })
    .unwrap()
}

// E8: a worker re-checks the work and todo files it reads with the spec checks and bounds.
#[test]
fn a_worker_refuses_work_no_spec_could_have_made() {
    let dir = scratch("rsteps", "worker");
    let bandit = |fields: &str| {
        format!(
            r#"{{"Fitness":{{"fitness":{{"Bandit":{{{fields}}}}},"tasks":[{{"formula":"Q","seed":1}}]}}}}"#
        )
    };
    worker_refuses(
        &dir.join("empty-range"),
        &bandit(r#""arms":0,"best":2.0,"epsilon":-1,"horizon":0,"c_e":-1"#),
        "[0]",
        "fitness.arms",
    );
    worker_refuses(
        &dir.join("forever"),
        &bandit(r#""arms":1000000,"best":0.5,"epsilon":0.1,"horizon":1000000000,"c_e":1"#),
        "[0]",
        "fitness.arms",
    );
    worker_refuses(
        &dir.join("star"),
        &pairings_work("Star(depth: 6)"),
        "[0]",
        "depth",
    );
    worker_refuses(
        &dir.join("es"),
        &pairings_work(
            "Mcts(sims: 1000, es: (lambda: 10000, generations: 10000, sims_per_fitness: 10000))",
        ),
        "[0]",
        "pairing 0, candidate",
    );
    let fine = bandit(r#""arms":5,"best":0.5,"epsilon":0.1,"horizon":10,"c_e":1"#);
    worker_refuses(
        &dir.join("todo"),
        &fine,
        "[0,0,0]",
        "more than the step's 1 tasks",
    );
    worker_refuses(
        &dir.join("todo-range"),
        &fine,
        "[1]",
        "not in the step's 1 tasks",
    );
    let _ = std::fs::remove_dir_all(dir);
}

/// A job step's worker whose results file is removed, or replaced by another file, while it
/// appends to it fails with status 2 and says so (README, "Promises": job-step results removed
/// or replaced), rather than report work that is on no disk. The worker plays the tiny
/// validation's whole step (12 games) and the file goes once it holds the first game's record,
/// long before the worker's last game.
#[test]
fn a_workers_results_removed_or_replaced_under_it_fail_with_status_2() {
    use std::process::{Command, Stdio};
    let slurm = fake_slurm("reliability-results-gone");
    for how in ["removed", "replaced"] {
        let dir = scratch("rsteps", &format!("results-{how}"));
        let validation = dir.join("v");
        let args = ["validate", "carcassonne", VALIDATE, "--out", s(&validation)];
        let mut first = args.to_vec();
        first.extend(["--srun", "--quiet"]);
        // Every task skipped: the step folder holds the work and the whole todo list.
        let failed = run(
            &first,
            Some(&slurm),
            &[("FAKE_SRUN_TASKS", "1"), ("FAKE_SRUN_SKIP", "0")],
        );
        assert_eq!(failed.status.code(), Some(2));
        let step = step_folder(&validation);
        let mut child = Command::new(env!("CARGO_BIN_EXE_evomcts"))
            .args(["step-worker", s(&step), "--worker", "0/1", "--threads", "1"])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let results = step.join(format!("results-local.local-0-{}.jsonl", child.id()));
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
        // After the first record: the worker has opened and checked its file (`open_own`).
        while std::fs::metadata(&results).map_or(true, |m| m.len() == 0) {
            assert!(
                child.try_wait().unwrap().is_none(),
                "the worker ended first"
            );
            assert!(std::time::Instant::now() < deadline, "no record");
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
        match how {
            "removed" => std::fs::remove_file(&results).unwrap(),
            _ => {
                let other = step.join("other.tmp");
                std::fs::write(&other, "").unwrap();
                std::fs::rename(&other, &results).unwrap();
            }
        }
        let out = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{how}: {stderr}");
        assert!(
            stderr.contains("removed or replaced") && stderr.contains("results-local"),
            "{how}: {stderr}"
        );
        let _ = std::fs::remove_dir_all(dir);
    }
}
