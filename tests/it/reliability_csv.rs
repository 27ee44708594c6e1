//! One reader of CSV tables (issue 53, cause 4, and two smaller things): `report`, `plot all`
//! and the resume paths read every table through `records::csv`, which checks the header
//! against the writer's, every row's field count, refuses a quote left open and a file cut in
//! its last row, and names the file, the line and the field. Each damage a careless edit or a
//! cut file makes is refused with status 2 and nothing written, where `report` used to render
//! `garbage` as a one-column table and a formula cut inside its quotes as its first letters; a
//! tuning run's `tune.csv` cut anywhere in its last row is refused with status 2 like a garbage
//! row; and an LLR that is not finite is the same empty cell in `study.csv` as in
//! `sequential.csv`.

use crate::support::{evomcts, evomcts_ok, files_under, fixture_dir, scratch};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// A bandit evolution with a re-estimate and a front: every table `report` reads of an
/// evolution run (`logbook.csv`, `hall_of_fame.csv`, `reestimate.csv`, `pareto.csv`).
const EVOLUTION: &str = r#"(
    name: "csv-bandit",
    seed: 11,
    strategy: (mu: 3, lambda: 6, generations: 2, plus: true),
    noise: (samples: 6, elites: 1, elite_samples: 6, reestimate: (candidates: 3, samples: 10)),
    fitness: Bandit(arms: 5, epsilon: 0.2, horizon: 100, c_e: 0.5),
    pareto: (candidates: 3, samples: 10),
)"#;

/// A study of Connect Four at one budget whose validation's every pair of games ends level:
/// under the score test of δ = 0 against 0.5 its LLR is −∞ (decision `h0`).
const STUDY: &str = r#"(
    name: "csv-study",
    game: ConnectFour,
    seed: 3,
    budgets: [10],
    tune: (games: 24, reestimate_sequences: 4),
    evolve: (generations: 2, mu: 2, lambda: 4, samples: 4, reestimate_candidates: 2),
    validate: (games_cap: 40, hypotheses: Some(Score(delta0: 0.0, delta1: 0.5))),
)"#;

/// A tuning run of Connect Four, stopped after two of its four steps.
const TUNE: &str = r#"(
    name: "csv-tune", seed: 5, game: ConnectFour,
    controller: (sims: 4, c_e: 0.5, reward: WinLoss),
    parameters: [(name: "C_E", low: 0.05, high: 5.0, log: true)],
    opponent: Mcts(sims: 4, c_e: 0.5, reward: WinLoss),
    budget: 16, spsa: (a: 0.1), recommend_blocks: 2, reestimate_sequences: 4,
)"#;

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// `spec` written beside `out` and run by the binary as `command SPEC --out OUT --quiet
/// EXTRA…`, in a fixture folder of its own.
fn made(name: &str, command: &str, spec: &str, extra: &[&str]) -> PathBuf {
    let dir = fixture_dir("rcsv", name);
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join(format!("{name}.ron"));
    std::fs::write(&file, spec).unwrap();
    let out = dir.join("run");
    let mut args = vec![command, s(&file), "--out", s(&out), "--quiet"];
    args.extend(extra);
    evomcts_ok(&args);
    out
}

fn evolution() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| made("evolution", "evolve", EVOLUTION, &[]))
}

fn study() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| made("study", "study", STUDY, &[]))
}

/// A copy of the folder `from` as `to`, without its `report/` (which other tests of a shared
/// fixture may be writing).
pub fn copy_folder(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let (path, target) = (entry.path(), to.join(entry.file_name()));
        if entry.file_name() == "report" {
            continue;
        }
        if entry.file_type().unwrap().is_dir() {
            copy_folder(&path, &target);
        } else {
            std::fs::copy(&path, &target).unwrap();
        }
    }
}

