//! `evomcts study`: tiny studies of Connect Four and Pig run their three phases at each budget
//! into ordinary run folders and write `study.csv`, `study.md` and a report page; a study
//! stopped after any phase, or killed -9 at any moment, resumes to the same bytes; bad specs are
//! refused naming file:line:column or the field.

use crate::support::{evomcts, files_under as files, scratch};
use evomcts::study::{run_study, StudyOptions, StudySpec, STUDY_CSV_HEADER};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

const SPEC: &str = r#"(
    name: "c4-study",
    game: ConnectFour,
    seed: 3,
    budgets: [10, 20],
    tune: (games: 24, reestimate_sequences: 4),
    evolve: (generations: 2, mu: 2, lambda: 4, samples: 4, reestimate_candidates: 2),
    validate: (games_cap: 40),
)"#;

fn options(dir: &Path, threads: usize, resume: bool, stop: Option<usize>) -> StudyOptions {
    StudyOptions {
        out_dir: dir.to_path_buf(),
        resume,
        threads: Some(threads),
        progress: false,
        stop_after: stop,
        steps: None,
    }
}

/// The rows of `study.csv` as (header, cells) maps, quoted cells unquoted.
fn csv_rows(text: &str) -> Vec<std::collections::HashMap<String, String>> {
    let mut lines = text.lines();
    let header: Vec<String> = lines.next().unwrap().split(',').map(String::from).collect();
    lines
        .map(|line| {
            let mut cells = Vec::new();
            let (mut cell, mut quoted) = (String::new(), false);
            for c in line.chars() {
                match c {
                    '"' => quoted = !quoted,
                    ',' if !quoted => cells.push(std::mem::take(&mut cell)),
                    c => cell.push(c),
                }
            }
            cells.push(cell);
            assert_eq!(cells.len(), header.len(), "{line}");
            header.iter().cloned().zip(cells).collect()
        })
        .collect()
}

