//! A portfolio's result files (`games/LABEL.ron`, `matrix/TARGET.ron`, `general.ron`) are
//! checked before anything reads them: each damage a hand or a bug could do is refused with
//! status 2, naming the file and the field, and nothing is written (issue 53, cause 2); the
//! committed portfolio passes the same check. A failed job's log ends the message as lines
//! (cause 8).

use crate::support::{evomcts, files_under, fixture_dir, scratch};
use evomcts::formula::Formula;
use evomcts::portfolio::{read_checked, PortfolioSpec};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// Connect Four and Pig at 4 and 8 simulations, with the matrix and a general formula
/// trained on Connect Four and held out on Pig.
const SPEC: &str = r#"(
    name: "pf",
    seed: 5,
    budgets: [4, 8],
    tune: (games: 8, reestimate_sequences: 2),
    evolve: (generations: 1, mu: 2, lambda: 2, samples: 2, reestimate_candidates: 2),
    validate: (games_cap: 8),
    games: [
        (label: "c4", game: ConnectFour),
        (label: "pig", game: Pig(target: 10)),
    ],
    matrix: (games: 4),
    general: (train: ["c4"], evolve: (generations: 1, mu: 2, lambda: 2, samples: 2, reestimate_candidates: 2), games: 4),
)"#;

/// The finished portfolio, made once by the binary; tests work on copies of it.
fn finished() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let root = fixture_dir("portfolio", "results");
        std::fs::create_dir_all(&root).unwrap();
        std::fs::write(root.join("pf.ron"), SPEC).unwrap();
        let out = root.join("P");
        crate::support::evomcts_ok(&[
            "portfolio",
            root.join("pf.ron").to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--jobs",
            "2",
            "--quiet",
        ]);
        root
    })
}

/// A copy of the finished portfolio (its folder and spec file) in a scratch folder: the
/// folder.
fn copy(name: &str) -> PathBuf {
    let root = scratch("portfolio-results", name);
    let from = finished();
    for (path, bytes) in files_under(from) {
        let to = root.join(&path);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::write(to, bytes).unwrap();
    }
    root
}

/// `evomcts portfolio pf.ron --out P --resume` in `root`.
fn resume(root: &Path) -> std::process::Output {
    evomcts(&[
        "portfolio",
        root.join("pf.ron").to_str().unwrap(),
        "--out",
        root.join("P").to_str().unwrap(),
        "--resume",
        "--quiet",
    ])
}

/// `text` with the value of the `nth` field `name` (counting from 0) set to `value`.
fn set_nth(text: &str, name: &str, nth: usize, value: &str) -> String {
    let key = format!("{name}: ");
    let mut at = 0;
    for _ in 0..=nth {
        at += text[at..]
            .find(&key)
            .unwrap_or_else(|| panic!("no {nth}th {key}"))
            + key.len();
    }
    let end = at + text[at..].find(",\n").unwrap();
    format!("{}{value}{}", &text[..at], &text[end..])
}

fn set_first(text: &str, name: &str, value: &str) -> String {
    set_nth(text, name, 0, value)
}

