//! `--workers N`: a run's games played in N local worker processes through the job-step
//! protocol of `--srun` (`slurm::launch::Launcher::Local`). A tiny Connect Four study on 2
//! workers writes every file a study on threads writes, byte for byte (only each phase's
//! `steps-progress.txt`, the step timings, is extra); a worker that fails fails the step with
//! its status and a rerun plays only what is missing; a worker that cannot start is named; a
//! worker whose driver is killed stops; `--workers` with `--srun` is a usage error.

use crate::support::{evomcts, files_under, scratch};
use evomcts::frame::Relaunch;
use evomcts::slurm::launch::{Launcher, LocalWorkers, SrunOptions, PROGRESS_FILE};
use evomcts::study::{run_study, StudyOptions, StudySpec};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const SPEC: &str = r#"(
    name: "c4-workers",
    game: ConnectFour,
    seed: 7,
    budgets: [10, 20],
    tune: (games: 16, reestimate_sequences: 4),
    evolve: (generations: 2, mu: 2, lambda: 4, samples: 4, reestimate_candidates: 2),
    validate: (games_cap: 40),
)"#;

fn s(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// Every file under `dir` but the steps' progress lines, which hold wall times.
fn results(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    files_under(dir)
        .into_iter()
        .filter(|(p, _)| p.file_name().unwrap() != PROGRESS_FILE)
        .collect()
}

/// The spec written into `root`.
fn spec_file(root: &Path) -> PathBuf {
    std::fs::create_dir_all(root).unwrap();
    let path = root.join("c4.ron");
    std::fs::write(&path, SPEC).unwrap();
    path
}

fn ok(out: &std::process::Output) -> String {
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "failed: {stderr}");
    stderr
}

#[test]
fn a_study_on_two_worker_processes_writes_the_bytes_of_one_on_threads() {
    let root = scratch("study-workers", "same");
    let spec = spec_file(&root);
    let threads = root.join("threads");
    let workers = root.join("workers");
    ok(&evomcts(&[
        "study",
        s(&spec),
        "--out",
        s(&threads),
        "--threads",
        "2",
        "--quiet",
    ]));
    ok(&evomcts(&[
        "study",
        s(&spec),
        "--out",
        s(&workers),
        "--workers",
        "2",
        "--threads",
        "1",
        "--quiet",
    ]));
    // Every phase played its games as steps: each folder holds the steps' progress line,
    // for steps of two workers, and no step folder is left behind.
    for budget in [10, 20] {
        for phase in ["tune", "evolve", "validate"] {
            let dir = workers.join(format!("sims-{budget}/{phase}"));
            let line = std::fs::read_to_string(dir.join(PROGRESS_FILE))
                .unwrap_or_else(|e| panic!("{}: {e}: the phase played no step", dir.display()));
            assert!(line.contains(" tasks ("), "{}: {line}", dir.display());
            assert!(!dir.join("steps").exists(), "{}", dir.display());
            assert!(!threads
                .join(format!("sims-{budget}/{phase}/{PROGRESS_FILE}"))
                .exists());
        }
    }
    let (a, b) = (results(&threads), results(&workers));
    assert_eq!(
        a.iter().map(|(p, _)| p).collect::<Vec<_>>(),
        b.iter().map(|(p, _)| p).collect::<Vec<_>>()
    );
    for ((path, x), (_, y)) in a.iter().zip(&b) {
        assert!(x == y, "{} differs", path.display());
    }
}

/// A relaunch of this test's binary through a script that fails (status 7) for worker 1 of 2
/// and runs the binary for the others.
fn failing_relaunch(root: &Path) -> Relaunch {
    let script = root.join("fails-worker-1");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\ncase \"$*\" in *'--worker 1/2'*) exit 7;; esac\nexec '{}' \"$@\"\n",
            env!("CARGO_BIN_EXE_evomcts")
        ),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    Relaunch::binary(script)
}

