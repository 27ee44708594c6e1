//! `evomcts portfolio`: a tiny portfolio of Connect Four and Pig runs each game's study in its
//! own process, then the matrix, then the outputs; its studies are the studies the spec
//! builds (the same bytes as `evomcts study` on them); the bytes do not depend on the jobs at
//! once; a driver killed -9 at any moment leaves no job behind and resumes to the same bytes;
//! bad specs are refused naming the field, and nothing is written.

use crate::support::{evomcts, evomcts_ok, files_under, scratch};
use evomcts::portfolio::{PortfolioSpec, MATRIX_CSV_HEADER, PORTFOLIO_CSV_HEADER};
use evomcts::study::{run_study, StudyOptions};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

const SPEC: &str = r#"(
    name: "tiny",
    seed: 3,
    budgets: [10, 20],
    tune: (games: 24, reestimate_sequences: 4),
    evolve: (generations: 2, mu: 2, lambda: 4, samples: 4, reestimate_candidates: 2),
    validate: (games_cap: 20),
    games: [
        (label: "connect-four", game: ConnectFour),
        (label: "pig", game: Pig(target: 20), validate: (games_cap: 24)),
    ],
    matrix: (games: 12),
)"#;

/// The files a result depends on: everything but the logs and the timings, which are for
/// people.
fn results(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    files_under(dir)
        .into_iter()
        .filter(|(p, _)| !p.starts_with("logs") && p != Path::new("timings.csv"))
        .collect()
}

/// The two folders hold the same results, the message naming the files that differ.
fn assert_same(a: &Path, b: &Path) {
    let (a, b) = (results(a), results(b));
    let names = |v: &[(PathBuf, Vec<u8>)]| v.iter().map(|(p, _)| p.clone()).collect::<Vec<_>>();
    let (na, nb) = (names(&a), names(&b));
    let only_a: Vec<_> = na.iter().filter(|p| !nb.contains(p)).collect();
    let only_b: Vec<_> = nb.iter().filter(|p| !na.contains(p)).collect();
    assert!(
        only_a.is_empty() && only_b.is_empty(),
        "files only in the first: {only_a:?}; only in the second: {only_b:?}"
    );
    let differ: Vec<&PathBuf> = a
        .iter()
        .zip(&b)
        .filter(|(x, y)| x.1 != y.1)
        .map(|(x, _)| &x.0)
        .collect();
    assert!(differ.is_empty(), "these files differ: {differ:?}");
}

fn write_spec(root: &Path) -> PathBuf {
    std::fs::create_dir_all(root).unwrap();
    let spec = root.join("tiny.ron");
    std::fs::write(&spec, SPEC).unwrap();
    spec
}

fn run(spec: &Path, out: &Path, extra: &[&str]) -> String {
    let mut args = vec![
        "portfolio",
        spec.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--quiet",
    ];
    args.extend(extra);
    evomcts_ok(&args).0
}

#[test]
fn a_tiny_portfolio_writes_its_outputs_from_the_specs_studies_whatever_the_jobs() {
    let root = scratch("portfolio", "jobs");
    let spec_file = write_spec(&root);
    let one = root.join("one");
    let two = root.join("two");
    let printed = run(&spec_file, &one, &["--jobs", "1", "--threads", "1"]);
    assert!(
        printed.contains("2 of 2 studies and 2 matrix columns finished"),
        "{printed}"
    );
    run(&spec_file, &two, &["--jobs", "2"]);
    assert_same(&one, &two);

    // Each game's study is the study the spec builds, as `evomcts study` would run it.
    let spec = PortfolioSpec::from_ron(SPEC, "tiny.ron").unwrap();
    let alone = root.join("alone");
    run_study(
        &spec.study_spec(&spec.games[1]),
        &StudyOptions {
            out_dir: alone.clone(),
            resume: false,
            threads: Some(2),
            progress: false,
            stop_after: None,
            steps: None,
        },
    )
    .unwrap();
    assert_eq!(files_under(&alone), files_under(&one.join("studies/pig")));

    // The dataset: a row per game and budget, the study's numbers and a Holm p no smaller.
    let csv = std::fs::read_to_string(one.join("portfolio.csv")).unwrap();
    let mut lines = csv.lines();
    assert_eq!(lines.next(), Some(PORTFOLIO_CSV_HEADER));
    let rows: Vec<&str> = lines.collect();
    assert_eq!(rows.len(), 4, "{csv}");
    let study_csv = std::fs::read_to_string(alone.join("study.csv")).unwrap();
    let pig_champion = study_csv.lines().nth(1).unwrap().split(',').nth(9).unwrap();
    assert!(
        rows[2].starts_with("\"pig\",\"Pig to 20\",10,false,\"native\",true,")
            && rows[2].contains(pig_champion),
        "{}\n{pig_champion}",
        rows[2]
    );
    let p_of = |row: &str, from_end: usize| -> f64 {
        let cells: Vec<&str> = row.rsplit(',').collect();
        cells[from_end].parse().unwrap()
    };
    for row in &rows {
        // ... wilcoxon_p, holm_p, sprt_decision, three game counts.
        assert!(p_of(row, 5) >= p_of(row, 6), "{row}");
    }

    // The matrix: per budget every (source, target), the diagonal without a Holm p.
    let matrix = std::fs::read_to_string(one.join("matrix.csv")).unwrap();
    let mut lines = matrix.lines();
    assert_eq!(lines.next(), Some(MATRIX_CSV_HEADER));
    let cells: Vec<&str> = lines.collect();
    assert_eq!(cells.len(), 8, "{matrix}");
    for c in &cells {
        let diagonal =
            c.contains("\"pig\",\"pig\"") || c.contains("\"connect-four\",\"connect-four\"");
        assert_eq!(c.ends_with(','), diagonal, "{c}");
    }
    // An off-diagonal cell plays its target's first validation sequences: 12 games.
    let off = cells
        .iter()
        .find(|c| c.starts_with("10,\"connect-four\",\"pig\""))
        .unwrap();
    assert!(off.contains("\",12,"), "{off}");
    assert!(one
        .join("matrix/sims-10/pig/connect-four/spec.ron")
        .is_file());
    for file in [
        "shared.csv",
        "correlations.csv",
        "portfolio.md",
        "games/pig.ron",
    ] {
        assert!(one.join(file).is_file(), "{file}");
    }
    assert!(std::fs::read_to_string(one.join("portfolio.md"))
        .unwrap()
        .contains("## The generalisation matrix"));
}

