//! Validations under a sequential test (`sequential: Some(..)`): they stop once the test
//! decides, write the same bytes whatever the threads and resumes, refuse bad test fields by
//! name; `validate sequential` reads the same decision from the records; specs without a test
//! keep their text.

use crate::support::{evomcts, evomcts_ok, scratch, validate_opts};
use evomcts::runfs::SpecFile;
use evomcts::validation::sprt::{from_records, TestChoice};
use evomcts::validation::{run_validation, ValidateSpec};

/// Pig to 20: a candidate of 2 simulations against one of 60, at most 100 sequences; the
/// pentanomial test (0 against 30 normalised Elo) says H0 long before the cap.
const SPEC: &str = r#"(
    name: "pig-sequential",
    seed: 4,
    sequences: 100,
    game: Pig(target: 20),
    candidate: Mcts(sims: 2, reward: WinLoss, c_e: 1.0),
    baseline: Mcts(sims: 60, reward: WinLoss, c_e: 1.0),
    sequential: Some((alpha: 0.05, beta: 0.05, hypotheses: Elo(elo0: 0.0, elo1: 30.0))),
)"#;

#[test]
fn a_sequential_validation_stops_once_decided_and_resumes_byte_for_byte() {
    let spec = ValidateSpec::from_ron(SPEC, "v.ron").unwrap();
    let whole = scratch("validate_sequential", "whole");
    let a = run_validation(&spec, &validate_opts(&whole, false, 1, None)).unwrap();
    // Stopped at the end of the chunk (16 sequences) holding the deciding sequence.
    assert!(a.sequences < 100 && a.sequences.is_multiple_of(16), "{a:?}");
    let path = std::fs::read_to_string(whole.join("sequential.csv")).unwrap();
    assert_eq!(
        path.lines().next().unwrap(),
        documented_columns("sequential.csv")
    );
    let last = path.lines().last().unwrap();
    assert!(last.ends_with(",h0"), "{path}");
    let decided: usize = last.split(',').next().unwrap().parse().unwrap();
    assert!(
        decided > a.sequences - 16 && decided <= a.sequences,
        "{path}"
    );
    let summary = std::fs::read_to_string(whole.join("summary.md")).unwrap();
    assert!(
        summary.contains("## Sequential test")
            && summary.contains(&format!("H0 after {} games", 2 * decided)),
        "{summary}"
    );
    // Interrupted off the chunk boundaries, before and after the decision, on 2 threads. Chunks
    // counted from a resume after one sequence (1..17, 17..33, 33..49) would hold the decision
    // (sequence 41) in one that ends past the aligned end, 48 (checked: this test then fails).
    for stops in [vec![1], vec![5, 21], vec![3, decided - 1]] {
        let split = scratch("validate_sequential", &format!("split-{}", stops[0]));
        for (i, stop) in stops.iter().enumerate() {
            run_validation(&spec, &validate_opts(&split, i > 0, 2, Some(*stop))).unwrap();
        }
        let b = run_validation(&spec, &validate_opts(&split, true, 2, None)).unwrap();
        assert_eq!(a, b);
        for f in ["games.csv", "summary.md", "spec.ron", "sequential.csv"] {
            assert_eq!(
                std::fs::read(whole.join(f)).unwrap(),
                std::fs::read(split.join(f)).unwrap(),
                "{f} after stops {stops:?}"
            );
        }
        std::fs::remove_dir_all(split).unwrap();
    }
    // The records give the same decision at the same sequence.
    let from = from_records(&whole, &TestChoice::default()).unwrap();
    assert_eq!(from.outcome.pairs(), decided);
    assert_eq!(from.fixed, a);
    let (out, _) = evomcts_ok(&["validate", "sequential", whole.to_str().unwrap()]);
    assert!(
        out.contains(&format!("| {} (", 2 * decided)) && out.contains("| H0 |"),
        "{out}"
    );
    std::fs::remove_dir_all(whole).unwrap();
}

/// The columns docs/outputs.md lists under "### `NAME`", joined by commas.
fn documented_columns(name: &str) -> String {
    let doc = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/outputs.md"),
    )
    .unwrap();
    let section = doc.split(&format!("### `{name}`\n")).nth(1).unwrap();
    let section = section.split("\n#").next().unwrap();
    section
        .lines()
        .filter_map(|l| l.strip_prefix("| `")?.split_once("` |").map(|(c, _)| c))
        .collect::<Vec<_>>()
        .join(",")
}

