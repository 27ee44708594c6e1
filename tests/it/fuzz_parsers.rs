//! The spec and formula parsers on arbitrary input, and the readers of the files a run writes
//! (records, generation files, validation rows, job-step work, todo and results files) on
//! arbitrary and hand-edited ones: an error or a value, never a panic, an abort or a hang; what
//! is accepted is what a game or fitness could produce, and a sweep's `{W}` is played as the
//! operand the tables name.

use evomcts::evolve::{run_evolution, EvolveSpec, Generation, RunOptions as EvolveOptions};
use evomcts::formula::{Formula, Grammar};
use evomcts::league::{load_runs, record_path, run_league, LeagueSpec};
use proptest::prelude::*;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// Text built from the pieces the parsers care about, so that deep nesting, long chains and
/// near-valid specs come up often, not only random bytes.
fn tokens() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        Just("(".to_string()),
        Just(")".to_string()),
        Just("[".to_string()),
        Just("]".to_string()),
        Just(",".to_string()),
        Just("-".to_string()),
        Just("+".to_string()),
        Just("*".to_string()),
        Just("/".to_string()),
        Just("Q".to_string()),
        Just("n".to_string()),
        Just("sqrt(".to_string()),
        Just("min(".to_string()),
        Just("[C=".to_string()),
        Just("1e308".to_string()),
        Just("0.5".to_string()),
        Just("name: \"x\",".to_string()),
        Just("controllers: [".to_string()),
        Just("Mcts(".to_string()),
        Just("selection: Formula(\"".to_string()),
        Just("games_per_match: 4294967295,".to_string()),
        Just("\"".to_string()),
        Just("\u{feff}".to_string()),
        Just("\u{1b}".to_string()),
        Just("\0".to_string()),
    ];
    prop::collection::vec(piece, 0..400).prop_map(|v| v.concat())
}

fn all_parsers(text: &str) {
    let _ = Formula::parse(text);
    let _ = text.parse::<evomcts::formula::Expr>();
    let _ = LeagueSpec::from_ron(text, "fuzz.ron");
    let _ = EvolveSpec::from_ron(text, "fuzz.ron");
    let _ = Grammar::from_ron(text, "fuzz.ron");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..2000)) {
        all_parsers(&String::from_utf8_lossy(&bytes));
    }

    #[test]
    fn parser_shaped_text_never_panics(text in tokens()) {
        all_parsers(&text);
        // Inside a league spec's formula too.
        let spec = format!(
            "(name: \"f\", games_per_match: 1, seed: 1, controllers: [(name: \"a\", spec: Random), \
             (name: \"b\", spec: Mcts(selection: Formula({text:?})))])"
        );
        let _ = LeagueSpec::from_ron(&spec, "fuzz.ron");
    }
}

#[test]
fn deeply_nested_specs_are_refused_not_overflowed() {
    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    let league = format!("(name: \"d\", games_per_match: 1, seed: 1, controllers: {deep})");
    assert!(LeagueSpec::from_ron(&league, "deep.ron").is_err());
    assert!(Grammar::from_ron(&deep, "deep.ron").is_err());
    let formula = format!("{}Q{}", "min(".repeat(50_000), ",Q)".repeat(50_000));
    assert!(Formula::parse(&formula).is_err());
}

/// A finished tiny league: its folder and its records as written.
fn league_run() -> &'static (PathBuf, String) {
    static RUN: OnceLock<(PathBuf, String)> = OnceLock::new();
    RUN.get_or_init(|| {
        let dir = crate::support::fixture_dir("fuzz", "league");
        let spec = LeagueSpec::from_ron(
            "(name: \"f\", games_per_match: 1, seed: 1, controllers: [(name: \"a\", spec: Random), \
             (name: \"b\", spec: Random), (name: \"c\", spec: Random)])",
            "f.ron",
        )
        .unwrap();
        run_league(&spec, &crate::support::opts(&dir, false, 1, None)).unwrap();
        let records = std::fs::read_to_string(record_path(&dir)).unwrap();
        (dir, records)
    })
}

