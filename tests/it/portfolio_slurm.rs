//! `evomcts slurm --kind portfolio` without Slurm: `submit.sh` against a stand-in `sbatch` that
//! records the dependencies it was given, then the job arrays run task by task as Slurm would
//! run them, then the outputs job; the folder holds what `evomcts portfolio` writes on one
//! machine. Hostile labels reach the scripts quoted, and refused values (an OpenSpiel game
//! without `--bin`, bad resources, another spec's folder) leave nothing written.
//! `tests/slurm/run.sh` runs a portfolio on a real cluster.

use crate::support::{files_under, scratch};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Connect Four and Pig to 20 at 5 and 10 simulations, each phase tiny (about a second on one
/// machine): the portfolio `tests/slurm/run.sh` runs on a real cluster.
const TINY: &str = "tests/slurm/portfolio-tiny.ron";

fn tiny() -> String {
    std::fs::read_to_string(TINY).unwrap()
}

/// What a portfolio writes that does not depend on where its jobs ran.
const SAME: [&str; 10] = [
    "portfolio.ron",
    "portfolio.csv",
    "matrix.csv",
    "shared.csv",
    "correlations.csv",
    "portfolio.md",
    "games/connect-four.ron",
    "games/pig.ron",
    "matrix/connect-four.ron",
    "matrix/pig.ron",
];

fn evomcts(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_evomcts"))
        .args(args)
        .output()
        .unwrap()
}

fn ok(out: Output) -> String {
    assert!(
        out.status.success(),
        "failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn s(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// Runs `script` as Slurm runs a job (array task `task`, if any) on one CPU, in `cwd`.
fn job(script: &Path, task: Option<&str>, cwd: &Path) -> Output {
    let mut command = Command::new("bash");
    command
        .arg(script)
        .current_dir(cwd)
        .env_remove("SLURM_ARRAY_TASK_ID")
        .env("SLURM_CPUS_PER_TASK", "1");
    if let Some(task) = task {
        command.env("SLURM_ARRAY_TASK_ID", task);
    }
    command.output().unwrap()
}

/// A folder holding the `sbatch` stand-in of `replicate_slurm`: it numbers its jobs from 100,
/// prints them as `--parsable` does (`100;cluster`) and logs its arguments, one line a call, to
/// `$SBATCH_LOG`; job `$SBATCH_FAIL` is refused.
fn fake_sbatch(dir: &Path) -> PathBuf {
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    std::fs::write(
        bin.join("sbatch"),
        "#!/bin/bash\nn=$(( $(wc -l < \"$SBATCH_LOG\" 2>/dev/null || echo 0) + 100 ))\n[ \"$n\" != \"${SBATCH_FAIL:-}\" ] || { echo refused >&2; exit 1; }\necho \"$*\" >> \"$SBATCH_LOG\"\necho \"$n;cluster\"\n",
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(bin.join("sbatch"), std::fs::Permissions::from_mode(0o755)).unwrap();
    bin
}

fn log_lines(log: &Path) -> Vec<String> {
    std::fs::read_to_string(log)
        .unwrap_or_default()
        .lines()
        .map(str::to_string)
        .collect()
}

fn read(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn a_portfolio_as_job_arrays_writes_the_local_run_s_results() {
    let dir = scratch("portfolio-slurm", "same");
    std::fs::create_dir_all(&dir).unwrap();
    let spec = dir.join("tiny.ron");
    std::fs::write(&spec, tiny()).unwrap();
    let (local, cluster) = (dir.join("local"), dir.join("cluster"));
    ok(evomcts(&[
        "portfolio",
        s(&spec),
        "--out",
        s(&local),
        "--jobs",
        "2",
        "--quiet",
    ]));

    let printed = ok(evomcts(&[
        "slurm",
        "--kind",
        "portfolio",
        s(&spec),
        "--out",
        s(&cluster),
        "--cpus-per-task",
        "1",
    ]));
    assert!(
        printed.contains("study.sbatch, matrix.sbatch, outputs.sbatch")
            && printed.contains("2 games"),
        "{printed}"
    );
    // The spec is in the folder before any job runs: no two tasks race to write it.
    assert_eq!(
        read(&cluster.join("portfolio.ron")),
        read(&local.join("portfolio.ron"))
    );
    let slurm = cluster.join("slurm");
    // submit.sh: the matrix array after the study array, the outputs job after the matrix's.
    let bin = fake_sbatch(&dir);
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap());
    let submit = |log: &Path, fail: &str| {
        Command::new("bash")
            .arg(slurm.join("submit.sh"))
            .env("PATH", &path)
            .env("SBATCH_LOG", log)
            .env("SBATCH_FAIL", fail)
            .output()
            .unwrap()
    };
    let log = dir.join("sbatch.log");
    let submitted = ok(submit(&log, ""));
    assert_eq!(
        log_lines(&log),
        [
            "--parsable study.sbatch",
            "--parsable --dependency=afterok:100 --kill-on-invalid-dep=yes matrix.sbatch",
            "--parsable --dependency=afterok:101 --kill-on-invalid-dep=yes outputs.sbatch",
        ]
    );
    assert!(
        submitted.contains("study array 100, matrix array 101, outputs job 102;"),
        "{submitted}"
    );
    // A refused submission stops there: nothing runs without the job before it.
    let refused = dir.join("sbatch-refused.log");
    assert!(!submit(&refused, "101").status.success());
    assert_eq!(log_lines(&refused).len(), 1);

    // Slurm's part, by hand, from a folder that is not the portfolio's.
    let work = dir.join("work");
    std::fs::create_dir_all(&work).unwrap();
    // The matrix needs every study: run before them (no dependency), a column fails.
    let early = job(&slurm.join("matrix.sbatch"), Some("0"), &work);
    assert!(!early.status.success());
    assert!(
        String::from_utf8_lossy(&early.stderr).contains("needs every study finished"),
        "{}",
        String::from_utf8_lossy(&early.stderr)
    );
    // A task the arrays do not have fails and writes nothing.
    let stray = job(&slurm.join("study.sbatch"), Some("2"), &work);
    assert_eq!(stray.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&stray.stderr).contains("tasks 0-1"),
        "{}",
        String::from_utf8_lossy(&stray.stderr)
    );
    assert!(!cluster.join("games").exists() && !cluster.join("studies").exists());
    for script in ["study.sbatch", "matrix.sbatch"] {
        for task in ["0", "1"] {
            let out = job(&slurm.join(script), Some(task), &work);
            assert!(
                out.status.success(),
                "{script} task {task}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
    }
    // A resubmitted (requeued) task whose result is written ends at once, changing nothing.
    let before = read(&cluster.join("games/pig.ron"));
    ok(job(&slurm.join("study.sbatch"), Some("1"), &work));
    assert_eq!(read(&cluster.join("games/pig.ron")), before);
    ok(job(&slurm.join("outputs.sbatch"), None, &work));
    for file in SAME {
        assert_eq!(
            read(&local.join(file)),
            read(&cluster.join(file)),
            "{file} differs from the local run's"
        );
    }
    // And so does every study's and cell's folder: the folders differ only in what is for
    // people (the local driver's job logs and timings, the scripts and Slurm's logs). The
    // outputs job's driver started no job of its own (it would have written `logs/`).
    let but = |dir: &Path, skip: &str| {
        files_under(dir)
            .into_iter()
            .filter(|(path, _)| !path.starts_with(skip) && path != Path::new("timings.csv"))
            .collect::<Vec<_>>()
    };
    let (mine, theirs) = (but(&local, "logs"), but(&cluster, "slurm"));
    assert_eq!(
        mine.iter().map(|(p, _)| p).collect::<Vec<_>>(),
        theirs.iter().map(|(p, _)| p).collect::<Vec<_>>()
    );
    for ((path, a), (_, b)) in mine.iter().zip(&theirs) {
        assert!(a == b, "{} differs from the local run's", path.display());
    }
    // Submitted again, the same spec resumes: the scripts are rewritten and nothing else.
    ok(evomcts(&[
        "slurm",
        "--kind",
        "portfolio",
        s(&spec),
        "--out",
        s(&cluster),
        "--cpus-per-task",
        "1",
    ]));
    assert_eq!(
        read(&cluster.join("portfolio.csv")),
        read(&local.join("portfolio.csv"))
    );
}

#[test]
fn without_a_matrix_the_outputs_job_waits_for_the_studies_and_a_general_formula_is_noted() {
    let dir = scratch("portfolio-slurm", "no-matrix");
    std::fs::create_dir_all(&dir).unwrap();
    let spec = dir.join("no-matrix.ron");
    let text = tiny().replace(
        "matrix: (games: 8),",
        "matrix: (games: 0),\n    general: (train: [\"pig\"], games: 4),",
    );
    std::fs::write(&spec, text).unwrap();
    let out = dir.join("out");
    let printed = ok(evomcts(&[
        "slurm",
        "--kind",
        "portfolio",
        s(&spec),
        "--out",
        s(&out),
    ]));
    assert!(
        printed.contains("{study.sbatch, outputs.sbatch, submit.sh}")
            && printed.contains("the general formula is not a Slurm job yet"),
        "{printed}"
    );
    let slurm = out.join("slurm");
    assert!(!slurm.join("matrix.sbatch").exists());
    let outputs = std::fs::read_to_string(slurm.join("outputs.sbatch")).unwrap();
    assert!(
        outputs.contains("once every study task succeeded")
            && outputs.contains("general formula is not a Slurm job yet"),
        "{outputs}"
    );
    let bin = fake_sbatch(&dir);
    let log = dir.join("sbatch.log");
    let submitted = Command::new("bash")
        .arg(slurm.join("submit.sh"))
        .env(
            "PATH",
            format!("{}:{}", bin.display(), std::env::var("PATH").unwrap()),
        )
        .env("SBATCH_LOG", &log)
        .output()
        .unwrap();
    assert!(ok(submitted).starts_with("study array 100, outputs job 101;"));
    assert_eq!(
        log_lines(&log),
        [
            "--parsable study.sbatch",
            "--parsable --dependency=afterok:100 --kill-on-invalid-dep=yes outputs.sbatch",
        ]
    );
}

/// A fake binary in `dir` that writes its arguments, one a line, to `dir/args.txt`.
fn recording_bin(dir: &Path) -> (PathBuf, PathBuf) {
    let bin = dir.join("fake evomcts");
    let args = dir.join("args.txt");
    std::fs::write(
        &bin,
        format!(
            "#!/bin/bash\nprintf '%s\\n' \"$@\" > {}\n",
            evomcts::escape::shell(s(&args))
        ),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&bin, std::fs::Permissions::from_mode(0o755)).unwrap();
    (bin, args)
}

#[test]
fn hostile_labels_and_folders_reach_the_scripts_quoted() {
    let dir = scratch("portfolio-slurm", "hostile");
    let out = dir.join("o'k $(touch pwned) `touch pwned` ;&|<> %a \"q\"");
    std::fs::create_dir_all(&dir).unwrap();
    // Labels the spec's check lets through: shell syntax, a quote, a leading dash, a `%` (not
    // `;`, which separates the labels of shared.csv's lists).
    let labels = ["a'b $(touch pwned) `touch pwned`&", "-h", "100%a"];
    let spec_text = tiny()
        .replace("\"connect-four\"", &format!("{:?}", labels[0]))
        .replace(
            "(label: \"pig\", game: Pig(target: 20)),",
            &format!(
                "(label: {:?}, game: Pig(target: 20)),\n        (label: {:?}, game: Pig(target: 30)),",
                labels[1], labels[2]
            ),
        );
    let spec = dir.join("hostile.ron");
    std::fs::write(&spec, &spec_text).unwrap();
    let (bin, args_file) = recording_bin(&dir);
    // `%` and `"` are refused in a run folder Slurm reads in #SBATCH lines.
    let refused = evomcts(&[
        "slurm",
        "--kind",
        "portfolio",
        s(&spec),
        "--out",
        s(&out),
        "--bin",
        s(&bin),
    ]);
    assert_eq!(refused.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("--out"));
    let out = dir.join("o'k $(touch pwned) `touch pwned` ;&|<>");
    ok(evomcts(&[
        "slurm",
        "--kind",
        "portfolio",
        s(&spec),
        "--out",
        s(&out),
        "--bin",
        s(&bin),
        "--partition",
        "debug,long",
    ]));
    let slurm = out.join("slurm");
    for script in [
        "study.sbatch",
        "matrix.sbatch",
        "outputs.sbatch",
        "submit.sh",
    ] {
        let check = Command::new("bash")
            .arg("-n")
            .arg(slurm.join(script))
            .output()
            .unwrap();
        assert!(check.status.success(), "{script}: {:?}", check);
        let text = std::fs::read_to_string(slurm.join(script)).unwrap();
        assert!(
            script == "submit.sh" || text.contains("#SBATCH --partition=debug,long\n"),
            "{text}"
        );
    }
    let work = dir.join("work");
    std::fs::create_dir_all(&work).unwrap();
    let absolute = out.canonicalize().unwrap();
    for (part, script) in [("study", "study.sbatch"), ("matrix", "matrix.sbatch")] {
        for (task, label) in labels.iter().enumerate() {
            let ran = job(&slurm.join(script), Some(&task.to_string()), &work);
            assert!(ran.status.success(), "{ran:?}");
            let args = std::fs::read_to_string(&args_file).unwrap();
            let expected = [
                "portfolio".to_string(),
                absolute.join("portfolio.ron").display().to_string(),
                "--out".into(),
                absolute.display().to_string(),
                format!("--only={label}"),
                "--part".into(),
                part.into(),
                "--threads".into(),
                "1".into(),
            ];
            assert_eq!(args.lines().collect::<Vec<_>>(), expected);
        }
    }
    ok(job(&slurm.join("outputs.sbatch"), None, &work));
    let args = std::fs::read_to_string(&args_file).unwrap();
    assert_eq!(args.lines().last(), Some("--resume"), "{args}");
    for place in [&dir, &work, &out, &slurm] {
        assert!(!place.join("pwned").exists(), "a command ran in {place:?}");
    }
    // The binary reads each label back as the spec's: `--only=-h` is a value, not a flag.
    let wrong_part = evomcts(&[
        "portfolio",
        s(&out.join("portfolio.ron")),
        "--out",
        s(&out),
        &format!("--only={}", labels[1]),
        "--part",
        "neither",
    ]);
    let err = String::from_utf8_lossy(&wrong_part.stderr);
    assert!(
        err.contains("--part: expected `study`, `matrix` or `general`"),
        "{err}"
    );
}

#[test]
fn refused_portfolio_jobs_leave_nothing_written() {
    let dir = scratch("portfolio-slurm", "refused");
    std::fs::create_dir_all(&dir).unwrap();
    let spec = dir.join("tiny.ron");
    std::fs::write(&spec, tiny()).unwrap();
    let open_spiel = dir.join("open-spiel.ron");
    std::fs::write(
        &open_spiel,
        tiny().replace("Pig(target: 20)", "OpenSpiel(name: \"pig\")"),
    )
    .unwrap();
    let bad_label = dir.join("bad-label.ron");
    std::fs::write(&bad_label, tiny().replace("\"pig\"", "\"p\\nig\"")).unwrap();
    let out = dir.join("out");
    let refused = |args: &[&str], needles: &[&str]| {
        let mut all = vec!["slurm", "--out", s(&out)];
        all.extend(args);
        let result = evomcts(&all);
        let err = String::from_utf8_lossy(&result.stderr);
        assert_eq!(result.status.code(), Some(2), "{args:?}: {err}");
        for needle in needles {
            assert!(err.contains(needle), "{args:?}: {err}");
        }
        assert!(!out.exists(), "{args:?} wrote {}", out.display());
    };
    let k = ["--kind", "portfolio"];
    refused(
        &[&k[..], &[s(&open_spiel)]].concat(),
        &["games[1].game", "OpenSpiel", "--bin", "python -m evomcts"],
    );
    refused(&[&k[..], &[s(&bad_label)]].concat(), &["games[1].label"]);
    refused(
        &[&k[..], &[s(&spec), "--tasks", "2"]].concat(),
        &["--tasks"],
    );
    refused(
        &[&k[..], &[s(&spec), "--time", "soon"]].concat(),
        &["--time"],
    );
    refused(
        &[&k[..], &[s(&spec), "--mem", "2G\ntouch x"]].concat(),
        &["--mem"],
    );
    refused(
        &[&k[..], &["--cpus-per-task", "0", s(&spec)]].concat(),
        &["--cpus-per-task"],
    );
    refused(&k, &["a SPEC file is needed with --kind portfolio"]);
    refused(&[s(&spec)], &["--tasks is needed with --kind league"]);

    // With --bin naming a program that can play OpenSpiel's games, the jobs are written.
    let (wrapper, _) = recording_bin(&dir);
    ok(evomcts(&[
        "slurm",
        "--kind",
        "portfolio",
        s(&open_spiel),
        "--out",
        s(&out),
        "--bin",
        s(&wrapper),
    ]));
    let study = std::fs::read_to_string(out.join("slurm/study.sbatch")).unwrap();
    assert!(
        study.contains(&evomcts::escape::shell(s(&wrapper))),
        "{study}"
    );

    // A folder holding another spec's portfolio is refused before any script is written.
    std::fs::remove_dir_all(out.join("slurm")).unwrap();
    let other = evomcts(&["slurm", "--kind", "portfolio", s(&spec), "--out", s(&out)]);
    let err = String::from_utf8_lossy(&other.stderr);
    assert_eq!(other.status.code(), Some(2), "{err}");
    assert!(err.contains("a different spec"), "{err}");
    assert!(!out.join("slurm").exists());

    // So is a folder a driver works in (it holds the folder's lock).
    let busy = dir.join("busy");
    std::fs::create_dir_all(&busy).unwrap();
    let lock = evomcts::runfs::RunLock::acquire(&busy, None, "portfolio `tiny` (running)").unwrap();
    let held = evomcts(&["slurm", "--kind", "portfolio", s(&spec), "--out", s(&busy)]);
    let err = String::from_utf8_lossy(&held.stderr);
    assert_eq!(held.status.code(), Some(2), "{err}");
    assert!(err.contains("in use by another evomcts process"), "{err}");
    assert!(!busy.join("slurm").exists() && !busy.join("portfolio.ron").exists());
    drop(lock);
}
