//! Runs whose games are job steps (`evolve --srun`, `validate … --srun`, `slurm::steps`),
//! with a stand-in for Slurm's `srun` on the PATH that starts the step's K workers as local
//! processes: the run folder's files equal a one-machine run's byte for byte for any K, a failed
//! worker loses only its unfinished games, a rerun finishes with the same bytes, a foreign
//! record is refused, and a second driver is refused by the run lock. `tests/slurm/run.sh`
//! does the same on a real Slurm cluster.

use crate::support::scratch;
use evomcts::runfs::SpecFile;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const EVOLVE: &str = "tests/slurm/evolve-tiny.ron";
const VALIDATE: &str = "tests/slurm/validate-tiny.ron";

/// A folder holding an `srun` that runs its command once per task with `SLURM_PROCID` and
/// `SLURM_NTASKS` set (`FAKE_SRUN_TASKS`, default 3); `FAKE_SRUN_SKIP=I` leaves task I out, as
/// if it were killed before it recorded anything, and the step then fails.
pub fn fake_slurm(name: &str) -> PathBuf {
    let dir = scratch("steps", name);
    std::fs::create_dir_all(&dir).unwrap();
    let script = dir.join("srun");
    std::fs::write(
        &script,
        r#"#!/bin/bash
while [[ "$1" == --* ]]; do shift; done
k=${FAKE_SRUN_TASKS:-3}
pids=()
status=0
for ((i = 0; i < k; i++)); do
    if [ "${FAKE_SRUN_SKIP:-}" = "$i" ]; then status=9; continue; fi
    SLURM_PROCID=$i SLURM_NTASKS=$k "$@" &
    pids+=($!)
done
for p in "${pids[@]}"; do wait "$p" || status=1; done
exit $status
"#,
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    dir
}

pub fn run(args: &[&str], slurm: Option<&Path>, env: &[(&str, &str)]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_evomcts"));
    command.args(args).env_remove("SLURM_CPUS_PER_TASK");
    if let Some(dir) = slurm {
        let path = std::env::var("PATH").unwrap_or_default();
        command.env("PATH", format!("{}:{path}", dir.display()));
    }
    for (k, v) in env {
        command.env(k, v);
    }
    command.output().unwrap()
}

fn ok(out: &Output) -> String {
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "failed: {stderr}");
    stderr
}

/// Every file of `a` equals the one of the same name in `b`; `b` may hold the steps' progress
/// line besides.
fn assert_same_files(a: &Path, b: &Path) {
    let names = |dir: &Path| -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n != "steps-progress.txt" && n != ".evomcts.lock")
            .collect();
        v.sort();
        v
    };
    assert_eq!(names(a), names(b), "{} and {}", a.display(), b.display());
    for name in names(a) {
        assert!(
            std::fs::read(a.join(&name)).unwrap() == std::fs::read(b.join(&name)).unwrap(),
            "{name} differs between {} and {}",
            a.display(),
            b.display()
        );
    }
}

fn text(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// The tiny evolution run on this machine's `threads` threads, into a scratch folder `name`.
fn evolve_locally(name: &str, threads: &str) -> PathBuf {
    let local = scratch("steps", name);
    let args = [
        "evolve",
        EVOLVE,
        "--out",
        text(&local),
        "--threads",
        threads,
        "--quiet",
    ];
    ok(&run(&args, None, &[]));
    local
}

#[test]
fn an_evolution_played_as_steps_is_byte_identical_for_any_number_of_tasks() {
    let slurm = fake_slurm("srun-any");
    let local = evolve_locally("evolve-local", "1");
    for tasks in ["1", "4"] {
        let dir = scratch("steps", &format!("evolve-{tasks}"));
        let stderr = ok(&run(
            &["evolve", EVOLVE, "--out", text(&dir), "--srun", "--quiet"],
            Some(&slurm),
            &[("FAKE_SRUN_TASKS", tasks)],
        ));
        assert!(stderr.contains(&format!("worker 0/{tasks}")), "{stderr}");
        assert_same_files(&local, &dir);
        assert!(
            !dir.join("steps").exists(),
            "the steps are removed once written"
        );
        let progress = std::fs::read_to_string(dir.join("steps-progress.txt")).unwrap();
        assert!(progress.contains("generation 2 step"), "{progress}");
    }
}

#[test]
fn a_failed_worker_loses_only_its_games_and_a_rerun_finishes_with_the_same_bytes() {
    let slurm = fake_slurm("srun-fault");
    let local = evolve_locally("fault-local", "2");
    let dir = scratch("steps", "fault");
    let out = run(
        &["evolve", EVOLVE, "--out", text(&dir), "--srun", "--quiet"],
        Some(&slurm),
        &[("FAKE_SRUN_SKIP", "1")],
    );
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("have no record after the step") && stderr.contains("--resume"),
        "{stderr}"
    );
    // The two workers that ran kept their records; one was cut off mid-line.
    let steps: Vec<PathBuf> = std::fs::read_dir(dir.join("steps"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(steps.len(), 1);
    let results: Vec<PathBuf> = std::fs::read_dir(&steps[0])
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with("results-")
        })
        .collect();
    assert_eq!(results.len(), 2);
    let recorded: usize = results
        .iter()
        .map(|p| std::fs::read_to_string(p).unwrap().lines().count())
        .sum();
    assert!(recorded > 0);
    let mut torn = std::fs::OpenOptions::new()
        .append(true)
        .open(&results[0])
        .unwrap();
    std::io::Write::write_all(&mut torn, b"{\"task\":0,\"label\":\"Q").unwrap();
    // Without --resume the folder is refused only once it holds generations; the rerun
    // plays the missing tasks of the same step and goes on.
    let stderr = ok(&run(
        &["evolve", EVOLVE, "--out", text(&dir), "--srun", "--resume"],
        Some(&slurm),
        &[],
    ));
    assert!(
        stderr.contains(&format!("{recorded} of")) && stderr.contains("already recorded"),
        "{stderr}"
    );
    assert_same_files(&local, &dir);
}