fn options(dir: &Path, relaunch: Relaunch) -> StudyOptions {
    StudyOptions {
        out_dir: dir.to_path_buf(),
        resume: true,
        threads: Some(1),
        progress: false,
        stop_after: None,
        steps: Some(SrunOptions {
            launcher: Launcher::Local(LocalWorkers::new(relaunch, 2, Some(1))),
            name: "c4-workers".into(),
            progress: false,
        }),
    }
}

/// `run_study` on another thread, failing the test if it takes longer than a minute (a hang).
fn study_within_a_minute(
    spec: &StudySpec,
    opts: StudyOptions,
) -> Result<evomcts::study::StudyOutcome, String> {
    let (tx, rx) = std::sync::mpsc::channel();
    let spec = spec.clone();
    std::thread::spawn(move || {
        let _ = tx.send(run_study(&spec, &opts).map_err(|e| e.to_string()));
    });
    rx.recv_timeout(Duration::from_secs(60))
        .expect("the study did not end within a minute")
}

#[test]
fn a_failing_worker_fails_the_step_with_its_status_and_a_rerun_plays_only_the_rest() {
    let root = scratch("study-workers", "fails");
    let spec = StudySpec::from_ron(SPEC, "c4.ron").unwrap();
    let threads = root.join("threads");
    run_study(
        &spec,
        &StudyOptions {
            steps: None,
            resume: false,
            ..options(&threads, Relaunch::binary("unused".into()))
        },
    )
    .unwrap();

    let dir = root.join("workers");
    let error = study_within_a_minute(&spec, options(&dir, failing_relaunch(&root))).unwrap_err();
    for expected in [
        "the tuning at 10 simulations",
        "worker 1/2 ended with exit status: 7",
        "have no record after the step",
        "--resume",
    ] {
        assert!(error.contains(expected), "expected {expected:?} in {error}");
    }
    // Worker 0 recorded its half of the step; worker 1 nothing.
    let steps = dir.join("sims-10/tune/steps");
    let step = std::fs::read_dir(&steps)
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let files: Vec<String> = std::fs::read_dir(&step)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("results-"))
        .collect();
    assert_eq!(files.len(), 1, "{files:?}");
    assert!(
        files[0].starts_with("results-local.") && files[0].contains("-0-"),
        "{files:?}"
    );
    let kept = std::fs::read_to_string(step.join(&files[0])).unwrap();
    assert!(kept.lines().count() >= 1, "{kept}");

    // A worker that cannot start is named, with the program.
    let missing = Relaunch::binary(root.join("no-such-evomcts"));
    let error = study_within_a_minute(&spec, options(&dir, missing)).unwrap_err();
    assert!(
        error.contains("cannot start")
            && error.contains("no-such-evomcts")
            && error.contains("worker 0 of --workers 2"),
        "{error}"
    );

    // Run again with working workers: the kept records are used, the rest played, and the
    // study ends as one on threads. The two workers are started once for every step of every
    // phase (each start of the binary is counted).
    let starts = root.join("starts");
    let script = root.join("counts-starts");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\necho start >> '{}'\nexec '{}' \"$@\"\n",
            starts.display(),
            env!("CARGO_BIN_EXE_evomcts")
        ),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    study_within_a_minute(&spec, options(&dir, Relaunch::binary(script))).unwrap();
    assert_eq!(results(&threads), results(&dir));
    let started = std::fs::read_to_string(&starts).unwrap().lines().count();
    assert_eq!(started, 2, "workers started {started} times");
}