/// Damaged versions of a table's `text` (whose second line holds a quoted field), each with
/// what it is and the line the refusal must name: garbage for the whole file, the last row
/// cut inside its last quoted field, the second line short of its last field, with a field
/// too many, and the last row without its line break.
pub fn damages(text: &str) -> Vec<(&'static str, String, usize)> {
    let lines: Vec<&str> = text.lines().collect();
    let last = lines.len();
    let before_last: String = lines[..last - 1].iter().map(|l| format!("{l}\n")).collect();
    let last_line = lines[last - 1];
    let quote = last_line
        .rfind('"')
        .expect("the last row holds a quoted field");
    let open = last_line[..quote].rfind('"').unwrap();
    let cut_inside = format!("{before_last}{}", &last_line[..open + 2]);
    let second = lines[1];
    let short = second[..second.rfind(',').unwrap()].to_string();
    let with_line = |line: String| {
        let mut edited: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
        edited[1] = line;
        edited.iter().map(|l| format!("{l}\n")).collect::<String>()
    };
    vec![
        ("garbage", "garbage\n".to_string(), 1),
        ("cut inside a quoted field", cut_inside, last),
        ("a short row", with_line(short), 2),
        ("a field too many", with_line(format!("{second},7")), 2),
        (
            "no line break after the last row",
            text.trim_end_matches('\n').to_string(),
            last,
        ),
    ]
}

/// `evomcts ARGS` must fail with status 2, naming `file` at `line` on stderr.
fn refused(args: &[&str], file: &Path, line: usize, what: &str) -> String {
    let out = evomcts(args);
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    assert_eq!(out.status.code(), Some(2), "{what}: {args:?}: {stderr}");
    let named = format!("{}:{line}:", file.display());
    assert!(
        stderr.contains(&named),
        "{what}: expected {named} in {stderr}"
    );
    stderr
}

#[test]
fn report_refuses_every_damaged_table_of_an_evolution_run_naming_file_and_line() {
    let run = evolution();
    for name in [
        "logbook.csv",
        "hall_of_fame.csv",
        "reestimate.csv",
        "pareto.csv",
    ] {
        let text = std::fs::read_to_string(run.join(name)).unwrap();
        for (what, damaged, line) in damages(&text) {
            let dir = scratch("rcsv", "evolution-report");
            copy_folder(run, &dir);
            std::fs::write(dir.join(name), &damaged).unwrap();
            let before = files_under(&dir);
            refused(&["report", s(&dir)], &dir.join(name), line, what);
            assert_eq!(files_under(&dir), before, "{name}, {what}: nothing written");
        }
    }
    // Undamaged, the same folder reports.
    let dir = scratch("rcsv", "evolution-report");
    copy_folder(run, &dir);
    evomcts_ok(&["report", s(&dir)]);
}

#[test]
fn a_front_cut_inside_a_quoted_formula_is_refused_by_report_and_plot_all_not_drawn_as_its_first_letters(
) {
    let run = evolution();
    let text = std::fs::read_to_string(run.join("pareto.csv")).unwrap();
    let dir = scratch("rcsv", "front");
    copy_folder(run, &dir);
    // Cut two characters into the last row's formula, as `truncate` leaves a file.
    let (_, cut, line) = damages(&text).swap_remove(1);
    std::fs::write(dir.join("pareto.csv"), &cut).unwrap();
    let stderr = refused(
        &["report", s(&dir)],
        &dir.join("pareto.csv"),
        line,
        "report",
    );
    assert!(stderr.contains("field 12 (`formula`)"), "{stderr}");
    assert!(stderr.contains("a quote opens the field"), "{stderr}");
    let plots = dir.join("plots");
    let stderr = refused(
        &["plot", "all", s(&dir), "--out", s(&plots)],
        &dir.join("pareto.csv"),
        line,
        "plot all",
    );
    assert!(stderr.contains("field 12 (`formula`)"), "{stderr}");
    assert!(!plots.exists(), "plot all drew nothing");
    for (what, damaged, line) in damages(&text) {
        std::fs::write(dir.join("pareto.csv"), &damaged).unwrap();
        refused(
            &["plot", "all", s(&dir), "--out", s(&plots)],
            &dir.join("pareto.csv"),
            line,
            what,
        );
        assert!(!plots.exists(), "{what}: plot all drew nothing");
    }
}

