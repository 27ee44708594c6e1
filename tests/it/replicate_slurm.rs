//! `evomcts slurm --kind replicate` and `replicate --shards K`, without Slurm: the scripts are
//! run as Slurm would run them (each league's array task by task, then the report's job), and
//! the run folders, the Star decisions and the report equal those of a one-machine `replicate`
//! with the same options, but for the measured times. `submit.sh` and the ES study's runner
//! (`runs/study/run.sh --slurm`) are run against an `sbatch` stand-in that records what it was
//! asked. `tests/slurm/run.sh` does the same on a real cluster.

use crate::support::scratch;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const PRESETS: [&str; 4] = ["reward", "star", "mcts_ce", "extra_bandits"];
/// Every file a one-machine run writes into a league's folder but `games.jsonl` (whose lines
/// are in the order the games finished) and `wall.jsonl` (a measurement).
const LEAGUE_FILES: [&str; 10] = [
    "spec.ron",
    "games.csv",
    "standings.csv",
    "ratings.csv",
    "statistics.csv",
    "win_rates.csv",
    "matches.csv",
    "tables.md",
    "tables.json",
    "standings.live.txt",
];

/// The paper's presets made tiny (10 simulations, 2 games per match, Star at depth 1) and the
/// published tables, in `dir`.
fn tiny_presets(dir: &Path) {
    std::fs::create_dir_all(dir).unwrap();
    std::fs::copy("runs/paper/published.ron", dir.join("published.ron")).unwrap();
    for preset in PRESETS {
        let text = std::fs::read_to_string(format!("runs/paper/{preset}.ron")).unwrap();
        let tiny: Vec<String> = text
            .lines()
            .map(|line| {
                if line.trim_start().starts_with("games_per_match:") {
                    "    games_per_match: 2,".to_string()
                } else {
                    line.replace("sims: 400", "sims: 10")
                        .replace("depth: 2", "depth: 1")
                }
            })
            .collect();
        std::fs::write(dir.join(format!("{preset}.ron")), tiny.join("\n")).unwrap();
    }
}

/// `replicate`'s options for the tiny presets in `presets`, the folder `rep` and the report
/// `rep.md`.
fn options(presets: &Path, seeds: &str, star_every: &str) -> Vec<String> {
    let presets = presets.to_str().unwrap();
    [
        "--seeds",
        seeds,
        "--presets",
        presets,
        "--out",
        "rep",
        "--report",
        "rep.md",
        "--star-every",
        star_every,
    ]
    .map(String::from)
    .to_vec()
}

fn run_in(cwd: &Path, args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_evomcts"));
    command.current_dir(cwd).args(args);
    for (k, v) in env {
        command.env(k, v);
    }
    command.output().unwrap()
}

