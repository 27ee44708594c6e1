//! Files the tool writes cannot be redirected or collide (issue 23, D6, D10, D17, D18): links
//! planted in a run folder are refused or replaced, never followed; names that become paths are
//! one plain component; names that become file names map to distinct, bounded file names; no
//! command writes over another run's files.

use crate::support::{evomcts, evomcts_ok};
use std::path::{Path, PathBuf};

pub fn scratch(name: &str) -> PathBuf {
    let dir = crate::support::scratch("paths", name);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A league of two random players, four games: enough to write every table.
pub const TINY: &str = r#"(
    name: "tiny",
    games_per_match: 2,
    seed: 5,
    controllers: [
        (name: "Random", spec: Random),
        (name: "Random 2", spec: Random),
    ],
)"#;

/// A bandit evolution of three short generations.
pub const TINY_EVOLVE: &str = r#"(
    name: "tiny-bandit",
    seed: 7,
    strategy: (mu: 2, lambda: 4, generations: 2, plus: true),
    noise: (samples: 8, elites: 1, elite_samples: 8),
    fitness: Bandit(arms: 5, epsilon: 0.2, horizon: 100, c_e: 0.5),
)"#;

pub fn s(path: &Path) -> &str {
    path.to_str().unwrap()
}

pub fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Writes `text` to `dir/name` and returns the path.
pub fn file(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

// D6: a link planted at the lock makes `league` and `evolve` refuse without touching its
// target; one at the old temporary name of the standings, or at a result file, is never
// followed.
#[test]
fn links_planted_in_a_run_folder_are_never_followed() {
    let dir = scratch("links");
    let spec = file(&dir, "tiny.ron", TINY);
    let evolve_spec = file(&dir, "ev.ron", TINY_EVOLVE);
    let victim = file(&dir, "victim.txt", "precious\n");
    let victim_text = || std::fs::read_to_string(&victim).unwrap();

    for (command, spec) in [("league", &spec), ("evolve", &evolve_spec)] {
        let run = dir.join(format!("{command}-lock"));
        std::fs::create_dir_all(&run).unwrap();
        std::os::unix::fs::symlink(&victim, run.join(".evomcts.lock")).unwrap();
        let out = evomcts(&[
            command,
            s(spec),
            "--out",
            s(&run),
            "--threads",
            "1",
            "--quiet",
        ]);
        assert_eq!(out.status.code(), Some(2), "{command}: {}", stderr(&out));
        assert!(stderr(&out).contains("symbolic link"), "{}", stderr(&out));
        assert_eq!(
            victim_text(),
            "precious\n",
            "{command} wrote through the lock link"
        );
    }

    // A hard link at the lock is refused too: emptying it would empty the other name.
    let run = dir.join("hard-lock");
    std::fs::create_dir_all(&run).unwrap();
    std::fs::hard_link(&victim, run.join(".evomcts.lock")).unwrap();
    let out = evomcts(&["league", s(&spec), "--out", s(&run), "--quiet"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert_eq!(victim_text(), "precious\n");

    // Links at temporary names and at result files: the run succeeds, the targets are intact
    // and the results are files of the run's own.
    let run = dir.join("tmp-links");
    std::fs::create_dir_all(&run).unwrap();
    for name in [
        ".standings.csv.tmp",
        ".tables.md.tmp",
        "tables.md",
        "standings.csv",
    ] {
        std::os::unix::fs::symlink(&victim, run.join(name)).unwrap();
    }
    evomcts_ok(&[
        "league",
        s(&spec),
        "--out",
        s(&run),
        "--threads",
        "1",
        "--quiet",
    ]);
    assert_eq!(victim_text(), "precious\n", "a link was followed");
    for name in ["tables.md", "standings.csv"] {
        let meta = std::fs::symlink_metadata(run.join(name)).unwrap();
        assert!(meta.is_file(), "{name} is still a link");
    }

    // A link at the records is refused, not appended to (its target reads as no records).
    let run = dir.join("records-link");
    std::fs::create_dir_all(&run).unwrap();
    let empty = file(&dir, "empty.jsonl", "");
    std::os::unix::fs::symlink(&empty, run.join("games.jsonl")).unwrap();
    let out = evomcts(&["league", s(&spec), "--out", s(&run), "--quiet", "--resume"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("symbolic link"), "{}", stderr(&out));
    assert_eq!(
        std::fs::read_to_string(&empty).unwrap(),
        "",
        "appended through a link"
    );
    let _ = std::fs::remove_dir_all(dir);
}

// D17: controller names that slug alike (`ES+1`, `ES-1`), that have no ASCII letter, or that
// are 200 characters long get distinct, short file names: `plot games`, `plot all` and `report`
// write one figure per pairing.
#[test]
fn figures_of_names_that_slug_alike_do_not_overwrite_each_other() {
    let dir = scratch("stems");
    let long_a = format!("A{}", "x".repeat(199));
    let long_b = format!("B{}", "x".repeat(199));
    let names = ["ES+1", "ES-1", "Ä", "Ö", &long_a, &long_b];
    let controllers: Vec<String> = names
        .iter()
        .map(|n| format!("(name: {n:?}, spec: Random)"))
        .collect();
    let spec = file(
        &dir,
        "alike.ron",
        &format!(
            "(name: \"alike\", games_per_match: 2, seed: 3, controllers: [{}])",
            controllers.join(", ")
        ),
    );
    let run = dir.join("run");
    evomcts_ok(&["league", s(&spec), "--out", s(&run), "--quiet"]);
    let pairings = names.len() * (names.len() - 1) / 2;
    let count = |folder: &Path, prefix: &str, ext: &str| {
        std::fs::read_dir(folder)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.starts_with(prefix) && n.ends_with(ext))
            .inspect(|n| assert!(n.len() < 255, "{n} is too long"))
            .count()
    };
    let games = dir.join("games-plots");
    evomcts_ok(&["plot", "games", s(&run), "--out", s(&games)]);
    assert_eq!(count(&games, "scores_", ".png"), pairings);
    assert_eq!(count(&games, "scores_", ".svg"), pairings);
    evomcts_ok(&["plot", "all", s(&run)]);
    assert_eq!(count(&run.join("plots"), "scores_", ".svg"), pairings);
    let report = dir.join("report");
    evomcts_ok(&["report", s(&run), "--out", s(&report)]);
    assert_eq!(count(&report.join("figures"), "scores_", ".svg"), pairings);
    let _ = std::fs::remove_dir_all(dir);
}

/// `evomcts ARGS` run in `dir`, as a user in a scratch folder would.
pub fn evomcts_in(dir: &Path, args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_evomcts"))
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap()
}

/// The names in `dir`, sorted.
pub fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

// D10: a name that becomes a path (an evolution's name, a league spec file's name, which
// `league` and `slurm` use for their default folder) must be one plain component; `..` is
// refused before anything is written.
#[test]
fn names_that_become_paths_are_one_plain_component() {
    let dir = scratch("plain");
    let work = dir.join("work");
    std::fs::create_dir_all(&work).unwrap();
    file(
        &work,
        "ev.ron",
        &TINY_EVOLVE.replace("name: \"tiny-bandit\"", "name: \"..\""),
    );
    file(&work, "...ron", TINY);
    let before = listing(&work);
    for args in [
        &["evolve", "ev.ron", "--quiet"][..],
        &["league", "...ron", "--quiet"],
        &["slurm", "...ron", "--tasks", "1"],
    ] {
        let out = evomcts_in(&work, args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        let message = stderr(&out);
        assert!(message.contains("plain name"), "{args:?}: {message}");
        assert!(
            message.contains("ev.ron") || message.contains("...ron"),
            "{message}"
        );
        assert_eq!(listing(&work), before, "{args:?} wrote something");
        assert_eq!(listing(&dir), ["work"], "{args:?} wrote beside the folder");
    }
    // The same specs with an explicit --out are fine: only the default folder needs the name.
    evomcts_ok(&[
        "league",
        s(&work.join("...ron")),
        "--out",
        s(&dir.join("ok")),
        "--quiet",
    ]);
    let _ = std::fs::remove_dir_all(dir);
}

/// `validate bandit` on the evolution run `run`, small and on one thread, then `extra`.
pub fn bandit_baselines_args<'a>(run: &'a Path, extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec![
        "validate",
        "bandit",
        s(run),
        "--runs",
        "2",
        "--sweep-runs",
        "2",
        "--c",
        "1",
        "--threads",
        "1",
    ];
    args.extend_from_slice(extra);
    args
}

/// Every file in `dir` (not in sub-folders) with its bytes, sorted by name.
pub fn snapshot(dir: &Path) -> Vec<(String, Vec<u8>)> {
    listing(dir)
        .into_iter()
        .filter(|n| dir.join(n).is_file())
        .map(|n| {
            let bytes = std::fs::read(dir.join(&n)).unwrap();
            (n, bytes)
        })
        .collect()
}

// D18: no command writes over a folder or file that belongs to another run, or over a file of
// another kind than it writes.
#[test]
fn outputs_never_replace_another_runs_files() {
    let dir = scratch("other");
    let spec = file(&dir, "tiny.ron", TINY);
    let other_spec = file(&dir, "other.ron", &TINY.replace("seed: 5", "seed: 6"));
    let (base, other) = (dir.join("base"), dir.join("other"));
    evomcts_ok(&["league", s(&spec), "--out", s(&base), "--quiet"]);
    evomcts_ok(&["league", s(&other_spec), "--out", s(&other), "--quiet"]);
    let (base_files, other_files) = (snapshot(&base), snapshot(&other));

    for args in [
        &["table", s(&base), "--out", s(&other)][..],
        &["plot", "league", s(&base), "--out", s(&other)],
        &["plot", "all", s(&base), "--out", s(&other)],
        &["report", s(&base), "--out", s(&other)],
        &["replay", s(&base), "--game", "0", "--pictures", s(&other)],
    ] {
        let out = evomcts(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(stderr(&out).contains("another run"), "{}", stderr(&out));
        assert!(
            snapshot(&other) == other_files,
            "{args:?} changed the other run"
        );
        assert_eq!(
            listing(&other),
            other_files.iter().map(|f| f.0.clone()).collect::<Vec<_>>()
        );
    }
    // Into its own folder, or a folder that is no run's, is fine.
    evomcts_ok(&["table", s(&base), "--out", s(&base)]);
    assert!(snapshot(&base) == base_files, "the same tables");
    evomcts_ok(&["table", s(&base), "--out", s(&dir.join("merged"))]);

    // `validate bandit --out` writes Markdown: not over records, nor over a run's own table.
    let evolution = dir.join("ev");
    let ev_spec = file(&dir, "ev.ron", TINY_EVOLVE);
    evomcts_ok(&["evolve", s(&ev_spec), "--out", s(&evolution), "--quiet"]);
    let bandit = |out: &Path| evomcts(&bandit_baselines_args(&evolution, &["--out", s(out)]));
    for target in [
        base.join("games.jsonl"),
        base.join("tables.md"),
        base.clone(),
    ] {
        let out = bandit(&target);
        assert_eq!(out.status.code(), Some(2), "{target:?}: {}", stderr(&out));
        assert!(
            snapshot(&base) == base_files,
            "--out {target:?} changed the run"
        );
    }
    let table = dir.join("baselines.md");
    let out = bandit(&table);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(std::fs::read_to_string(&table)
        .unwrap()
        .contains("pseudo-regret"));
    let _ = std::fs::remove_dir_all(dir);
}

/// The files under `dir`, sub-folders included, with their bytes, sorted by path.
fn tree(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut files = Vec::new();
    for name in listing(dir) {
        let path = dir.join(&name);
        if path.is_dir() {
            files.extend(tree(&path));
        } else {
            files.push((path.clone(), std::fs::read(&path).unwrap_or_default()));
        }
    }
    files
}

// E5: a link to a folder planted inside a run (its `plots`, an evolution's `plots`, a link to
// another run) is refused, never written through.
#[test]
fn folder_links_planted_in_a_run_are_never_written_through() {
    let dir = scratch("folder-links");
    let spec = file(&dir, "tiny.ron", TINY);
    let ev_spec = file(&dir, "ev.ron", TINY_EVOLVE);
    let (run, other, evolution, victim) = (
        dir.join("r"),
        dir.join("other"),
        dir.join("ev"),
        dir.join("victim"),
    );
    evomcts_ok(&["league", s(&spec), "--out", s(&run), "--quiet"]);
    evomcts_ok(&["league", s(&spec), "--out", s(&other), "--quiet"]);
    evomcts_ok(&["evolve", s(&ev_spec), "--out", s(&evolution), "--quiet"]);
    std::fs::create_dir_all(&victim).unwrap();
    let other_files = tree(&other);
    for (folder, target) in [
        (&run, "../victim"),
        (&evolution, "../victim"),
        (&run, "../other"),
    ] {
        let link = folder.join("plots");
        std::os::unix::fs::symlink(target, &link).unwrap();
        let out = evomcts(&["plot", "all", s(folder)]);
        assert_eq!(out.status.code(), Some(2), "{target}: {}", stderr(&out));
        assert!(stderr(&out).contains("symbolic link"), "{}", stderr(&out));
        assert!(listing(&victim).is_empty(), "wrote into {target}");
        assert!(tree(&other) == other_files, "wrote into {target}");
        std::fs::remove_file(&link).unwrap();
    }
    // Without the link, the figures go into the run's own `plots`.
    evomcts_ok(&["plot", "all", s(&run)]);
    assert!(!listing(&run.join("plots")).is_empty());
    let _ = std::fs::remove_dir_all(dir);
}

// E6: a run is recognised by its records even without `spec.ron`, and what is inside another
// run is as protected as its folder.
#[test]
fn outputs_never_replace_files_inside_another_run_or_of_a_run_without_its_spec() {
    let dir = scratch("inside-other");
    let spec = file(&dir, "tiny.ron", TINY);
    let vc = file(&dir, "vc.ron", crate::reliability_hangs::VC);
    let (run, other, validation) = (dir.join("r"), dir.join("other"), dir.join("v"));
    evomcts_ok(&["league", s(&spec), "--out", s(&run), "--quiet"]);
    evomcts_ok(&["league", s(&spec), "--out", s(&other), "--quiet"]);
    evomcts_ok(&["plot", "all", s(&other)]);
    evomcts_ok(&[
        "validate",
        "carcassonne",
        s(&vc),
        "--out",
        s(&validation),
        "--quiet",
    ]);
    std::fs::remove_file(validation.join("spec.ron")).unwrap();
    let headless = dir.join("headless");
    evomcts_ok(&["league", s(&spec), "--out", s(&headless), "--quiet"]);
    std::fs::remove_file(headless.join("spec.ron")).unwrap();
    let before = [tree(&other), tree(&validation), tree(&headless)];
    for args in [
        vec!["table", s(&run), "--out", s(&validation)],
        vec!["table", s(&run), "--out", s(&headless)],
        vec!["plot", "all", s(&run), "--out", s(&validation)],
        vec!["plot", "all", s(&run), "--out", s(&other.join("plots"))],
        vec!["report", s(&run), "--out", s(&other.join("pages"))],
    ] {
        let out = evomcts(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(stderr(&out).contains("another run"), "{}", stderr(&out));
    }
    assert!([tree(&other), tree(&validation), tree(&headless)] == before);
    // Tables written elsewhere do not make that folder a run: it takes them again.
    let merged = dir.join("merged");
    evomcts_ok(&["table", s(&run), "--out", s(&merged)]);
    evomcts_ok(&["table", s(&run), "--out", s(&merged)]);
    let _ = std::fs::remove_dir_all(dir);
}

// E5, the class: every folder the tool writes into is made by `runfs::create_folder`, which
// refuses a link inside a run.
#[test]
fn every_folder_is_made_by_the_one_function_that_refuses_links() {
    crate::support::assert_no_source_line("make folders with runfs::create_folder", |at, code| {
        (code.contains("create_dir_all(") || code.contains("create_dir("))
            && !at.contains("runfs/files.rs")
            && !code.ends_with(".unwrap();")
    });
}