#[test]
fn a_tiny_connect_four_study_writes_every_output_and_resumes_byte_for_byte() {
    let spec = StudySpec::from_ron(SPEC, "c4-study.ron").unwrap();
    assert_eq!(
        StudySpec::from_ron(&spec.to_ron(), "again.ron").unwrap(),
        spec
    );
    let whole = scratch("study", "whole");
    let out = run_study(&spec, &options(&whole, 1, false, None)).unwrap();
    assert_eq!((out.phases, out.phases_done, out.rows.len()), (6, 6, 2));
    // Each phase is an ordinary run folder.
    for budget in [10, 20] {
        let b = whole.join(format!("sims-{budget}"));
        for file in [
            "tune/tune.csv",
            "tune/tuned.ron",
            "evolve/gen-002.ron",
            "evolve/reestimate.csv",
            "evolve/champion.txt",
            "validate/games.csv",
            "validate/sequential.csv",
            "validate/summary.md",
        ] {
            assert!(b.join(file).is_file(), "{}", b.join(file).display());
        }
    }
    let csv = std::fs::read_to_string(whole.join("study.csv")).unwrap();
    assert!(csv.starts_with(&format!("{STUDY_CSV_HEADER}\n")), "{csv}");
    // A spec that names no `consulted` measures nothing of it.
    assert!(!whole.join("consulted.csv").exists());
    let rows = csv_rows(&csv);
    assert_eq!(rows.len(), 2);
    for (row, budget) in rows.iter().zip(["10", "20"]) {
        assert_eq!(row["game"], "Connect Four");
        assert_eq!(row["budget"], budget);
        // 6 steps of 4 games, then 4 fresh sequences × 2 seatings.
        assert_eq!(row["tune_games"], "32");
        let champion = evomcts::formula::Formula::parse(&row["champion"]).unwrap();
        assert_eq!(row["champion_simplified"], champion.simplify().to_string());
        let (rate, low, high): (f64, f64, f64) = (
            row["win_rate"].parse().unwrap(),
            row["win_low"].parse().unwrap(),
            row["win_high"].parse().unwrap(),
        );
        assert!(
            low <= rate && rate <= high && low >= 0.0 && high <= 1.0,
            "{row:?}"
        );
        let c_e: f64 = row["c_e"].parse().unwrap();
        assert!((0.001..=5.0).contains(&c_e), "{row:?}");
        // The constant played: the tuned one unless its re-estimate is below the start.
        let played = if row["c_e_diff"].parse::<f64>().unwrap() < 0.0 {
            &row["c_e_start"]
        } else {
            &row["c_e_tuned"]
        };
        assert_eq!(&row["c_e"], played, "{row:?}");
        assert!(["h0", "h1", "undecided"].contains(&row["sprt_decision"].as_str()));
        let games: usize = row["validate_games"].parse().unwrap();
        assert!(
            games > 0 && games <= 40 && games.is_multiple_of(2),
            "{row:?}"
        );
        assert!(row["evolve_games"].parse::<usize>().unwrap() > 0);
        for p in ["wilcoxon_p", "c_e_diff_p"] {
            let p: f64 = row[p].parse().unwrap();
            assert!((0.0..=1.0).contains(&p), "{row:?}");
        }
    }
    // The validation plays the champion the evolution crowned, at the tuned constant.
    let validated = std::fs::read_to_string(whole.join("sims-10/validate/spec.ron")).unwrap();
    assert!(
        validated.contains(&format!("c_e: {}", rows[0]["c_e"])),
        "{validated}"
    );
    let md = std::fs::read_to_string(whole.join("study.md")).unwrap();
    assert!(
        md.contains("| 10 |") && md.contains("| 20 |") && md.contains("Wilson"),
        "{md}"
    );

    // Stopped after phase 1, 2 and 4, on other thread counts, each time resumed.
    let split = scratch("study", "split");
    for (stop, threads) in [(1, 2), (2, 1), (4, 2)] {
        let part = run_study(&spec, &options(&split, threads, stop > 1, Some(stop))).unwrap();
        assert_eq!(part.phases_done, stop);
        assert_eq!(part.rows.len(), stop / 3);
    }
    // Without --resume the folder is refused; with it the study continues.
    let refused = run_study(&spec, &options(&split, 2, false, None)).unwrap_err();
    assert!(refused.to_string().contains("--resume"), "{refused}");
    run_study(&spec, &options(&split, 2, true, None)).unwrap();
    assert_eq!(files(&whole), files(&split));
    // A finished study resumed again writes the same bytes.
    run_study(&spec, &options(&whole, 1, true, None)).unwrap();
    assert_eq!(files(&whole), files(&split));

    // Another spec in the folder is refused.
    let mut other = spec.clone();
    other.seed = 4;
    let changed = run_study(&other, &options(&split, 1, true, None)).unwrap_err();
    assert!(changed.to_string().contains("different spec"), "{changed}");

    // The report page.
    let report = evomcts::analysis::report::write_report(
        std::slice::from_ref(&whole),
        &whole.join("report"),
    )
    .unwrap();
    let page = std::fs::read_to_string(report.index).unwrap();
    assert!(
        page.contains("Study c4-study") || page.contains("<h1>Study"),
        "{page}"
    );
    assert!(page.contains("study.csv") && page.contains("sims-20/validate"));
}