fn ok(out: Output) -> String {
    assert!(
        out.status.success(),
        "failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn bash(script: &Path, env: &[(&str, &str)]) {
    let mut command = Command::new("bash");
    command.arg(script).env_remove("SLURM_CPUS_PER_TASK");
    for (k, v) in env {
        command.env(k, v);
    }
    let out = command.output().unwrap();
    assert!(
        out.status.success(),
        "{} failed: {}",
        script.display(),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The report without what was measured: the compute paragraph, the wall-time column and the
/// Star searches' milliseconds.
fn unmeasured(report: &str) -> String {
    report
        .lines()
        .filter(|l| !l.starts_with("**Compute.**"))
        .map(|l| {
            let cells: Vec<&str> = l.split(" | ").collect();
            if l.starts_with("| `") && cells.len() == 6 {
                // | preset | K | seeds | games | wall s | unfinished |
                format!("{} | {}", cells[..4].join(" | "), cells[5])
            } else if ["| true bounds", "| paper [", "| narrow ["]
                .iter()
                .any(|p| l.starts_with(p))
            {
                // | bounds | variant | agree | exact | nodes | ms |
                cells[..5].join(" | ")
            } else {
                l.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The league folders of `replicate --seeds 1`: one seed (2021) of each preset.
fn seed_folders(out: &Path) -> Vec<PathBuf> {
    PRESETS
        .iter()
        .map(|preset| out.join(preset).join("seed-2021"))
        .collect()
}

/// `theirs` holds every file of `LEAGUE_FILES` as `mine` does, byte for byte.
fn same_league_files(mine: &Path, theirs: &Path) {
    for file in LEAGUE_FILES {
        assert_eq!(
            std::fs::read(mine.join(file)).unwrap(),
            std::fs::read(theirs.join(file)).unwrap(),
            "{} differs",
            theirs.join(file).display()
        );
    }
}

fn sorted_lines(path: &Path) -> Vec<String> {
    let mut lines: Vec<String> = std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect();
    lines.sort();
    lines
}

#[test]
fn replicate_as_job_arrays_writes_the_local_run_s_folders_and_report() {
    let dir = scratch("replicate-slurm", "same");
    let presets = dir.join("presets");
    tiny_presets(&presets);
    let (local, cluster) = (dir.join("local"), dir.join("cluster"));
    std::fs::create_dir_all(&local).unwrap();
    std::fs::create_dir_all(&cluster).unwrap();
    // The same options, in folders of the same name: the report names its folders.
    let common = options(&presets, "1", "40");
    let common: Vec<&str> = common.iter().map(String::as_str).collect();
    let mut args = vec!["replicate", "--threads", "2", "--quiet"];
    args.extend(&common);
    ok(run_in(&local, &args, &[]));

    let mut args = vec!["slurm", "--kind", "replicate", "--tasks", "3"];
    args.extend(common);
    args.extend(["--cpus-per-task", "1"]);
    let printed = ok(run_in(&cluster, &args, &[]));
    assert!(
        printed.contains("4 leagues") && printed.contains("submit.sh"),
        "{printed}"
    );
    let out = cluster.join("rep");
    for folder in seed_folders(&out) {
        let script = folder.join("slurm/league.sbatch");
        let text = std::fs::read_to_string(&script).unwrap();
        assert!(text.contains("#SBATCH --array=0-2"), "{text}");
        for task in ["0", "1", "2"] {
            bash(&script, &[("SLURM_ARRAY_TASK_ID", task)]);
        }
    }
    // The report's job runs in the folder `slurm` was called from, whatever folder it is
    // started in.
    bash(&out.join("slurm/replicate-report.sbatch"), &[]);

    for (mine, theirs) in seed_folders(&local.join("rep"))
        .iter()
        .zip(seed_folders(&out))
    {
        same_league_files(mine, &theirs);
        assert_eq!(
            sorted_lines(&mine.join("games.jsonl")),
            sorted_lines(&theirs.join("games.jsonl"))
        );
        assert!(!theirs.join("wall.jsonl").exists());
    }
    let report = |d: &Path| std::fs::read_to_string(d.join("rep.md")).unwrap();
    let (mine, theirs) = (report(&local), report(&cluster));
    assert_eq!(unmeasured(&mine), unmeasured(&theirs));
    assert!(
        theirs.contains("No run folder holds a wall time") && mine.contains("Wall time of all"),
        "{theirs}"
    );
    assert!(theirs.contains("every 40th decision position"), "{theirs}");
}

/// A folder holding an `sbatch` that numbers its jobs from 100, prints them as `--parsable`
/// does and logs its arguments, one line a call, to `$SBATCH_LOG`; job `$SBATCH_FAIL` is refused.
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
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

#[test]
fn submit_sh_makes_the_report_wait_for_every_array() {
    let dir = scratch("replicate-slurm", "submit");
    let presets = dir.join("presets");
    tiny_presets(&presets);
    let bin = fake_sbatch(&dir);
    let out = dir.join("rep");
    ok(run_in(
        &dir,
        &[
            "slurm",
            "--kind",
            "replicate",
            "--tasks",
            "2",
            "--seeds",
            "1",
            "--presets",
            presets.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--note",
            "played on $(cluster)'s nodes",
        ],
        &[],
    ));
    let log = dir.join("sbatch.log");
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap());
    bash(
        &out.join("slurm/submit.sh"),
        &[("PATH", &path), ("SBATCH_LOG", log.to_str().unwrap())],
    );
    let calls = log_lines(&log);
    assert_eq!(calls.len(), 5, "{calls:?}");
    for (call, preset) in calls.iter().zip(PRESETS) {
        assert!(
            call.ends_with(&format!("rep/{preset}/seed-2021/slurm/league.sbatch")),
            "{call}"
        );
    }
    assert!(
        calls[4].starts_with(
            "--parsable --dependency=afterok:100:101:102:103 --kill-on-invalid-dep=yes"
        ) && calls[4].ends_with("slurm/replicate-report.sbatch"),
        "{}",
        calls[4]
    );
    // A refused array stops the submission before the report's job.
    let log = dir.join("sbatch-refused.log");
    let status = Command::new("bash")
        .arg(out.join("slurm/submit.sh"))
        .env("PATH", &path)
        .env("SBATCH_LOG", &log)
        .env("SBATCH_FAIL", "101")
        .status()
        .unwrap();
    assert!(!status.success());
    assert_eq!(log_lines(&log).len(), 1);
    let report = std::fs::read_to_string(out.join("slurm/replicate-report.sbatch")).unwrap();
    assert!(
        report.contains("'--note' 'played on $(cluster)'\\''s nodes'")
            && report.contains("'--shards' '2'"),
        "{report}"
    );
}

#[test]
fn refused_replicate_scripts_leave_no_folder() {
    let dir = scratch("replicate-slurm", "refused");
    let presets = dir.join("presets");
    tiny_presets(&presets);
    std::fs::create_dir_all(&dir).unwrap();
    let p = presets.to_str().unwrap();
    let refused = |args: &[&str], needle: &str| {
        let out = run_in(&dir, args, &[]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(needle), "{args:?}: {stderr}");
        assert!(!dir.join("rep").exists() && !dir.join("runs").exists());
    };
    let base = [
        "slurm",
        "--kind",
        "replicate",
        "--presets",
        p,
        "--out",
        "rep",
    ];
    // The tiny reward league has 4 games: 5 slices cannot be.
    refused(&[&base[..], &["--tasks", "5"]].concat(), "--tasks");
    refused(
        &[&base[..], &["--tasks", "2", "--note", "a\nb"]].concat(),
        "control characters",
    );
    refused(
        &[&base[..], &["--tasks", "2", "--seeds", "0"]].concat(),
        "--seeds",
    );
    refused(
        &[&base[..], &["--tasks", "2", "tests/slurm/tiny.ron"]].concat(),
        "takes no SPEC",
    );
    refused(
        &[
            "slurm",
            "tests/slurm/tiny.ron",
            "--tasks",
            "2",
            "--seeds",
            "2",
        ],
        "--seeds is a flag of --kind replicate only",
    );
    refused(&["slurm", "--tasks", "2"], "a SPEC file is needed");
}

#[test]
fn gathering_merges_slices_checks_them_and_plays_what_is_missing() {
    let dir = scratch("replicate-slurm", "gather");
    let presets = dir.join("presets");
    tiny_presets(&presets);
    let mut common = options(&presets, "1", "0");
    common.push("--quiet".into());
    let common: Vec<&str> = common.iter().map(String::as_str).collect();
    let local = dir.join("local");
    std::fs::create_dir_all(&local).unwrap();
    ok(run_in(&local, &[&["replicate"], &common[..]].concat(), &[]));
    // Two of three slices of every league, played as the array's tasks play them.
    let cluster = dir.join("cluster");
    std::fs::create_dir_all(&cluster).unwrap();
    let mut args = vec!["slurm", "--kind", "replicate", "--tasks", "3"];
    args.extend(&common[..common.len() - 1]);
    ok(run_in(&cluster, &args, &[]));
    for preset in PRESETS {
        let script = cluster.join(format!("rep/{preset}/seed-2021/slurm/league.sbatch"));
        for task in ["0", "2"] {
            bash(&script, &[("SLURM_ARRAY_TASK_ID", task)]);
        }
    }
    // --report-only gathers but plays nothing: the report lists the leagues as unfinished.
    let report_only = [
        &["replicate", "--report-only", "--shards", "3"],
        &common[..],
    ]
    .concat();
    ok(run_in(&cluster, &report_only, &[]));
    let text = std::fs::read_to_string(cluster.join("rep.md")).unwrap();
    assert!(text.contains("No complete run of `reward` yet"), "{text}");
    // A record no run of the league could have written is refused with its slice's file.
    let slice = cluster.join("rep/star/seed-2021/shard-2-of-3/games.jsonl");
    let good = std::fs::read_to_string(&slice).unwrap();
    std::fs::write(
        &slice,
        good.replacen("\"tile_seed\":\"", "\"tile_seed\":\"1", 1),
    )
    .unwrap();
    let out = run_in(&cluster, &report_only, &[]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    assert!(stderr.contains("shard-2-of-3"), "{stderr}");
    std::fs::write(&slice, good).unwrap();
    // Without --report-only the missing slice's games are played here.
    ok(run_in(
        &cluster,
        &[&["replicate", "--shards", "3"], &common[..]].concat(),
        &[],
    ));
    for preset in PRESETS {
        let folder = format!("rep/{preset}/seed-2021");
        let (mine, theirs) = (local.join(&folder), cluster.join(&folder));
        same_league_files(&mine, &theirs);
    }
}

#[test]
fn the_study_runner_submits_every_spec_as_a_job_array_and_a_job_that_gathers_it() {
    let dir = scratch("replicate-slurm", "study");
    let bin = fake_sbatch(&dir);
    let (log, results) = (dir.join("sbatch.log"), dir.join("results"));
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap());
    let out = Command::new("bash")
        .args(["runs/study/run.sh", "--slurm", "tests/slurm/tiny.ron"])
        .env("PATH", &path)
        .env("SBATCH_LOG", &log)
        .env("EVOMCTS", env!("CARGO_BIN_EXE_evomcts"))
        .env("RESULTS", &results)
        .env("TASKS", "3")
        .env("SLURM_OPTS", "--cpus-per-task 1 --mem 200M")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let calls = log_lines(&log);
    let folder = results.join("tiny").canonicalize().unwrap();
    let slurm = folder.join("slurm");
    assert_eq!(
        calls,
        [
            format!("--parsable {}", slurm.join("league.sbatch").display()),
            format!(
                "--parsable --dependency=afterok:100 --kill-on-invalid-dep=yes {}",
                slurm.join("finish.sbatch").display()
            ),
        ]
    );
    let league = std::fs::read_to_string(slurm.join("league.sbatch")).unwrap();
    assert!(
        league.contains("#SBATCH --array=0-2") && league.contains("#SBATCH --mem=200M"),
        "{league}"
    );
    assert!(
        stdout.contains("tiny: array job 100, then job 101 gathers it"),
        "{stdout}"
    );
    // Slurm's part played by hand: the array's tasks, then the gathering job, which leaves the
    // folder as the local runner does.
    for task in ["0", "1", "2"] {
        bash(
            &slurm.join("league.sbatch"),
            &[("SLURM_ARRAY_TASK_ID", task)],
        );
    }
    bash(&slurm.join("finish.sbatch"), &[]);
    let local = dir.join("local");
    let out = Command::new("bash")
        .args(["runs/study/run.sh", "tests/slurm/tiny.ron"])
        .env("EVOMCTS", env!("CARGO_BIN_EXE_evomcts"))
        .env("RESULTS", &local)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    same_league_files(&local.join("tiny"), &folder);
    assert_eq!(
        sorted_lines(&local.join("tiny/games.jsonl")),
        sorted_lines(&folder.join("games.jsonl"))
    );
}
