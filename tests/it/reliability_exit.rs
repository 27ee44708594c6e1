//! Exit statuses that hide lost work (issue 23, D11, D12, D22): a reader of stderr that goes
//! away does not stop a run, and a refused run leaves its folder as it was.

use crate::support::{evomcts, scratch};
use evomcts::evolve::{run_evolution, EvolveSpec, RunOptions as EvolveOptions};
use evomcts::league::{load_runs, read_records, record_path};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn folder(name: &str) -> PathBuf {
    let dir = scratch("rexit", name);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Three random players, 4 games per match: 24 games, so the standings are printed on
/// stderr several times while the games run.
const KILL: &str = r#"(
    name: "kill",
    games_per_match: 4,
    seed: 3,
    controllers: [
        (name: "A", spec: Random),
        (name: "B", spec: Random),
        (name: "C", spec: Random),
    ],
)"#;

const EVOLVE: &str = r#"(
    name: "b",
    seed: 7,
    strategy: (mu: 2, lambda: 4, generations: 3, plus: true),
    noise: (samples: 8, elites: 1, elite_samples: 8),
    fitness: Bandit(arms: 5, epsilon: 0.2, horizon: 200, c_e: 0.5),
)"#;

/// Runs the binary with its stderr connected to a pipe whose reader has already gone (as
/// `2>&1 | head -c 1` leaves it after the first byte); returns the exit code and stdout.
fn with_stderr_closed(args: &[&str]) -> (Option<i32>, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_evomcts"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stderr.take());
    let out = child.wait_with_output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

// D11: progress and standings that cannot be written do not stop a league or an evolution.
#[test]
fn a_reader_of_stderr_that_goes_away_does_not_stop_the_work() {
    let dir = folder("stderr");
    let spec = dir.join("kill.ron");
    std::fs::write(&spec, KILL).unwrap();
    let run = dir.join("R");
    let (code, stdout) = with_stderr_closed(&[
        "league",
        spec.to_str().unwrap(),
        "--out",
        run.to_str().unwrap(),
        "--threads",
        "1",
    ]);
    assert_eq!(code, Some(0));
    assert_eq!(read_records(&record_path(&run)).unwrap().games.len(), 24);
    assert!(run.join("tables.md").exists() && run.join("games.csv").exists());
    assert!(stdout.contains("Standings"), "{stdout}");

    let evolve = dir.join("b.ron");
    std::fs::write(&evolve, EVOLVE).unwrap();
    let pop = dir.join("pop");
    let (code, stdout) = with_stderr_closed(&[
        "evolve",
        evolve.to_str().unwrap(),
        "--out",
        pop.to_str().unwrap(),
        "--threads",
        "1",
    ]);
    assert_eq!(code, Some(0));
    assert!(
        pop.join("gen-003.ron").exists(),
        "stopped before the last generation"
    );
    assert!(
        stdout.contains(
            "4 generations (gen-000 to gen-003: the first population and 3 of the spec's 3"
        ),
        "{stdout}"
    );
    let _ = std::fs::remove_dir_all(dir);
}

// D11, the class: stderr is written only through `note!`, which ignores a reader that has gone;
// `eprintln!` would panic and stop the work.
#[test]
fn nothing_writes_to_stderr_in_a_way_that_can_stop_the_work() {
    crate::support::assert_no_source_line("use evomcts::note! instead", |_, code| {
        code.contains("eprintln!") || code.contains("eprint!")
    });
}

// D12: a refused `--resume` writes nothing, so the right spec still resumes the folder.
#[test]
fn a_refused_resume_leaves_the_folder_as_it_was() {
    let dir = folder("refused");
    let spec = dir.join("kill.ron");
    std::fs::write(&spec, KILL).unwrap();
    let other = dir.join("tiny.ron");
    std::fs::write(&other, KILL.replace("seed: 3", "seed: 4")).unwrap();
    let run = dir.join("RUN");
    let (run_s, spec_s, other_s) = (
        run.to_str().unwrap(),
        spec.to_str().unwrap(),
        other.to_str().unwrap(),
    );
    let out = evomcts(&["league", spec_s, "--out", run_s, "--quiet"]);
    assert!(out.status.success());
    std::fs::remove_file(run.join("spec.ron")).unwrap();
    let records = std::fs::read(record_path(&run)).unwrap();
    let refused = evomcts(&["league", other_s, "--out", run_s, "--resume", "--quiet"]);
    assert_eq!(refused.status.code(), Some(2));
    let message = String::from_utf8_lossy(&refused.stderr);
    assert!(message.contains("another spec"), "{message}");
    assert!(
        !run.join("spec.ron").exists(),
        "a refused resume wrote spec.ron"
    );
    assert_eq!(std::fs::read(record_path(&run)).unwrap(), records);
    let resumed = evomcts(&["league", spec_s, "--out", run_s, "--resume", "--quiet"]);
    assert!(
        resumed.status.success(),
        "{}",
        String::from_utf8_lossy(&resumed.stderr)
    );
    assert!(evomcts(&["table", run_s]).status.success());
    assert_eq!(load_runs(&[run]).unwrap().1.len(), 24);
    let _ = std::fs::remove_dir_all(dir);
}

fn evolve_opts(dir: &Path, resume: bool) -> EvolveOptions {
    EvolveOptions {
        out_dir: dir.to_path_buf(),
        resume,
        threads: Some(1),
        progress: false,
        stop_after: None,
        srun: None,
    }
}

// D22: `evolve --resume` with fewer generations than the folder holds is refused, and the
// folder's spec still says what its generation files are.
#[test]
fn resuming_with_fewer_generations_than_on_disk_changes_nothing() {
    let dir = folder("fewer");
    let spec = EvolveSpec::from_ron(EVOLVE, "b.ron").unwrap();
    run_evolution(&spec, &evolve_opts(&dir, false)).unwrap();
    let stored = std::fs::read(dir.join("spec.ron")).unwrap();
    let shorter =
        EvolveSpec::from_ron(&EVOLVE.replace("generations: 3", "generations: 1"), "b.ron").unwrap();
    let err = run_evolution(&shorter, &evolve_opts(&dir, true))
        .err()
        .expect("refused")
        .to_string();
    assert!(
        err.contains("gen-003.ron") && err.contains("at least 3 generations"),
        "{err}"
    );
    assert_eq!(std::fs::read(dir.join("spec.ron")).unwrap(), stored);
    assert!(dir.join("gen-003.ron").exists());
    // The same through the binary: status 2.
    let file = dir.join("short.ron");
    std::fs::write(&file, EVOLVE.replace("generations: 3", "generations: 1")).unwrap();
    let out = evomcts(&[
        "evolve",
        file.to_str().unwrap(),
        "--out",
        dir.to_str().unwrap(),
        "--resume",
        "--quiet",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(std::fs::read(dir.join("spec.ron")).unwrap(), stored);
    let _ = std::fs::remove_dir_all(dir);
}