/// Runs `evomcts study` on `spec` in `dir`, killing it with SIGKILL after `after`; true when
/// it was killed before it finished.
fn killed_after(spec: &Path, dir: &Path, resume: bool, after: Duration) -> bool {
    let mut args = vec![
        "study".to_string(),
        spec.display().to_string(),
        "--out".into(),
        dir.display().to_string(),
        "--quiet".into(),
    ];
    if resume {
        args.push("--resume".into());
    }
    let mut child = Command::new(env!("CARGO_BIN_EXE_evomcts"))
        .args(&args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let until = std::time::Instant::now() + after;
    while std::time::Instant::now() < until {
        if let Some(status) = child.try_wait().unwrap() {
            assert!(status.success(), "evomcts {args:?} failed");
            return false;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    // `Child::kill` sends SIGKILL on Unix: no handler runs, files stay as they were.
    let _ = child.kill();
    let status = child.wait().unwrap();
    !status.success()
}

#[test]
fn a_study_killed_at_any_moment_resumes_to_the_same_bytes() {
    let root = scratch("study", "kill");
    std::fs::create_dir_all(&root).unwrap();
    let spec = root.join("c4.ron");
    std::fs::write(&spec, SPEC).unwrap();
    let whole = root.join("whole");
    let out = evomcts(&[
        "study",
        spec.to_str().unwrap(),
        "--out",
        whole.to_str().unwrap(),
        "--quiet",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let killed = root.join("killed");
    let mut kills = 0;
    let mut resume = false;
    // Kills at staggered moments, each resumed, until a run finishes.
    for ms in [40, 90, 150, 60, 200, 120, 300, 250, 400, 800, 60_000] {
        if killed_after(&spec, &killed, resume, Duration::from_millis(ms)) {
            kills += 1;
        } else {
            break;
        }
        resume = killed.join("study.ron").exists();
    }
    assert!(kills > 0, "the study finished before the first kill");
    assert_eq!(files(&whole), files(&killed));
}

#[test]
fn a_tiny_pig_study_runs_end_to_end() {
    let spec = StudySpec::from_ron(
        r#"(
            name: "pig-study",
            game: Pig(target: 20),
            seed: 9,
            budgets: [20],
            tune: (games: 16, reestimate_sequences: 2),
            evolve: (generations: 1, mu: 2, lambda: 2, samples: 2, racing: false, elites: 1, reestimate_candidates: 1),
            validate: (games_cap: 8, sequential: false),
            consulted: (games: 3),
        )"#,
        "pig-study.ron",
    )
    .unwrap();
    let dir = scratch("study", "pig");
    let out = run_study(&spec, &options(&dir, 2, false, None)).unwrap();
    assert_eq!(out.rows.len(), 1);
    let row = &out.rows[0];
    assert_eq!((row.game.as_str(), row.budget), ("Pig to 20", 20));
    // Without the sequential test the validation plays its cap.
    assert_eq!(
        (row.validation.games, row.games[2], &row.sprt),
        (8, 8, &None)
    );
    let csv = csv_rows(&std::fs::read_to_string(dir.join("study.csv")).unwrap());
    assert_eq!(csv[0]["sprt_decision"], "");
    assert_eq!(csv[0]["validate_games"], "8");
    let validated = std::fs::read_to_string(dir.join("sims-20/validate/spec.ron")).unwrap();
    assert!(!validated.contains("sequential"), "{validated}");
    // `consulted`: the champion's controller at the budget and the played constant, measured
    // on the study's own seeded random games, row for row what `budget_profile` gives.
    let consulted = csv_rows(&std::fs::read_to_string(dir.join("consulted.csv")).unwrap());
    let profile = evomcts::arena::budgets::budget_profile(
        &spec.game,
        &spec.consulted_spec(20, row.c_e, &row.champion).unwrap(),
    )
    .unwrap();
    let r = &profile.rows[0];
    assert_eq!(consulted.len(), 1);
    assert_eq!(consulted[0]["budget"], "20");
    assert_eq!(consulted[0]["decisions"], profile.decisions.to_string());
    assert_eq!(
        consulted[0]["consulted_share"],
        r.consulted_share.to_string()
    );
    assert_eq!(consulted[0]["spare_sims"], r.spare_sims.to_string());
    // Compared with the validation's baseline, UCT at the played constant.
    let same = r.agreement.unwrap();
    assert_eq!(consulted[0]["same_move"], same.same.to_string());
    assert_eq!(consulted[0]["same_move_share"], same.share.to_string());
    // Pig's decisions have two moves, so 20 simulations ask the policy at every one.
    assert_eq!(r.consulted, profile.decisions);
    let page = std::fs::read_to_string(dir.join("study.md")).unwrap();
    assert!(page.contains("## Where the formula is asked"), "{page}");
    assert!(page.contains("at most decisions"), "{page}");
}

/// `runs: 2`: the evolution phase holds two ordinary runs and the tournament of `evolve --runs`,
/// the crowned formula is the one validated, and a study stopped after its evolution phase
/// resumes to the same bytes.
#[test]
fn a_study_with_independent_runs_validates_the_tournaments_crowned_formula() {
    let spec = StudySpec::from_ron(
        r#"(
            name: "pig-runs",
            game: Pig(target: 20),
            seed: 4,
            runs: 2,
            budgets: [20],
            tune: (games: 16, reestimate_sequences: 2),
            evolve: (generations: 1, mu: 2, lambda: 2, samples: 2, racing: false, elites: 1,
                     reestimate_candidates: 1, tournament_samples: 4),
            validate: (games_cap: 8, sequential: false),
        )"#,
        "pig-runs.ron",
    )
    .unwrap();
    let whole = scratch("study", "runs-whole");
    let out = run_study(&spec, &options(&whole, 2, false, None)).unwrap();
    let evolve = whole.join("sims-20/evolve");
    for f in [
        "run-1/gen-001.ron",
        "run-2/gen-001.ron",
        "runs.ron",
        "tournament.csv",
    ] {
        assert!(evolve.join(f).is_file(), "{f} missing");
    }
    let crowned = std::fs::read_to_string(evolve.join("champion.txt")).unwrap();
    assert_eq!(out.rows[0].champion.to_string(), crowned.trim());
    let validated = std::fs::read_to_string(whole.join("sims-20/validate/spec.ron")).unwrap();
    assert!(validated.contains(crowned.trim()), "{validated}");
    // The evolution phase's games count the runs and the tournament.
    let tournament = std::fs::read_to_string(evolve.join("tournament.csv")).unwrap();
    let entrants = tournament.lines().count() - 1;
    assert!(
        out.rows[0].games[1] >= 2 * 4 * entrants as u64,
        "{:?}",
        out.rows[0].games
    );
    let stopped = scratch("study", "runs-stopped");
    run_study(&spec, &options(&stopped, 1, false, Some(2))).unwrap();
    run_study(&spec, &options(&stopped, 2, true, None)).unwrap();
    assert_eq!(files(&whole), files(&stopped));
}

#[test]
fn bad_study_specs_are_refused_naming_the_place_or_the_field() {
    let dir = scratch("study", "bad");
    std::fs::create_dir_all(&dir).unwrap();
    let cases: &[(&str, &str, &[&str])] = &[
        // A syntax error and an unknown field: file:line:column.
        ("budgets: [10, 20],", "budgets: [10 20],", &["bad.ron:5:"]),
        (
            "tune: (games: 24,",
            "tune: (gamez: 24,",
            &["bad.ron:6:", "gamez"],
        ),
        (
            "budgets: [10, 20],",
            "budgets: [],",
            &["`budgets`", "between 1"],
        ),
        (
            "budgets: [10, 20],",
            "budgets: [10, 10],",
            &["`budgets[1]`", "twice"],
        ),
        ("budgets: [10, 20],", "budgets: [10, 0],", &["`budgets[1]`"]),
        (
            "seed: 3,",
            "seed: 3, runs: 0,",
            &["`runs`", "between 1 and 64"],
        ),
        (
            "seed: 3,",
            "seed: 3, runs: 65,",
            &["`runs`", "between 1 and 64"],
        ),
        (
            "samples: 4,",
            "samples: 4, tournament_samples: 1,",
            &["`evolve.tournament_samples`"],
        ),
        ("samples: 4,", "samples: 1,", &["`evolve.samples`"]),
        ("mu: 2,", "mu: 2, elites: 3,", &["`evolve.elites`"]),
        (
            "games_cap: 40",
            "games_cap: 41",
            &["`validate.games_cap`", "even"],
        ),
        (
            "games_cap: 40",
            "games_cap: 40, alpha: 1.5",
            &["`validate.alpha`"],
        ),
        ("games: 24,", "games: 4,", &["`tune.games`"]),
        (
            "games: 24,",
            "games: 24, low: 1.0, high: 0.5,",
            &["`tune.high`"],
        ),
        (
            "generations: 2,",
            "generations: 2, grammar: \"no-such-grammar.ron\",",
            &["`evolve.grammar`"],
        ),
        (
            "seed: 3,",
            "seed: 3, controller: (selection: Formula(\"Q\")),",
            &["`controller`"],
        ),
    ];
    for (from, to, expected) in cases {
        assert!(SPEC.contains(from), "{from}");
        let path = dir.join("bad.ron");
        std::fs::write(&path, SPEC.replacen(from, to, 1)).unwrap();
        let out_dir = dir.join("out");
        let out = evomcts(&[
            "study",
            path.to_str().unwrap(),
            "--out",
            out_dir.to_str().unwrap(),
        ]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{to}: {stderr}");
        for e in *expected {
            assert!(stderr.contains(e), "{to}: expected {e:?} in {stderr}");
        }
        assert!(
            !out_dir.exists(),
            "{to}: a refused spec wrote {}",
            out_dir.display()
        );
    }
}

#[test]
fn the_documented_spec_reads_and_docs_outputs_lists_every_column_of_study_csv() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let spec = StudySpec::from_file(root.join("docs/study/connect-four-smoke.ron")).unwrap();
    assert_eq!(
        (spec.budgets.as_slice(), spec.validate.games_cap),
        (&[10, 50][..], 400)
    );
    let doc = std::fs::read_to_string(root.join("docs/outputs.md")).unwrap();
    for (file, header) in [
        ("study.csv", STUDY_CSV_HEADER),
        ("consulted.csv", evomcts::study::CONSULTED_CSV_HEADER),
    ] {
        let section = doc
            .split(&format!("### `{file}`"))
            .nth(1)
            .and_then(|s| s.split("\n#").next())
            .unwrap_or_else(|| panic!("docs/outputs.md has no {file} section"));
        let columns: Vec<&str> = section
            .lines()
            .filter_map(|l| l.strip_prefix("| `")?.split_once("` |").map(|(c, _)| c))
            .collect();
        assert_eq!(columns.join(","), header, "{file}");
    }
}
