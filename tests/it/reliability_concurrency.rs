//! Two processes on one run folder (issue 23, D7): a command that reads a run and writes into
//! its folder (`table`) takes the folder's lock, so it never writes while a league does; it
//! refuses cleanly, and can write its tables elsewhere meanwhile.

use crate::reliability_paths::{file, s, scratch, snapshot, stderr, TINY};
use crate::support::{evomcts, evomcts_ok};
use evomcts::runfs::{RunLock, LOCK_FILE};
use std::path::Path;

/// The folder's files and their bytes, but for the lock file, whose content names its holder.
fn results(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files = snapshot(dir);
    files.retain(|(name, _)| name != LOCK_FILE);
    files
}

// D7: while a league holds its folder (here: a lock held as a running league holds it, so the
// test does not depend on timing), `table` refuses to write there, names the holder and leaves
// every file as it was; with --out elsewhere it writes the same tables there.
#[test]
fn table_does_not_write_a_folder_a_league_holds() {
    let dir = scratch("table-lock");
    let spec = file(&dir, "tiny.ron", TINY);
    let run = dir.join("run");
    evomcts_ok(&["league", s(&spec), "--out", s(&run), "--quiet"]);
    let before = results(&run);
    assert!(before.iter().any(|(n, _)| n == "tables.md"));

    let lock = RunLock::acquire(&run, None, "league tiny.ron (still running)").unwrap();
    let out = evomcts(&["table", s(&run)]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let message = stderr(&out);
    assert!(
        message.contains("in use by another evomcts process") && message.contains("still running"),
        "{message}"
    );
    assert!(results(&run) == before, "table wrote into a held folder");
    assert!(
        std::fs::read_dir(&run).unwrap().all(|e| !e
            .unwrap()
            .file_name()
            .to_string_lossy()
            .ends_with(".tmp")),
        "a temporary file was left"
    );

    let elsewhere = dir.join("elsewhere");
    evomcts_ok(&["table", s(&run), "--out", s(&elsewhere)]);
    let tables = |d: &Path| std::fs::read(d.join("tables.md")).unwrap();
    assert_eq!(
        tables(&elsewhere),
        tables(&run),
        "the same tables, written elsewhere"
    );

    drop(lock);
    evomcts_ok(&["table", s(&run)]);
    assert!(
        results(&run) == before,
        "the same tables once the folder is free"
    );
    let _ = std::fs::remove_dir_all(dir);
}

// D7 with a real league: `table` run while the league plays either refuses (the league still
// holds the folder) or finds it finished; either way the league succeeds and its tables
// describe all its records.
#[test]
fn table_during_a_league_leaves_the_league_outputs_whole() {
    let dir = scratch("table-during");
    let spec = file(
        &dir,
        "slow.ron",
        r#"(name: "slow", games_per_match: 2, seed: 1, controllers: [
            (name: "MCTS", spec: Mcts(sims: 100)), (name: "Random", spec: Random)])"#,
    );
    let run = dir.join("run");
    let league = std::process::Command::new(env!("CARGO_BIN_EXE_evomcts"))
        .args([
            "league",
            s(&spec),
            "--out",
            s(&run),
            "--threads",
            "1",
            "--quiet",
        ])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    // Started: it holds the lock and has written its spec, so `table` can read the run.
    while std::fs::read_to_string(run.join(LOCK_FILE)).map_or(true, |t| t.is_empty())
        || !run.join("spec.ron").exists()
    {
        assert!(
            std::time::Instant::now() < deadline,
            "the league never started"
        );
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    let table = evomcts(&["table", s(&run)]);
    let league = league.wait_with_output().unwrap();
    assert!(league.status.success(), "{}", stderr(&league));
    match table.status.code() {
        Some(0) => {}
        Some(2) => assert!(stderr(&table).contains("in use"), "{}", stderr(&table)),
        other => panic!("table exited {other:?}: {}", stderr(&table)),
    }
    let check = dir.join("check");
    evomcts_ok(&["table", s(&run), "--out", s(&check)]);
    for name in ["tables.md", "tables.json", "games.csv"] {
        assert_eq!(
            std::fs::read(run.join(name)).unwrap(),
            std::fs::read(check.join(name)).unwrap(),
            "{name} does not describe every record"
        );
    }
    let _ = std::fs::remove_dir_all(dir);
}

// README, Promises: taking the lock removes the temporary files of writers that were killed
// (their process no longer runs, which the lock reads from /proc: Linux only, so elsewhere
// they stay), and leaves those of a writer that still runs.
#[test]
fn taking_the_lock_removes_killed_writers_temporary_files_and_no_others() {
    let dir = scratch("stale-temporaries");
    let spec = file(&dir, "tiny.ron", TINY);
    let run = dir.join("run");
    evomcts_ok(&["league", s(&spec), "--out", s(&run), "--quiet"]);
    // Process ids above the kernel's limit (4194304) never run; this test's own process does.
    let killed = run.join(".standings.csv.99999999-0.tmp.csv");
    let running = run.join(format!(".standings.csv.{}-0.tmp.csv", std::process::id()));
    for f in [&killed, &running] {
        std::fs::write(f, "half a table").unwrap();
    }
    evomcts_ok(&["table", s(&run)]);
    assert_eq!(
        !killed.exists(),
        cfg!(target_os = "linux"),
        "{}",
        killed.display()
    );
    assert!(running.exists(), "{}", running.display());
    let _ = std::fs::remove_dir_all(dir);
}
