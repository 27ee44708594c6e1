//! The spec and formula parsers on arbitrary input, and the readers of the files a run writes
//! (records, generation files) on arbitrary and hand-edited ones: an error or a value, never a
//! panic, an abort or a hang.

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
        let dir = crate::support::scratch("fuzz", "league");
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
        let dir = crate::support::scratch("fuzz", "evolve");
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
    let dir = std::env::temp_dir().join(format!("evomcts-fuzz-{}-{test}", std::process::id()));
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
        if let Ok(gens) = evomcts::evolve::report::read_generations(dir) {
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