#[test]
fn report_refuses_a_garbage_cut_or_misshapen_study_csv_with_status_2() {
    let run = study();
    let dir = scratch("rcsv", "study-report");
    copy_folder(run, &dir);
    // The issue's reproduction: `printf 'garbage\n' > S/study.csv; evomcts report S`.
    std::fs::write(dir.join("study.csv"), "garbage\n").unwrap();
    let stderr = refused(&["report", s(&dir)], &dir.join("study.csv"), 1, "garbage");
    assert!(
        stderr.contains("found `garbage`; expected the header `game,budget,"),
        "{stderr}"
    );
    assert!(!dir.join("report").exists(), "nothing written");
    let text = std::fs::read_to_string(run.join("study.csv")).unwrap();
    for (what, damaged, line) in damages(&text) {
        std::fs::write(dir.join("study.csv"), &damaged).unwrap();
        refused(&["report", s(&dir)], &dir.join("study.csv"), line, what);
        assert!(!dir.join("report").exists(), "{what}: nothing written");
    }
    std::fs::write(dir.join("study.csv"), &text).unwrap();
    evomcts_ok(&["report", s(&dir)]);
}

/// The field `column` of each data row of the CSV `text`.
fn column(text: &str, column: &str) -> Vec<String> {
    let table = evomcts::csv::Table::parse_any(Path::new("t.csv"), text).unwrap();
    let k = table.column(column).unwrap();
    table.rows().map(|r| r.get(k).to_string()).collect()
}

#[test]
fn an_llr_that_is_not_finite_is_the_same_empty_cell_in_study_csv_and_sequential_csv() {
    let run = study();
    let study_csv = std::fs::read_to_string(run.join("study.csv")).unwrap();
    let sequential = std::fs::read_to_string(run.join("sims-10/validate/sequential.csv")).unwrap();
    // Every pair level under the score test: the LLR is −∞ and the test accepts H0.
    assert_eq!(column(&study_csv, "sprt_decision"), ["h0"]);
    assert_eq!(column(&sequential, "decision").last().unwrap(), "h0");
    assert_eq!(column(&sequential, "llr").last().unwrap(), "");
    assert_eq!(
        column(&study_csv, "sprt_llr"),
        [""],
        "as sequential.csv writes it"
    );
    assert!(!study_csv.contains("inf"), "{study_csv}");
}

#[test]
fn a_tuning_run_cut_anywhere_in_its_last_row_is_refused_with_status_2_like_a_garbage_row() {
    let run = made("tune", "tune", TUNE, &["--stop-after", "2"]);
    let spec = run.parent().unwrap().join("tune.ron");
    let text = std::fs::read_to_string(run.join("tune.csv")).unwrap();
    let lines = text.lines().count();
    let last = text.trim_end_matches('\n').lines().last().unwrap().len();
    let dir = scratch("rcsv", "tune");
    let mut damaged: Vec<(String, String, usize)> = (1..=last)
        .map(|cut| {
            (
                format!("the last row cut by {cut} bytes"),
                text[..text.len() - cut].to_string(),
                lines,
            )
        })
        .collect();
    damaged.push((
        "a garbage row".into(),
        format!("{text}garbage\n"),
        lines + 1,
    ));
    for (what, damaged, line) in damaged {
        let _ = std::fs::remove_dir_all(&dir);
        copy_folder(&run, &dir);
        std::fs::write(dir.join("tune.csv"), &damaged).unwrap();
        let before = files_under(&dir);
        let args = ["tune", s(&spec), "--out", s(&dir), "--quiet", "--resume"];
        let stderr = refused(&args, &dir.join("tune.csv"), line, &what);
        assert!(stderr.contains("left untouched"), "{what}: {stderr}");
        assert_eq!(files_under(&dir), before, "{what}: nothing written");
    }
    // Undamaged, it resumes.
    let _ = std::fs::remove_dir_all(&dir);
    copy_folder(&run, &dir);
    evomcts_ok(&["tune", s(&spec), "--out", s(&dir), "--quiet", "--resume"]);
}