/// A finished tiny bandit evolution: its folder and its last generation file as written.
fn evolution_run() -> &'static (PathBuf, String) {
    static RUN: OnceLock<(PathBuf, String)> = OnceLock::new();
    RUN.get_or_init(|| {
        let dir = crate::support::fixture_dir("fuzz", "evolve");
        let spec = EvolveSpec::from_ron(
            "(name: \"g\", seed: 1, strategy: (mu: 2, lambda: 3, generations: 1, plus: true), \
             noise: (samples: 4, elites: 1, elite_samples: 4), \
             fitness: Bandit(arms: 3, epsilon: 0.2, horizon: 50, c_e: 0.5))",
            "g.ron",
        )
        .unwrap();
        let opts = EvolveOptions {
            out_dir: dir.clone(),
            resume: false,
            threads: Some(1),
            progress: false,
            stop_after: None,
            srun: None,
        };
        run_evolution(&spec, &opts).unwrap();
        let last = std::fs::read_to_string(dir.join("gen-001.ron")).unwrap();
        (dir, last)
    })
}

/// `text` with its `which`-th number (of the numbers in it, counted modulo their count)
/// replaced by `by`: the edits a person makes to a record or a generation file.
fn replace_number(text: &str, which: usize, by: &str) -> String {
    let bytes = text.as_bytes();
    let mut spans = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i].is_ascii_digit() {
            let start = i;
            while i < bytes.len() && (bytes[i].is_ascii_digit() || bytes[i] == b'.') {
                i += 1;
            }
            spans.push(start..i);
        } else {
            i += 1;
        }
    }
    let span = spans[which % spans.len()].clone();
    format!("{}{by}{}", &text[..span.start], &text[span.end..])
}

/// Numbers that break arithmetic: bounds of every integer type, huge and odd floats.
fn extreme_number() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec![
        "0",
        "1",
        "2",
        "99",
        "-1",
        "255",
        "65535",
        "65536",
        "2147483647",
        "-2147483648",
        "4294967295",
        "4294967296",
        "18446744073709551615",
        "18446744073709551616",
        "1e308",
        "-1e308",
        "0.5",
    ])
}

/// A folder of its own for one test (tests run in parallel), holding `files` of `run`.
fn case_dir(test: &str, run: &Path, files: &[&str]) -> PathBuf {
    let dir = crate::support::scratch("fuzz", test);
    std::fs::create_dir_all(&dir).unwrap();
    for f in files {
        std::fs::copy(run.join(f), dir.join(f)).unwrap();
    }
    dir
}

/// Records in `dir` replaced by `records`, read as every command reads them; whatever the
/// merge admits must give tables.
fn read_records_as_commands_do(dir: &Path, records: &str) {
    std::fs::write(record_path(dir), records).unwrap();
    if let Ok((spec, games, _)) = load_runs(&[dir.to_path_buf()]) {
        crate::support::tables(&spec, &games);
    }
}