#[test]
fn bad_test_fields_are_refused_by_name() {
    for (to, field) in [
        ("alpha: 1.5", "sequential.alpha"),
        ("alpha: 0.0", "sequential.alpha"),
        ("beta: -0.1", "sequential.beta"),
        ("Elo(elo0: 0.0, elo1: -5.0)", "sequential.hypotheses.elo1"),
        ("Elo(elo0: 0.0, elo1: 500.0)", "sequential.hypotheses.elo1"),
        (
            "Score(delta0: 1.0, delta1: 1.0)",
            "sequential.hypotheses.delta1",
        ),
    ] {
        let from = if to.starts_with("alpha") {
            "alpha: 0.05"
        } else if to.starts_with("beta") {
            "beta: 0.05"
        } else {
            "Elo(elo0: 0.0, elo1: 30.0)"
        };
        let err = ValidateSpec::from_ron(&SPEC.replace(from, to), "v.ron")
            .unwrap_err()
            .to_string();
        assert!(err.contains(field), "{to}: {err}");
    }
    // An unknown field is named too.
    let err = ValidateSpec::from_ron(
        &SPEC.replace("beta: 0.05", "beta: 0.05, gamma: 1.0"),
        "v.ron",
    )
    .unwrap_err()
    .to_string();
    assert!(err.contains("gamma"), "{err}");
    // The command's flags, by flag, before any folder is read.
    for (args, flag) in [
        (vec!["--alpha", "2"], "--alpha"),
        (vec!["--elo0", "10", "--elo1", "5"], "--elo1"),
        (vec!["--delta0", "-1", "--delta1", "nan"], "--delta1"),
    ] {
        let mut all = vec!["validate", "sequential"];
        all.extend(args);
        all.push("no-such-folder");
        let out = evomcts(&all);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(err.contains(flag), "{err}");
    }
}

#[test]
fn a_spec_without_a_test_keeps_its_text() {
    // The committed validations' stored specs read and write back unchanged.
    for dir in [
        "runs/validate/champion",
        "runs/validate/pig/evolved-champion",
    ] {
        let file = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join(dir)
            .join("spec.ron");
        let text = std::fs::read_to_string(&file).unwrap();
        let spec = ValidateSpec::from_ron(&text, "spec.ron").unwrap();
        assert!(spec.sequential.is_none());
        assert_eq!(spec.to_ron(), text, "{dir}");
    }
}

/// `validate equivalence` reads committed validations: a mirror match (pig at 20, UCT against
/// UCT) is equivalent with every pair zero; pentago's SPRT-stopped win at 100 gets the
/// anytime-valid p of its 48 pairs, which Holm over the two folders doubles; the TOST's and the
/// anytime test's numbers are the library's on the same pairs; a margin of 0 is refused by name.
#[test]
fn validate_equivalence_reads_the_records_of_committed_validations() {
    use evomcts::anytime::anytime_p_value;
    use evomcts::validation::equivalence::{equivalence_of, EquivalenceChoice};
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let studies = root.join("runs/portfolio/portfolio12/studies");
    let mirror = studies.join("pig/sims-20/validate");
    let pentago = studies.join("pentago/sims-100/validate");
    let choice = EquivalenceChoice {
        margin: 0.05,
        alpha: 0.05,
        points_bound: None,
    };
    let m = equivalence_of(&mirror, &choice).unwrap();
    assert!(m.pairs.iter().all(|&d| d == 0.0) && !m.pairs.is_empty());
    assert_eq!(m.tost.verdict.as_str(), "equivalent");
    let p = equivalence_of(&pentago, &choice).unwrap();
    assert_eq!(p.pairs.len(), 48);
    let anytime = p.anytime_p.unwrap();
    assert_eq!(anytime, anytime_p_value(&p.pairs, 0.5).unwrap());
    assert!(anytime < 0.01 && p.tost.mean > 0.1, "{p:?}");
    let (out, _) = evomcts_ok(&[
        "validate",
        "equivalence",
        mirror.to_str().unwrap(),
        pentago.to_str().unwrap(),
        "--margin",
        "0.05",
    ]);
    let pentago_line = out.lines().find(|l| l.contains("pentago")).unwrap();
    assert!(pentago_line.contains("| different |"), "{out}");
    let holm = evomcts::validation::p_text((2.0 * anytime).min(1.0));
    assert!(pentago_line.ends_with(&format!("| {holm} |")), "{out}");
    let refused = evomcts(&[
        "validate",
        "equivalence",
        mirror.to_str().unwrap(),
        "--margin",
        "0",
    ]);
    assert_eq!(refused.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("margin"));
}