#[test]
fn a_record_of_other_work_is_refused_with_its_file_and_line() {
    let slurm = fake_slurm("srun-foreign");
    let dir = scratch("steps", "foreign");
    let failed = run(
        &["evolve", EVOLVE, "--out", text(&dir), "--srun", "--quiet"],
        Some(&slurm),
        &[("FAKE_SRUN_SKIP", "0")],
    );
    assert_eq!(failed.status.code(), Some(2));
    let step = std::fs::read_dir(dir.join("steps"))
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let planted = step.join("results-planted.jsonl");
    std::fs::write(
        &planted,
        "{\"task\":0,\"label\":\"Q on sample seed 1\",\"values\":[0],\"seconds\":0.0}\n",
    )
    .unwrap();
    let out = run(
        &[
            "evolve",
            EVOLVE,
            "--out",
            text(&dir),
            "--srun",
            "--resume",
            "--quiet",
        ],
        Some(&slurm),
        &[],
    );
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("results-planted.jsonl:1") && stderr.contains("the work says"),
        "{stderr}"
    );
}

#[test]
fn a_second_driver_on_the_folder_is_refused_by_the_lock() {
    let slurm = fake_slurm("srun-lock");
    // The first step takes long enough for the second driver to try; the rest of the run
    // goes at full speed.
    let slow = slurm.join("srun");
    let script = std::fs::read_to_string(&slow).unwrap();
    let marker = slurm.join("slept");
    let first_step_waits = format!(
        "[ -e '{m}' ] || {{ touch '{m}'; sleep 3; }}\nk=",
        m = marker.display()
    );
    std::fs::write(&slow, script.replacen("k=", &first_step_waits, 1)).unwrap();
    let dir = scratch("steps", "lock");
    let mut first = Command::new(env!("CARGO_BIN_EXE_evomcts"))
        .args(["evolve", EVOLVE, "--out", text(&dir), "--srun", "--quiet"])
        .env(
            "PATH",
            format!("{}:{}", slurm.display(), std::env::var("PATH").unwrap()),
        )
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let lock = dir.join(".evomcts.lock");
    for _ in 0..200 {
        if std::fs::read_to_string(&lock).is_ok_and(|t| t.contains("pid")) {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(25));
    }
    let second = run(
        &[
            "evolve",
            EVOLVE,
            "--out",
            text(&dir),
            "--srun",
            "--resume",
            "--quiet",
        ],
        Some(&slurm),
        &[],
    );
    assert!(first.wait().unwrap().success());
    assert_eq!(second.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&second.stderr);
    assert!(
        stderr.contains("in use by another evomcts process"),
        "{stderr}"
    );
}

#[test]
fn a_validation_played_as_a_step_writes_the_same_games_and_summary() {
    let slurm = fake_slurm("srun-validate");
    let local = scratch("steps", "validate-local");
    ok(&run(
        &[
            "validate",
            "carcassonne",
            VALIDATE,
            "--out",
            text(&local),
            "--threads",
            "2",
            "--quiet",
        ],
        None,
        &[],
    ));
    let dir = scratch("steps", "validate");
    let failed = run(
        &[
            "validate",
            "carcassonne",
            VALIDATE,
            "--out",
            text(&dir),
            "--srun",
            "--quiet",
        ],
        Some(&slurm),
        &[("FAKE_SRUN_SKIP", "2")],
    );
    assert_eq!(failed.status.code(), Some(2));
    ok(&run(
        &[
            "validate",
            "carcassonne",
            VALIDATE,
            "--out",
            text(&dir),
            "--srun",
            "--resume",
            "--quiet",
        ],
        Some(&slurm),
        &[],
    ));
    assert_same_files(&local, &dir);
}