/// Runs the driver, killing it with SIGKILL after `after`; true when it was killed first.
fn killed_after(spec: &Path, dir: &Path, resume: bool, after: Duration) -> bool {
    let mut args = vec![
        "portfolio".to_string(),
        spec.display().to_string(),
        "--out".into(),
        dir.display().to_string(),
        "--quiet".into(),
        "--jobs".into(),
        "2".into(),
    ];
    if resume {
        args.push("--resume".into());
    }
    let mut child = Command::new(env!("CARGO_BIN_EXE_evomcts"))
        .args(&args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let until = std::time::Instant::now() + after;
    while std::time::Instant::now() < until {
        if let Some(status) = child.try_wait().unwrap() {
            let out = child.wait_with_output().unwrap();
            assert!(
                status.success(),
                "evomcts {args:?} failed: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            return false;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    let _ = child.kill();
    !child.wait().unwrap().success()
}

#[test]
fn a_portfolio_killed_at_any_moment_leaves_no_job_and_resumes_to_the_same_bytes() {
    let root = scratch("portfolio", "kill");
    let spec = write_spec(&root);
    let whole = root.join("whole");
    run(&spec, &whole, &[]);
    let killed = root.join("killed");
    let mut kills = 0;
    let mut resume = false;
    for ms in [60, 150, 250, 100, 400, 300, 600, 900, 1500, 60_000] {
        if killed_after(&spec, &killed, resume, Duration::from_millis(ms)) {
            kills += 1;
        } else {
            break;
        }
        // A job left running would hold its study's lock, and the resumed driver's own job
        // for that game would fail; the jobs end with their driver.
        resume = killed.join("portfolio.ron").exists();
    }
    assert!(kills > 0, "the portfolio finished before the first kill");
    assert_same(&whole, &killed);
}

#[test]
fn bad_portfolio_specs_are_refused_naming_the_field_and_nothing_is_written() {
    let root = scratch("portfolio", "bad");
    std::fs::create_dir_all(&root).unwrap();
    let cases: [(&str, String, &str); 9] = [
        (
            "label twice",
            SPEC.replace("label: \"pig\"", "label: \"connect-four\""),
            "games[1].label",
        ),
        // `shared.csv` and `general.csv` list labels separated by `;`: `a"b,c;d` would read
        // back as two games (issue 53, cause 11).
        (
            "a label holding the lists' separator",
            SPEC.replace("label: \"pig\"", "label: \"a\\\"b,c;d\""),
            "games[1].label",
        ),
        // `general/sims-B/evolve` is the general evolution's folder, beside each held-out
        // game's `general/sims-B/LABEL` (issue 53, cause 6).
        (
            "the general evolution's folder name as a label",
            SPEC.replace("label: \"pig\"", "label: \"evolve\""),
            "field `games[1].label`: `evolve` is reserved",
        ),
        (
            "the same, as a file system that ignores case sees it",
            SPEC.replace("label: \"pig\"", "label: \"Evolve\""),
            "field `games[1].label`: `Evolve` is reserved",
        ),
        (
            "odd matrix",
            SPEC.replace("matrix: (games: 12)", "matrix: (games: 13)"),
            "matrix.games",
        ),
        (
            "a game's section",
            SPEC.replace("validate: (games_cap: 24)", "validate: (games_cap: 25)"),
            "games[1]",
        ),
        (
            "general names no game",
            SPEC.replace(
                "matrix: (games: 12),",
                "matrix: (games: 12), general: (train: [\"chess\"], games: 8),",
            ),
            "general.train[0]",
        ),
        (
            "general holds nothing out",
            SPEC.replace(
                "matrix: (games: 12),",
                "matrix: (games: 12), general: (train: [\"pig\", \"connect-four\"], games: 8),",
            ),
            "general.train",
        ),
        (
            "does not parse",
            SPEC.replace("seed: 3,", "seed: three,"),
            "bad.ron:3:",
        ),
    ];
    for (what, text, named) in cases {
        let spec = root.join("bad.ron");
        std::fs::write(&spec, &text).unwrap();
        let out_dir = root.join("out");
        let out = evomcts(&[
            "portfolio",
            spec.to_str().unwrap(),
            "--out",
            out_dir.to_str().unwrap(),
        ]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{what}: {err}");
        assert!(err.contains(named), "{what}: {err}");
        assert!(!out_dir.exists(), "{what}: a folder was made");
    }
}

#[test]
fn the_general_formula_evolves_on_the_mix_and_plays_only_the_held_out_games() {
    let root = scratch("portfolio", "general");
    std::fs::create_dir_all(&root).unwrap();
    let text = SPEC
        .replace(
            "        (label: \"pig\", game: Pig(target: 20), validate: (games_cap: 24)),",
            "        (label: \"pig\", game: Pig(target: 20), validate: (games_cap: 24)),\n        (label: \"pig10\", game: Pig(target: 10)),",
        )
        .replace(
            "matrix: (games: 12),",
            "matrix: (games: 0), general: (train: [\"connect-four\", \"pig\"], evolve: (generations: 2, mu: 2, lambda: 4, samples: 4, reestimate_candidates: 2), games: 16),",
        );
    let spec_file = root.join("general.ron");
    std::fs::write(&spec_file, &text).unwrap();
    let out = root.join("out");
    run(&spec_file, &out, &["--jobs", "2"]);
    // The evolution's fitness is the mix of the train games, each at its played constant.
    let evolve = std::fs::read_to_string(out.join("general/sims-10/evolve/spec.ron")).unwrap();
    assert!(evolve.contains("Mixed("), "{evolve}");
    assert!(
        evolve.contains("ConnectFour") && evolve.contains("target: 20"),
        "{evolve}"
    );
    assert!(!evolve.contains("target: 10"), "{evolve}");
    // Its champion plays the held-out game only, at both budgets, 16 games each.
    let csv = std::fs::read_to_string(out.join("general.csv")).unwrap();
    let rows: Vec<&str> = csv.lines().skip(1).collect();
    assert_eq!(rows.len(), 2, "{csv}");
    for (row, budget) in rows.iter().zip(["10", "20"]) {
        assert!(
            row.starts_with(&format!("{budget},\"pig10\",\"connect-four;pig\",")),
            "{row}"
        );
        assert!(row.contains(",16,"), "{row}");
    }
    assert!(
        !out.join("matrix.csv").exists()
            || std::fs::read_to_string(out.join("matrix.csv"))
                .unwrap()
                .lines()
                .count()
                == 7
    );
    let md = std::fs::read_to_string(out.join("portfolio.md")).unwrap();
    assert!(
        md.contains("## Does one formula transfer?") && md.contains("| pig10 |"),
        "{md}"
    );
    // The job alone, its result removed, writes the same result again.
    let before = std::fs::read(out.join("general.ron")).unwrap();
    std::fs::remove_file(out.join("general.ron")).unwrap();
    evomcts_ok(&[
        "portfolio",
        spec_file.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--part",
        "general",
        "--quiet",
    ]);
    assert_eq!(std::fs::read(out.join("general.ron")).unwrap(), before);
}

#[test]
fn the_committed_portfolio_spec_reads() {
    let spec = PortfolioSpec::from_file("runs/portfolio/portfolio12.ron").unwrap();
    assert!(spec.games.len() >= 12, "{}", spec.games.len());
    assert_eq!(spec.budgets(), [20, 100]);
    let open_spiel = spec
        .games
        .iter()
        .filter(|g| g.game.describe().open_spiel)
        .count();
    assert!(open_spiel >= 9, "{open_spiel}");
}