#[test]
fn a_validation_s_games_csv_is_read_by_the_same_reader_on_resume() {
    let run = study();
    let games = run.join("sims-10/validate/games.csv");
    let text = std::fs::read_to_string(&games).unwrap();
    let dir = scratch("rcsv", "validate");
    let last = text.lines().count();
    for (what, damaged, line) in [
        ("garbage", "garbage\n".to_string(), 1),
        (
            "no line break after the last row",
            text.trim_end_matches('\n').to_string(),
            last,
        ),
        ("a quote", text.replacen("\n0,", "\n\"0,", 1), 2),
    ] {
        let _ = std::fs::remove_dir_all(&dir);
        copy_folder(run, &dir);
        let file = dir.join("sims-10/validate/games.csv");
        std::fs::write(&file, &damaged).unwrap();
        let spec = dir.join("sims-10/validate/spec.ron");
        let validate = dir.join("sims-10/validate");
        let args = [
            "validate",
            "game",
            s(&spec),
            "--out",
            s(&validate),
            "--quiet",
            "--resume",
        ];
        refused(&args, &file, line, what);
        assert_eq!(std::fs::read_to_string(&file).unwrap(), damaged, "{what}");
    }
}

#[test]
fn no_code_but_the_one_reader_splits_a_csv_line() {
    // Carcassonne's tile table lists a tile's cities and roads with commas: not a CSV file.
    crate::support::assert_no_source_line(
        "read CSV tables through evomcts_records::csv::Table",
        |at, code| {
            code.contains("split(',')")
                && !at.contains("crates/games/src/carcassonne/tiles.rs")
                && !at.contains("crates/records/src/csv.rs")
        },
    );
}

/// Every `.csv` file under `dir`, at any depth.
fn csv_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            csv_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "csv") {
            out.push(path);
        }
    }
}

#[test]
fn every_committed_table_reads_with_the_one_reader() {
    let mut files = Vec::new();
    csv_files(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("runs"),
        &mut files,
    );
    assert!(files.len() > 100, "{} tables under runs/", files.len());
    let known = [
        ("study.csv", evomcts::study::STUDY_CSV_HEADER.to_string()),
        (
            "portfolio.csv",
            evomcts::portfolio::PORTFOLIO_CSV_HEADER.to_string(),
        ),
        (
            "matrix.csv",
            evomcts::portfolio::MATRIX_CSV_HEADER.to_string(),
        ),
        ("pareto.csv", evomcts::evolve::pareto::HEADER.to_string()),
        (
            "reestimate.csv",
            evomcts::evolve::reestimate::REESTIMATE_HEADER.to_string(),
        ),
        (
            "logbook.csv",
            evomcts::evolve::report::LOGBOOK_HEADER.to_string(),
        ),
        (
            "hall_of_fame.csv",
            evomcts::evolve::report::HALL_OF_FAME_HEADER.to_string(),
        ),
        (
            "general.csv",
            evomcts::portfolio::general::GENERAL_CSV_HEADER.to_string(),
        ),
        (
            "shared.csv",
            evomcts::analysis::report::SHARED_CSV_HEADER.to_string(),
        ),
        (
            "correlations.csv",
            evomcts::analysis::report::CORRELATIONS_CSV_HEADER.to_string(),
        ),
        (
            "timings.csv",
            evomcts::analysis::report::TIMINGS_CSV_HEADER.to_string(),
        ),
    ];
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        let name = file.file_name().unwrap().to_str().unwrap();
        match known.iter().find(|(n, _)| *n == name) {
            Some((_, header)) => evomcts::csv::Table::parse(&file, &text, header).map(|_| ()),
            None => evomcts::csv::Table::parse_any(&file, &text).map(|_| ()),
        }
        .unwrap_or_else(|e| panic!("{e}"));
    }
}
