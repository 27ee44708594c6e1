//! Run folders and generated scripts that nothing can corrupt (issue 18): one process per run
//! folder, one way to read records, specs that carry the files they name, scripts that no value
//! can inject into, bounded inputs, escaped names, quiet broken pipes. Each test reproduces one of
//! the issue's numbered defects.

use crate::support::{evomcts, evomcts_within};
use evomcts::evolve::{run_evolution, EvolveSpec, RunOptions as EvolveOptions};
use evomcts::formula::Formula;
use evomcts::league::{
    load_runs, read_records, record_path, run_league, LeagueSpec, RunOptions, Tables,
};
use evomcts::runfs::{write_atomically, RunLock};
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn scratch(name: &str) -> PathBuf {
    let dir = crate::support::scratch("rel", name);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

const TINY: &str = r#"(
    name: "tiny",
    games_per_match: 2,
    seed: 5,
    controllers: [
        (name: "Random", spec: Random),
        (name: "Random 2", spec: Random),
    ],
)"#;

fn tiny() -> LeagueSpec {
    LeagueSpec::from_ron(TINY, "tiny.ron").unwrap()
}

fn opts(dir: &Path, resume: bool) -> RunOptions {
    RunOptions {
        out_dir: dir.to_path_buf(),
        resume,
        threads: Some(1),
        progress: false,
        max_games: None,
        shard: None,
    }
}

fn tables(spec: &LeagueSpec, games: &[evomcts::league::LeagueGame]) -> Tables {
    Tables::from_games(&spec.names(), spec.games_per_match, &spec.bonus, games)
}

// 1. A duplicated record counts once on resume, as in `table`; a conflicting one is refused.
#[test]
fn resume_counts_a_duplicated_record_once_and_refuses_a_conflicting_one() {
    let dir = scratch("dup");
    let spec = tiny();
    run_league(&spec, &opts(&dir, false)).unwrap();
    let path = record_path(&dir);
    let text = std::fs::read_to_string(&path).unwrap();
    let first = text.lines().next().unwrap().to_string();
    std::fs::write(&path, format!("{text}{first}\n")).unwrap();

    let resumed = run_league(&spec, &opts(&dir, true)).unwrap();
    assert_eq!(resumed.games.len(), 4, "each game once");
    assert_eq!(resumed.duplicates, 1);
    let (_, loaded, report) = load_runs(std::slice::from_ref(&dir)).unwrap();
    assert_eq!(report.duplicates, 1);
    assert_eq!(
        serde_json::to_string(&tables(&spec, &resumed.games)).unwrap(),
        serde_json::to_string(&tables(&spec, &loaded)).unwrap(),
        "resume and table count the same games"
    );

    // The copy now disagrees with the original: every command refuses the records.
    let mut game: serde_json::Value = serde_json::from_str(&first).unwrap();
    let score = game["game"]["final_scores"][0].as_i64().unwrap();
    game["game"]["final_scores"][0] = (score + 50).into();
    std::fs::write(&path, format!("{text}{game}\n")).unwrap();
    let err = run_league(&spec, &opts(&dir, true))
        .err()
        .expect("a conflicting record is refused")
        .to_string();
    assert!(err.contains("recorded differently"), "{err}");
    let err = load_runs(std::slice::from_ref(&dir))
        .unwrap_err()
        .to_string();
    assert!(err.contains("recorded differently"), "{err}");
    let _ = std::fs::remove_dir_all(dir);
}

// 2. A run folder is locked: a second league or evolution in it is refused, naming the holder.
#[test]
fn a_locked_run_folder_is_refused_by_league_and_evolve() {
    let dir = scratch("locked");
    let lock = RunLock::acquire(&dir, None, "a test holding the folder").unwrap();
    let err = run_league(&tiny(), &opts(&dir, true))
        .err()
        .expect("the folder is locked")
        .to_string();
    assert!(
        err.contains("in use by another run of this same process")
            && err.contains("a test holding"),
        "{err}"
    );
    assert!(!record_path(&dir).exists(), "nothing was written");
    let spec = EvolveSpec::from_ron(EVOLVE, "tiny-bandit.ron").unwrap();
    let err = run_evolution(&spec, &evolve_opts(&dir, false, None))
        .err()
        .expect("the folder is locked")
        .to_string();
    assert!(
        err.contains("in use by another run of this same process"),
        "{err}"
    );
    drop(lock);
    run_league(&tiny(), &opts(&dir, true)).unwrap();
    let _ = std::fs::remove_dir_all(dir);
}