/// Generation file 1 of `dir` replaced by `text`, read as resume, report and plots read it.
fn read_generation_as_commands_do(dir: &Path, text: &str) {
    let path = dir.join("gen-001.ron");
    std::fs::write(&path, text).unwrap();
    if Generation::read(&path, 1).is_ok() {
        if let Ok(gens) = evomcts::evolve::population::read_generations(dir) {
            evomcts::evolve::report::logbook_csv(&gens, 1);
            let hall = evomcts::evolve::report::hall_of_fame(&gens, 10);
            evomcts::evolve::report::hall_of_fame_csv(&hall);
            evomcts::evolve::report::lineage(&gens, &hall);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn edited_records_are_refused_or_counted_never_panic(
        which in any::<usize>(),
        by in extreme_number(),
        line in 0usize..6,
    ) {
        let (run, records) = league_run();
        let dir = &case_dir("edited-records", run, &["spec.ron"]);
        let lines: Vec<&str> = records.lines().collect();
        let edited: String = lines
            .iter()
            .enumerate()
            .map(|(i, l)| {
                if i == line % lines.len() {
                    replace_number(l, which, by)
                } else {
                    l.to_string()
                }
            })
            .map(|l| l + "\n")
            .collect();
        read_records_as_commands_do(dir, &edited);
    }

    #[test]
    fn arbitrary_records_never_panic(text in tokens(), bytes in prop::collection::vec(any::<u8>(), 0..400)) {
        let (run, records) = league_run();
        let dir = &case_dir("records", run, &["spec.ron"]);
        read_records_as_commands_do(dir, &format!("{text}\n"));
        let first = records.lines().next().unwrap();
        let cut = first.len().min(bytes.len() * 13 % (first.len() + 1));
        let torn = format!("{}{}\n", &first[..cut], String::from_utf8_lossy(&bytes));
        read_records_as_commands_do(dir, &torn);
    }

    #[test]
    fn edited_generation_files_are_refused_or_read_never_panic(
        which in any::<usize>(),
        by in extreme_number(),
    ) {
        let (run, last) = evolution_run();
        let dir = &case_dir("edited-generations", run, &["gen-000.ron"]);
        read_generation_as_commands_do(dir, &replace_number(last, which, by));
    }

    #[test]
    fn arbitrary_generation_files_never_panic(text in tokens(), cut in any::<usize>()) {
        let (run, last) = evolution_run();
        let dir = &case_dir("generations", run, &["gen-000.ron"]);
        read_generation_as_commands_do(dir, &text);
        let at = cut % (last.len() + 1);
        if last.is_char_boundary(at) {
            read_generation_as_commands_do(dir, &format!("{}{text}", &last[..at]));
        }
    }
}

/// A finished validation of two sequences: its folder and its rows as written.
fn validation_run() -> &'static (PathBuf, String) {
    static RUN: OnceLock<(PathBuf, String)> = OnceLock::new();
    RUN.get_or_init(|| {
        let dir = crate::support::fixture_dir("fuzz", "validation");
        let rows = run_tiny_validation(&dir).expect("a fresh validation");
        (dir, rows)
    })
}

const TINY_VALIDATION: &str = "(name: \"fv\", seed: 3, sequences: 2, \
    candidate: Mcts(sims: 10, selection: Formula(\"Q + 2/n\")), baseline: Mcts(sims: 10))";

/// Runs (or resumes) the tiny validation in `dir`; its rows as written, or the refusal.
fn run_tiny_validation(dir: &Path) -> Result<String, String> {
    use evomcts::runfs::SpecFile;
    use evomcts::validation::{run_validation, ValidateSpec};
    let spec = ValidateSpec::from_ron(TINY_VALIDATION, "fv.ron").unwrap();
    let resume = dir.join("games.csv").exists();
    let summary = run_validation(&spec, &crate::support::validate_opts(dir, resume, 1, None))
        .map_err(|e| e.to_string())?;
    // Whatever is accepted comes from games: a summary of finite numbers.
    for value in [
        summary.win_rate,
        summary.diff_mean,
        summary.diff_low,
        summary.diff_high,
    ] {
        assert!(value.is_finite(), "{summary:?}");
    }
    Ok(std::fs::read_to_string(dir.join("games.csv")).unwrap())
}

/// The work of a bandit step of three tasks, as a driver writes it.
fn bandit_work_json() -> String {
    use evomcts::evolve::spec::{BanditSpec, FitnessSpec};
    use evomcts::evolve::work::{FitnessTask, Work};
    let work = Work::Fitness {
        fitness: Box::new(FitnessSpec::Bandit(BanditSpec {
            arms: 3,
            best: 0.5,
            epsilon: 0.2,
            horizon: 20,
            c_e: 0.5,
        })),
        tasks: (0..3)
            .map(|seed| FitnessTask {
                formula: "Q + 2/n".into(),
                seed,
            })
            .collect(),
    };
    serde_json::to_string(&work).unwrap()
}

/// A step folder of its own holding `work` and `todo`, played by one worker; whatever the
/// worker accepts it plays, and whatever it records the driver's reader accepts or refuses.
fn run_step_files(test: &str, work: &str, todo: &str) {
    use evomcts::evolve::work::{run_worker, Work};
    use evomcts::slurm::steps::{read_results, WorkerSlot};
    let dir = crate::support::scratch("fuzz", test);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("work.json"), work).unwrap();
    std::fs::write(dir.join("todo.json"), todo).unwrap();
    if run_worker(&dir, WorkerSlot { index: 0, count: 1 }, Some(1)).is_ok() {
        let work: Work = serde_json::from_str(work).unwrap();
        for values in read_results(&dir, &work).unwrap().into_iter().flatten() {
            assert!(
                values.iter().all(|v| v.is_finite() && *v <= 0.0),
                "{values:?}"
            );
        }
    }
}

