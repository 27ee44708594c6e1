//! Arithmetic and sizes (issue 23, D2, D3, D4, D5, D8): every number a flag or spec gives is
//! checked (finite, in range), every product of them that is work has an upper bound the
//! message states, and every file is read with a size cap.

use crate::support::evomcts;
use evomcts::evolve::{run_evolution, EvolveSpec, RunOptions as EvolveOptions};
use evomcts::league::LeagueSpec;
use std::process::Output;

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// `evomcts ARGS` is refused with status 2 and a message holding every one of `words`.
fn refused(args: &[&str], words: &[&str]) {
    let out = evomcts(args);
    let message = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {message}");
    for w in words {
        assert!(message.contains(w), "{args:?}: `{w}` not in {message}");
    }
    assert!(!message.contains("panicked"), "{args:?}: {message}");
}

// D4: a file that never ends is refused at its cap, not read into memory; every read of a
// file goes through the capped reader.
#[test]
fn every_file_is_read_with_a_size_cap() {
    let uncapped: Vec<String> = crate::support::source_lines()
        .into_iter()
        .filter(|(_, code)| {
            ["read_to_string(", "fs::read(", "read_to_end("]
                .iter()
                .any(|r| code.contains(r))
                && !code.contains(".take(")
        })
        // The capped reader itself: `take` is on the line above.
        .filter(|(at, code)| !(at.contains("runfs/read.rs") && code.starts_with(".read_to_end(")))
        .map(|(at, code)| format!("{at}: {code}"))
        .collect();
    assert!(
        uncapped.is_empty(),
        "read through runfs::read_capped:\n{}",
        uncapped.join("\n")
    );
    refused(
        &["formula", "grammar", "/dev/zero"],
        &["/dev/zero", "not a regular file"],
    );
    refused(
        &["formula", "mutate", "Q", "--grammar", "/dev/zero"],
        &["/dev/zero", "not a regular file"],
    );
}

const TINY: &str = r#"(
    name: "tiny",
    games_per_match: 2,
    seed: 5,
    controllers: [
        (name: "A", spec: Random),
        (name: "B", spec: Random),
    ],
)"#;

/// The error of reading `TINY` with `from` replaced by `to`.
fn league_error(from: &str, to: &str) -> String {
    assert!(TINY.contains(from), "{from}");
    LeagueSpec::from_ron(&TINY.replacen(from, to, 1), "tiny.ron")
        .err()
        .unwrap_or_else(|| panic!("{to} was accepted"))
        .to_string()
}

// D8: match points are bounded, so no standing can overflow.
#[test]
fn match_points_are_bounded() {
    for field in ["win_points", "draw_points", "loss_points"] {
        for value in ["4294967295", "2147483648", "1001"] {
            let err = league_error("seed: 5,", &format!("seed: 5, bonus: ({field}: {value}),"));
            assert!(
                err.contains(&format!("bonus.{field}")) && err.contains("at most 1000"),
                "{err}"
            );
        }
    }
    let spec = LeagueSpec::from_ron(
        &TINY.replace("seed: 5,", "seed: 5, bonus: (win_points: 1000),"),
        "tiny.ron",
    )
    .unwrap();
    assert_eq!(spec.bonus.win_points, 1000);
}

const EVOLVE: &str = r#"(
    name: "bandit",
    seed: 7,
    strategy: (mu: 2, lambda: 4, generations: 1, plus: true),
    noise: (samples: 8, elites: 1, elite_samples: 8),
    fitness: Bandit(arms: 5, epsilon: 0.2, horizon: 200, c_e: 0.5),
)"#;