// 2. Two league processes on one folder at once: one refuses with the lock message, the other's
// records are whole.
#[test]
fn two_league_processes_on_one_folder_one_refuses_and_the_records_are_intact() {
    let dir = scratch("two");
    let spec_path = dir.join("slow.ron");
    std::fs::write(
        &spec_path,
        r#"(name: "slow", games_per_match: 4, seed: 1, controllers: [
            (name: "MCTS", spec: Mcts(sims: 150)), (name: "Random", spec: Random)])"#,
    )
    .unwrap();
    let out = dir.join("run");
    let start = || {
        Command::new(env!("CARGO_BIN_EXE_evomcts"))
            .args(["league", spec_path.to_str().unwrap(), "--out"])
            .arg(&out)
            .args(["--threads", "1", "--quiet", "--resume"])
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    };
    let first = start();
    // Wait until the first process holds the lock (its lock file names it).
    let lock_file = out.join(".evomcts.lock");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while std::fs::read_to_string(&lock_file)
        .map(|t| t.is_empty())
        .unwrap_or(true)
    {
        assert!(
            std::time::Instant::now() < deadline,
            "the league never started"
        );
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    let second = start().wait_with_output().unwrap();
    let first = first.wait_with_output().unwrap();
    assert!(first.status.success(), "{}", stderr(&first));
    assert_eq!(second.status.code(), Some(2), "{}", stderr(&second));
    let message = stderr(&second);
    assert!(
        message.contains("in use by another evomcts process") && message.contains("pid "),
        "{message}"
    );
    let records = read_records(&record_path(&out)).unwrap();
    assert_eq!(records.games.len(), 8, "every game once");
    assert!(!records.torn_tail);
    let mut ids: Vec<_> = records.games.iter().map(|g| g.id()).collect();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), 8, "no game twice");
    let _ = std::fs::remove_dir_all(dir);
}

