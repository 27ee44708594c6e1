//! Messages (issue 23, D9, D19, D20, D21): a printed command does only what it says when
//! pasted, a refused command leaves nothing behind, hidden characters in names and paths reach
//! neither the terminal nor a CSV file, and every spec error names its file.

use crate::reliability_paths::{evomcts_in, file, listing, s, scratch, stderr, TINY};
use crate::support::{evomcts, evomcts_ok};
use std::process::Command;

/// Hidden characters that must never be printed or written as they are.
const HIDDEN: [char; 4] = ['\u{1b}', '\u{202e}', '\u{200b}', '\u{7}'];

fn assert_no_hidden(what: &str, text: &str) {
    assert!(
        !text.contains(HIDDEN),
        "{what} holds a hidden character: {text:?}"
    );
}

// D9: `slurm` prints the commands that submit the job array; pasted into bash, each runs that
// command on that file, whatever the spec file is called.
#[test]
fn printed_submit_commands_are_quoted() {
    let dir = scratch("quote");
    let name = "a$(touch X)`touch Y`'q'";
    file(&dir, &format!("{name}.ron"), TINY);
    let out = evomcts_in(&dir, &["slurm", &format!("{name}.ron"), "--tasks", "2"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let stdout = String::from_utf8(out.stdout.clone()).unwrap();
    let slurm = dir.join("runs").join(name).join("slurm");
    let commands: Vec<&str> = stdout
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with("bash ") || l.starts_with("sbatch "))
        .collect();
    assert_eq!(commands.len(), 3, "{stdout}");
    for command in commands {
        // The commands run with `bash` and `sbatch` replaced by printing their last argument,
        // and the placeholder for the array job's id filled in.
        let script = format!(
            "bash() {{ printf '%s\\n' \"${{@: -1}}\"; }}; sbatch() {{ printf '%s\\n' \"${{@: -1}}\"; }}; {}",
            command.replace("<id>", "123")
        );
        let ran = Command::new("bash")
            .arg("-c")
            .arg(&script)
            .current_dir(&dir)
            .output()
            .unwrap();
        let printed = String::from_utf8(ran.stdout).unwrap();
        let file = printed.trim_end();
        assert!(
            file.starts_with(slurm.to_str().unwrap()) && std::path::Path::new(file).is_file(),
            "`{command}` names {file:?}"
        );
        assert!(
            !dir.join("X").exists() && !dir.join("Y").exists(),
            "`{command}` ran a command"
        );
    }
    let _ = std::fs::remove_dir_all(dir);
}

// D19: `slurm` checks every value before it makes a folder: a refused value leaves nothing.
#[test]
fn refused_slurm_values_leave_no_folder() {
    let dir = scratch("slurm-refused");
    let spec = file(&dir, "tiny.ron", TINY);
    let out_dir = dir.join("out");
    for bad in [
        &["--time", "soon"][..],
        &["--mem", "lots"],
        &["--partition", "a b"],
        &["--tasks", "0"],
        &["--cpus-per-task", "0"],
    ] {
        let mut args = vec!["slurm", s(&spec), "--out", s(&out_dir), "--tasks", "1"];
        args.extend_from_slice(bad);
        let out = evomcts(&args);
        assert_eq!(out.status.code(), Some(2), "{bad:?}: {}", stderr(&out));
        assert!(!out_dir.exists(), "{bad:?} left {:?}", out_dir);
    }
    assert_eq!(listing(&dir), ["tiny.ron"]);
    let _ = std::fs::remove_dir_all(dir);
}

// D20: bidirectional and zero-width characters in names, and an ESC or a line break in an
// --out path or in an edited record's names, are escaped on the terminal and in CSV files.
#[test]
fn hidden_characters_are_escaped_on_the_terminal_and_in_csv() {
    let dir = scratch("hidden");
    let spec = file(
        &dir,
        "hidden.ron",
        &TINY
            .replace("\"Random\"", "\"Rand\\u{202e}om\"")
            .replace("\"Random 2\"", "\"Random\\u{200b} 2\""),
    );
    let run = dir.join("run\u{1b}[31m\nx");
    let out = evomcts(&["league", s(&spec), "--out", s(&run), "--quiet"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let stdout = String::from_utf8(out.stdout.clone()).unwrap();
    assert_no_hidden("league's stdout", &stdout);
    assert!(stdout.contains("Rand\\u{202e}om"), "{stdout}");
    let message = stderr(&out);
    assert_no_hidden("league's stderr", &message);
    assert!(message.contains("run\\u{1b}[31m\\nx"), "{message}");
    assert_eq!(
        message.lines().filter(|l| l.starts_with("x")).count(),
        0,
        "a line break in the path reached the terminal: {message}"
    );
    for name in listing(&run).iter().filter(|n| n.ends_with(".csv")) {
        assert_no_hidden(name, &std::fs::read_to_string(run.join(name)).unwrap());
    }
    evomcts_ok(&["plot", "games", s(&run)]);
    for name in listing(&run.join("plots"))
        .iter()
        .filter(|n| n.ends_with(".csv"))
    {
        assert_no_hidden(
            name,
            &std::fs::read_to_string(run.join("plots").join(name)).unwrap(),
        );
    }

    // An error that quotes the path escapes it too.
    let missing = dir.join("no\u{1b}]0;title\u{7}such");
    let out = evomcts(&["table", s(&missing)]);
    assert_eq!(out.status.code(), Some(2));
    assert_no_hidden("table's error", &stderr(&out));

    // Names edited into the records reach `replay --list` escaped.
    let records = run.join("games.jsonl");
    let edited = std::fs::read_to_string(&records)
        .unwrap()
        .replace("Rand\u{202e}om", "Rand\\u001b[2J\u{202e}om\\n");
    assert!(edited.contains("\\u001b[2J"), "the records were not edited");
    std::fs::write(&records, edited).unwrap();
    let out = evomcts(&["replay", s(&run), "--list"]);
    let listed = String::from_utf8(out.stdout.clone()).unwrap();
    assert_no_hidden("replay --list", &listed);
    assert_no_hidden("replay --list's stderr", &stderr(&out));
    // (A reader that refuses names the spec does not know would be fine too; one that lists
    // them shows them escaped.)
    if out.status.success() {
        assert!(listed.contains("Rand\\u{1b}[2J\\u{202e}om\\n"), "{listed}");
    }
    let _ = std::fs::remove_dir_all(dir);
}

// D21: an invalid inline ES grammar is refused when the spec is read, naming the spec file and
// the field, in a league as in an evolution.
#[test]
fn an_invalid_inline_grammar_names_the_spec_file() {
    let dir = scratch("inline-grammar");
    let league = file(
        &dir,
        "es-league.ron",
        r#"(name: "es", games_per_match: 2, seed: 5, controllers: [
            (name: "ES", spec: Mcts(sims: 20, es: (grammar: "(terminals: [Q, Bogus])"))),
            (name: "Random", spec: Random)])"#,
    );
    let out = evomcts(&[
        "league",
        s(&league),
        "--out",
        s(&dir.join("run")),
        "--quiet",
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let message = stderr(&out);
    assert!(
        message.contains("es-league.ron") && message.contains("es.grammar"),
        "{message}"
    );
    assert!(
        !dir.join("run").exists(),
        "the refused league left a folder"
    );
    let evolve = file(
        &dir,
        "es-evolve.ron",
        &crate::reliability_paths::TINY_EVOLVE
            .replace("seed: 7,", "seed: 7, grammar: \"(terminals: [Q, Bogus])\","),
    );
    let out = evomcts(&["evolve", s(&evolve), "--out", s(&dir.join("ev")), "--quiet"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("es-evolve.ron"), "{}", stderr(&out));
    let _ = std::fs::remove_dir_all(dir);
}

// E11: `exact` on a Pig with no position to measure is refused, not a table of 0 positions.
#[test]
fn exact_with_no_position_to_measure_is_refused() {
    let out_dir = crate::support::scratch("rmessages", "exact");
    for target in ["1", "2"] {
        let out = crate::support::evomcts(&[
            "exact",
            "--target",
            target,
            "--positions",
            "100",
            "--budgets",
            "10",
            "--depths",
            "1",
            "--seeds",
            "1",
            "--out",
            out_dir.to_str().unwrap(),
        ]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{target}: {stderr}");
        assert!(stderr.contains("no position"), "{stderr}");
        assert!(!out_dir.join("regret.md").exists());
    }
    let _ = std::fs::remove_dir_all(out_dir);
}

/// A sweep spec whose formula is `formula`, W taking `w_values`.
fn sweep_spec(formula: &str, w_values: &str) -> String {
    format!(
        r#"(name: "sw", seed: 1, sequences: 2,
            settings: (sims: 10, selection: Formula("{formula}")),
            c_values: [0.5], w_values: [{w_values}],
            opponent: Mcts(sims: 10))"#
    )
}

// E12: a `{W}` that is not a whole operand would be filled in as part of another number
// (`{W}{W}` at W = 1 plays 11): refused, naming the field; a grid too large names the long list.
#[test]
fn sweep_placeholders_are_whole_operands() {
    use evomcts::runfs::SpecFile;
    use evomcts::validation::sweep::SweepSpec;
    let refused = |formula: &str, w_values: &str, field: &str, words: &str| {
        let err = SweepSpec::from_ron(&sweep_spec(formula, w_values), "sw.ron")
            .expect_err(formula)
            .to_string();
        assert!(
            err.contains(field) && err.contains(words),
            "{formula}: {err}"
        );
    };
    for formula in [
        "Q + {W}{W}",
        "Q + 2{W}",
        "Q + {W}2",
        "Q * {W}.5",
        "Q + 1e{W}",
    ] {
        refused(
            formula,
            "1.0",
            "settings.selection",
            "stand alone as an operand",
        );
    }
    for formula in ["Q + {W}", "Q + {W}*H/(n + 1)", "Q - {W}/n", "({W})*Q"] {
        let spec = SweepSpec::from_ron(&sweep_spec(formula, "1.0, 2.5"), "sw.ron");
        assert!(spec.is_ok(), "{formula}: {:?}", spec.err());
    }
    let many: Vec<String> = (0..2000).map(|i| format!("{i}.0")).collect();
    refused("Q + {W}", &many.join(", "), "w_values", "points");
}

// E10: a validation folder without `spec.ron` is refused for what it is, not for a spec file
// that does not exist.
#[test]
fn a_validation_folder_without_its_spec_says_so() {
    let dir = scratch("no-spec");
    let vc = file(&dir, "vc.ron", crate::reliability_hangs::VC);
    let v = dir.join("v");
    let validate = |extra: &str| {
        evomcts(&[
            "validate",
            "carcassonne",
            s(&vc),
            "--out",
            s(&v),
            "--quiet",
            extra,
        ])
    };
    assert!(validate("--threads=2").status.success());
    std::fs::remove_file(v.join("spec.ron")).unwrap();
    let out = validate("--resume");
    assert_eq!(out.status.code(), Some(2));
    let message = stderr(&out);
    assert!(
        message.contains("no spec.ron") && !message.contains("different spec"),
        "{message}"
    );
    assert!(!v.join("spec.ron").exists());
    let _ = std::fs::remove_dir_all(dir);
}

// E13: `validate bandit` on an evolution that has not written its last generation says its
// champion is not final, on stderr and in the table.
#[test]
fn bandit_baselines_of_an_unfinished_run_say_the_champion_is_not_final() {
    let dir = scratch("unfinished");
    let spec = file(&dir, "ev.ron", crate::reliability_paths::TINY_EVOLVE);
    let run = dir.join("ev");
    let evolve = |extra: &[&str]| {
        let mut args = vec!["evolve", s(&spec), "--out", s(&run), "--quiet"];
        args.extend_from_slice(extra);
        evomcts_ok(&args)
    };
    let baselines = || evomcts_ok(&crate::reliability_paths::bandit_baselines_args(&run, &[]));
    evolve(&["--stop-after", "1"]);
    let (table, warnings) = baselines();
    assert!(table.starts_with("**Not final:**"), "{table}");
    assert!(
        warnings.contains("generation 1 of 2") && warnings.contains("not final"),
        "{warnings}"
    );
    evolve(&["--resume"]);
    let (table, warnings) = baselines();
    assert!(!table.contains("Not final") && !warnings.contains("not final"));
    let _ = std::fs::remove_dir_all(dir);
}

// E14: messages that say what is wrong once and briefly.
#[test]
fn messages_name_things_once_and_briefly() {
    let dir = scratch("cosmetic");
    let spec = file(&dir, "tiny.ron", TINY);
    let run = dir.join("r");
    evomcts_ok(&["league", s(&spec), "--out", s(&run), "--quiet"]);

    // A folder where a figure goes is named once.
    let out_dir = dir.join("figures");
    std::fs::create_dir_all(out_dir.join("league_matrix.png")).unwrap();
    let out = evomcts(&["plot", "all", s(&run), "--out", s(&out_dir)]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out).matches("league_matrix.png").count(),
        1,
        "{}",
        stderr(&out)
    );

    // A league folder where an evolution run is expected is called what it is.
    for args in [
        vec!["check-fingerprints", s(&run)],
        vec!["exact", "--compare", s(&run), "--out", s(&dir.join("e"))],
        vec!["validate", "bandit", s(&run)],
    ] {
        let out = evomcts(&args);
        assert_eq!(out.status.code(), Some(2));
        assert!(
            stderr(&out).contains("not an evolution run"),
            "{}",
            stderr(&out)
        );
    }

    // A huge --controller is not echoed in full.
    let huge = "x".repeat(100_000);
    let out = evomcts(&[
        "analyse",
        s(&run),
        "--game",
        "0",
        "--turn",
        "1",
        "--controller",
        &huge,
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).len() < 2_000, "{} bytes", stderr(&out).len());

    // Spec files whose names are not UTF-8 get folders of their own.
    use std::os::unix::ffi::OsStrExt;
    let work = dir.join("work");
    std::fs::create_dir_all(&work).unwrap();
    for name in [&b"a\xff.ron"[..], b"b\xfe.ron"] {
        let path = work.join(std::ffi::OsStr::from_bytes(name));
        std::fs::write(&path, TINY).unwrap();
        let out = Command::new(env!("CARGO_BIN_EXE_evomcts"))
            .current_dir(&work)
            .arg("league")
            .arg(&path)
            .arg("--quiet")
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", stderr(&out));
    }
    assert_eq!(listing(&work.join("runs")).len(), 2);
    let _ = std::fs::remove_dir_all(dir);
}

// E14: `analyse --top` bounds the recorded search's table too.
#[test]
fn analyse_shows_the_top_children_of_the_record_too() {
    let dir = scratch("analyse-top");
    let spec = file(
        &dir,
        "sd.ron",
        r#"(name:"sd",games_per_match:2,seed:7,search_detail:RootChildren(20),controllers:[(name:"R",spec:Random),(name:"M",spec:Mcts(sims:30))])"#,
    );
    let run = dir.join("sd");
    evomcts_ok(&["league", s(&spec), "--out", s(&run), "--quiet"]);
    let (text, _) = evomcts_ok(&[
        "analyse",
        s(&run),
        "--game",
        "0",
        "--turn",
        "2",
        "--controller",
        "M",
        "--top",
        "2",
        "--seed",
        "3",
    ]);
    let recorded = text.split("recorded for").nth(1).expect(&text);
    let rows = recorded
        .lines()
        .filter(|l| l.starts_with(char::is_numeric))
        .count();
    assert_eq!(rows, 2, "{text}");
    let _ = std::fs::remove_dir_all(dir);
}

// Issue 43, cause 15: a message describes the situation it reports. A record repeated within
// one games.jsonl is not "recorded in more than one run"; `evolve` given a league's folder
// says it is not an evolution run, not which field of the league's spec an evolution lacks.
#[test]
fn messages_describe_the_situation_they_report() {
    let dir = scratch("situation");
    file(&dir, "tiny.ron", TINY);
    evomcts_ok(&[
        "league",
        s(&dir.join("tiny.ron")),
        "--out",
        s(&dir.join("run")),
        "--quiet",
    ]);
    let records = dir.join("run/games.jsonl");
    let text = std::fs::read_to_string(&records).unwrap();
    let first = text.lines().next().unwrap();
    std::fs::write(&records, format!("{text}{first}\n")).unwrap();
    let (_, err) = evomcts_ok(&["table", s(&dir.join("run"))]);
    assert!(
        err.contains("1 records repeat a game recorded earlier in the same games.jsonl")
            && !err.contains("more than one run"),
        "{err}"
    );
    let evolve = file(&dir, "evolve.ron", crate::reliability_paths::TINY_EVOLVE);
    let run = dir.join("run");
    for resume in [false, true] {
        let mut args = vec!["evolve", s(&evolve), "--out", s(&run), "--quiet"];
        if resume {
            args.push("--resume");
        }
        let out = evomcts(&args);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(
            err.contains("holds a league (it holds games.jsonl), not an evolution run")
                && !err.contains("field"),
            "{err}"
        );
    }
}