// D2: `validate bandit --c` takes finite weights >= 0 only.
#[test]
fn bandit_weights_must_be_finite_and_not_negative() {
    let dir = crate::support::scratch("rbounds", "bandit");
    let spec = EvolveSpec::from_ron(EVOLVE, "bandit.ron").unwrap();
    run_evolution(
        &spec,
        &EvolveOptions {
            out_dir: dir.clone(),
            resume: false,
            threads: Some(1),
            progress: false,
            stop_after: None,
            srun: None,
        },
    )
    .unwrap();
    let run = dir.to_str().unwrap();
    for c in [
        "--c=NaN,1",
        "--c=inf",
        "--c=1e400",
        "--c=-1",
        "--c=0.5,-inf",
    ] {
        refused(
            &[
                "validate",
                "bandit",
                run,
                c,
                "--runs",
                "2",
                "--sweep-runs",
                "2",
            ],
            &["--c", "finite number >= 0"],
        );
    }
    // D3: the number of runs has an upper bound.
    refused(
        &["validate", "bandit", run, "--runs", "1000000000000"],
        &["--runs", "between 2 and 1000000"],
    );
    let out = evomcts(&[
        "validate",
        "bandit",
        run,
        "--c",
        "0,0.5",
        "--runs",
        "2",
        "--sweep-runs",
        "2",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let _ = std::fs::remove_dir_all(dir);
}

// D3, D5: counts from flags have upper bounds, and so do their products.
#[test]
fn counts_from_flags_and_their_products_are_bounded() {
    let huge = "18446744073709551615";
    refused(
        &["bench", "search", "--positions", huge],
        &["--positions", "between 1 and 10000"],
    );
    refused(
        &["bench", "star", "--positions", huge],
        &["--positions", "between 1 and 10000"],
    );
    refused(
        &["bench", "engine", "--games", huge],
        &["--games", "between 1 and 100000000"],
    );
    refused(
        &[
            "bench",
            "engine",
            "--games",
            "100000000",
            "--repeats",
            "100",
        ],
        &[
            "--games × (--repeats + 1)",
            "10100000000 games",
            "100000000",
        ],
    );
    refused(
        &[
            "bench",
            "search",
            "--positions",
            "10000",
            "--repeats",
            "100",
            "--sims",
            "1000",
        ],
        &["--positions × --repeats × --sims", "100000000"],
    );
    refused(
        &["formula", "mutate", "Q", "--count", "1000000000"],
        &["--count", "between 0 and 1000000"],
    );
    refused(
        &["replicate", "--seeds", "1000000000", "--report-only"],
        &["--seeds", "between 1 and 100"],
    );
}

// D5: a decision's work and an evolution run's work are bounded as products.
#[test]
fn the_work_of_a_decision_and_of_a_run_is_bounded() {
    let err = league_error(
        "(name: \"B\", spec: Random)",
        "(name: \"B\", spec: Mcts(es: (lambda: 10000, generations: 100000, sims_per_fitness: 1000000)))",
    );
    assert!(
        err.contains("controllers[1].spec (B).es")
            && err.contains("playouts")
            && err.contains("at most 10000000 per decision"),
        "{err}"
    );
    let err = league_error(
        "(name: \"B\", spec: Random)",
        "(name: \"B\", spec: Star(depth: 6))",
    );
    assert!(
        err.contains("controllers[1].spec (B).depth") && err.contains("at most 4"),
        "{err}"
    );
    // Each field in range, the run beyond reach.
    let err = EvolveSpec::from_ron(
        &EVOLVE.replace(
            "(mu: 2, lambda: 4, generations: 1,",
            "(mu: 2, lambda: 10000, generations: 100000,",
        ),
        "e.ron",
    )
    .unwrap_err()
    .to_string();
    assert!(
        err.contains("strategy") && err.contains("at most 10000000 per run"),
        "{err}"
    );
    let err = EvolveSpec::from_ron(
        &EVOLVE
            .replace("generations: 1,", "generations: 1000,")
            .replace("horizon: 200", "horizon: 10000000"),
        "e.ron",
    )
    .unwrap_err()
    .to_string();
    assert!(
        err.contains("fitness.horizon") && err.contains("arm pulls"),
        "{err}"
    );
    // An evolution's baseline is a decision too.
    let carcassonne = r#"(
        name: "c",
        seed: 1,
        strategy: (mu: 2, lambda: 4, generations: 1),
        noise: (samples: 2, elites: 1, elite_samples: 2),
        fitness: Carcassonne(baseline: Star(depth: 6)),
    )"#;
    let err = EvolveSpec::from_ron(carcassonne, "c.ron")
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("fitness.baseline.depth") && err.contains("at most 4"),
        "{err}"
    );
}

// E2: `exact` and `check-fingerprints` flags have upper bounds, and so has their product; the
// refusal comes before any allocation or work.
#[test]
fn exact_and_check_fingerprints_flags_and_their_products_are_bounded() {
    let run = std::env::temp_dir().join("evomcts-no-such-run");
    let run = run.to_str().unwrap();
    fn exact<'a>(extra: &[&'a str]) -> Vec<&'a str> {
        let mut args = vec!["exact", "--out", "/nonexistent/evomcts-exact"];
        args.extend_from_slice(extra);
        args
    }
    for (args, words) in [
        (
            exact(&[
                "--target",
                "20",
                "--positions",
                "2",
                "--budgets",
                "10",
                "--seeds",
                "4294967295",
                "--depths",
                "1",
            ]),
            &["--seeds", "10000"][..],
        ),
        (
            exact(&[
                "--positions",
                "10000",
                "--budgets",
                "1000000",
                "--seeds",
                "10000",
            ]),
            &[
                "--positions × --seeds × the sum of --budgets",
                "10000000000",
            ],
        ),
        (exact(&["--positions", "20000"]), &["--positions", "10000"]),
        (exact(&["--depths", "6"]), &["--depths", "4"]),
        (exact(&["--threads", "100000000"]), &["--threads", "1024"]),
        (exact(&["--budgets", "0"]), &["--budgets", "between 1"]),
        (
            exact(&["--compare", run, "--sims", "10000000", "--seeds", "1000"]),
            &["--sims", "simulations"],
        ),
        (
            vec![
                "check-fingerprints",
                run,
                "--pairs",
                "1",
                "--sequences",
                "18446744073709551615",
            ],
            &["--sequences", "10000000"],
        ),
        (
            vec![
                "check-fingerprints",
                run,
                "--pairs",
                "1",
                "--sequences",
                "10000000000",
            ],
            &["--sequences"],
        ),
        (
            vec![
                "check-fingerprints",
                run,
                "--pairs",
                "100",
                "--sequences",
                "100000",
            ],
            &["--pairs × --sequences × 4 games", "40000000"],
        ),
        (
            vec!["check-fingerprints", run, "--pairs", "1000000"],
            &["--pairs", "10000"],
        ),
    ] {
        refused(&args, words);
    }
}
