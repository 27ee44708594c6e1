//! `docs/outputs.md` documents every file of a league and an evolution run folder and every
//! column of their CSV files: a tiny league and a tiny evolution run are made with the binary,
//! and each file and CSV header is looked up in the document.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn temp_dir(name: &str) -> PathBuf {
    let dir = crate::support::scratch("outputs", name);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn evomcts(args: &[&str]) {
    crate::support::evomcts_ok(args);
}

fn outputs_doc() -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/outputs.md")).unwrap()
}

/// The columns each CSV file's section lists: a heading "### `NAME.csv`" followed by a table
/// whose rows start with "| `column` |".
fn documented_columns(doc: &str) -> BTreeMap<String, Vec<String>> {
    let mut out: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut section: Option<String> = None;
    for line in doc.lines() {
        if line.starts_with('#') {
            section = line
                .trim_start_matches('#')
                .trim()
                .strip_prefix('`')
                .and_then(|l| l.strip_suffix('`'))
                .filter(|name| name.ends_with(".csv"))
                .map(str::to_string);
            if let Some(name) = &section {
                assert!(
                    out.insert(name.clone(), Vec::new()).is_none(),
                    "{name} is documented twice"
                );
            }
        } else if let Some(name) = &section {
            if let Some(column) = line
                .strip_prefix("| `")
                .and_then(|l| l.split_once("` |"))
                .map(|(c, _)| c)
            {
                out.get_mut(name).unwrap().push(column.to_string());
            }
        }
    }
    out
}

/// Checks every file of `dir` against the document: its name (digits may stand as `N`, as in
/// `gen-NNN.ron`) appears in backticks, and a CSV file's header is exactly its section's
/// column list. Returns the CSV files seen.
fn check_folder(dir: &Path, doc: &str) -> Vec<String> {
    let columns = documented_columns(doc);
    let mut seen = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let entry = entry.unwrap();
        let name = entry.file_name().to_string_lossy().into_owned();
        let shown = if entry.file_type().unwrap().is_dir() {
            format!("{name}/")
        } else {
            name.clone()
        };
        let pattern: String = shown
            .chars()
            .map(|c| if c.is_ascii_digit() { 'N' } else { c })
            .collect();
        assert!(
            doc.contains(&format!("`{shown}`")) || doc.contains(&format!("`{pattern}`")),
            "{} holds `{shown}`, which docs/outputs.md does not name",
            dir.display()
        );
        if name.ends_with(".csv") {
            let text = std::fs::read_to_string(entry.path()).unwrap();
            let header: Vec<String> = text
                .lines()
                .next()
                .unwrap_or_default()
                .split(',')
                .map(str::to_string)
                .collect();
            check_tidy(&name, &text);
            let documented = columns.get(&name).unwrap_or_else(|| {
                panic!("docs/outputs.md has no section \"### `{name}`\" listing its columns")
            });
            assert_eq!(
                &header, documented,
                "{name}: the header differs from the columns docs/outputs.md lists"
            );
            seen.push(name);
        }
    }
    seen.sort();
    seen
}

/// Checks the CSV files of a `plots/` folder against the document (figure names carry
/// controller names, so only the CSV files are looked up). Returns the CSV files seen.
fn check_plot_tables(dir: &Path, doc: &str) -> Vec<String> {
    let tables = temp_dir(&format!(
        "plot-tables-{}",
        dir.parent().unwrap().file_name().unwrap().to_string_lossy()
    ));
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "csv") {
            std::fs::copy(&path, tables.join(path.file_name().unwrap())).unwrap();
        }
    }
    let seen = check_folder(&tables, doc);
    std::fs::remove_dir_all(tables).unwrap();
    seen
}