#[test]
fn every_damaged_result_file_is_refused_naming_the_file_and_the_field_and_nothing_is_written() {
    // The portfolio as its jobs left it resumes cleanly, writing the same outputs.
    let root = copy("untouched");
    let before = files_under(&root);
    let out = resume(&root);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(files_under(&root), before);

    let other = Formula::parse("Q + n/N").unwrap();
    let other = format!("\"{other}\"");
    // What is damaged, the result file, the damage, and what the refusal names after the file.
    type Edit = Box<dyn Fn(&str) -> String>;
    let cases: Vec<(&str, &str, Edit, &str)> = vec![
        (
            "the label edited to another game's",
            "games/c4.ron",
            Box::new(|t: &str| t.replace("label: \"c4\",", "label: \"pig\",")),
            "label: is `pig`",
        ),
        (
            "a win rate its W-D-L does not give",
            "games/c4.ron",
            Box::new(|t: &str| set_first(t, "win_rate", "0.123456")),
            "rows[0].validation.win_rate: is 0.123456",
        ),
        (
            "a budget not in the spec",
            "games/c4.ron",
            Box::new(|t: &str| set_nth(t, "budget", 1, "30")),
            "rows[1].budget: is 30, not a budget of the spec",
        ),
        (
            "a p of 2",
            "games/pig.ron",
            Box::new(|t: &str| set_first(t, "wilcoxon_p", "2.0")),
            "rows[0].validation.wilcoxon_p: is 2",
        ),
        (
            "a p of NaN",
            "games/c4.ron",
            Box::new(|t: &str| set_nth(t, "wilcoxon_p", 1, "NaN")),
            "rows[1].validation.wilcoxon_p: is NaN",
        ),
        (
            "empty rows",
            "games/c4.ron",
            Box::new(|t: &str| format!("{}rows: [],\n)\n", &t[..t.find("rows: [").unwrap()])),
            "rows: is empty",
        ),
        (
            "a budget's row twice",
            "games/c4.ron",
            Box::new(|t: &str| set_nth(t, "budget", 1, "4")),
            "rows[1].budget: is 4, which rows[0] holds already",
        ),
        (
            "a matrix source that is no label",
            "matrix/c4.ron",
            Box::new(|t: &str| set_first(t, "source", "\"chess\"")),
            "cells[0].source: is `chess`, no label",
        ),
        (
            "a general target that is no label",
            "general.ron",
            Box::new(|t: &str| set_first(t, "target", "\"chess\"")),
            "rows[0].target: is `chess`, no label",
        ),
        (
            "a negative branching factor",
            "games/c4.ron",
            Box::new(|t: &str| set_first(t, "branching", "-1.0")),
            "properties.branching: is -1",
        ),
        (
            "trained_on holding its own held-out target",
            "general.ron",
            Box::new(|t: &str| t.replacen("\"c4\",", "\"c4\",\n                \"pig\",", 1)),
            "rows[0].trained_on: holds `pig`",
        ),
        (
            "a champion that is not its study's",
            "games/c4.ron",
            Box::new(move |t: &str| {
                let simplified = Formula::parse("Q + n/N").unwrap().simplify();
                let t = set_first(t, "champion", &other);
                set_first(&t, "simplified", &format!("\"{simplified}\""))
            }),
            "rows[0].champion: is `Q + n/N`, but its study's evolution (studies/c4/sims-4/evolve/champion.txt) names",
        ),
        (
            "a cell's formula that is not its source's champion",
            "matrix/pig.ron",
            Box::new(|t: &str| set_first(t, "formula", "\"Q + n/N\"")),
            "cells[0].formula: is `Q + n/N`, but the champion of `c4` at 4 simulations is",
        ),
        (
            "a W-D-L its records do not hold",
            "matrix/c4.ron",
            Box::new(|t: &str| {
                // Still consistent in itself: every game a draw.
                let t = set_first(t, "wins", "0");
                let t = set_first(&t, "draws", "4");
                let t = set_first(&t, "losses", "0");
                let t = set_first(&t, "win_rate", "0.5");
                let t = set_first(&t, "win_low", "0.15003898915214947");
                set_first(&t, "win_high", "0.8499610108478506")
            }),
            "cells[0].validation.",
        ),
    ];
    // Every case is tried, and the test fails naming each that was not refused as it should.
    let mut wrong = Vec::new();
    for (i, (what, file, edit, named)) in cases.into_iter().enumerate() {
        let root = copy(&format!("damaged-{i}"));
        let path = root.join("P").join(file);
        let text = std::fs::read_to_string(&path).unwrap();
        let edited = edit(&text);
        assert_ne!(edited, text, "{what}: the edit changed nothing");
        std::fs::write(&path, &edited).unwrap();
        let before = files_under(&root);
        let out = resume(&root);
        let err = String::from_utf8_lossy(&out.stderr);
        let expected = format!("{}: {named}", Path::new("P").join(file).display());
        if out.status.code() != Some(2) || !err.contains(&expected) {
            wrong.push(format!(
                "{what}: status {:?}, {expected:?} not in: {err}",
                out.status.code()
            ));
        } else if files_under(&root) != before {
            wrong.push(format!("{what}: refused, but something was written"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n\n"));
}

/// A failed job's error ends with its log's last lines, each on a line of its own, not as one
/// line of `\n`s.
#[test]
fn a_failed_jobs_log_is_quoted_line_by_line() {
    let root = copy("failed-job");
    let p = root.join("P");
    // The study job of c4 runs again, on a study folder of another spec, and fails.
    std::fs::remove_file(p.join("games/c4.ron")).unwrap();
    let study = p.join("studies/c4/study.ron");
    let text = std::fs::read_to_string(&study).unwrap();
    std::fs::write(
        &study,
        text.replacen("description: \"", "description: \"x", 1),
    )
    .unwrap();
    let out = resume(&root);
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(!err.contains("\\n"), "{err}");
    let lines: Vec<&str> = err.lines().collect();
    let start = lines
        .iter()
        .position(|l| l.starts_with("error: the study job of `c4` failed"))
        .unwrap_or_else(|| panic!("{err}"));
    assert!(lines[start].ends_with("c4-study.txt, ends:"), "{err}");
    let log = std::fs::read_to_string(p.join("logs/c4-study.txt")).unwrap();
    let tail: Vec<String> = log
        .lines()
        .rev()
        .take(5)
        .map(|l| format!("  {l}"))
        .collect();
    let quoted: Vec<String> = lines[start + 1..lines.len() - 1]
        .iter()
        .rev()
        .map(|l| l.to_string())
        .collect();
    assert_eq!(quoted, tail, "{err}");
    assert!(
        quoted[0].contains("holds a study of a different spec"),
        "{err}"
    );
    assert_eq!(
        lines.last(),
        Some(&"resume the portfolio with --resume once the cause is fixed")
    );
}

/// The committed portfolio's result files pass the check against its spec and folders.
#[test]
fn the_committed_portfolios_results_pass_the_check() {
    let dir = Path::new("runs/portfolio/portfolio12");
    let spec = PortfolioSpec::from_file(dir.join("portfolio.ron")).unwrap();
    let results = read_checked(&spec, dir).unwrap();
    assert_eq!(results.games.len(), 14);
    assert_eq!(results.columns.len(), 14);
    assert_eq!(results.general.unwrap().rows.len(), 18);
}
