//! No command writes into a folder that holds another kind of run: every command that makes a
//! run folder (league, evolve, evolve --runs, validate, tune, study, portfolio, replicate,
//! pareto and slurm's scripts), pointed at a folder of every other kind, with and without
//! --resume, and with the folder's lock file or without it (a folder copied without its hidden
//! files), exits with status 2 naming what the folder holds, and the folder keeps its bytes.

use crate::support::{evomcts, evomcts_ok, files_under, scratch};
use std::path::{Path, PathBuf};

/// The tiny specs the runs are made from, by file name.
const SPECS: &[(&str, &str)] = &[
    (
        "l.ron",
        r#"(name: "kinds-league", games_per_match: 1, seed: 3, game: ConnectFour,
            controllers: [(name: "Random", spec: Random), (name: "Random 2", spec: Random)])"#,
    ),
    (
        "ev.ron",
        r#"(name: "kinds-bandit", seed: 5, strategy: (mu: 1, lambda: 2, generations: 1, plus: true),
            noise: (samples: 2, elites: 1, elite_samples: 2),
            fitness: Bandit(arms: 3, epsilon: 0.2, horizon: 20, c_e: 0.5))"#,
    ),
    (
        "v.ron",
        r#"(name: "kinds-v", seed: 3, sequences: 2, game: ConnectFour, candidate: Random, baseline: Random)"#,
    ),
    (
        "t.ron",
        r#"(name: "kinds-tune", seed: 5, game: ConnectFour, controller: (sims: 4, c_e: 0.5, reward: WinLoss),
            parameters: [(name: "C_E", low: 0.05, high: 5.0, log: true)], opponent: Random,
            budget: 8, spsa: (a: 0.1), recommend_blocks: 1, reestimate_sequences: 2)"#,
    ),
    (
        "s.ron",
        r#"(name: "kinds-study", game: ConnectFour, seed: 3, budgets: [4],
            tune: (games: 8, reestimate_sequences: 2),
            evolve: (generations: 1, mu: 2, lambda: 2, samples: 2, reestimate_candidates: 1),
            validate: (games_cap: 4))"#,
    ),
    (
        "p.ron",
        r#"(name: "kinds-portfolio", seed: 3, budgets: [4], tune: (games: 8, reestimate_sequences: 2),
            evolve: (generations: 1, mu: 2, lambda: 2, samples: 2, reestimate_candidates: 1),
            validate: (games_cap: 4), games: [(label: "c4", game: ConnectFour)], matrix: (games: 0))"#,
    ),
];

/// A command that makes (or works in) a run folder of one kind.
struct Command {
    /// The noun messages give the folder's kind ("a study").
    noun: &'static str,
    /// Its arguments before `--out DIR`, spec file names relative to the specs' folder.
    args: &'static [&'static str],
    /// Whether it takes --resume.
    resumes: bool,
}

/// The commands that make each kind's folder in this test, the first of each noun making the
/// target folder.
const COMMANDS: &[Command] = &[
    Command {
        noun: "a league",
        args: &["league", "l.ron", "--quiet"],
        resumes: true,
    },
    Command {
        noun: "an evolution run",
        args: &["evolve", "ev.ron", "--quiet"],
        resumes: true,
    },
    Command {
        noun: "independent evolution runs",
        args: &["evolve", "ev.ron", "--runs", "2", "--quiet"],
        resumes: true,
    },
    Command {
        noun: "a validation",
        args: &["validate", "carcassonne", "v.ron", "--quiet"],
        resumes: true,
    },
    Command {
        noun: "a tuning run",
        args: &["tune", "t.ron", "--quiet"],
        resumes: true,
    },
    Command {
        noun: "a study",
        args: &["study", "s.ron", "--stop-after", "1", "--quiet"],
        resumes: true,
    },
    // A portfolio submitted to Slurm and not yet run: its spec stored, its scripts written.
    Command {
        noun: "a portfolio",
        args: &["slurm", "--kind", "portfolio", "p.ron"],
        resumes: false,
    },
    Command {
        noun: "a replication",
        args: &["replicate", "--report-only", "--quiet"],
        resumes: false,
    },
    // Openers only: they write into a folder of a kind above.
    Command {
        noun: "a portfolio",
        args: &["portfolio", "p.ron", "--quiet"],
        resumes: true,
    },
    Command {
        noun: "an evolution run",
        args: &["pareto", "--spec", "ev.ron", "--samples", "2", "--quiet"],
        resumes: false,
    },
    Command {
        noun: "a league",
        args: &["slurm", "--kind", "league", "--tasks", "2", "l.ron"],
        resumes: false,
    },
    Command {
        noun: "an evolution run",
        args: &["slurm", "--kind", "evolve", "--tasks", "2", "ev.ron"],
        resumes: false,
    },
];

/// The command's arguments writing into `out`, spec names made paths under `specs`.
fn arguments(c: &Command, specs: &Path, out: &Path, resume: bool) -> Vec<String> {
    let mut args: Vec<String> = c
        .args
        .iter()
        .map(|a| match SPECS.iter().find(|(name, _)| name == a) {
            Some((name, _)) => specs.join(name).display().to_string(),
            None => a.to_string(),
        })
        .collect();
    if c.args[0] == "pareto" {
        // pareto's folder is its argument.
        args.insert(1, out.display().to_string());
    } else {
        args.extend(["--out".to_string(), out.display().to_string()]);
    }
    if c.args[0] == "replicate" {
        let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
        let report = out.with_extension("md").display().to_string();
        let presets = repo.join("runs/paper").display().to_string();
        args.extend(["--presets".into(), presets, "--report".into(), report]);
    }
    if resume {
        args.push("--resume".into());
    }
    args
}