/// The CSV convention: snake_case headers, no percentages, no intervals in one cell, booleans
/// as `true`/`false`.
fn check_tidy(name: &str, text: &str) {
    let mut lines = text.lines();
    for column in lines.next().unwrap_or_default().split(',') {
        assert!(
            !column.is_empty()
                && column
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_'),
            "{name}: column `{column}` is not snake_case"
        );
    }
    for line in lines {
        for cell in line.split(',') {
            assert!(
                !cell.contains('%') && !cell.starts_with('[') && !cell.starts_with('+'),
                "{name}: `{cell}` is not a plain value"
            );
            assert!(
                !["yes", "no", "inf", "-inf", "NaN"].contains(&cell),
                "{name}: `{cell}`"
            );
        }
    }
}

#[test]
fn every_file_and_csv_column_of_a_league_folder_is_documented() {
    let dir = temp_dir("league");
    let spec = dir.join("tiny.ron");
    std::fs::write(
        &spec,
        r#"(
            name: "tiny",
            games_per_match: 1,
            seed: 4,
            controllers: [
                (name: "Random", spec: Random),
                (name: "MCTS", spec: Mcts(sims: 10)),
                (name: "ES", spec: Mcts(sims: 30, es: (mode: Integrated, generations: 2, sims_per_fitness: 2))),
            ],
        )"#,
    )
    .unwrap();
    let run = dir.join("run");
    let run_arg = run.to_str().unwrap();
    evomcts(&[
        "league",
        spec.to_str().unwrap(),
        "--out",
        run_arg,
        "--threads",
        "2",
        "--quiet",
    ]);
    evomcts(&["table", run_arg]);
    evomcts(&["plot", "all", run_arg]);
    let doc = outputs_doc();
    let csv = check_folder(&run, &doc);
    assert_eq!(
        csv,
        [
            "games.csv",
            "matches.csv",
            "ratings.csv",
            "standings.csv",
            "statistics.csv",
            "win_rates.csv"
        ]
    );
    assert_eq!(
        check_plot_tables(&run.join("plots"), &doc),
        [
            "es_fitness.csv",
            "formula_shapes.csv",
            "formulas.csv",
            "formulas_drift.csv",
            "formulas_summary.csv",
            "scores_per_turn.csv"
        ]
    );
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn every_file_and_csv_column_of_an_evolution_folder_is_documented() {
    let dir = temp_dir("evolve");
    let spec = dir.join("tiny.ron");
    std::fs::write(
        &spec,
        r#"(
            name: "tiny",
            seed: 2,
            strategy: (mu: 2, lambda: 3, generations: 2, plus: true),
            noise: (samples: 4, elites: 1, elite_samples: 4, reestimate: (candidates: 2, samples: 4)),
            fitness: Bandit(arms: 3, epsilon: 0.2, horizon: 50, c_e: 0.5),
            pareto: (candidates: 2, samples: 4),
        )"#,
    )
    .unwrap();
    let run = dir.join("run");
    evomcts(&[
        "evolve",
        spec.to_str().unwrap(),
        "--out",
        run.to_str().unwrap(),
        "--threads",
        "2",
        "--quiet",
    ]);
    evomcts(&["plot", "all", run.to_str().unwrap()]);
    let doc = outputs_doc();
    let csv = check_folder(&run, &doc);
    assert_eq!(
        csv,
        [
            "hall_of_fame.csv",
            "logbook.csv",
            "pareto.csv",
            "reestimate.csv"
        ]
    );
    assert_eq!(
        check_plot_tables(&run.join("plots"), &doc),
        ["evolution.csv"]
    );
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn every_file_and_csv_column_of_independent_runs_is_documented() {
    let dir = temp_dir("runs");
    let spec = dir.join("tiny.ron");
    std::fs::write(
        &spec,
        r#"(
            name: "tiny",
            seed: 2,
            strategy: (mu: 2, lambda: 3, generations: 1, plus: true),
            noise: (samples: 4, elites: 1, elite_samples: 4),
            fitness: Bandit(arms: 3, epsilon: 0.2, horizon: 50, c_e: 0.5),
        )"#,
    )
    .unwrap();
    let out = dir.join("out");
    let out_text = out.to_str().unwrap();
    evomcts(&[
        "evolve",
        spec.to_str().unwrap(),
        "--runs",
        "2",
        "--tournament-samples",
        "10",
        "--out",
        out_text,
        "--quiet",
    ]);
    let doc = outputs_doc();
    assert_eq!(check_folder(&out, &doc), ["tournament.csv"]);
    // Each run is an ordinary run folder: documented as one, and the report reads it.
    let run = out.join("run-1");
    assert_eq!(
        check_folder(&run, &doc),
        ["hall_of_fame.csv", "logbook.csv"]
    );
    evomcts(&["report", run.to_str().unwrap()]);
    assert!(run.join("report/index.html").is_file());
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn every_file_and_csv_column_of_a_tuning_folder_is_documented() {
    let dir = temp_dir("tune");
    let spec = dir.join("tiny.ron");
    // One parameter, C_E: the documented example of the parameters' columns.
    std::fs::write(
        &spec,
        r#"(
            name: "tiny",
            seed: 2,
            game: ConnectFour,
            controller: (sims: 10, c_e: 0.5, reward: WinLoss),
            parameters: [(name: "C_E", low: 0.1, high: 2.0, log: true)],
            budget: 16,
            spsa: (a: 0.1),
            recommend_blocks: 1,
            reestimate_sequences: 2,
        )"#,
    )
    .unwrap();
    let run = dir.join("run");
    evomcts(&[
        "tune",
        spec.to_str().unwrap(),
        "--out",
        run.to_str().unwrap(),
        "--quiet",
    ]);
    evomcts(&["plot", "all", run.to_str().unwrap()]);
    evomcts(&["report", run.to_str().unwrap()]);
    let doc = outputs_doc();
    assert_eq!(check_folder(&run, &doc), ["trajectory.csv", "tune.csv"]);
    assert!(run.join("plots/tune-trajectory.svg").is_file());
    let page = std::fs::read_to_string(run.join("report/index.html")).unwrap();
    assert!(
        page.contains("Paired score difference") && page.contains("<svg"),
        "{page}"
    );
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_changed_header_fails_the_check() {
    let doc = outputs_doc();
    let dir = temp_dir("changed");
    std::fs::write(dir.join("games.csv"), "k,first,second\n").unwrap();
    let check = std::panic::catch_unwind(|| check_folder(&dir, &doc));
    assert!(check.is_err(), "a header missing documented columns passes");
    std::fs::write(dir.join("undocumented.bin"), "").unwrap();
    std::fs::remove_file(dir.join("games.csv")).unwrap();
    let check = std::panic::catch_unwind(|| check_folder(&dir, &doc));
    assert!(check.is_err(), "an undocumented file passes");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn committed_evolution_folders_load_and_their_csv_files_are_what_the_code_writes() {
    use evomcts::evolve::population::read_generations;
    use evomcts::evolve::report::{hall_of_fame, hall_of_fame_csv, logbook_csv};
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("populations");
    // Games per fitness sample: one bandit run, or both seatings of a tile sequence.
    for (run, games_per_sample) in [
        ("bandit-demo", 1),
        ("carcassonne-demo", 2),
        ("carcassonne-uct100", 2),
        ("carcassonne-uct100-moregames", 2),
        ("carcassonne-uct100-terminals", 2),
    ] {
        let dir = root.join(run);
        let gens = read_generations(&dir).unwrap();
        assert!(!gens.is_empty(), "{run}");
        let read = |name: &str| std::fs::read_to_string(dir.join(name)).unwrap();
        assert_eq!(
            logbook_csv(&gens, games_per_sample),
            read("logbook.csv"),
            "{run}"
        );
        assert_eq!(
            hall_of_fame_csv(&hall_of_fame(&gens, evomcts::evolve::report::HALL_SIZE)),
            read("hall_of_fame.csv"),
            "{run}"
        );
    }
}
