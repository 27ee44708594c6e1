//! A study reads what it resumes from its phase folders, not from `phases.ron` alone: a
//! champion, an evolution's game count, a budget or an entry that the folders or the spec
//! contradict is refused naming `phases.ron` and the field (status 2, nothing written); a study
//! killed while it plays on `--workers` and resumed on threads leaves no step folder; a spec
//! whose `controller` sets what the study sets, or whose tuning budget is no whole number of
//! steps, is refused naming the field.

use crate::support::{evomcts, files_under, scratch};
use evomcts::slurm::launch::PROGRESS_FILE;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const SPEC: &str = r#"(
    name: "c4-phases",
    game: ConnectFour,
    seed: 11,
    budgets: [6, 8],
    tune: (games: 8, reestimate_sequences: 2),
    evolve: (generations: 1, mu: 2, lambda: 2, samples: 2, reestimate_candidates: 1),
    validate: (games_cap: 8),
)"#;

fn s(path: &Path) -> &str {
    path.to_str().unwrap()
}

fn spec_file(root: &Path, name: &str, text: &str) -> PathBuf {
    std::fs::create_dir_all(root).unwrap();
    let path = root.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

fn copy_dir(from: &Path, to: &Path) {
    for (path, bytes) in files_under(from) {
        let target = to.join(path);
        std::fs::create_dir_all(target.parent().unwrap()).unwrap();
        std::fs::write(target, bytes).unwrap();
    }
}

fn study(args: &[&str]) -> (Option<i32>, String) {
    let out = evomcts(args);
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn phases_ron_that_its_folders_or_the_spec_contradict_is_refused_naming_the_field() {
    let root = scratch("reliability-study", "phases");
    let spec = spec_file(&root, "c4.ron", SPEC);
    let started = root.join("started");
    // Tune and evolve at 6 simulations finished; validation not begun.
    let (code, stderr) = study(&[
        "study",
        s(&spec),
        "--out",
        s(&started),
        "--stop-after",
        "2",
        "--quiet",
    ]);
    assert_eq!(code, Some(0), "{stderr}");
    let phases = std::fs::read_to_string(started.join("phases.ron")).unwrap();
    let champion = std::fs::read_to_string(started.join("sims-6/evolve/champion.txt")).unwrap();
    let stated = format!("champion: Some(\"{}\")", champion.trim());
    assert!(phases.contains(&stated), "{phases}");
    let evolve_games = phases
        .split("phase: Evolve,")
        .nth(1)
        .and_then(|rest| rest.split("games: ").nth(1))
        .and_then(|rest| rest.split(',').next())
        .unwrap()
        .to_string();
    let first = phases.find("    (").unwrap();
    let end = first + phases[first..].find("    ),\n").unwrap() + "    ),\n".len();
    let tune_entry = phases[first..end].to_string();
    let edits: [(&str, String, &[&str]); 5] = [
        // A champion evolution never produced (champion.txt names another).
        (
            "champion",
            phases.replace(&stated, "champion: Some(\"n\")"),
            &["phases.ron", "`champion`", "champion.txt"],
        ),
        // The evolution's games edited.
        (
            "games",
            phases.replacen(
                &format!("games: {evolve_games},"),
                &format!("games: {},", evolve_games.parse::<u64>().unwrap() + 2),
                phases.matches(&format!("games: {evolve_games},")).count(),
            ),
            &["phases.ron", "`games`", "sims-6/evolve"],
        ),
        // An entry of a budget the spec does not name.
        (
            "budget",
            phases.replacen("budget: 6,", "budget: 999,", 1),
            &["phases.ron", "`budget`", "999"],
        ),
        // A duplicated entry: blamed on phases.ron, not on a phase folder.
        (
            "twice",
            phases.replacen(&tune_entry, &format!("{tune_entry}{tune_entry}"), 1),
            &["phases.ron", "`phase`", "twice"],
        ),
        // An evolution's entry without its champion.
        (
            "none",
            phases.replace(&format!("        {stated},\n"), ""),
            &["phases.ron", "`champion`", "names no champion"],
        ),
    ];
    for (name, text, expected) in edits {
        assert_ne!(text, phases, "{name}: the edit changed nothing");
        let dir = root.join(name);
        copy_dir(&started, &dir);
        std::fs::write(dir.join("phases.ron"), &text).unwrap();
        let before = files_under(&dir);
        let (code, stderr) = study(&["study", s(&spec), "--out", s(&dir), "--resume", "--quiet"]);
        assert_eq!(code, Some(2), "{name}: {stderr}");
        for e in expected {
            assert!(stderr.contains(e), "{name}: expected {e:?} in {stderr}");
        }
        assert!(!stderr.contains("validate"), "{name}: {stderr}");
        assert_eq!(files_under(&dir), before, "{name}: a refused resume wrote");
    }
    // The unedited folder resumes and finishes.
    let (code, stderr) = study(&[
        "study",
        s(&spec),
        "--out",
        s(&started),
        "--resume",
        "--quiet",
    ]);
    assert_eq!(code, Some(0), "{stderr}");
}

/// Whether a process other than this one has `needle` in its command line.
fn any_process_mentions(needle: &str) -> bool {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return false;
    };
    entries.filter_map(Result::ok).any(|e| {
        std::fs::read(e.path().join("cmdline"))
            .is_ok_and(|c| String::from_utf8_lossy(&c).contains(needle))
    })
}

#[test]
fn a_study_killed_on_workers_and_resumed_on_threads_leaves_no_step_folder() {
    let root = scratch("reliability-study", "workers");
    let spec = spec_file(
        &root,
        "k.ron",
        &SPEC.replace("budgets: [6, 8],", "budgets: [30],"),
    );
    let whole = root.join("whole");
    let (code, stderr) = study(&["study", s(&spec), "--out", s(&whole), "--quiet"]);
    assert_eq!(code, Some(0), "{stderr}");

    let killed = root.join("killed");
    let steps = killed.join("sims-30/evolve/steps");
    let mut driver = Command::new(env!("CARGO_BIN_EXE_evomcts"))
        .args(["study", s(&spec), "--out", s(&killed), "--workers", "2"])
        .args(["--threads", "1", "--quiet"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    while !steps.exists() {
        assert!(
            driver.try_wait().unwrap().is_none(),
            "the study ended before its evolution played a step"
        );
        assert!(Instant::now() < deadline, "no step within a minute");
        std::thread::sleep(Duration::from_millis(2));
    }
    // kill -9 of the driver while a step of the evolution is under way; its workers stop on
    // their own (they watch the driver).
    driver.kill().unwrap();
    driver.wait().unwrap();
    let killed_at = Instant::now();
    while any_process_mentions(s(&steps)) {
        assert!(
            killed_at.elapsed() < Duration::from_secs(10),
            "workers left"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(steps.exists());

    let (code, stderr) = study(&[
        "study",
        s(&spec),
        "--out",
        s(&killed),
        "--resume",
        "--quiet",
    ]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(!steps.exists(), "{} is left", steps.display());
    let results = |dir: &Path| -> Vec<(PathBuf, Vec<u8>)> {
        files_under(dir)
            .into_iter()
            .filter(|(p, _)| p.file_name().unwrap() != PROGRESS_FILE)
            .collect()
    };
    assert_eq!(results(&whole), results(&killed));
}

#[test]
fn a_study_controller_setting_what_the_study_sets_or_a_tuning_of_part_steps_is_refused() {
    let root = scratch("reliability-study", "spec");
    let cases: [(&str, &str, &[&str]); 4] = [
        (
            "seed: 11,",
            "seed: 11, controller: (sims: 999, c_e: 7.0),",
            &["`controller.sims`", "leave it out", "999"],
        ),
        (
            "seed: 11,",
            "seed: 11, controller: (c_e: 7.0),",
            &["`controller.c_e`", "leave it out", "7"],
        ),
        (
            "games: 8,",
            "games: 10,",
            &["`tune.games`", "multiple of 4", "8 or 12"],
        ),
        (
            "games: 8,",
            "games: 15,",
            &["`tune.games`", "multiple of 4", "12 or 16"],
        ),
    ];
    for (from, to, expected) in cases {
        let spec = spec_file(&root, "bad.ron", &SPEC.replacen(from, to, 1));
        let out = root.join("out");
        let (code, stderr) = study(&["study", s(&spec), "--out", s(&out)]);
        assert_eq!(code, Some(2), "{to}: {stderr}");
        for e in expected {
            assert!(stderr.contains(e), "{to}: expected {e:?} in {stderr}");
        }
        assert!(!out.exists(), "{to}: a refused spec wrote");
    }
}
