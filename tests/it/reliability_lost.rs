//! Work lost is never reported as done (issue 34, E7): a run whose append-only record file
//! is removed or replaced under it fails with status 2 and says so.

use crate::support::{evomcts, scratch};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Three controllers, 10 games per match: 60 games on one thread, long enough that the
/// records file can be touched while the league runs.
const CONC: &str = r#"(name:"conc",games_per_match:10,seed:11,controllers:[(name:"R",spec:Random),(name:"M",spec:Mcts(sims:40)),(name:"N",spec:Mcts(sims:40))])"#;

/// Waits (at most a minute) until `path` holds a whole record.
fn wait_for_a_record(path: &Path) {
    let deadline = Instant::now() + Duration::from_secs(60);
    while std::fs::read(path).map_or(true, |b| !b.contains(&b'\n')) {
        assert!(Instant::now() < deadline, "no record in {}", path.display());
        std::thread::sleep(Duration::from_millis(5));
    }
}

// E7: `rm games.jsonl` (or a file moved over it) while the league runs.
#[test]
fn a_records_file_removed_or_replaced_under_a_league_fails_it() {
    let dir = scratch("rlost", "league");
    std::fs::create_dir_all(&dir).unwrap();
    let spec = dir.join("conc.ron");
    std::fs::write(&spec, CONC).unwrap();
    for replace in [false, true] {
        let run = dir.join(format!("c-{replace}"));
        let records = run.join("games.jsonl");
        let child = Command::new(env!("CARGO_BIN_EXE_evomcts"))
            .args(["league", spec.to_str().unwrap(), "--out"])
            .arg(&run)
            .args(["--quiet", "--threads", "1"])
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        wait_for_a_record(&records);
        if replace {
            let copy = run.join("copy");
            std::fs::copy(&records, &copy).unwrap();
            std::fs::rename(&copy, &records).unwrap();
        } else {
            std::fs::remove_file(&records).unwrap();
        }
        let out = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "replace {replace}: {stderr}");
        assert!(
            stderr.contains("games.jsonl") && stderr.contains("removed or replaced"),
            "{stderr}"
        );
        assert!(!run.join("tables.md").exists(), "tables of lost games");
    }
    // What is left resumes: the lost games are played again.
    let run = dir.join("c-false");
    let out = evomcts(&[
        "league",
        spec.to_str().unwrap(),
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
    let dir = scratch("rlost", "validation");
    std::fs::create_dir_all(&dir).unwrap();
    let spec = dir.join("v.ron");
    // Two chunks of 16 tasks: the rows are removed after the first is written.
    std::fs::write(
        &spec,
        r#"(name:"v",seed:3,sequences:30,candidate:Mcts(sims:40,selection:Formula("Q + 2/n")),baseline:Mcts(sims:40))"#,
    )
    .unwrap();
    let run = dir.join("v");
    let rows = run.join("games.csv");
    let child = Command::new(env!("CARGO_BIN_EXE_evomcts"))
        .args(["validate", "carcassonne", spec.to_str().unwrap(), "--out"])
        .arg(&run)
        .args(["--quiet", "--threads", "1"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The header, then the first chunk's rows.
    let deadline = Instant::now() + Duration::from_secs(60);
    while std::fs::read_to_string(&rows).map_or(true, |t| t.lines().count() < 2) {
        assert!(Instant::now() < deadline, "no rows in {}", rows.display());
        std::thread::sleep(Duration::from_millis(5));
    }
    std::fs::remove_file(&rows).unwrap();
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("games.csv") && stderr.contains("removed or replaced"),
        "{stderr}"
    );
    assert!(!run.join("summary.md").exists());
    let _ = std::fs::remove_dir_all(dir);
}
