//! `evomcts tune`: a tiny tuning run of Connect Four resumes byte for byte whatever the thread
//! count, writes its outputs (a tuned controller that reads back as a spec's controller), and
//! bad specs are refused naming the field.

use crate::support::{evomcts, files_under as files, scratch};
use evomcts::runfs::SpecFile;
use evomcts::search::ControllerSpec;
use evomcts::tune::{run_tune, TuneOptions, TuneSpec};
use std::path::Path;

const SPEC: &str = r#"(
    name: "c4-tune",
    seed: 5,
    game: ConnectFour,
    controller: (sims: 20, c_e: 0.5, reward: WinLoss, selection: Formula("Q + {W1}*C*sqrt(2*ln(N)/n)")),
    parameters: [
        (name: "C_E", low: 0.05, high: 5.0, log: true),
        (name: "W1", low: 0.0, high: 2.0, start: 1.0),
    ],
    opponent: Mcts(sims: 20, c_e: 0.5, reward: WinLoss),
    budget: 48,
    spsa: (a: 0.1),
    recommend_blocks: 2,
    reestimate_sequences: 4,
)"#;

fn options(dir: &Path, threads: usize, resume: bool, stop: Option<usize>) -> TuneOptions {
    TuneOptions {
        out_dir: dir.to_path_buf(),
        resume,
        threads: Some(threads),
        progress: false,
        stop_after: stop,
        srun: None,
    }
}

#[test]
fn a_tiny_connect_four_tune_resumes_byte_for_byte_whatever_the_threads() {
    let spec = TuneSpec::from_ron(SPEC, "c4-tune.ron").unwrap();
    assert_eq!(
        TuneSpec::from_ron(&spec.to_ron(), "again.ron").unwrap(),
        spec
    );
    assert_eq!(spec.steps(), 12);
    let whole = scratch("tune", "whole");
    let out = run_tune(&spec, &options(&whole, 1, false, None)).unwrap();
    assert_eq!((out.steps_done, out.played_now), (12, 12));
    let result = out.result.expect("a finished run recommends");
    assert_eq!(result.reestimate.summaries.len(), 2);
    assert_eq!(result.reestimate.summaries[0].games, 8);

    let split = scratch("tune", "split");
    let part = run_tune(&spec, &options(&split, 2, false, Some(5))).unwrap();
    assert_eq!((part.steps_done, part.result), (5, None));
    // Without --resume the folder is refused; with it the run continues.
    let refused = run_tune(&spec, &options(&split, 2, false, None)).unwrap_err();
    assert!(refused.to_string().contains("--resume"), "{refused}");
    let rest = run_tune(&spec, &options(&split, 2, true, None)).unwrap();
    assert_eq!((rest.steps_done, rest.played_now), (12, 7));
    assert_eq!(files(&whole), files(&split));

    // tune.csv holds every evaluation: 12 steps × 2 points × 1 sequence, then the header.
    let csv = std::fs::read_to_string(whole.join("tune.csv")).unwrap();
    assert_eq!(csv.lines().count(), 1 + 24);
    assert!(csv.starts_with("step,side,c_e,w1,tile_seed,"), "{csv}");
    // The tuned controller reads back as a controller, with the placeholder filled in.
    let tuned = std::fs::read_to_string(whole.join("tuned.ron")).unwrap();
    let controller: ControllerSpec = evomcts::runfs::ron_options()
        .from_str(&tuned)
        .unwrap_or_else(|e| panic!("{e}: {tuned}"));
    let ControllerSpec::Mcts(settings) = controller else {
        panic!("{tuned}")
    };
    assert_eq!(settings.c_e, result.tuned[0]);
    let summary = std::fs::read_to_string(whole.join("summary.md")).unwrap();
    assert!(summary.contains("Paired score difference"), "{summary}");
    // A finished run resumed again plays nothing and rewrites the same bytes.
    let again = run_tune(&spec, &options(&whole, 1, true, None)).unwrap();
    assert_eq!(again.played_now, 0);
    assert_eq!(files(&whole), files(&split));
    for d in [whole, split] {
        std::fs::remove_dir_all(d).unwrap();
    }
}