// 3. Hostile values cannot reach a Slurm script as commands.
#[test]
fn hostile_slurm_values_are_refused_or_quoted_and_the_scripts_run_as_written() {
    let dir = scratch("slurm");
    let spec = dir.join("tiny.ron");
    std::fs::write(&spec, TINY).unwrap();
    let spec = spec.to_str().unwrap();
    let plain_out = dir.join("plain");
    let plain = plain_out.to_str().unwrap();
    for (flag, value) in [
        ("--time", "1:00\ntouch pwned"),
        ("--mem", "2G\ntouch pwned"),
        ("--partition", "debug\ntouch pwned"),
        ("--partition", "debug;touch pwned"),
        ("--time", "$(touch pwned)"),
    ] {
        let out = evomcts(&["slurm", spec, "--tasks", "2", "--out", plain, flag, value]);
        assert_eq!(out.status.code(), Some(2), "{flag} {value:?} was accepted");
        assert!(stderr(&out).contains(flag), "{}", stderr(&out));
        assert!(!plain_out.join("slurm/league.sbatch").exists());
    }
    let out = evomcts(&[
        "slurm",
        spec,
        "--tasks",
        "2",
        "--out",
        dir.join("bad\nname").to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2), "a line break in --out");

    // A run folder and a binary whose names hold every shell metacharacter that is allowed.
    let weird = dir.join("o'k $(touch pwned) `touch pwned` ;&|<>");
    std::fs::create_dir_all(&weird).unwrap();
    let fake_bin = weird.join("fake evomcts");
    let args_file = dir.join("args.txt");
    std::fs::write(
        &fake_bin,
        format!(
            "#!/bin/bash\nprintf '%s\\n' \"$@\" > '{}'\n",
            args_file.display()
        ),
    )
    .unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&fake_bin, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let out = evomcts(&[
        "slurm",
        spec,
        "--tasks",
        "2",
        "--out",
        weird.to_str().unwrap(),
        "--bin",
        fake_bin.to_str().unwrap(),
        "--partition",
        "debug,long",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let slurm = weird.join("slurm");
    for script in ["league.sbatch", "merge.sbatch", "submit.sh"] {
        let check = Command::new("bash")
            .arg("-n")
            .arg(slurm.join(script))
            .output()
            .unwrap();
        assert!(check.status.success(), "{script}: {}", stderr(&check));
    }
    // Run the array script for real, as task 1 would, in a clean working directory.
    let work = dir.join("work");
    std::fs::create_dir_all(&work).unwrap();
    let run = Command::new("bash")
        .arg(slurm.join("league.sbatch"))
        .current_dir(&work)
        .env("SLURM_ARRAY_TASK_ID", "1")
        .env("SLURM_CPUS_PER_TASK", "3")
        .output()
        .unwrap();
    assert!(run.status.success(), "{}", stderr(&run));
    let args = std::fs::read_to_string(&args_file).unwrap();
    let expected = [
        "league".to_string(),
        slurm.join("spec.ron").display().to_string(),
        "--shard".into(),
        "1/2".into(),
        "--out".into(),
        format!("{}/shard-1-of-2", weird.canonicalize().unwrap().display()),
        "--threads".into(),
        "3".into(),
        "--resume".into(),
        "--quiet".into(),
    ];
    assert_eq!(args.lines().collect::<Vec<_>>(), expected);
    // The submit script with a stand-in sbatch that prints a job id.
    let fake_path = dir.join("fakepath");
    std::fs::create_dir_all(&fake_path).unwrap();
    let sbatch = fake_path.join("sbatch");
    std::fs::write(&sbatch, "#!/bin/bash\necho 42\n").unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&sbatch, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let path = format!(
        "{}:{}",
        fake_path.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let submit = Command::new("bash")
        .arg(slurm.join("submit.sh"))
        .current_dir(&work)
        .env("PATH", path)
        .output()
        .unwrap();
    assert!(submit.status.success(), "{}", stderr(&submit));
    assert!(String::from_utf8_lossy(&submit.stdout).contains("array job 42, merge job 42"));
    let league = std::fs::read_to_string(slurm.join("league.sbatch")).unwrap();
    assert!(league.contains("#SBATCH --partition=debug,long\n"));
    for place in [&dir, &work, &weird, &slurm] {
        assert!(!place.join("pwned").exists(), "a command ran in {place:?}");
    }
    let _ = std::fs::remove_dir_all(dir);
}

// 4. Files a spec names are read relative to the spec, once, and their content is in the spec
// (and its hash): editing them later cannot change a run.
#[test]
fn files_a_spec_names_are_resolved_relative_to_it_and_hashed() {
    let dir = scratch("resolve");
    let specs = dir.join("specs");
    std::fs::create_dir_all(specs.join("champ")).unwrap();
    std::fs::write(specs.join("champ/champion.txt"), "Q + 2/n\n").unwrap();
    std::fs::write(
        specs.join("my.ron"),
        std::fs::read_to_string("grammars/paper.ron").unwrap(),
    )
    .unwrap();
    let text = r#"(name: "files", games_per_match: 1, seed: 3, controllers: [
        (name: "Champion", spec: Mcts(sims: 10, selection: FormulaFile("champ/champion.txt"))),
        (name: "ES", spec: Mcts(sims: 10, es: (generations: 1, grammar: "my.ron"))),
        (name: "Random", spec: Random)])"#;
    let spec_path = specs.join("files.ron");
    std::fs::write(&spec_path, text).unwrap();
    // The working directory is not the spec's folder: paths are relative to the spec.
    let spec = LeagueSpec::from_file(&spec_path).unwrap();
    let ron = spec.to_ron();
    assert!(
        !ron.contains("FormulaFile") && !ron.contains("my.ron"),
        "{ron}"
    );
    assert!(ron.contains("Formula(\"Q + 2/n\")"), "{ron}");
    assert!(ron.contains("Grammar("), "{ron}");
    let out = dir.join("run");
    let mut first_two = opts(&out, false);
    first_two.max_games = Some(2);
    run_league(&spec, &first_two).unwrap();
    let stored = std::fs::read_to_string(out.join("spec.ron")).unwrap();
    assert_eq!(stored, ron, "the run keeps the resolved spec");
    assert_eq!(
        LeagueSpec::from_file(out.join("spec.ron")).unwrap().hash(),
        spec.hash()
    );

    // The champion changes between the run and its resume: the resume is refused.
    std::fs::write(specs.join("champ/champion.txt"), "Q + 3/n\n").unwrap();
    let edited = LeagueSpec::from_file(&spec_path).unwrap();
    assert_ne!(edited.hash(), spec.hash());
    let err = run_league(&edited, &opts(&out, true))
        .err()
        .expect("a changed formula file is a changed spec")
        .to_string();
    assert!(err.contains("different spec"), "{err}");
    // The same grammar file edited: refused as well.
    std::fs::write(specs.join("champ/champion.txt"), "Q + 2/n\n").unwrap();
    let grammar = std::fs::read_to_string(specs.join("my.ron")).unwrap();
    std::fs::write(
        specs.join("my.ron"),
        grammar.replace("depth_cap: 8", "depth_cap: 7"),
    )
    .unwrap();
    assert_ne!(
        LeagueSpec::from_file(&spec_path).unwrap().hash(),
        spec.hash(),
        "the grammar's content is in the hash"
    );
    // The Slurm jobs read a frozen copy that holds the formula itself, so they do not depend
    // on their working directory.
    let slurm_out = dir.join("cluster");
    let made = Command::new(env!("CARGO_BIN_EXE_evomcts"))
        .args(["slurm", "files.ron", "--tasks", "2", "--out"])
        .arg(&slurm_out)
        .current_dir(&specs)
        .output()
        .unwrap();
    assert!(made.status.success(), "{}", stderr(&made));
    let frozen = std::fs::read_to_string(slurm_out.join("slurm/spec.ron")).unwrap();
    assert!(frozen.contains("Formula(\"Q + 2/n\")"), "{frozen}");
    let league = std::fs::read_to_string(slurm_out.join("slurm/league.sbatch")).unwrap();
    assert!(
        league.contains(&format!("'{}", slurm_out.canonicalize().unwrap().display())),
        "absolute paths: {league}"
    );
    // A missing file is named.
    std::fs::remove_file(specs.join("champ/champion.txt")).unwrap();
    let err = LeagueSpec::from_file(&spec_path).unwrap_err().to_string();
    assert!(
        err.contains("champion.txt") && err.contains("controllers[0]"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(dir);
}

// 5. Deep formulas get a clear error, not a stack overflow.
#[test]
fn deep_formulas_are_refused_with_a_clear_error() {
    let n = 15_000;
    let nested = format!("{}Q{}", "(".repeat(n), ")".repeat(n));
    let chain = format!("Q{}", "+Q".repeat(n));
    let calls = format!("{}Q{}", "sqrt(".repeat(n), ")".repeat(n));
    let signs = format!("{}Q", "-".repeat(n));
    for text in [&nested, &chain, &calls, &signs] {
        let err = Formula::parse(text).unwrap_err().to_string();
        assert!(err.contains("at most"), "{err}");
    }
    // Just within the bound, every walk over the formula (printing, canonical form,
    // evaluation, dropping) fits a small stack.
    let deep = format!("{}Q{}", "sqrt(".repeat(100), ")".repeat(100));
    std::thread::Builder::new()
        .stack_size(512 * 1024)
        .spawn(move || {
            let f = Formula::parse(&deep).unwrap();
            assert_eq!(f.depth(), 100);
            let again = Formula::parse(&f.to_string()).unwrap();
            assert_eq!(again, f);
            let _ = f.canonical().to_string();
            let v = f.eval(&evomcts::formula::SelectionInputs::new(16.0, 4.0, 2.0, 1.0));
            assert!(v.is_finite());
        })
        .unwrap()
        .join()
        .unwrap();
    // The command line says so too, with exit status 2.
    let out = evomcts(&["formula", "show", &nested]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let dir = scratch("deep");
    std::fs::write(dir.join("deep.txt"), &chain).unwrap();
    std::fs::write(
        dir.join("deep.ron"),
        r#"(name: "deep", games_per_match: 1, seed: 1, controllers: [
            (name: "Deep", spec: Mcts(sims: 10, selection: FormulaFile("deep.txt"))),
            (name: "Random", spec: Random)])"#,
    )
    .unwrap();
    let err = LeagueSpec::from_file(dir.join("deep.ron"))
        .unwrap_err()
        .to_string();
    assert!(err.contains("at most 100 levels deep"), "{err}");
    let _ = std::fs::remove_dir_all(dir);
}

// 6. Every size a spec or flag gives has an upper bound that the message states.
#[test]
fn sizes_from_specs_and_flags_have_upper_bounds() {
    let err = LeagueSpec::from_ron(
        &TINY.replace("games_per_match: 2", "games_per_match: 4294967295"),
        "big.ron",
    )
    .unwrap_err()
    .to_string();
    assert!(
        err.contains("games_per_match") && err.contains("100000"),
        "{err}"
    );
    let err = LeagueSpec::from_ron(
        &TINY.replace(
            "(name: \"Random 2\", spec: Random)",
            "(name: \"ES\", spec: Mcts(es: (lambda: 4294967295)))",
        ),
        "big.ron",
    )
    .unwrap_err()
    .to_string();
    assert!(
        err.contains("es.lambda") && err.contains("at most"),
        "{err}"
    );
    let err = EvolveSpec::from_ron(&EVOLVE.replace("lambda: 4", "lambda: 4294967295"), "e.ron")
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("strategy.lambda") && err.contains("at most"),
        "{err}"
    );
    let err = EvolveSpec::from_ron(
        &EVOLVE.replace("samples: 8,", "samples: 4294967295,"),
        "e.ron",
    )
    .unwrap_err()
    .to_string();
    assert!(err.contains("noise.samples"), "{err}");
    let out = evomcts_within(
        &["league", "--threads", "100000", "--out", "/nonexistent/x"],
        60,
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("at most 1024"), "{}", stderr(&out));
    let err = run_league(
        &tiny(),
        &RunOptions {
            threads: Some(100_000),
            ..opts(Path::new("/nonexistent/x"), false)
        },
    )
    .err()
    .unwrap()
    .to_string();
    assert!(err.contains("at most 1024"), "{err}");
}

// 7. A folder in which no game was played takes a corrected spec; a spec that cannot be
// played leaves no folder.
#[test]
fn an_unplayed_folder_takes_a_corrected_spec_and_a_broken_one_leaves_nothing() {
    let dir = scratch("unplayed");
    let out = dir.join("run");
    std::fs::create_dir_all(&out).unwrap();
    let broken = tiny();
    let mut other = broken.clone();
    other.seed = 99;
    std::fs::write(out.join("spec.ron"), other.to_ron()).unwrap();
    std::fs::write(record_path(&out), "").unwrap();
    let outcome = run_league(&tiny(), &opts(&out, false)).unwrap();
    assert_eq!(outcome.played_now, 4);
    assert_eq!(
        LeagueSpec::from_file(out.join("spec.ron")).unwrap().hash(),
        tiny().hash()
    );
    // A spec whose files are missing is refused before any folder exists.
    let missing = dir.join("missing.ron");
    std::fs::write(
        &missing,
        TINY.replace(
            "spec: Random)",
            "spec: Mcts(selection: FormulaFile(\"nope.txt\")))",
        ),
    )
    .unwrap();
    let fresh = dir.join("fresh");
    let out = evomcts(&[
        "league",
        missing.to_str().unwrap(),
        "--out",
        fresh.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("nope.txt"), "{}", stderr(&out));
    assert!(!fresh.exists());
    let _ = std::fs::remove_dir_all(dir);
}

// 8. A fresh start in a completed folder is refused (the README's promise); --resume shows it.
#[test]
fn a_fresh_league_into_a_completed_folder_is_refused() {
    let dir = scratch("complete");
    let spec = dir.join("tiny.ron");
    std::fs::write(&spec, TINY).unwrap();
    let out = dir.join("run");
    let args = [
        "league",
        spec.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--quiet",
    ];
    assert!(evomcts(&args).status.success());
    let tables = std::fs::read(out.join("tables.md")).unwrap();
    let again = evomcts(&args);
    assert_eq!(again.status.code(), Some(2));
    assert!(stderr(&again).contains("already holds 4 recorded games"));
    let mut resume = args.to_vec();
    resume.push("--resume");
    let shown = evomcts(&resume);
    assert!(shown.status.success(), "{}", stderr(&shown));
    assert!(String::from_utf8_lossy(&shown.stdout).contains("Standings"));
    assert_eq!(std::fs::read(out.join("tables.md")).unwrap(), tables);
    let _ = std::fs::remove_dir_all(dir);
}

// 9. Names reach Markdown, CSV and the terminal escaped; control characters are refused.
#[test]
fn names_are_made_safe_for_every_output() {
    let spec = LeagueSpec::from_ron(
        &TINY
            .replace("\"Random\"", "\"a|b\"")
            .replace("\"Random 2\"", "\"=HYPERLINK(1)\""),
        "names.ron",
    )
    .unwrap();
    let dir = scratch("names");
    let outcome = run_league(&spec, &opts(&dir, false)).unwrap();
    evomcts::league::report::write_tables(&tables(&spec, &outcome.games), &dir).unwrap();
    let md = std::fs::read_to_string(dir.join("tables.md")).unwrap();
    assert!(md.contains("a\\|b"), "{md}");
    for line in md.lines().filter(|l| l.starts_with('|')) {
        let cells = line.replace("\\|", "").matches('|').count();
        let header = md
            .lines()
            .find(|l| l.starts_with('|'))
            .unwrap()
            .matches('|')
            .count();
        assert!(
            cells <= header,
            "a name split a row: {line}\n(header has {header})"
        );
    }
    let csv = std::fs::read_to_string(dir.join("standings.csv")).unwrap();
    assert!(csv.contains("'=HYPERLINK(1)"), "{csv}");
    assert!(!csv.contains(",=HYPERLINK"), "{csv}");
    for bad in ["a\u{1b}[2Jb", "nul\0", "two\nlines"] {
        let err = LeagueSpec::from_ron(
            &TINY.replace("\"Random 2\"", &format!("{bad:?}")),
            "bad.ron",
        )
        .unwrap_err()
        .to_string();
        assert!(
            err.contains("controllers[1].name") && err.contains("control characters"),
            "{err}"
        );
        assert!(!err.contains('\u{1b}') && !err.contains('\0'), "{err:?}");
    }
    let _ = std::fs::remove_dir_all(dir);
}

// 10. A reader that stops early (`| head`) ends the process quietly.
#[test]
fn a_closed_pipe_ends_the_process_quietly() {
    let dir = scratch("pipe");
    run_league(&tiny(), &opts(&dir, false)).unwrap();
    // `table` prints about 1 KB, which a pipe buffer takes whole even from a reader that
    // stops after one line: its stdout is a pipe whose reader is gone before it starts
    // (issue 44), so its print meets the broken pipe.
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let out = Command::new(env!("CARGO_BIN_EXE_evomcts"))
        .args(["table", dir.to_str().unwrap()])
        .stdout(writer)
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "table: {}", stderr(&out));
    assert!(!stderr(&out).contains("panicked"), "{}", stderr(&out));
    assert!(
        dir.join("tables.md").exists(),
        "the tables are written before printing"
    );
    {
        let args = vec!["replay", dir.to_str().unwrap(), "--game", "0"];
        let mut child = Command::new(env!("CARGO_BIN_EXE_evomcts"))
            .args(&args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut first = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut first)
            .unwrap();
        // The reader has gone; whatever is printed next finds a broken pipe.
        let out = child.wait_with_output().unwrap();
        assert!(!first.is_empty());
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
        assert!(!stderr(&out).contains("panicked"), "{}", stderr(&out));
    }
    let _ = std::fs::remove_dir_all(dir);
}

pub(crate) const EVOLVE: &str = r#"(
    name: "tiny-bandit",
    seed: 7,
    strategy: (mu: 2, lambda: 4, generations: 3, plus: true),
    noise: (samples: 8, elites: 1, elite_samples: 8),
    fitness: Bandit(arms: 5, epsilon: 0.2, horizon: 200, c_e: 0.5),
)"#;