#[test]
fn srun_outside_slurm_is_a_clear_error() {
    let empty = scratch("steps", "no-srun-path");
    std::fs::create_dir_all(&empty).unwrap();
    let dir = scratch("steps", "no-srun");
    let mut command = Command::new(env!("CARGO_BIN_EXE_evomcts"));
    let out = command
        .args(["evolve", EVOLVE, "--out", text(&dir), "--srun", "--quiet"])
        .env("PATH", &empty)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("cannot start `srun`"), "{stderr}");
}

#[test]
fn every_preset_fitness_spec_reaches_the_workers_unchanged() {
    // A step's work travels as JSON: a field lost or rounded on the way would make the workers
    // play other games than the driver means.
    for entry in std::fs::read_dir("runs/evolve").unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "ron") {
            continue; // a study's folder
        }
        let spec = evomcts::evolve::EvolveSpec::from_file(&path).unwrap();
        let work = evomcts::evolve::work::Work::Fitness {
            fitness: Box::new(spec.fitness.clone()),
            tasks: vec![evomcts::evolve::work::FitnessTask {
                formula: spec.seed_formula.to_string(),
                seed: u64::MAX,
            }],
        };
        let text = serde_json::to_string(&work).unwrap();
        let back: evomcts::evolve::work::Work = serde_json::from_str(&text).unwrap();
        assert_eq!(back, work, "{}", path.display());
    }
    for entry in std::fs::read_dir("runs/validate").unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "ron") {
            continue;
        }
        let Ok(spec) = evomcts::validation::ValidateSpec::from_file(&path) else {
            continue; // a sweep
        };
        let work = evomcts::evolve::work::Work::Pairings {
            game: spec.game,
            rules: spec.rules,
            pairings: vec![evomcts::arena::Pairing {
                label: spec.name.clone(),
                candidate: spec.candidate.clone(),
                other: spec.baseline.clone(),
            }],
            tasks: Vec::new(),
        };
        let text = serde_json::to_string(&work).unwrap();
        let back: evomcts::evolve::work::Work = serde_json::from_str(&text).unwrap();
        assert_eq!(back, work, "{}", path.display());
    }
}

#[test]
fn a_tuning_run_played_as_steps_writes_the_same_files() {
    let slurm = fake_slurm("srun-tune");
    let spec = scratch("steps", "tune-spec.ron");
    std::fs::write(
        &spec,
        r#"(
            name: "tiny-tune",
            seed: 3,
            game: ConnectFour,
            controller: (sims: 10, c_e: 0.5, reward: WinLoss),
            parameters: [(name: "C_E", low: 0.1, high: 2.0, log: true)],
            budget: 12,
            spsa: (a: 0.1),
            recommend_blocks: 1,
            reestimate_sequences: 3,
        )"#,
    )
    .unwrap();
    let local = scratch("steps", "tune-local");
    let args = |dir: &Path| -> Vec<String> {
        ["tune", text(&spec), "--out", text(dir), "--quiet"]
            .map(String::from)
            .to_vec()
    };
    let local_args = args(&local);
    let local_args: Vec<&str> = local_args.iter().map(String::as_str).collect();
    ok(&run(&local_args, None, &[]));
    let dir = scratch("steps", "tune");
    let mut srun_args = args(&dir);
    srun_args.push("--srun".into());
    let srun_args: Vec<&str> = srun_args.iter().map(String::as_str).collect();
    ok(&run(&srun_args, Some(&slurm), &[]));
    // Every file, the re-estimate's folder included, but the steps' progress line and locks.
    let files = |root: &Path| -> Vec<(String, Vec<u8>)> {
        let mut out = Vec::new();
        for sub in ["", "reestimate"] {
            for e in std::fs::read_dir(root.join(sub)).unwrap() {
                let path = e.unwrap().path();
                let name = format!("{sub}/{}", path.file_name().unwrap().to_string_lossy());
                if path.is_file()
                    && !name.ends_with("steps-progress.txt")
                    && !name.ends_with(".evomcts.lock")
                {
                    out.push((name, std::fs::read(&path).unwrap()));
                }
            }
        }
        out.sort();
        out
    };
    let (a, b) = (files(&local), files(&dir));
    let names = |f: &[(String, Vec<u8>)]| f.iter().map(|(n, _)| n.clone()).collect::<Vec<_>>();
    assert_eq!(names(&a), names(&b));
    for ((name, x), (_, y)) in a.iter().zip(&b) {
        assert!(x == y, "{name} differs between one machine and job steps");
    }
    assert!(names(&a).contains(&"/tuned.ron".to_string()));
    assert!(
        !dir.join("steps").exists(),
        "the steps' records are cleared"
    );
    for d in [slurm, local, dir] {
        std::fs::remove_dir_all(d).unwrap();
    }
    std::fs::remove_file(spec).unwrap();
}