/// A results line of task `task` of the bandit work with `value` as its bits.
fn results_line(task: usize, value: f64) -> String {
    format!(
        "{{\"task\":{task},\"label\":\"Q + 2/n on sample seed {task}\",\"values\":[{}],\"seconds\":0.0}}\n",
        value.to_bits()
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100))]

    #[test]
    fn edited_validation_rows_are_refused_or_summarised_never_panic(
        which in any::<usize>(),
        by in extreme_number(),
        nan in any::<bool>(),
    ) {
        let (run, rows) = validation_run();
        let dir = &case_dir("validation-rows", run, &["spec.ron"]);
        let by = if nan { "NaN" } else { by };
        std::fs::write(dir.join("games.csv"), replace_number(rows, which, by)).unwrap();
        let _ = run_tiny_validation(dir);
    }

    #[test]
    fn arbitrary_validation_rows_never_panic(text in tokens()) {
        let (run, rows) = validation_run();
        let dir = &case_dir("validation-text", run, &["spec.ron"]);
        let header = rows.lines().next().unwrap();
        std::fs::write(dir.join("games.csv"), format!("{header}\n{text}\n")).unwrap();
        let _ = run_tiny_validation(dir);
    }

    #[test]
    fn edited_step_files_are_refused_or_played_never_panic(
        which in any::<usize>(),
        by in extreme_number(),
        todo in prop::sample::select(vec!["[0]", "[0,1,2]", "[2,2]", "[]", "[3]", "[0,0,0,0]", "x"]),
    ) {
        run_step_files("step-files", &replace_number(&bandit_work_json(), which, by), todo);
    }

    #[test]
    fn arbitrary_step_files_never_panic(text in tokens()) {
        run_step_files("step-text", &text, "[0]");
        run_step_files("step-todo", &bandit_work_json(), &text);
    }

    #[test]
    fn step_results_no_task_could_produce_are_refused(
        value in prop::sample::select(vec![
            f64::NAN, f64::INFINITY, f64::NEG_INFINITY, 1e308, -1e308, 0.5, -4.1, 1e-300, -0.0, -4.0,
        ]),
        task in 0usize..3,
    ) {
        use evomcts::evolve::work::Work;
        use evomcts::slurm::steps::read_results;
        let dir = crate::support::scratch("fuzz", "step-results");
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("results-edited.jsonl"), results_line(task, value)).unwrap();
        let work: Work = serde_json::from_str(&bandit_work_json()).unwrap();
        // A bandit sample of this work is minus 0.2 × the inferior pulls, from −4 to 0.
        let possible = (-4.0..=0.0).contains(&value);
        prop_assert_eq!(read_results(&dir, &work).is_ok(), possible, "{}", value);
    }

    #[test]
    fn sweep_placeholders_are_filled_in_as_the_tables_say(text in tokens(), w in 0.0f64..1e6) {
        use evomcts::validation::sweep::SweepSpec;
        use evomcts::runfs::SpecFile;
        // The fuzzed text with `{W}` in places a person might put it.
        let template = text.replace("n", "{W}").replace('"', "");
        let spec = format!(
            "(name: \"sw\", seed: 1, sequences: 2, settings: (sims: 10, selection: \
             Formula({template:?})), c_values: [0.5], w_values: [{w:?}], opponent: Mcts(sims: 10))"
        );
        if let Ok(spec) = SweepSpec::from_ron(&spec, "sw.ron") {
            if template.contains("{W}") {
                // Whatever is accepted plays the formula with W as one operand; after a minus
                // sign, `-{W}` reads as the negative literal, the same number.
                let as_operand = Formula::parse(
                    &template
                        .replace("-{W}", &format!("-{w:?}"))
                        .replace("{W}", &format!("({w:?})")),
                );
                let played = spec.settings_at(&spec.points()[0]).selection;
                let evomcts::search::mcts::Selection::Formula(played) = played else {
                    panic!("a formula sweep plays a formula");
                };
                prop_assert_eq!(Formula::parse(&played).ok(), as_operand.ok());
            }
        }
    }
}