/// A work file of Connect Four games slow enough (3000 simulations a move, 40 tasks of two
/// games) that a worker on one thread is still playing them seconds later.
fn slow_step(dir: &Path) {
    use evomcts::arena::{GameChoice, Pairing};
    use evomcts::evolve::work::{PairingTask, Work};
    let controller: evomcts::search::ControllerSpec =
        evomcts::runfs::parse_spec("Mcts(sims: 3000)", "test", |_| Ok(())).unwrap();
    let work = Work::Pairings {
        game: GameChoice::ConnectFour,
        rules: Default::default(),
        pairings: vec![Pairing {
            label: "slow".into(),
            candidate: controller.clone(),
            other: controller,
        }],
        tasks: (0..40)
            .map(|tile_seed| PairingTask {
                pairing: 0,
                tile_seed,
            })
            .collect(),
    };
    std::fs::create_dir_all(dir).unwrap();
    std::fs::write(dir.join("work.json"), serde_json::to_string(&work).unwrap()).unwrap();
    let todo: Vec<usize> = (0..40).collect();
    std::fs::write(dir.join("todo.json"), serde_json::to_string(&todo).unwrap()).unwrap();
}

/// Whether process `pid` is running (a zombie waiting to be reaped is not).
fn running(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
        !stat
            .rsplit(')')
            .next()
            .unwrap_or("")
            .trim_start()
            .starts_with('Z')
    })
}

#[test]
fn a_worker_stops_when_its_driver_is_killed() {
    let dir = scratch("study-workers", "orphan");
    slow_step(&dir);
    // A stand-in driver (a shell) starts the worker as a local launch does and waits.
    let mut driver = Command::new("sh")
        .arg("-c")
        .arg("\"$0\" step-worker \"$1\" --worker 0/1 --threads 1 --quiet --driver $$ & echo $!; wait")
        .arg(env!("CARGO_BIN_EXE_evomcts"))
        .arg(&dir)
        .env("EVOMCTS_STEP_LAUNCH", "test1")
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    std::io::BufRead::read_line(
        &mut std::io::BufReader::new(driver.stdout.take().unwrap()),
        &mut line,
    )
    .unwrap();
    let worker: u32 = line.trim().parse().unwrap();
    let results = dir.join(format!("results-local.test1-0-{worker}.jsonl"));
    let deadline = Instant::now() + Duration::from_secs(60);
    while std::fs::metadata(&results).map_or(true, |m| m.len() == 0) {
        assert!(running(worker), "the worker ended before its first record");
        assert!(Instant::now() < deadline, "no record within a minute");
        std::thread::sleep(Duration::from_millis(5));
    }
    // kill -9 of the driver: the worker stops on its own within a second, long before its
    // 40 tasks are played.
    driver.kill().unwrap();
    driver.wait().unwrap();
    let killed = Instant::now();
    while running(worker) {
        assert!(
            killed.elapsed() < Duration::from_secs(2),
            "the worker still runs {:?} after its driver was killed",
            killed.elapsed()
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    let recorded = std::fs::read_to_string(&results).unwrap().lines().count();
    assert!(recorded < 40, "the worker played all {recorded} tasks");

    // A worker whose parent is not the driver it is told of refuses to start.
    let out = evomcts(&["step-worker", s(&dir), "--worker", "0/1", "--driver", "1"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("--driver 1") && stderr.contains("not the driver"),
        "{stderr}"
    );
}

#[test]
fn workers_with_srun_or_out_of_range_are_usage_errors() {
    let root = scratch("study-workers", "usage");
    let spec = spec_file(&root);
    for args in [
        vec![
            "evolve",
            "tests/slurm/evolve-tiny.ron",
            "--srun",
            "--workers",
            "2",
        ],
        vec!["tune", "any.ron", "--workers", "2", "--srun"],
        vec![
            "validate",
            "carcassonne",
            "any.ron",
            "--srun",
            "--workers",
            "2",
        ],
    ] {
        let out = evomcts(&args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.contains("--workers")
                && stderr.contains("--srun")
                && stderr.contains("cannot be used with"),
            "{args:?}: {stderr}"
        );
    }
    for n in ["0", "1025", "two"] {
        let out = evomcts(&[
            "study",
            s(&spec),
            "--out",
            s(&root.join("out")),
            "--workers",
            n,
        ]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{n}: {stderr}");
        assert!(
            stderr.contains("--workers") && stderr.contains(n),
            "{n}: {stderr}"
        );
        assert!(!root.join("out").exists());
    }
}