/// Makes the folder of each kind with its first command; each is also copied without its lock
/// file. Returns (noun, folder) pairs.
fn targets(root: &Path, specs: &Path) -> Vec<(&'static str, PathBuf)> {
    let mut made: Vec<(&'static str, PathBuf)> = Vec::new();
    for (i, c) in COMMANDS.iter().enumerate() {
        if made.iter().any(|(noun, _)| *noun == c.noun) {
            continue;
        }
        let out = root.join(format!("kind-{i}"));
        let args = arguments(c, specs, &out, false);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        evomcts_ok(&args);
        made.push((c.noun, out.clone()));
        // Without its lock file the folder is known by its files (a replication's report-only
        // run writes none of its own, so only its lock names it).
        if c.args[0] != "replicate" {
            let copy = root.join(format!("kind-{i}-unlocked"));
            copy_folder(&out, &copy);
            std::fs::remove_file(copy.join(".evomcts.lock")).unwrap();
            made.push((c.noun, copy));
        }
    }
    made
}

fn copy_folder(from: &Path, to: &Path) {
    for (path, bytes) in files_under(from) {
        let file = to.join(path);
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(file, bytes).unwrap();
    }
}

#[test]
fn no_command_writes_into_a_folder_of_another_kind_of_run() {
    let root = scratch("folder_kinds", "matrix");
    let specs = root.join("specs");
    std::fs::create_dir_all(&specs).unwrap();
    for (name, text) in SPECS {
        std::fs::write(specs.join(name), text).unwrap();
    }
    let targets = targets(&root, &specs);
    let mut tried = 0;
    for (noun, folder) in &targets {
        let before = files_under(folder);
        for c in COMMANDS.iter().filter(|c| c.noun != *noun) {
            for resume in [false, true].into_iter().filter(|r| !r || c.resumes) {
                let args = arguments(c, &specs, folder, resume);
                let args: Vec<&str> = args.iter().map(String::as_str).collect();
                let out = evomcts(&args);
                let stderr = String::from_utf8_lossy(&out.stderr);
                assert_eq!(
                    out.status.code(),
                    Some(2),
                    "evomcts {args:?} into {noun}: {stderr}"
                );
                assert!(
                    stderr.contains(&format!("holds {noun}"))
                        && stderr.contains("choose another --out"),
                    "evomcts {args:?} into {noun}: {stderr}"
                );
                assert!(
                    files_under(folder) == before,
                    "evomcts {args:?} changed {}, which holds {noun}",
                    folder.display()
                );
                tried += 1;
            }
        }
    }
    // 15 folders (8 kinds, 7 of them without their lock file too), each tried by the commands
    // of the other kinds.
    assert!(tried > 200, "{tried}");
    // `report` and `table` name what an `evolve --runs` folder holds, and where its results are.
    let (_, runs) = targets
        .iter()
        .find(|(noun, _)| noun.starts_with("independent"))
        .unwrap();
    for command in ["report", "table"] {
        let out = evomcts(&[command, runs.to_str().unwrap()]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{command}: {stderr}");
        assert!(
            stderr.contains("holds independent evolution runs (evolve --runs) (it holds runs.ron)"),
            "{command}: {stderr}"
        );
    }
    // A file as --out is named as one, by every command that makes a run folder.
    let file = root.join("a-file");
    std::fs::write(&file, "mine").unwrap();
    for c in COMMANDS
        .iter()
        .filter(|c| !["pareto", "slurm"].contains(&c.args[0]))
    {
        let args = arguments(c, &specs, &file, false);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = evomcts(&args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "evomcts {args:?}: {stderr}");
        assert!(
            stderr.contains("exists and is not a folder"),
            "evomcts {args:?}: {stderr}"
        );
    }
    assert_eq!(std::fs::read(&file).unwrap(), b"mine");
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn a_folder_killed_before_its_first_record_is_known_by_its_lock_file() {
    let root = scratch("folder_kinds", "lock-only");
    let specs = root.join("specs");
    std::fs::create_dir_all(&specs).unwrap();
    for (name, text) in SPECS {
        std::fs::write(specs.join(name), text).unwrap();
    }
    // A study killed as it started: its lock file written, nothing else.
    let study = root.join("study");
    std::fs::create_dir_all(&study).unwrap();
    std::fs::write(
        study.join(".evomcts.lock"),
        "study\npid 1 on elsewhere, since then",
    )
    .unwrap();
    let tune = &COMMANDS[4];
    let args = arguments(tune, &specs, &study, false);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = evomcts(&args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("holds a study (its .evomcts.lock says so)"),
        "{stderr}"
    );
    assert_eq!(std::fs::read_dir(&study).unwrap().count(), 1);
    // The study itself resumes in it.
    let s = &COMMANDS[5];
    let args = arguments(s, &specs, &study, true);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    evomcts_ok(&args);
    assert!(study.join("study.ron").is_file());
    let _ = std::fs::remove_dir_all(&root);
}