pub(crate) fn evolve_opts(dir: &Path, resume: bool, stop_after: Option<usize>) -> EvolveOptions {
    EvolveOptions {
        out_dir: dir.to_path_buf(),
        resume,
        threads: Some(1),
        progress: false,
        stop_after,
        srun: None,
    }
}

// 11. The smaller ones.
#[test]
fn small_input_defects_are_fixed() {
    // `[C=-5]` in a spec is refused as `c_e: -1` is.
    let with_c = |c: &str| {
        TINY.replace(
            "(name: \"Random 2\", spec: Random)",
            &format!("(name: \"F\", spec: Mcts(selection: Formula(\"Q + C [C={c}]\")))"),
        )
    };
    let err = LeagueSpec::from_ron(&with_c("-5"), "c.ron")
        .unwrap_err()
        .to_string();
    assert!(err.contains("selection") && err.contains(">= 0"), "{err}");
    assert!(LeagueSpec::from_ron(&with_c("5"), "c.ron").is_ok());
    let err = EvolveSpec::from_ron(
        &EVOLVE.replace("seed: 7,", "seed: 7, seed_formula: \"Q + C [C=-5]\","),
        "e.ron",
    )
    .unwrap_err()
    .to_string();
    assert!(
        err.contains("seed_formula") && err.contains(">= 0"),
        "{err}"
    );
    // A spec with a UTF-8 byte-order mark reads.
    let dir = scratch("small");
    let bom = dir.join("bom.ron");
    std::fs::write(&bom, format!("\u{feff}{TINY}")).unwrap();
    assert_eq!(LeagueSpec::from_file(&bom).unwrap(), tiny());
    // `replay --threads 0` is refused.
    let out = evomcts(&["replay", dir.to_str().unwrap(), "--threads", "0"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("at least 1"), "{}", stderr(&out));
    // `formula eval` refuses inputs that are not numbers instead of printing 0.
    for bad in ["NaN", "inf", "-inf"] {
        let out = evomcts(&["formula", "eval", "Q", "--q", bad]);
        assert_eq!(out.status.code(), Some(2), "--q {bad}");
        assert!(stderr(&out).contains("finite"), "{}", stderr(&out));
    }
    let out = evomcts(&["formula", "eval", "Q", "--q", "-1.5"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(String::from_utf8_lossy(&out.stdout).contains("-1.5"));
    // A failed atomic write leaves no temporary file behind.
    let target = dir.join("target");
    std::fs::create_dir_all(target.join("occupied")).unwrap();
    assert!(write_atomically(&target, b"new").is_err());
    let left: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
    let _ = std::fs::remove_dir_all(dir);
}

// 4. A run begun before specs carried their files (its `spec.ron` names a formula file) still
// resumes, keeps its records' hash, and reads back as one run.
#[test]
fn a_run_stored_with_a_formula_file_path_still_resumes_and_loads() {
    let dir = scratch("legacy");
    let champion = dir.join("champion.txt");
    std::fs::write(&champion, "Q + 2/n\n").unwrap();
    let text = TINY.replace(
        "(name: \"Random 2\", spec: Random)",
        &format!(
            "(name: \"Champion\", spec: Mcts(sims: 100, selection: FormulaFile({:?})))",
            champion.display().to_string()
        ),
    );
    // As the previous version stored it: the path, not the formula.
    let legacy = LeagueSpec::from_ron(&text, "legacy.ron").unwrap();
    let spec_path = dir.join("legacy.ron");
    std::fs::write(&spec_path, &text).unwrap();
    let resolved = LeagueSpec::from_file(&spec_path).unwrap();
    assert_ne!(resolved.hash(), legacy.hash());
    let out = dir.join("run");
    let mut two = opts(&out, false);
    two.max_games = Some(2);
    run_league(&resolved, &two).unwrap();
    // The folder as the previous version wrote it: its spec names the file, and the records
    // carry that spec's hash.
    std::fs::write(out.join("spec.ron"), legacy.to_ron()).unwrap();
    let records = out.join("games.jsonl");
    let lines = std::fs::read_to_string(&records).unwrap();
    assert!(lines.contains(&resolved.hash()));
    std::fs::write(&records, lines.replace(&resolved.hash(), &legacy.hash())).unwrap();
    assert!(std::fs::read_to_string(out.join("spec.ron"))
        .unwrap()
        .contains("FormulaFile"));
    let outcome = run_league(&resolved, &opts(&out, true)).unwrap();
    assert_eq!((outcome.already_recorded, outcome.played_now), (2, 2));
    assert!(outcome.games.iter().all(|g| g.spec_hash == legacy.hash()));
    let (_, games, report) = load_runs(std::slice::from_ref(&out)).unwrap();
    assert_eq!((games.len(), report.missing.len()), (4, 0));
    // A changed file is still a changed spec: the recorded games do not replay under it.
    std::fs::write(&champion, "0 - Q\n").unwrap();
    let edited = LeagueSpec::from_file(&spec_path).unwrap();
    let err = run_league(&edited, &opts(&out, true))
        .err()
        .expect("refused")
        .to_string();
    assert!(err.contains("different spec"), "{err}");
    let _ = std::fs::remove_dir_all(dir);
}