#[test]
fn a_row_that_is_not_the_schedules_is_refused_with_its_line() {
    let spec = TuneSpec::from_ron(SPEC, "c4-tune.ron").unwrap();
    let dir = scratch("tune", "edited");
    run_tune(&spec, &options(&dir, 1, false, Some(2))).unwrap();
    let path = dir.join("tune.csv");
    let text = std::fs::read_to_string(&path).unwrap();
    // The third line is step 0's minus point; give it step 1's number.
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    lines[2] = lines[2].replacen("0,minus", "1,minus", 1);
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    let err = run_tune(&spec, &options(&dir, 1, true, None)).unwrap_err();
    assert!(
        err.to_string().contains("tune.csv:3: does not belong"),
        "{err}"
    );
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_budget_of_part_steps_is_refused_naming_the_nearest_whole_ones() {
    let dir = scratch("tune", "part-steps");
    std::fs::create_dir_all(&dir).unwrap();
    for (to, expected) in [
        (
            "budget: 10",
            "must be a multiple of 4 (each step plays 4 games), got 10: use 8 or 12",
        ),
        (
            "budget: 50, seeds_per_step: 2",
            "must be a multiple of 8 (each step plays 8 games), got 50: use 48 or 56",
        ),
    ] {
        let spec = dir.join("bad.ron");
        std::fs::write(&spec, SPEC.replace("budget: 48", to)).unwrap();
        let out_dir = dir.join("out");
        let out = evomcts(&[
            "tune",
            spec.to_str().unwrap(),
            "--out",
            out_dir.to_str().unwrap(),
        ]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{to}: {stderr}");
        assert!(
            stderr.contains("bad.ron: field `budget`") && stderr.contains(expected),
            "{to}: {stderr}"
        );
        assert!(!out_dir.exists(), "{to}");
    }
}

#[test]
fn bad_tune_specs_are_refused_naming_the_field() {
    let cases: [(&str, &str, &str); 12] = [
        ("budget: 48", "budget: 7", "budget"),
        ("spsa: (a: 0.1)", "spsa: (a: -1.0)", "spsa.a"),
        ("spsa: (a: 0.1)", "spsa: (a: 0.1, c: 0.9)", "spsa.c"),
        ("spsa: (a: 0.1)", "spsa: (a: 0.1, alpha: 0.0)", "spsa.alpha"),
        (
            r#"name: "W1", low: 0.0"#,
            r#"name: "W7", low: 0.0"#,
            "parameters[1].name",
        ),
        (
            r#"name: "C_E", low: 0.05"#,
            r#"name: "C_E", low: 0.0"#,
            "parameters[0].low",
        ),
        (
            "high: 2.0, start: 1.0",
            "high: 2.0, start: 3.0",
            "parameters[1].start",
        ),
        ("high: 2.0, start: 1.0", "high: 2.0", "parameters[1].start"),
        (
            "high: 5.0, log: true",
            "high: 0.01, log: true",
            "parameters[0].high",
        ),
        ("{W1}*C", "{W1}{W1}*C", "controller.selection"),
        (
            "recommend_blocks: 2",
            "recommend_blocks: 7",
            "recommend_blocks",
        ),
        (
            "reestimate_sequences: 4",
            "reestimate_sequences: 1",
            "reestimate_sequences",
        ),
    ];
    for (from, to, field) in cases {
        assert!(SPEC.contains(from), "{from}");
        let text = SPEC.replace(from, to);
        let err = TuneSpec::from_ron(&text, "bad.ron")
            .unwrap_err()
            .to_string();
        assert!(
            err.contains(&format!("bad.ron: field `{field}`")),
            "{to}: {err}"
        );
    }
    // A placeholder no parameter names, and an unknown field.
    let text = SPEC.replace("{W1}*C", "{W1}*C + {W2}");
    let err = TuneSpec::from_ron(&text, "bad.ron")
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("field `controller.selection`") && err.contains("{W2}"),
        "{err}"
    );
    let text = SPEC.replace("budget: 48", "budget: 48, budgte: 3");
    let err = TuneSpec::from_ron(&text, "bad.ron")
        .unwrap_err()
        .to_string();
    assert!(err.contains("bad.ron:") && err.contains("budgte"), "{err}");
    // The binary says so with status 2 and writes nothing.
    let dir = scratch("tune", "refused");
    std::fs::create_dir_all(&dir).unwrap();
    let spec = dir.join("bad.ron");
    std::fs::write(&spec, SPEC.replace("budget: 48", "budget: 7")).unwrap();
    let out_dir = dir.join("out");
    let out = evomcts(&[
        "tune",
        spec.to_str().unwrap(),
        "--out",
        out_dir.to_str().unwrap(),
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("bad.ron: field `budget`"), "{stderr}");
    assert!(!out_dir.exists());
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn the_committed_features_spec_spends_what_coordinate_descent_spent_on_sweep_sequences() {
    let spec = TuneSpec::from_file("runs/validate/features/tune-100.ron").unwrap();
    // 1,250 steps of 4 games, then 250 sequences x 2 pairings x 2 seatings: 6,000 games, as
    // the coordinate descent of the script it replaces (6 sweeps x 5 points x 200 games).
    assert_eq!((spec.steps(), spec.games_per_step()), (1250, 4));
    assert_eq!(
        spec.steps() * spec.games_per_step() + 4 * spec.reestimate_sequences,
        6000
    );
    let tuning: std::collections::HashSet<u64> = (0..spec.steps())
        .map(|k| evomcts::tune::step_seed(&spec, k, 0))
        .collect();
    let fresh: std::collections::HashSet<u64> = (0..spec.reestimate_sequences)
        .map(|j| evomcts::tune::reestimate_seed(&spec, j))
        .collect();
    assert_eq!((tuning.len(), fresh.len()), (1250, 250));
    assert!(tuning.is_disjoint(&fresh));
    assert!(tuning
        .iter()
        .chain(&fresh)
        .all(|&s| !evomcts::evolve::namespace::is_validation_seed(s)));
}
