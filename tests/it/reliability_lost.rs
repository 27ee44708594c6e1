//! Work lost is never reported as done (issue 34, E7): a run whose append-only record file
//! is removed or replaced under it fails with status 2 and says so.

use crate::support::{evomcts, scratch};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Three controllers, 10 games per match: 60 games on one thread, long enough that the
/// records file can be touched while the league runs.
const CONC: &str = r#"(name:"conc",games_per_match:10,seed:11,controllers:[(name:"R",spec:Random),(name:"M",spec:Mcts(sims:40)),(name:"N",spec:Mcts(sims:40))])"#;

/// 30 sequences: two chunks of 16 tasks, so the rows can be removed after the first is written.
const VALIDATION: &str = r#"(name:"v",seed:3,sequences:30,candidate:Mcts(sims:40,selection:Formula("Q + 2/n")),baseline:Mcts(sims:40))"#;

/// `evomcts ARGS --out OUT --quiet --threads 1`, started and left running.
fn start(args: &[&str], out: &Path) -> Child {
    Command::new(env!("CARGO_BIN_EXE_evomcts"))
        .args(args)
        .arg("--out")
        .arg(out)
        .args(["--quiet", "--threads", "1"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Waits (at most a minute) until `path` holds `lines` whole lines.
fn wait_for_lines(path: &Path, lines: usize) {
    let deadline = Instant::now() + Duration::from_secs(60);
    let count = || std::fs::read(path).map_or(0, |b| b.iter().filter(|&&c| c == b'\n').count());
    while count() < lines {
        assert!(
            Instant::now() < deadline,
            "not {lines} lines in {}",
            path.display()
        );
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// The run `child` ends with status 2, saying that `file` was removed or replaced.
fn fails_saying_lost(child: Child, file: &str) {
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains(file) && stderr.contains("removed or replaced"),
        "{stderr}"
    );
}

/// A scratch folder holding the spec `text` as `name`.
fn folder_with_spec(test: &str, name: &str, text: &str) -> (PathBuf, PathBuf) {
    let dir = scratch("rlost", test);
    std::fs::create_dir_all(&dir).unwrap();
    let spec = dir.join(name);
    std::fs::write(&spec, text).unwrap();
    (dir, spec)
}

// E7: `rm games.jsonl` (or a file moved over it) while the league runs.
#[test]
fn a_records_file_removed_or_replaced_under_a_league_fails_it() {
    let (dir, spec) = folder_with_spec("league", "conc.ron", CONC);
    let spec = spec.to_str().unwrap();
    for replace in [false, true] {
        let run = dir.join(format!("c-{replace}"));
        let records = run.join("games.jsonl");
        let child = start(&["league", spec], &run);
        wait_for_lines(&records, 1);
        if replace {
            let copy = run.join("copy");
            std::fs::copy(&records, &copy).unwrap();
            std::fs::rename(&copy, &records).unwrap();
        } else {
            std::fs::remove_file(&records).unwrap();
        }
        fails_saying_lost(child, "games.jsonl");
        assert!(!run.join("tables.md").exists(), "tables of lost games");
    }
    // What is left resumes: the lost games are played again.
    let run = dir.join("c-false");
    let out = evomcts(&[
        "league",
        spec,
        "--out",
        run.to_str().unwrap(),
        "--resume",
        "--quiet",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let _ = std::fs::remove_dir_all(dir);
}

// E7, the class: a validation's rows removed while it runs fail it too.
#[test]
fn a_validations_rows_removed_under_it_fail_it() {
    let (dir, spec) = folder_with_spec("validation", "v.ron", VALIDATION);
    let run = dir.join("v");
    let child = start(&["validate", "carcassonne", spec.to_str().unwrap()], &run);
    // The header, then the first chunk's rows.
    wait_for_lines(&run.join("games.csv"), 2);
    std::fs::remove_file(run.join("games.csv")).unwrap();
    fails_saying_lost(child, "games.csv");
    assert!(!run.join("summary.md").exists());
    let _ = std::fs::remove_dir_all(dir);
}
